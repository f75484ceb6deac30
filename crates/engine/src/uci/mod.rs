//! UCI front end (`threefold uci`).
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name <Hash|Contempt> value <n>`,
//! `setoption name Repetition value <zarkov|belle|rookie|axon>` (the repetition detector, see
//! [`crate::chess::repetition`]), `setoption name UpcomingRepetition value <true|false>`,
//! `setoption name ShadowScore value <true|false>` (Muller's shadow score, [`crate::shadow`]),
//! `setoption name Sparring value <true|false>` (steer toward repetitions, [`crate::sparring`]),
//! `setoption name OwnBook value <true|false>` (answer from the opening book, [`crate::chess::book`],
//! while the game follows it; off by default),
//! `setoption name UCI_Variant value <chess|xiangqi>` (the game, as Fairy-Stockfish names it;
//! see below), `setoption name Judge value <true|false>` (xiangqi: the WXF rulings in the
//! search, see [`crate::xiangqi`]; off only to measure),
//! `setoption name Level value <0..8>` (the trainer's strength levels, [`crate::level`]; 0, the
//! default, plays at full strength), `setoption name UCI_LimitStrength value <true|false>` and
//! `setoption name UCI_Elo value <n>` (with `UCI_LimitStrength` on, the level whose measured
//! Elo is nearest `n`; it replaces `Level`). A level narrows every `go`: its depth or node
//! count where they are smaller than the `go`'s, its evaluation noise, and the clock as given.
//! `position (startpos | fen <fen>) [moves <uci>...]`, `go [wtime|btime|winc|binc|movestogo|
//! movetime|depth|nodes|mate <n>] [infinite] [ponder]`, `ponderhit`, `stop`, `quit`. The moves
//! after `position` are the game record the repetition scan sees. `setoption` reads its name
//! and value by the keywords' positions ([`options::parse_setoption`]).
//!
//! # The files
//!
//! This file is the loop: reading lines, the GUI's output, the search thread and the commands'
//! dispatch. [`position`] reads `position` (either game's start, FEN and moves, with
//! [`position::PositionError`] saying why one is refused), [`go`] reads `go` and runs the
//! search, writing its `info` and `bestmove` lines, and [`options`] announces the options and
//! reads `setoption`.
//!
//! # Xiangqi
//!
//! After `setoption name UCI_Variant value xiangqi` the loop plays xiangqi with the same search
//! ([`Engine::search`]): `position startpos` is xiangqi's start, `position fen F` reads
//! a xiangqi FEN (WXF letters, Black's back rank first), and moves in `position`, `info ... pv`
//! and `bestmove` are in UCCI coordinates: files a–i, ranks 0–9 from Red's side (`h2e2`), as
//! Pikafish and threefold's command line write them (Fairy-Stockfish counts ranks 1–10: a GUI
//! for it converts). Red's clock is `wtime`/`winc`. The engine sees the whole game, so the
//! judge rules repetitions that began before the root. Changing the variant clears the table
//! and the position (to the variant's start), as `ucinewgame` does; the same guarantees hold
//! in both games (below).
//!
//! # Pondering
//!
//! `go ponder` (option `Ponder` announced) searches the position after the expected move on
//! the opponent's time: no deadline counts, and no `bestmove` comes, until `ponderhit` (the
//! move was played: the limits given with `go ponder` count from then, the search going on
//! where it is, [`Engine::search`], [`crate::Request::pondering`]) or `stop` (another move: the GUI ignores the
//! answer and sends the new position).
//!
//! # Never blocked by a search
//!
//! The search runs on its own thread and owns the [`Engine`] while it runs; the loop keeps
//! reading input meanwhile. `stop` sets a shared flag, the search answers with `bestmove` at
//! once (it looks at the flag at every node) and hands the engine back. A command that
//! needs the engine idle (`ucinewgame`, a `setoption` that changes something, `position`,
//! `go`) stops the running search the same way first, so its `bestmove` comes before the
//! command's effect; `isready` needs nothing and is answered at once, search or not; `quit`
//! and the end of input stop the search, print its `bestmove` and end the loop.
//!
//! `setoption name Hash` and `ucinewgame` make or clear the whole table before the next line
//! is read (every page touched, by several threads for a large table: [`crate::tt`]), so the
//! `isready` a GUI sends after them is answered when the table is ready and the clock of the
//! next `go` is not spent on page faults.
//!
//! # Bad input
//!
//! Input is decoded lossily (invalid UTF-8 becomes U+FFFD, never an error) and a line longer
//! than [`MAX_LINE_BYTES`] is skipped; a skipped `position` is a refused one (below). A
//! number beyond 64 bits in `go` is taken as the largest (`go nodes 99999999999999999999999`
//! searches until `stop`), with a note. Output that cannot be written (the GUI gone, a full
//! disk) ends the loop with an error (`threefold uci` exits 2): nobody reads the answers. Unknown or malformed commands and values are ignored
//! with one `info string` line saying what and why, on stdout where a GUI shows it; an illegal
//! move in `position` is reported (which move, which index) and the whole command ignored,
//! and a `go` before the next valid `position` (or `ucinewgame`) answers `bestmove 0000` (the
//! null move) with a note: the GUI's position is not known, and a move searched in the last
//! valid one would be a move for another position, illegal or wrong in the GUI's game. A
//! `go` with no usable limit for the side to move ([`crate::time::is_limited`]: the other side's clock
//! alone is none) searches [`DEFAULT_MOVETIME`] (a typo must not start a search that never
//! ends); a depth beyond the search's maximum is clamped to it, with a note.

pub mod go;
pub mod options;
pub mod position;

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use shakmaty::Color;

use crate::level;
use crate::tt::MAX_HASH_MB;
use crate::{DEFAULT_HASH_MB, Engine};

pub use go::{DEFAULT_MOVETIME, Go, UciText, info_line, parse_go, score_text};
pub use options::{SetoptionError, parse_setoption};
use position::GameRecord;
pub use position::{PositionError, Variant};

/// `UCI_Elo`'s default: the middle level's Elo.
fn default_uci_elo() -> i32 {
    level::elo(4).elo
}

/// Engine name announced by `uci`.
pub const NAME: &str = concat!("threefold ", env!("CARGO_PKG_VERSION"));

/// Longest input line read (a `position` with 10,000 moves is about 50 KB); longer lines are
/// skipped with a note, so input without line breaks cannot grow memory without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Settings of the loop itself (not UCI options).
#[derive(Clone, Debug)]
pub struct Options {
    /// Caps every search at this many nodes (tests and fuzzing: keeps searches short).
    pub max_nodes: Option<u64>,
    /// Largest `Hash` accepted, in MB (the `uci` announcement says [`MAX_HASH_MB`]).
    pub max_hash_mb: usize,
    /// Table size at start, in MB.
    pub hash_mb: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_nodes: None,
            max_hash_mb: MAX_HASH_MB,
            hash_mb: DEFAULT_HASH_MB,
        }
    }
}

/// The GUI's end of the loop: the output and the first error writing it met.
struct Sink {
    w: Box<dyn Write + Send>,
    /// Set by the first line that could not be written; nothing is written after it, and
    /// the loop ends with this error (a GUI that cannot be written to sees no `bestmove`).
    error: Option<std::io::Error>,
}

type Out = Arc<Mutex<Sink>>;

/// Writes one line to the GUI; false if it (or an earlier one) could not be written.
fn say(out: &Out, line: &str) -> bool {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    if o.error.is_some() {
        return false;
    }
    if let Err(e) = writeln!(o.w, "{line}").and_then(|()| o.w.flush()) {
        o.error = Some(e);
        return false;
    }
    true
}

/// The error that ended the output, if any (taken: the loop reports it once).
fn output_error(out: &Out) -> Option<std::io::Error> {
    out.lock().unwrap_or_else(|e| e.into_inner()).error.take()
}

/// A note for the GUI's log: `info string <msg>`.
fn note(out: &Out, msg: &str) {
    let _ = say(out, &format!("info string {msg}"));
}

/// How a line was read by [`read_line`].
#[derive(Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line (possibly the last, without a line break) is in the buffer.
    Line,
    /// The line was longer than the limit: the buffer holds its first bytes only, the rest
    /// was read and dropped.
    TooLong,
    /// End of input.
    Eof,
}

/// Reads one line (without its `\n`) into `buf`, keeping at most `max` bytes of it and
/// consuming the rest, so memory stays bounded however long the line is.
pub fn read_line<R: BufRead>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    let mut any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = max.saturating_sub(buf.len());
        if part.len() > room {
            too_long = true;
        }
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    Ok(match (any, too_long) {
        (false, _) => LineRead::Eof,
        (true, true) => LineRead::TooLong,
        (true, false) => LineRead::Line,
    })
}

struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
    /// True while a `go ponder` search waits for `ponderhit`.
    pondering: Arc<AtomicBool>,
}

/// The UCI loop state.
struct Uci {
    engine: Option<Engine>,
    running: Option<Running>,
    /// `UCI_Variant`.
    variant: Variant,
    /// The game of the last valid `position`, of `variant`.
    game: GameRecord,
    /// False after a refused `position`, until a valid one or `ucinewgame`: `go` is refused
    /// meanwhile (see the module doc).
    position_ok: bool,
    /// `OwnBook`: answer `go` from the opening book ([`super::book`]) while the game follows
    /// it (off by default: matches and GUIs bring their own openings).
    own_book: bool,
    /// `Sparring`: the engine steers toward repetitions among moves close to its best
    /// ([`crate::sparring`]).
    sparring: bool,
    /// Chooses among the book's lines; seeded from the clock.
    rng: threefold_rules::shuffle::Rng,
    /// `Level`: 0 (full strength) or one of [`super::level::LEVELS`].
    level: u8,
    /// `UCI_LimitStrength` and `UCI_Elo`: when on, the level is the one nearest the Elo.
    limit_strength: bool,
    uci_elo: i32,
    out: Out,
    options: Options,
}

/// Runs the UCI protocol on `input` / `output` until `quit` or end of input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> std::io::Result<()> {
    run_with(input, output, &Options::default())
}

/// [`run`] with loop settings. A read error ends the loop like the end of input (after the
/// running search, if any, has answered).
pub fn run_with<R: BufRead, W: Write + Send + 'static>(
    mut input: R,
    output: W,
    options: &Options,
) -> std::io::Result<()> {
    let engine = Engine::new(options.hash_mb).map_err(std::io::Error::other)?;
    let mut u = Uci {
        engine: Some(engine),
        running: None,
        variant: Variant::Chess,
        game: GameRecord::start(Variant::Chess),
        position_ok: true,
        own_book: false,
        sparring: false,
        rng: threefold_rules::shuffle::Rng::from_clock(),
        level: 0,
        limit_strength: false,
        uci_elo: default_uci_elo(),
        out: Arc::new(Mutex::new(Sink {
            w: Box::new(output),
            error: None,
        })),
        options: options.clone(),
    };
    let mut buf = Vec::new();
    loop {
        match read_line(&mut input, &mut buf, MAX_LINE_BYTES) {
            Ok(LineRead::Eof) => break,
            // An over-long `position` is a refused one: a `go` after it must not answer
            // for the position before.
            Ok(LineRead::TooLong)
                if String::from_utf8_lossy(&buf).split_whitespace().next() == Some("position") =>
            {
                u.stop_search();
                u.refuse_position(&PositionError::TooLong);
            }
            Ok(LineRead::TooLong) => note(
                &u.out,
                &format!("input line longer than {MAX_LINE_BYTES} bytes ignored"),
            ),
            Ok(LineRead::Line) => {
                let line = String::from_utf8_lossy(&buf);
                if !u.command(line.trim()) {
                    break;
                }
            }
            Err(e) => {
                note(&u.out, &format!("cannot read input ({e}); quitting"));
                break;
            }
        }
        if u.out
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .error
            .is_some()
        {
            break;
        }
    }
    u.finish();
    match output_error(&u.out) {
        Some(e) => Err(std::io::Error::new(
            e.kind(),
            format!("cannot write to the GUI (standard output): {e}"),
        )),
        None => Ok(()),
    }
}

impl Uci {
    /// Stops the running search, if any (it prints its `bestmove`), and takes the engine back.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            match r.handle.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => {
                    note(&self.out, "the search thread panicked; engine reset");
                    say(&self.out, "bestmove 0000");
                }
            }
        }
    }

    fn finish(&mut self) {
        self.stop_search();
    }

    /// The idle engine: stops the running search first. A lost engine (a panicked search)
    /// is replaced by a fresh one.
    fn engine(&mut self) -> &mut Engine {
        self.stop_search();
        if self.engine.is_none() {
            self.engine = Engine::new(self.options.hash_mb)
                .or_else(|_| Engine::new(1))
                .ok();
        }
        self.engine.as_mut().expect("an engine with a 1 MB table")
    }

    /// The side to move in the position of the last `position` (Red counts as White: its
    /// clock is `wtime`).
    fn turn(&self) -> Color {
        self.game.turn()
    }

    /// The name of a side in the loop's game: `white`/`black` in chess, `red`/`black` in
    /// xiangqi (whose first player's clock is UCI's white one).
    fn side_name(&self, side: Color) -> &'static str {
        match (self.variant, side) {
            (Variant::Xiangqi, Color::White) => "red",
            (_, Color::White) => "white",
            (_, Color::Black) => "black",
        }
    }

    /// Handles one line; false = quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { return true };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => {
                self.say_options();
                say(&self.out, "uciok");
            }
            "isready" => {
                say(&self.out, "readyok");
            }
            "ucinewgame" => {
                self.engine().new_game();
                self.game = GameRecord::start(self.variant);
                self.position_ok = true;
            }
            "setoption" => self.setoption(&rest),
            "position" => {
                self.stop_search();
                self.position(&rest);
            }
            "go" => self.go(&rest),
            "stop" => self.stop_search(),
            "ponderhit" => match &self.running {
                Some(r) if r.pondering.swap(false, Ordering::SeqCst) => {}
                _ => note(&self.out, "ponderhit without a 'go ponder' search ignored"),
            },
            "quit" => return false,
            "debug" | "register" => {}
            other => note(&self.out, &format!("unknown command '{other}' ignored")),
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_invalid_utf8_is_read() {
        let mut input: &[u8] = b"abc\ndefghij\n\xe9t\xe9";
        let mut buf = Vec::new();
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(buf, b"abc");
        assert_eq!(
            read_line(&mut input, &mut buf, 4).unwrap(),
            LineRead::TooLong
        );
        assert_eq!(buf, b"defg");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), LineRead::Line);
        assert_eq!(String::from_utf8_lossy(&buf), "\u{fffd}t\u{fffd}");
        assert_eq!(read_line(&mut input, &mut buf, 4).unwrap(), LineRead::Eof);
    }
}
