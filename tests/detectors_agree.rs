//! The repetition detectors of `engine::chess::repetition` against the rules core.
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
//!
//! Inside the search (the repetition suite's games, searched with each detector), a probe
//! on the search ([`threefold::engine::probe`]) follows the search line in the rules core's
//! `Game` and checks every answer against its count: Zarkov and Rookie are exact, Belle sees
//! no repetition that is not on the line.

mod shuffle_starts;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use shakmaty::{Chess, Move, Position};
use shuffle_starts::{STARTS, start};
use threefold::engine::chess::repetition::{
    Axon, Belle, Detector, Method, Rookie, Step, Upcoming, Zarkov, cuckoo,
};
use threefold::engine::probe::{Answer, Probe};
use threefold::engine::search::keys::{KeyHistory, Repetition};
use threefold::engine::tt::{OpenSlot, Tt};
use threefold::engine::{Engine, Limits, Request};
use threefold::lab::suite::entries;
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

/// The rules core's count of the search line, independent of the engine's list of keys: the
/// game in a `rules::Game`, every move the search makes played on it and taken back as the
/// search does. A null move starts a new `Game` from the position after it: no repetition
/// spans a null move in the engine (its scan stops there), and the rules core has none.
/// At every node that asks the engine's detector for a repetition, the detector's answer is
/// checked against what the rules core's count says.
struct RulesCount {
    /// The game and the search line, cut at each null move.
    lines: Vec<Game>,
    /// Whether each position entered by the search came by a null move.
    by_null: Vec<bool>,
    /// The first wrong answer, with the line that led to it.
    wrong: Option<String>,
    c: SearchCounts,
}

#[derive(Default, Debug, Clone, Copy)]
struct SearchCounts {
    /// Nodes that asked the detector.
    asked: u64,
    /// Positions the rules core counts an earlier occurrence of in their stretch.
    repeated: u64,
    /// Nodes the search scores a draw by Zarkov's rule (the rules core's count).
    draws: u64,
    rookie_hits: u64,
    rookie_false_hits: u64,
    belle_found: u64,
}

impl RulesCount {
    fn new(start: &Chess, moves: &[Move]) -> RulesCount {
        let mut game = Game::from_position(start.clone());
        for &m in moves {
            game.play_past_end(m).unwrap();
        }
        RulesCount {
            lines: vec![game],
            by_null: Vec::new(),
            wrong: None,
            c: SearchCounts::default(),
        }
    }

    /// The search's ply: positions entered since the root.
    fn ply(&self) -> usize {
        self.by_null.len()
    }

    /// Whether the last position's key stands earlier anywhere on the game and the line,
    /// null moves and irreversible moves notwithstanding (what Belle's open marks hold).
    fn on_line_before(&self) -> bool {
        let key = self.lines.last().unwrap().current().key;
        let mut records = self.lines.iter().flat_map(|g| g.records()).rev();
        records.next();
        records.any(|r| r.key == key)
    }

    fn wrong(&mut self, what: String) {
        if self.wrong.is_none() {
            let line: Vec<String> = self.lines.iter().map(|g| g.uci_moves().join(" ")).collect();
            self.wrong = Some(format!("{what} at ply {}, line {line:?}", self.ply()));
        }
    }
}

impl Probe<Chess> for RulesCount {
    const ACTIVE: bool = true;

    fn enter(&mut self, child: &Chess, by: Option<&Move>) {
        match by {
            Some(&m) => {
                let game = self.lines.last_mut().unwrap();
                game.play_past_end(m).unwrap();
                assert_eq!(game.position(), child, "the probe follows the search");
            }
            None => self.lines.push(Game::from_position(child.clone())),
        }
        self.by_null.push(by.is_none());
    }

    fn leave(&mut self) {
        if self.by_null.pop().unwrap() {
            self.lines.pop();
        } else {
            self.lines.last_mut().unwrap().undo().unwrap();
        }
    }

    fn repetition(&mut self, _: &KeyHistory, answer: Answer) {
        let game = self.lines.last().unwrap();
        // The rules core's earlier occurrences in the stretch, and Zarkov's rule on them: a
        // third occurrence is a draw, a second one too more than two plies beyond the root.
        let earlier = game.occurrences(game.len()) - 1;
        let ply = self.ply();
        let draw = earlier >= 2 || (earlier == 1 && ply > 2);
        let verdict = answer.verdict() == Repetition::Draw;
        self.c.asked += 1;
        self.c.repeated += u64::from(earlier > 0);
        self.c.draws += u64::from(draw);
        match answer {
            Answer::Zarkov(_) => {
                if verdict != draw {
                    self.wrong(format!("Zarkov: draw {verdict}, {earlier} earlier"));
                }
            }
            Answer::Rookie(hit) => {
                if verdict != draw {
                    self.wrong(format!("Rookie: draw {verdict}, {earlier} earlier"));
                }
                match hit {
                    None if earlier > 0 => {
                        self.wrong(format!("Rookie: no hit, {earlier} earlier"));
                    }
                    None => {}
                    Some((n, _)) => {
                        if n != earlier.min(2) {
                            self.wrong(format!("Rookie: back-trace {n}, {earlier} earlier"));
                        }
                        self.c.rookie_hits += 1;
                        self.c.rookie_false_hits += u64::from(earlier == 0);
                    }
                }
            }
            Answer::Belle(found) => {
                if found && !self.on_line_before() {
                    self.wrong("Belle: a repetition that is not on the line".to_string());
                }
                self.c.belle_found += u64::from(found);
            }
            Answer::Axon(_) => {}
        }
    }
}

/// Searches every position of the repetition suite (games with history) with `method`,
/// watched by the rules core's count; panics at the first wrong answer.
fn audit_in_the_search(method: Method) -> SearchCounts {
    let mut total = SearchCounts::default();
    let mut engine = Engine::new(1).unwrap();
    engine.set_repetition(method);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    for e in entries() {
        engine.new_game();
        let mut probe = RulesCount::new(&e.start, &e.moves);
        engine.search(
            &Request::new(&e.start, &e.moves, &limits, &stop),
            &mut probe,
            &mut |_| {},
        );
        assert_eq!(probe.ply(), 0, "{}: the probe is back at the root", e.id);
        if let Some(w) = probe.wrong {
            panic!("{method} in the search of {}: {w}", e.id);
        }
        let c = probe.c;
        total.asked += c.asked;
        total.repeated += c.repeated;
        total.draws += c.draws;
        total.rookie_hits += c.rookie_hits;
        total.rookie_false_hits += c.rookie_false_hits;
        total.belle_found += c.belle_found;
    }
    eprintln!("{method}: {total:?}");
    total
}

/// The detectors inside the search, audited at every node against the rules core's count of
/// the game and the search line (not against the engine's own list of keys): Zarkov and
/// Rookie score exactly the rules core's repetitions by Zarkov's rule, Rookie hits every
/// repetition and its back-trace counts what the rules core counts, and its counters also
/// give false hits the back-trace rejects.
#[test]
fn in_the_search_zarkov_and_rookie_are_exact() {
    for method in [Method::Zarkov, Method::Rookie] {
        let c = audit_in_the_search(method);
        assert!(
            c.asked > 100_000 && c.repeated > 500 && c.draws > 500,
            "{c:?}"
        );
        if method == Method::Rookie {
            assert!(
                c.rookie_hits >= c.repeated && c.rookie_false_hits > 0,
                "{c:?}"
            );
        }
    }
}

/// Belle inside the search, audited the same way: every repetition it reports stands earlier
/// on the game or the search line.
#[test]
fn in_the_search_belle_sees_no_repetition_that_is_not_there() {
    let c = audit_in_the_search(Method::Belle);
    assert!(c.asked > 100_000 && c.belle_found > 1_000, "{c:?}");
}
