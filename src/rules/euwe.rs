//! Euwe's sequence and the former German repetition rule, after the section
//! "Former Rule" of the chessprogramming wiki's page "Repetitions"
//! (<https://www.chessprogramming.org/Repetitions>) and Max Euwe's paper
//! "Mengentheoretische Betrachtungen über das Schachspiel" (Proceedings of the
//! Koninklijke Akademie van Wetenschappen, Amsterdam, 1929).
//!
//! The former German rule drew a game when "a sequence of moves — with all
//! pieces in exactly the same positions — is played three times
//! successively". Max Euwe showed in 1929 that this does not make chess
//! finite: take the Prouhet–Thue–Morse sequence `t(k)` (the parity of the
//! number of one-bits of `k`: 0 1 1 0 1 0 0 1 …), which contains no cube
//! `XXX`, and play for each `k` the knight block `t(k)`:
//!
//! ```text
//! block 0:  Nb1-c3  Nb8-c6  Nc3-b1  Nc6-b8
//! block 1:  Ng1-f3  Ng8-f6  Nf3-g1  Nf6-g8
//! ```
//!
//! Each block returns to the start position, and since the two blocks move
//! different knights, a cube of moves would give a cube of blocks, which the
//! Thue–Morse sequence never contains. The game can go on forever under the
//! old rule. Under FIDE's, the start position stands at plies 0, 4, 8, 12,
//! 16: Black may claim with the last move of the second block (9.2 a, ply 7),
//! the claim stands after it (9.2 b, ply 8), and the fifth appearance at ply
//! 16 ends the game without a claim (9.6.1).

use shakmaty::{CastlingMode, Move, Position, uci::UciMove};

use super::game::Game;

/// Euwe's two knight blocks, in UCI.
pub const BLOCKS: [[&str; 4]; 2] = [
    ["b1c3", "b8c6", "c3b1", "c6b8"],
    ["g1f3", "g8f6", "f3g1", "f6g8"],
];

/// The Thue–Morse bit `t(k)`: the parity of the number of one-bits of `k`.
pub fn thue_morse(k: u64) -> u8 {
    (k.count_ones() & 1) as u8
}

/// Where the move of ply `ply` (1-based: ply 1 is the first move) stands in
/// Euwe's sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EuweIndex {
    /// The Thue–Morse index `k` (the block number).
    pub block: u64,
    /// The bit `t(k)`: which knight block is played.
    pub bit: u8,
    /// The move's place in its block (0..4).
    pub step: usize,
}

impl EuweIndex {
    /// The index of ply `ply` (1-based).
    pub fn of_ply(ply: usize) -> EuweIndex {
        assert!(ply >= 1, "ply 0 is the start position, not a move");
        let i = (ply - 1) as u64;
        let block = i / 4;
        EuweIndex {
            block,
            bit: thue_morse(block),
            step: (i % 4) as usize,
        }
    }

    /// The move in UCI.
    pub fn uci(self) -> &'static str {
        BLOCKS[self.bit as usize][self.step]
    }
}

/// The move of ply `ply` (1-based) of Euwe's sequence, from the standard start.
pub fn euwe_move(ply: usize) -> Move {
    let uci: UciMove = EuweIndex::of_ply(ply)
        .uci()
        .parse()
        .expect("the blocks are valid UCI");
    // Every move of the blocks is legal whenever it is played: each block
    // starts and ends in the standard start position.
    let pos = if EuweIndex::of_ply(ply).step == 0 {
        shakmaty::Chess::default()
    } else {
        let mut pos = shakmaty::Chess::default();
        let first = ply - EuweIndex::of_ply(ply).step;
        for p in first..ply {
            let m = EuweIndex::of_ply(p)
                .uci()
                .parse::<UciMove>()
                .expect("valid");
            let m = m.to_move(&pos).expect("legal in the block");
            pos.play_unchecked(m);
        }
        pos
    };
    uci.to_move(&pos).expect("legal in the block")
}

/// The first `plies` plies of Euwe's sequence as a game. The game is played
/// past the fivefold repetition that ends it under FIDE 9.6.1, so that the
/// former rule can be watched too; [`Game::termination`] records the first
/// automatic ending.
pub fn euwe_game(plies: usize) -> Game {
    let mut game = Game::new();
    for ply in 1..=plies {
        let m = EuweIndex::of_ply(ply)
            .uci()
            .parse::<UciMove>()
            .expect("valid")
            .to_move(game.position())
            .expect("legal: each block starts from the start position");
        game.play_past_end(m).expect("legal");
    }
    game
}

/// A cube: the same sequence of `len` moves, from the same position, played
/// three times in succession, the first time from ply `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The ply whose position the first of the three sequences starts from.
    pub start: usize,
    /// The number of moves in the sequence.
    pub len: usize,
}

impl Cube {
    /// The moves of the sequence in UCI.
    pub fn moves(&self, game: &Game) -> Vec<String> {
        (self.start + 1..=self.start + self.len)
            .map(|p| {
                game.record(p)
                    .mv
                    .expect("ply >= 1 has a move")
                    .to_uci(CastlingMode::Standard)
                    .to_string()
            })
            .collect()
    }
}

/// The former German rule after ply `ply` of `game`: the shortest cube the
/// move list ends with at that ply, if any.
///
/// The same moves from the same position lead to the same position, so the
/// length `L` of a cube ending at `ply` is the distance to an earlier ply with
/// the same position: the candidates are exactly the chain of earlier
/// occurrences (within the reversible stretch, since a sequence containing an
/// irreversible move cannot start twice from the same position). For each, the
/// positions `2L` and `3L` back are compared by key before the moves are.
pub fn german_rule_at(game: &Game, ply: usize) -> Option<Cube> {
    let key = game.record(ply).key;
    let mv = |p: usize| game.record(p).mv;
    let mut prev = game.record(ply).previous;
    while let Some(q) = prev {
        let len = ply - q;
        if 3 * len > ply {
            break;
        }
        let (a, b) = (ply - 3 * len, ply - 2 * len);
        if game.record(a).key == key
            && game.record(b).key == key
            && (1..=len).all(|i| mv(a + i) == mv(b + i) && mv(b + i) == mv(q + i))
        {
            return Some(Cube { start: a, len });
        }
        prev = game.record(q).previous;
    }
    None
}
