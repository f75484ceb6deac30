//! The repetition suite (`assets/repetition_suite.txt`): positions *with game history* where
//! the right move depends on repetition, and `threefold bench suite`, the solve rates of the
//! plain search and of the shadow score ([`threefold_engine::shadow`]) at a fixed node budget.
//!
//! One position a line, fields separated by `|`:
//!
//! ```text
//! id | category | FEN of the game's start | moves played since (UCI) | bm|am <move>... | note
//! ```
//!
//! `bm`: the right moves (the engine must play one); `am`: the moves to avoid (a draw by
//! repetition, or one the opponent can force). The categories:
//! - `perpetual`: the side to move is lost unless it gives perpetual check;
//! - `third`: the side that is ahead must not make the third occurrence;
//! - `twofold`: the right move makes a second occurrence whose first one was before the
//!   root: not yet a draw;
//! - `forced`: the natural move lets the opponent make a third occurrence with its reply.
//!
//! Every answer was checked with Stockfish 15.1 at depth 24 or more given the same history
//! (`tools/check_repetition_suite.py`, which also measures Stockfish's solve rate).

use std::io::Write;
use std::sync::atomic::AtomicBool;

use shakmaty::{CastlingMode, Chess, Move, Position, uci::UciMove};

use threefold_engine::shadow::ShadowScore;
use threefold_engine::{Engine, Limits, Request, SearchResult, TtAllocError};

/// The suite file, compiled in.
pub const SUITE: &str = include_str!("../../../assets/repetition_suite.txt");

/// What counts as solving a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Play one of these.
    Best(Vec<Move>),
    /// Play none of these.
    Avoid(Vec<Move>),
}

/// One position of the suite.
#[derive(Clone, Debug)]
pub struct Entry {
    pub id: String,
    pub category: String,
    /// The game's start position.
    pub start: Chess,
    /// The moves played since: the root is after the last one.
    pub moves: Vec<Move>,
    pub answer: Answer,
}

impl Entry {
    /// Whether `best` solves the position.
    pub fn solved_by(&self, best: Option<Move>) -> bool {
        match (&self.answer, best) {
            (Answer::Best(ms), Some(b)) => ms.contains(&b),
            (Answer::Avoid(ms), Some(b)) => !ms.contains(&b),
            (_, None) => false,
        }
    }

    /// The position at the root.
    pub fn root(&self) -> Chess {
        let mut p = self.start.clone();
        for m in &self.moves {
            p.play_unchecked(*m);
        }
        p
    }
}

/// A line of the suite that cannot be read: its number (from 1) and why.
#[derive(Debug, thiserror::Error)]
#[error("repetition suite line {line}: {reason}")]
pub struct SuiteError {
    pub line: usize,
    pub reason: SuiteReason,
}

/// Why a line of the suite cannot be read: one variant per mistake.
#[derive(Debug, thiserror::Error)]
pub enum SuiteReason {
    /// Fewer than the five `|`-separated fields.
    #[error("{count} fields, need 5 or 6")]
    Fields { count: usize },
    /// The start position is refused by the strict FEN reader.
    #[error(transparent)]
    Fen(#[from] threefold_rules::FenError),
    /// A move of the game history is not a legal UCI move where it stands.
    #[error("illegal move '{uci}'")]
    IllegalMove { uci: String },
    /// An answer move is not a legal UCI move at the root.
    #[error("illegal answer '{uci}'")]
    IllegalAnswer { uci: String },
    /// `bm` or `am` without a move.
    #[error("no answer move")]
    NoAnswer,
    /// The answer is neither `bm` nor `am`.
    #[error("answer '{found}' is not bm or am")]
    AnswerKind { found: String },
}

/// Reads a suite (see the module docs); `#` starts a comment line.
pub fn parse(text: &str) -> Result<Vec<Entry>, SuiteError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |reason: SuiteReason| SuiteError {
            line: i + 1,
            reason,
        };
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        if f.len() < 5 {
            return Err(err(SuiteReason::Fields { count: f.len() }));
        }
        let start = threefold_rules::fen::position(f[2]).map_err(|e| err(e.into()))?;
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for u in f[3].split_whitespace() {
            let m = read_move(&pos, u)
                .ok_or_else(|| err(SuiteReason::IllegalMove { uci: u.to_string() }))?;
            pos.play_unchecked(m);
            moves.push(m);
        }
        let mut words = f[4].split_whitespace();
        let kind = words.next().unwrap_or_default();
        let ms = words
            .map(|u| {
                read_move(&pos, u)
                    .ok_or_else(|| err(SuiteReason::IllegalAnswer { uci: u.to_string() }))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if ms.is_empty() {
            return Err(err(SuiteReason::NoAnswer));
        }
        let answer = match kind {
            "bm" => Answer::Best(ms),
            "am" => Answer::Avoid(ms),
            other => {
                return Err(err(SuiteReason::AnswerKind {
                    found: other.to_string(),
                }));
            }
        };
        out.push(Entry {
            id: f[0].to_string(),
            category: f[1].to_string(),
            start,
            moves,
            answer,
        });
    }
    Ok(out)
}

fn read_move(pos: &Chess, uci: &str) -> Option<Move> {
    UciMove::from_ascii(uci.as_bytes()).ok()?.to_move(pos).ok()
}

/// The compiled-in suite.
pub fn entries() -> Vec<Entry> {
    parse(SUITE).unwrap_or_else(|e| panic!("{e}"))
}

/// Searches `e` with a fresh table (a new game) and at most `nodes` nodes.
pub fn solve(engine: &mut Engine, e: &Entry, nodes: u64) -> SearchResult {
    engine.new_game();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    engine.search(
        &Request::new(&e.start, &e.moves, &limits, &stop),
        &mut (),
        &mut |_| {},
    )
}

/// Solve counts of `bench suite`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteResult {
    pub positions: usize,
    pub plain: usize,
    pub shadow: usize,
}

/// `threefold bench suite`: every position with the plain search and with the shadow score,
/// `nodes` nodes each; one line per position, the solve rates on the last line. `done` is
/// called after each position (the caller's progress line; [`entries`] has their number).
pub fn run(
    nodes: u64,
    hash_mb: usize,
    out: &mut dyn Write,
    done: &mut dyn FnMut(),
) -> Result<SuiteResult, TtAllocError> {
    let mut plain = Engine::new(hash_mb)?;
    let mut shadow = Engine::new(hash_mb)?;
    shadow.set_shadow_score(ShadowScore::On);
    let mut r = SuiteResult::default();
    let uci = |m: Option<Move>| {
        m.map_or("-".to_string(), |m| {
            m.to_uci(CastlingMode::Standard).to_string()
        })
    };
    for e in entries() {
        let a = solve(&mut plain, &e, nodes);
        let b = solve(&mut shadow, &e, nodes);
        let (sa, sb) = (e.solved_by(a.best), e.solved_by(b.best));
        r.positions += 1;
        r.plain += usize::from(sa);
        r.shadow += usize::from(sb);
        let mark = |s: bool| if s { "ok  " } else { "MISS" };
        let _ = writeln!(
            out,
            "{:<8} {:<9} plain {} {:<6} {:>6}  shadow {} {:<6} {:>6}",
            e.id,
            e.category,
            mark(sa),
            uci(a.best),
            a.score.to_string(),
            mark(sb),
            uci(b.best),
            b.score.to_string()
        );
        done();
    }
    let pct = |n: usize| 100.0 * n as f64 / r.positions.max(1) as f64;
    let _ = writeln!(
        out,
        "suite: {} positions, {nodes} nodes, hash {hash_mb} MB: plain {}/{} ({:.0}%), shadow {}/{} ({:.0}%)",
        r.positions,
        r.plain,
        r.positions,
        pct(r.plain),
        r.shadow,
        r.positions,
        pct(r.shadow)
    );
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_suite_parses_and_has_every_category() {
        let es = entries();
        assert!(es.len() >= 30, "{}", es.len());
        for c in ["perpetual", "third", "twofold", "forced"] {
            assert!(es.iter().any(|e| e.category == c), "no {c}");
        }
        // Every position has a game history.
        assert!(es.iter().all(|e| !e.moves.is_empty()));
    }

    #[test]
    fn bad_lines_are_named() {
        let e = parse("x | perpetual | 8/8/8/8/8/8/8/8 w - - 0 1 | | bm e2e4").unwrap_err();
        assert_eq!(e.line, 1);
        let fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
        let e = parse(&format!("# c\nx | t | {fen} | e1e2 e8e7 | bm h1h9")).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.reason.to_string().contains("h1h9"), "{e}");
        let e = parse(&format!("x | t | {fen} | e1e2 | zz e8e7")).unwrap_err();
        assert!(e.reason.to_string().contains("not bm or am"), "{e}");
    }

    #[test]
    fn each_bad_line_is_its_own_variant() {
        let fen = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
        let why = |line: String| parse(&line).unwrap_err().reason;
        assert!(matches!(
            why(format!("x | t | {fen}")),
            SuiteReason::Fields { count: 3 }
        ));
        assert!(matches!(
            why("x | t | 8/8/8/8/8/8/8/8 w - - 0 1 | | bm e2e4".to_string()),
            SuiteReason::Fen(_)
        ));
        assert!(matches!(
            why(format!("x | t | {fen} | e1e2 e1e2 | bm e8e7")),
            SuiteReason::IllegalMove { ref uci } if uci == "e1e2"
        ));
        assert!(matches!(
            why(format!("x | t | {fen} | e1e2 | bm e1e2")),
            SuiteReason::IllegalAnswer { ref uci } if uci == "e1e2"
        ));
        assert!(matches!(
            why(format!("x | t | {fen} | e1e2 | bm")),
            SuiteReason::NoAnswer
        ));
        assert!(matches!(
            why(format!("x | t | {fen} | e1e2 | zz e8e7")),
            SuiteReason::AnswerKind { ref found } if found == "zz"
        ));
    }
}
