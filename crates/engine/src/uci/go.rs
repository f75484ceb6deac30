//! `go`: its parameters read into the search's limits ([`parse_go`], with a note for each
//! parameter ignored or changed), the search run on its own thread for either game, and the
//! lines it writes (`info`, `bestmove`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use shakmaty::{CastlingMode, Move};
use threefold_xiangqi as xq;

use super::position::GameRecord;
use super::{Running, Uci, note, say};
use crate::game::Game;
use crate::score::MAX_DEPTH;
use crate::{Engine, Limits, Request, Score, SearchInfo, level, time};

/// What a `go` without any limit searches for.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(5);

/// Formats a score for `info`.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// A move as the UCI loop writes it: chess in UCI's long algebraic notation, xiangqi in UCCI
/// coordinates (ranks 0–9).
pub trait UciText {
    /// The move's text.
    fn uci_text(&self) -> String;
}

impl UciText for Move {
    fn uci_text(&self) -> String {
        self.to_uci(CastlingMode::Standard).to_string()
    }
}

impl UciText for xq::Move {
    fn uci_text(&self) -> String {
        self.ucci()
    }
}

/// The `bestmove` line of a search result.
fn bestmove_line<M: UciText>(best: Option<M>, ponder: Option<M>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) => format!("bestmove {} ponder {}", b.uci_text(), p.uci_text()),
        (Some(b), None) => format!("bestmove {}", b.uci_text()),
        (None, _) => "bestmove 0000".to_string(),
    }
}

/// Formats an `info` line.
pub fn info_line<M: UciText>(i: &SearchInfo<M>) -> String {
    let pv: Vec<String> = i.pv.iter().map(UciText::uci_text).collect();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} hashfull {} pv {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.time.as_millis(),
        i.hashfull,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

impl Uci {
    pub(super) fn go(&mut self, rest: &[&str]) {
        self.stop_search();
        if !self.position_ok {
            note(
                &self.out,
                "go refused: the last position was refused and no valid one came since",
            );
            say(&self.out, "bestmove 0000");
            return;
        }
        let Go {
            mut limits,
            ponder,
            notes,
        } = parse_go(rest);
        for n in &notes {
            note(&self.out, n);
        }
        // A book move answers at once (not while pondering or searching without end: those
        // wait for `ponderhit` or `stop`, which a search handles).
        if self.own_book
            && !ponder
            && !limits.infinite
            && let GameRecord::Chess { start, moves } = &self.game
            && let Some(b) = crate::chess::book::Book::builtin().choose(start, moves, &mut self.rng)
        {
            note(&self.out, &format!("book: {}", b.name));
            say(
                &self.out,
                &format!("bestmove {}", b.mv.to_uci(CastlingMode::Standard)),
            );
            return;
        }
        let us = self.turn();
        if !time::is_limited(&limits, us) {
            limits.movetime = Some(DEFAULT_MOVETIME);
            note(
                &self.out,
                &format!(
                    "go without a limit for {} to move: searching {} s (go infinite searches \
                     until stop)",
                    self.side_name(us),
                    DEFAULT_MOVETIME.as_secs()
                ),
            );
        }
        if let Some(l) = self.level() {
            limits = level::narrow(l, &limits);
        }
        limits.sparring = self.sparring;
        if let Some(cap) = self.options.max_nodes {
            limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
        }
        self.engine();
        let mut engine = self.engine.take().expect("an idle engine");
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let pondering = Arc::new(AtomicBool::new(ponder));
        let pondering2 = Arc::clone(&pondering);
        let out = Arc::clone(&self.out);
        let game = self.game.clone();
        let spawn = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let out2 = Arc::clone(&out);
                let pondering = ponder.then_some(&*pondering2);
                let line = match game {
                    GameRecord::Chess { start, moves } => think(
                        &mut engine,
                        &start,
                        &moves,
                        &limits,
                        &stop2,
                        pondering,
                        &out2,
                    ),
                    GameRecord::Xiangqi { start, moves } => think(
                        &mut engine,
                        &*start,
                        &moves,
                        &limits,
                        &stop2,
                        pondering,
                        &out2,
                    ),
                };
                // UCI: no bestmove before `stop` in infinite mode, nor before `ponderhit` or
                // `stop` when pondering.
                while !stop2.load(Ordering::SeqCst)
                    && (limits.infinite || pondering2.load(Ordering::SeqCst))
                {
                    std::thread::sleep(Duration::from_millis(2));
                }
                let _ = say(&out, &line);
                engine
            });
        match spawn {
            Ok(handle) => {
                self.running = Some(Running {
                    handle,
                    stop,
                    pondering,
                })
            }
            Err(e) => {
                note(&self.out, &format!("cannot start the search thread: {e}"));
                say(&self.out, "bestmove 0000");
            }
        }
    }
}

/// Searches the game `start` + `moves` of either game, each iteration's `info` line written
/// to `out` (a write that fails stops the search: nobody reads it), and returns the
/// `bestmove` line.
fn think<G: Game>(
    engine: &mut Engine,
    start: &G,
    moves: &[G::Move],
    limits: &Limits,
    stop: &AtomicBool,
    pondering: Option<&AtomicBool>,
    out: &super::Out,
) -> String
where
    G::Move: UciText,
{
    let mut on_info = |i: &SearchInfo<G::Move>| {
        if !say(out, &info_line(i)) {
            stop.store(true, Ordering::SeqCst);
        }
    };
    let request = Request::new(start, moves, limits, stop).pondering(pondering);
    let r = engine.search(&request, &mut (), &mut on_info);
    bestmove_line(r.best, r.ponder)
}

/// A number of a `go` parameter: a whole number, saturated at the ends of `i64` when it has
/// more digits than that holds (clamped later to each parameter's range).
fn go_number(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse::<i64>().unwrap_or(if text.starts_with('-') {
        i64::MIN
    } else {
        i64::MAX
    }))
}

/// A `go` command read by [`parse_go`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// The limits (with `ponder`, those that count from `ponderhit`).
    pub limits: Limits,
    /// `go ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// One note per parameter that was ignored or changed.
    pub notes: Vec<String>,
}

/// Reads the parameters of `go`: a parameter without a whole number after it is ignored;
/// out-of-range numbers are clamped (depth to 1..=[`MAX_DEPTH`], `mate` to the moves that
/// depth holds, times to 0 and up); `mate` with fewer than one move is ignored. Each ignored
/// or changed parameter gets a note that names it as it was given.
pub fn parse_go(rest: &[&str]) -> Go {
    let mut limits = Limits::default();
    let mut ponder = false;
    let mut notes = Vec::new();
    let ms = |v: i64| Duration::from_millis(v.max(0) as u64);
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        let takes_value = GO_VALUE_KEYS.contains(&key);
        if !takes_value {
            match key {
                "infinite" => limits.infinite = true,
                "ponder" => ponder = true,
                "searchmoves" => {
                    notes.push("go searchmoves is not supported; searching all moves".into());
                    // Its moves (in either game's coordinates) run to the next parameter.
                    while i + 1 < rest.len() && !is_go_keyword(rest[i + 1]) {
                        i += 1;
                    }
                }
                other => notes.push(format!("go: unknown parameter '{other}' ignored")),
            }
            i += 1;
            continue;
        }
        let Some(v) = rest.get(i + 1).and_then(|t| go_number(t)) else {
            match rest.get(i + 1) {
                Some(t) if go_number(t).is_none() && !is_go_keyword(t) => {
                    notes.push(format!(
                        "go: '{key}' needs a whole number, not '{t}'; ignored"
                    ));
                    i += 2;
                }
                _ => {
                    notes.push(format!("go: '{key}' needs a number; ignored"));
                    i += 1;
                }
            }
            continue;
        };
        // A number beyond i64 is taken as the largest (or smallest) one, and said: `go nodes
        // 99999999999999999999999999` searches until `stop` as the GUI asked, not silently.
        // Depth and mate name the number in their own clamping note.
        let text = rest[i + 1];
        if text.parse::<i64>().is_err() && !matches!(key, "depth" | "mate") {
            notes.push(format!(
                "go: {key} {text} is beyond the numbers read; taken as {}",
                match (key, v < 0) {
                    ("nodes" | "movestogo", true) => "the smallest, 1".to_string(),
                    (_, true) => "the smallest, 0".to_string(),
                    ("movestogo", false) => "the largest, 1000".to_string(),
                    (_, false) => format!("the largest, {v}"),
                }
            ));
        }
        let depth = |d: i64, notes: &mut Vec<String>| {
            let c = d.clamp(1, i64::from(MAX_DEPTH));
            if c != d {
                notes.push(format!(
                    "go: {key} {d} is outside 1..={MAX_DEPTH}; using {c}"
                ));
            }
            c as u32
        };
        // A mate in n moves is found at depth 2n plies.
        let max_mate = i64::from(MAX_DEPTH / 2);
        match key {
            "mate" if v < 1 => notes.push(format!(
                "go: mate {v} is not a number of moves (1 or more); ignored"
            )),
            "nodes" => limits.nodes = Some(v.max(1) as u64),
            "wtime" => limits.wtime = Some(ms(v)),
            "btime" => limits.btime = Some(ms(v)),
            "winc" => limits.winc = Some(ms(v)),
            "binc" => limits.binc = Some(ms(v)),
            "movestogo" => limits.movestogo = Some(v.clamp(1, 1000) as u32),
            "movetime" => limits.movetime = Some(ms(v)),
            "depth" => limits.depth = Some(depth(v, &mut notes)),
            // "mate", the last of GO_VALUE_KEYS.
            _ => {
                let n = v.min(max_mate);
                if n != v {
                    notes.push(format!(
                        "go: mate {v} is outside 1..={max_mate} moves; using {n}"
                    ));
                }
                limits.depth = Some(2 * n as u32);
            }
        }
        i += 2;
    }
    Go {
        limits,
        ponder,
        notes,
    }
}

/// `go` parameters followed by a number.
const GO_VALUE_KEYS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "movetime",
    "depth",
    "nodes",
    "mate",
];

/// `go` parameters that stand alone (or, for `searchmoves`, take moves).
const GO_FLAG_KEYS: &[&str] = &["infinite", "ponder", "searchmoves"];

fn is_go_keyword(t: &str) -> bool {
    GO_VALUE_KEYS.contains(&t) || GO_FLAG_KEYS.contains(&t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`parse_go`]'s limits and notes (the tests of the parameters' numbers).
    fn go(rest: &[&str]) -> (Limits, Vec<String>) {
        let g = parse_go(rest);
        (g.limits, g.notes)
    }

    #[test]
    fn mate_is_read_in_moves_and_named_as_given() {
        let (l, n) = go(&["mate", "-3"]);
        assert_eq!(l.depth, None);
        assert_eq!(
            n,
            ["go: mate -3 is not a number of moves (1 or more); ignored"]
        );
        let (l, n) = go(&["mate", "0"]);
        assert_eq!(l.depth, None);
        assert_eq!(n.len(), 1);
        let (l, n) = go(&["mate", "1000"]);
        assert_eq!(l.depth, Some(2 * (MAX_DEPTH / 2)));
        assert_eq!(
            n,
            [format!(
                "go: mate 1000 is outside 1..={} moves; using {}",
                MAX_DEPTH / 2,
                MAX_DEPTH / 2
            )]
        );
        let (l, n) = go(&["mate", "2"]);
        assert_eq!((l.depth, n.len()), (Some(4), 0));
    }

    /// `searchmoves` is noted once and its moves skipped, in chess and in xiangqi's UCCI
    /// coordinates (rank 0 is no chess square), up to the next parameter.
    #[test]
    fn searchmoves_skips_its_moves_in_either_game() {
        for moves in [["e2e4", "g1f3"], ["h0g2", "b0c2"]] {
            let (l, n) = go(&["searchmoves", moves[0], moves[1], "depth", "3"]);
            assert_eq!(l.depth, Some(3), "{moves:?}");
            assert_eq!(n, ["go searchmoves is not supported; searching all moves"]);
        }
    }

    #[test]
    fn go_ponder_is_read() {
        let g = parse_go(&["ponder", "wtime", "1000", "btime", "900"]);
        assert!(g.ponder && g.notes.is_empty());
        assert_eq!(g.limits.wtime, Some(Duration::from_millis(1000)));
        assert!(!parse_go(&["wtime", "1000"]).ponder);
    }

    #[test]
    fn go_parameters_without_usable_numbers_are_ignored_or_clamped() {
        let (l, n) = go(&["depth"]);
        assert_eq!(l, Limits::default());
        assert_eq!(n, ["go: 'depth' needs a number; ignored"]);
        let (l, n) = go(&["depth", "1e20"]);
        assert_eq!(l.depth, None);
        assert!(n[0].contains("needs a whole number, not '1e20'"), "{n:?}");
        let (l, n) = go(&["depth", "100000000000000000000"]);
        assert_eq!(l.depth, Some(MAX_DEPTH));
        assert!(n[0].contains("outside 1..="), "{n:?}");
        let (l, n) = go(&["depth", "infinite"]);
        assert!(l.infinite && l.depth.is_none(), "{l:?}");
        assert_eq!(n.len(), 1);
        let (l, n) = go(&["wtime", "-5", "btime", "99999999999999999999", "nodes", "0"]);
        assert_eq!(l.wtime, Some(Duration::ZERO));
        assert_eq!(l.btime, Some(Duration::from_millis(i64::MAX as u64)));
        assert_eq!(l.nodes, Some(1));
        // The overflowing btime is said (it was silent).
        assert_eq!(
            n,
            [format!(
                "go: btime 99999999999999999999 is beyond the numbers read; taken as the \
                 largest, {}",
                i64::MAX
            )]
        );
        let (l, _) = go(&["mate", "3"]);
        assert_eq!(l.depth, Some(6));
    }

    /// A number beyond i64 in `go` is taken as the largest (smallest) and said, for every
    /// parameter: `go nodes 99999999999999999999999999` was a silent search until `stop`.
    #[test]
    fn overflowing_go_numbers_are_the_largest_and_said() {
        let big = "99999999999999999999999999";
        let (l, n) = go(&["nodes", big]);
        assert_eq!(l.nodes, Some(i64::MAX as u64));
        assert_eq!(
            n,
            [format!(
                "go: nodes {big} is beyond the numbers read; taken as the largest, {}",
                i64::MAX
            )]
        );
        let (l, n) = go(&[
            "movetime",
            big,
            "movestogo",
            big,
            "winc",
            &format!("-{big}"),
        ]);
        assert_eq!(l.movetime, Some(Duration::from_millis(i64::MAX as u64)));
        assert_eq!((l.movestogo, l.winc), (Some(1000), Some(Duration::ZERO)));
        assert_eq!(n.len(), 3, "{n:?}");
        assert!(
            n[0].starts_with(&format!("go: movetime {big} is beyond")),
            "{n:?}"
        );
        assert!(n[1].ends_with("the largest, 1000"), "{n:?}");
        assert!(n[2].ends_with("the smallest, 0"), "{n:?}");
        // In range: no note.
        assert!(go(&["nodes", "9223372036854775807"]).1.is_empty());
    }
}
