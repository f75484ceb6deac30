//! Shuffling games: random legal games that strongly prefer reversible moves and moves that
//! undo the mover's last one, so repetitions and claims are frequent. Deterministic for a
//! given seed. `threefold bench rules` replays them; the tests replay them through the
//! rules core and the engine's key history, which must agree at every ply.

use shakmaty::{Chess, Move, Position};

use super::game::Game;

/// A small deterministic random number generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (0 is replaced: xorshift never leaves 0).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// A generator seeded from the system clock (nanoseconds), for choices that should
    /// differ between runs (the engine's opening book).
    pub fn from_clock() -> Rng {
        Rng::new(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
        )
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A shuffling game from `start` of at most `max_plies` plies, stopping early when the game
/// ends: about a third of the moves undo the mover's last move, most others are reversible,
/// and one in twelve is any legal move (captures, pawn moves, castling, king and rook moves
/// that lose castling rights).
pub fn shuffling_game(start: &Chess, rng: &mut Rng, max_plies: usize) -> Vec<Move> {
    let mut game = Game::from_position(start.clone());
    let mut moves: Vec<Move> = Vec::new();
    while !game.is_over() && moves.len() < max_plies {
        let pos = game.position();
        let legal = game.legal_moves();
        let undo = moves.len().checked_sub(2).map(|k| moves[k]);
        let back: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                undo.is_some_and(|u| {
                    u.from() == Some(m.to()) && u.to() == m.from().unwrap_or(u.to())
                })
            })
            .collect();
        let reversible: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| !pos.is_irreversible(m))
            .collect();
        let roll = rng.below(100);
        let m = if roll < 35 && !back.is_empty() {
            back[rng.below(back.len())]
        } else if roll < 92 && !reversible.is_empty() {
            reversible[rng.below(reversible.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        game.play(m)
            .expect("a legal move of a game that is not over");
        moves.push(m);
    }
    moves
}
