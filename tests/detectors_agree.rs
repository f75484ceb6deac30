//! The repetition detectors of `engine::repetition` against the rules core.
//!
//! Shuffling games (kings, rooks and knights going back and forth, castling rights kept and
//! lost, legal and pinned en passant; `rules::shuffle`) are replayed through every detector,
//! forward, then back (every position popped), then forward again (the pops must restore
//! each detector exactly). At every ply:
//! - Zarkov counts the rules core's earlier occurrences, Rookie verifies the same count;
//! - Belle never sees a repetition that is not there, and misses one exactly when the first
//!   occurrence of the position could not be marked (its slot held by another open position);
//!   with a table of 64 slots such losses are frequent, with the engine's 16 MB table rare;
//! - the cuckoo answer agrees with trying every legal move (`moves_back_into_stretch`);
//! - Axon is wrong exactly where the written-down argument says: when its chains close over
//!   an odd number of plies (the board is the same but the other side is to move:
//!   triangulation) and when pieces of one kind traded squares (the chains that stay open
//!   form a permutation of squares holding the same kind of piece).

mod shuffle_starts;

use std::collections::HashMap;

use shakmaty::{Chess, Move, Position};
use shuffle_starts::{STARTS, start};
use threefold::engine::repetition::{
    Axon, Belle, Detector, Method, Rookie, Step, Upcoming, Zarkov, cuckoo,
};
use threefold::engine::tt::{IndexMapping, OpenSlot, Tt};
use threefold::lab::bench::{Setup, run_setup};
use threefold::rules::Game;
use threefold::rules::analysis::moves_back_into_stretch;
use threefold::rules::shuffle::{Rng, shuffling_game};

struct All {
    zarkov: Zarkov,
    belle: Belle,
    rookie: Rookie,
    axon: Axon,
    upcoming: Upcoming,
}

impl All {
    fn new(belle_slots: usize) -> All {
        All {
            zarkov: Zarkov::default(),
            belle: Belle::with_entries(belle_slots),
            rookie: Rookie::default(),
            axon: Axon::default(),
            upcoming: Upcoming::default(),
        }
    }
    fn push(&mut self, s: Step) {
        self.zarkov.push(s);
        self.belle.push(s);
        self.rookie.push(s);
        self.axon.push(s);
        self.upcoming.push(s);
    }
    fn pop(&mut self) {
        self.zarkov.pop();
        self.belle.pop();
        self.rookie.pop();
        self.axon.pop();
        self.upcoming.pop();
    }
}

fn step(game: &Game, ply: usize) -> Step {
    let r = game.record(ply);
    match r.mv {
        None => Step::start(r.key),
        Some(m) => Step::by_move(game.position_at(ply - 1), &m, r.key),
    }
}

#[derive(Default, Debug)]
struct Counts {
    plies: usize,
    repeated: usize,
    rookie_hits: usize,
    rookie_false_hits: usize,
    belle_losses: usize,
    belle_misses: usize,
    axon_triangulations: usize,
    axon_exchanges: usize,
    cuckoo_moves: usize,
}

/// Checks every detector's answer for ply `ply` of `game`; `first_slot` remembers what Belle's
/// table said at each position's first occurrence.
fn check(
    all: &All,
    game: &Game,
    ply: usize,
    first_slot: &mut HashMap<u64, OpenSlot>,
    c: &mut Counts,
) {
    let what = || format!("ply {ply} of {:?}", game.uci_moves());
    let pos: &Chess = game.position_at(ply);
    let record = game.record(ply);
    let occ = game.occurrences(ply);
    let repeated = occ >= 2;
    c.plies += 1;
    c.repeated += usize::from(repeated);

    assert_eq!(all.zarkov.answer(pos) + 1, occ, "Zarkov, {}", what());

    let rookie = all.rookie.answer(pos);
    assert_eq!(rookie.verified, (occ - 1).min(2), "Rookie, {}", what());
    assert!(
        rookie.hit || !repeated,
        "Rookie: a repetition without a hit, {}",
        what()
    );
    c.rookie_hits += usize::from(rookie.hit);
    c.rookie_false_hits += usize::from(rookie.hit && !repeated);

    let belle = all.belle.answer(pos);
    let first = *first_slot
        .entry(record.key)
        .or_insert(belle.slot.expect("a slot for every position"));
    c.belle_losses += usize::from(belle.slot == Some(OpenSlot::Shared));
    assert!(
        !belle.found || repeated,
        "Belle: false repetition, {}",
        what()
    );
    assert_eq!(
        repeated && !belle.found,
        repeated && first == OpenSlot::Shared,
        "Belle misses exactly the positions whose first occurrence was not marked, {}",
        what()
    );
    c.belle_misses += usize::from(repeated && !belle.found);

    let moves: Vec<Move> = moves_back_into_stretch(game_at(game, ply).as_ref().unwrap_or(game));
    let cycle = all.upcoming.answer(pos);
    assert_eq!(cycle.is_some(), !moves.is_empty(), "cuckoo, {}", what());
    if let Some(cuckoo::Cycle { from, to, .. }) = cycle {
        assert!(
            moves.iter().any(|m| m.from() == Some(from) && m.to() == to),
            "cuckoo's move {from}{to} is not one of {moves:?}, {}",
            what()
        );
        c.cuckoo_moves += 1;
    }

    let axon = all.axon.answer(pos);
    match axon.closed_after {
        Some(k) => {
            // Every piece that moved is back: the board k plies back is this one.
            assert_eq!(
                game.position_at(ply - k).board(),
                pos.board(),
                "Axon closed over {k} plies on another board, {}",
                what()
            );
            if k % 2 == 0 {
                assert!(repeated, "Axon: an even cycle is a repetition, {}", what());
            } else if !repeated {
                c.axon_triangulations += 1;
            }
        }
        None if repeated => {
            let earlier = record.previous.expect("an earlier occurrence");
            let open = all.axon.0.open_chains(ply - earlier);
            assert!(!open.is_empty(), "Axon: no open chain, {}", what());
            let mut froms: Vec<_> = open.iter().map(|c| c.0).collect();
            let mut tos: Vec<_> = open.iter().map(|c| c.1).collect();
            froms.sort();
            tos.sort();
            assert_eq!(
                froms,
                tos,
                "Axon: open chains not a permutation, {}",
                what()
            );
            for &(from, to) in &open {
                assert_eq!(
                    pos.board().piece_at(from),
                    pos.board().piece_at(to),
                    "Axon: pieces of different kinds traded {from} and {to}, {}",
                    what()
                );
            }
            c.axon_exchanges += 1;
        }
        None => {}
    }
}

/// The game cut at `ply` (when it is not the whole game).
fn game_at(game: &Game, ply: usize) -> Option<Game> {
    (ply < game.len()).then(|| {
        let mut g = Game::from_position(game.start().clone());
        for m in game.moves().take(ply) {
            g.play(m).unwrap();
        }
        g
    })
}

fn replay_shuffling_games(belle_slots: usize, rounds: usize) -> Counts {
    let mut rng = Rng::new(0xDE7E_C7025);
    let mut c = Counts::default();
    let mut all = All::new(belle_slots);
    for round in 0..rounds {
        for fen in STARTS {
            let start = start(fen);
            let moves = shuffling_game(&start, &mut rng, 60 + 10 * (round % 5));
            let mut game = Game::from_position(start.clone());
            for &m in &moves {
                game.play(m).unwrap();
            }
            for pass in 0..2 {
                let mut first_slot = HashMap::new();
                for ply in 0..=game.len() {
                    all.push(step(&game, ply));
                    check(&all, &game, ply, &mut first_slot, &mut c);
                }
                // Back to nothing: every detector must be as it was before the game.
                for _ in 0..=game.len() {
                    all.pop();
                }
                if pass == 1 {
                    assert_eq!(
                        all.belle.tt.hashfull(),
                        0,
                        "Belle: placeholders left in the table"
                    );
                }
            }
        }
    }
    c
}

#[test]
fn detectors_agree_with_the_rules_core_on_shuffling_games() {
    let c = replay_shuffling_games(Tt::slots_for_mb(16), 12);
    eprintln!("{c:?}");
    assert!(c.plies > 10_000, "{c:?}");
    assert!(c.repeated > c.plies / 10, "{c:?}");
    assert!(c.cuckoo_moves > 1_000, "{c:?}");
    assert!(c.axon_triangulations > 0, "{c:?}");
    assert!(c.rookie_hits >= c.repeated, "{c:?}");
}

#[test]
fn belle_with_a_tiny_table_misses_only_by_shared_slots() {
    let c = replay_shuffling_games(64, 3);
    eprintln!("{c:?}");
    assert!(c.belle_losses > 100 && c.belle_misses > 10, "{c:?}");
}

fn play(fen: &str, moves: &str) -> Game {
    let mut g = Game::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        g.play_uci(m).unwrap();
    }
    g
}

fn axon_at_end(game: &Game) -> Option<usize> {
    let mut axon = Axon::default();
    for ply in 0..=game.len() {
        axon.push(step(game, ply));
    }
    axon.answer(game.position()).closed_after
}

#[test]
fn axon_calls_triangulation_a_repetition() {
    // The white king goes round a1-a2-b1 in three moves, the black king back and forth in
    // two: every chain is closed after five plies, but Black is to move now, White then.
    let g = play(
        "7k/8/8/3r4/3R4/8/8/K7 w - - 0 1",
        "a1a2 h8g8 a2b1 g8h8 b1a1",
    );
    assert_eq!(g.occurrences(5), 1);
    assert_eq!(axon_at_end(&g), Some(5));
    assert_eq!(g.position_at(0).board(), g.position().board());
}

#[test]
fn axon_misses_two_rooks_exchanging_squares() {
    let g = play(
        "7k/8/8/8/8/8/8/RR2K3 w - - 0 1",
        "a1a2 h8g8 b1a1 g8h8 a2b2 h8g8 b2b1 g8h8",
    );
    assert_eq!(g.occurrences(8), 2, "the start position again");
    assert_eq!(axon_at_end(&g), None);
    let mut axon = Axon::default();
    for ply in 0..=g.len() {
        axon.push(step(&g, ply));
    }
    let mut open = axon.0.open_chains(8);
    open.sort();
    use shakmaty::Square::{A1, B1};
    assert_eq!(open, vec![(A1, B1), (B1, A1)]);
}

/// The detectors inside the search, audited against the exact key scan at every node:
/// Zarkov and Rookie are never wrong, and Rookie's counters give false hits its back-trace
/// rejects.
#[test]
fn in_the_search_zarkov_and_rookie_are_exact() {
    for method in [Method::Zarkov, Method::Rookie] {
        let setup = Setup {
            repetition: method,
            upcoming: false,
            audit: true,
            ..Setup::default()
        };
        let mut out = Vec::new();
        run_setup(7, 1, IndexMapping::Multiply, setup, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let line = text
            .lines()
            .find(|l| l.starts_with("repetition "))
            .unwrap_or_else(|| panic!("{text}"));
        assert!(
            line.contains(" 0 false repetitions, 0 missed"),
            "{method}: {line}"
        );
        if method == Method::Rookie {
            assert!(!line.contains("rookie hits 0 "), "{line}");
        }
    }
}
