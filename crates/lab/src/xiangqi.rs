//! Benchmarks for `threefold xiangqi bench`: perft speed, the judge's cost per
//! position along long shuffling games, and the engine's search over a fixed set
//! of positions with game histories, with the judge on and off.
//!
//! # The search bench
//!
//! [`search_bench`] searches every position of `assets/xiangqi_bench.txt`
//! ([`search_positions`]: one UCI `position` argument a line, the game's moves
//! included, so repetitions before the root are seen) to a fixed depth, each with
//! a fresh table and history ([`Engine::new_game`]), single thread, as the chess
//! `threefold bench` ([`crate::bench`]) does. The node count is deterministic for a
//! given build and depth; it is counted with the WXF judge on and off (UCI `Judge`),
//! and the difference in nodes per second between the two is the judge's cost per
//! node in time. [`fsf_position`] writes a position as Fairy-Stockfish reads it
//! (ranks 1-10), so the command line can time it on the same positions.
//!
//! The games are generated here, deterministically: from several start
//! positions, moves that undo the opponent's last move or the mover's own
//! last move are strongly preferred, so positions repeat often and the judge
//! has rulings to make; captures and pawn advances are avoided but not
//! forbidden, so repetitions start and stop.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use threefold_engine::{Engine, Limits, Request, TtAllocError, nps};
use threefold_rules::shuffle::Rng;
use threefold_xiangqi::board::{FenError, Move, Position, Square};
use threefold_xiangqi::judge::{ChaseMode, Outcome, Record, RuleAt};
use threefold_xiangqi::movegen::PerftError;
use threefold_xiangqi::notation::{MoveError, parse_ucci};

/// Start positions of the shuffling games: the opening and positions with
/// rooks, cannons and horses in contact.
pub const STARTS: &[&str] = &[
    threefold_xiangqi::board::START_FEN,
    "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
    "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
    "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1",
    "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
];

/// Games of `plies_per_game` moves until `total` plies, from [`STARTS`].
pub fn shuffling_games(
    total: usize,
    plies_per_game: usize,
    seed: u64,
) -> Vec<(Position, Vec<Move>)> {
    let mut rng = Rng::new(seed | 1);
    let mut games = Vec::new();
    let mut made = 0;
    let mut g = 0;
    while made < total {
        let start = Position::from_fen(STARTS[g % STARTS.len()]).expect("bench FEN");
        g += 1;
        let mut pos = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < plies_per_game && made < total {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let n = moves.len();
            // Undo the mover's own last move (two plies back), or repeat
            // the move four plies back: both close a cycle.
            let back = |k: usize| (n >= k).then(|| moves[n - k]);
            let undo_own = back(2).map(|m| Move::new(m.to(), m.from()));
            let cycle = back(4);
            let pick = |m: Option<Move>| m.filter(|m| legal.contains(*m));
            let roll = rng.below(100);
            let chosen = if roll < 40 {
                pick(cycle).or(pick(undo_own))
            } else if roll < 65 {
                pick(undo_own)
            } else {
                None
            };
            let m = chosen.unwrap_or_else(|| {
                // A random move, preferring quiet reversible ones.
                let quiet: Vec<Move> = legal
                    .as_slice()
                    .iter()
                    .copied()
                    .filter(|&m| !pos.is_capture(m) && !pos.is_pawn_advance(m))
                    .collect();
                if !quiet.is_empty() && rng.below(10) != 0 {
                    quiet[rng.below(quiet.len())]
                } else {
                    legal.as_slice()[rng.below(legal.len())]
                }
            });
            pos.make(m);
            moves.push(m);
            made += 1;
        }
        games.push((start, moves));
    }
    games
}

/// What a judge run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeRun {
    /// Positions judged (one per ply).
    pub positions: usize,
    /// Of which were ruled (not undecided).
    pub ruled: usize,
    /// Rulings that were a win or loss for the side to move.
    pub decisive: usize,
}

/// Replays the games, judging every position `at` the first repetition or the third
/// occurrence. Returns the counts and the seconds taken.
pub fn judge_games(
    games: &[(Position, Vec<Move>)],
    mode: ChaseMode,
    at: RuleAt,
) -> (JudgeRun, f64) {
    let mut run = JudgeRun::default();
    let t = Instant::now();
    for (start, moves) in games {
        let mut record = Record::with_mode(start.clone(), mode);
        for &m in moves {
            record.push(m);
            let outcome = record.judge_ntimes(at);
            run.positions += 1;
            if outcome != Outcome::Undecided {
                run.ruled += 1;
                if matches!(outcome, Outcome::Win | Outcome::Loss) {
                    run.decisive += 1;
                }
            }
        }
    }
    (run, t.elapsed().as_secs_f64())
}

/// Perft of the start position at `depth`: (leaves, seconds).
pub fn perft_start(depth: u32) -> Result<(u64, f64), PerftError> {
    let mut pos = Position::start();
    let t = Instant::now();
    let n = pos.perft(depth)?;
    Ok((n, t.elapsed().as_secs_f64()))
}

/// The median of some numbers (the lower middle for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[(v.len() - 1) / 2]
}

/// The search bench's positions: one UCI `position` argument a line.
pub const SEARCH_POSITIONS: &str = include_str!("../../../assets/xiangqi_bench.txt");

/// Default depth of the search bench: about 3 s for the positions on one core of
/// this machine (release build), judge on.
pub const DEFAULT_SEARCH_DEPTH: u32 = 16;

/// A position of the search bench: the game's start and its moves.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    /// The game's start.
    pub start: Position,
    /// The moves played since, all legal.
    pub moves: Vec<Move>,
}

/// Why a line of the search bench is not a position: one variant per cause.
#[derive(Debug, thiserror::Error)]
pub enum BenchLineError {
    /// Neither `startpos` nor `fen <FEN>`, or words after them other than `moves ...`.
    #[error(
        "line {line}: '{text}' is not 'startpos' or 'fen <FEN>', then optionally 'moves' and UCCI moves"
    )]
    Syntax { line: usize, text: String },
    /// The FEN is refused.
    #[error("line {line}: {source}")]
    Fen {
        line: usize,
        #[source]
        source: FenError,
    },
    /// A move is not legal (or not a move) where it is played.
    #[error("line {line}, move {index} ('{token}'): {source}")]
    Move {
        line: usize,
        index: usize,
        token: String,
        #[source]
        source: MoveError,
    },
}

/// Reads the positions of a search bench file ([`SEARCH_POSITIONS`]'s format);
/// blank lines and lines starting with `#` are skipped, `line` numbers count from 1.
pub fn parse_positions(text: &str) -> Result<Vec<BenchPosition>, BenchLineError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = l.split_whitespace().collect();
        let cut = words
            .iter()
            .position(|&w| w == "moves")
            .unwrap_or(words.len());
        let (head, tail) = (&words[..cut], words.get(cut + 1..).unwrap_or(&[]));
        let syntax = || BenchLineError::Syntax {
            line,
            text: l.to_string(),
        };
        let start = match head {
            ["startpos"] => Position::start(),
            ["fen", fen @ ..] if !fen.is_empty() => Position::from_fen(&fen.join(" "))
                .map_err(|source| BenchLineError::Fen { line, source })?,
            _ => return Err(syntax()),
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(tail.len());
        for (index, token) in tail.iter().enumerate() {
            let m = parse_ucci(&pos, token).map_err(|source| BenchLineError::Move {
                line,
                index: index + 1,
                token: token.to_string(),
                source,
            })?;
            pos.make(m);
            moves.push(m);
        }
        out.push(BenchPosition { start, moves });
    }
    Ok(out)
}

/// The search bench's positions ([`SEARCH_POSITIONS`], compiled in; its tests
/// check that every line reads).
pub fn search_positions() -> Vec<BenchPosition> {
    parse_positions(SEARCH_POSITIONS).unwrap_or_else(|e| panic!("xiangqi bench positions: {e}"))
}

/// A point as Fairy-Stockfish names it in xiangqi: ranks 1-10 from Red's side
/// (UCCI's `a0` is its `a1`).
fn fsf_square(sq: Square) -> String {
    format!("{}{}", char::from(b'a' + sq.file()), sq.rank() + 1)
}

/// The argument of Fairy-Stockfish's `position` command for a bench position:
/// `fen <FEN> moves ...` with the moves in its coordinates (ranks 1-10).
pub fn fsf_position(p: &BenchPosition) -> String {
    let mut s = format!("fen {}", p.start.fen());
    if !p.moves.is_empty() {
        s.push_str(" moves");
        for m in &p.moves {
            s.push(' ');
            s.push_str(&fsf_square(m.from()));
            s.push_str(&fsf_square(m.to()));
        }
    }
    s
}

/// One position's search in the bench.
#[derive(Clone, Copy, Debug)]
pub struct PositionRun {
    pub nodes: u64,
    pub time: Duration,
    /// The best move found (`None` where the side to move has no move).
    pub best: Option<Move>,
}

/// A pass of the search bench over its positions.
#[derive(Clone, Debug)]
pub struct SearchRun {
    /// The judge was on (UCI `Judge`).
    pub judge: bool,
    pub depth: u32,
    /// Per position, in order.
    pub positions: Vec<PositionRun>,
    /// Total nodes (deterministic for a build and depth).
    pub nodes: u64,
    /// Total search time.
    pub time: Duration,
    /// Total nodes per second.
    pub nps: u64,
}

/// Searches every position to `depth` with a `hash_mb` table, the WXF judge on or
/// off, each position after [`Engine::new_game`] (the table and history cleared).
/// `done` is called after each position (the caller's progress line).
pub fn search_bench(
    positions: &[BenchPosition],
    depth: u32,
    hash_mb: usize,
    judge: bool,
    done: &mut dyn FnMut(),
) -> Result<SearchRun, TtAllocError> {
    let mut engine = Engine::new(hash_mb)?;
    engine.set_judge(judge);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut runs = Vec::with_capacity(positions.len());
    for p in positions {
        engine.new_game();
        let t = Instant::now();
        let r = engine.search(
            &Request::new(&p.start, &p.moves, &limits, &stop),
            &mut (),
            &mut |_| {},
        );
        runs.push(PositionRun {
            nodes: r.nodes,
            time: t.elapsed(),
            best: r.best,
        });
        done();
    }
    let nodes = runs.iter().map(|r| r.nodes).sum();
    let time = runs.iter().map(|r| r.time).sum();
    Ok(SearchRun {
        judge,
        depth,
        positions: runs,
        nodes,
        time,
        nps: nps(nodes, time),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_positions_read_and_several_repeat() {
        let ps = search_positions();
        assert_eq!(ps.len(), 16);
        // Positions whose root stood before in the game: the judge has a history to rule.
        let repeated = ps
            .iter()
            .filter(|p| {
                let mut record = Record::new(p.start.clone());
                for &m in &p.moves {
                    record.push(m);
                }
                record.occurrences(record.ply()).next().is_some()
            })
            .count();
        assert!(repeated >= 6, "{repeated}");
    }

    #[test]
    fn bad_lines_name_their_cause() {
        let e = parse_positions("# c\n\nstartpos moves h2e2 h2e2\n").unwrap_err();
        assert!(
            matches!(&e, BenchLineError::Move { line: 3, index: 2, token, .. } if token == "h2e2"),
            "{e}"
        );
        let e = parse_positions("fen 9/9 w\n").unwrap_err();
        assert!(matches!(e, BenchLineError::Fen { line: 1, .. }), "{e}");
        for text in ["position startpos", "fen", "startpos h2e2"] {
            let e = parse_positions(text).unwrap_err();
            assert!(matches!(e, BenchLineError::Syntax { line: 1, .. }), "{e}");
        }
    }

    #[test]
    fn fairy_stockfish_counts_ranks_from_one() {
        let p = &parse_positions("startpos moves h2e2 h9g7 a0a1").unwrap()[0];
        assert_eq!(
            fsf_position(p),
            format!(
                "fen {} moves h3e3 h10g8 a1a2",
                threefold_xiangqi::board::START_FEN
            )
        );
    }

    /// The node counts of a small depth, pinned as the chess bench's tests pin
    /// determinism: an accidental change of the xiangqi search (or of its judge)
    /// shows here. A deliberate one updates the numbers.
    #[test]
    fn search_bench_node_counts_are_pinned() {
        let ps = search_positions();
        let on = search_bench(&ps, 8, 16, true, &mut || {}).unwrap();
        let off = search_bench(&ps, 8, 16, false, &mut || {}).unwrap();
        assert_eq!((on.nodes, off.nodes), (101_399, 105_394));
        assert_eq!(on.positions.len(), 16);
        assert_eq!(on.nodes, on.positions.iter().map(|r| r.nodes).sum::<u64>());
        // The judge rules some of these positions' repetitions: the trees differ.
        assert!(
            on.positions
                .iter()
                .zip(&off.positions)
                .any(|(a, b)| a.nodes != b.nodes)
        );
    }
}
