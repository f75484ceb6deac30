//! UCI front end (`threefold uci`).
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name <Hash|Contempt> value <n>`,
//! `setoption name Repetition value <zarkov|belle|rookie|axon>` (the repetition detector, see
//! [`super::repetition`]), `setoption name UpcomingRepetition value <true|false>`,
//! `setoption name ShadowScore value <true|false>` (Muller's shadow score, [`super::shadow`]),
//! `setoption name OwnBook value <true|false>` (answer from the opening book, [`super::book`],
//! while the game follows it; off by default),
//! `setoption name UCI_Variant value <chess|xiangqi>` (the game, as Fairy-Stockfish names it;
//! see below), `setoption name Judge value <true|false>` (xiangqi: the WXF rulings in the
//! search, see [`super::game::xiangqi`]; off only to measure),
//! `setoption name Level value <0..8>` (the trainer's strength levels, [`super::level`]; 0, the
//! default, plays at full strength), `setoption name UCI_LimitStrength value <true|false>` and
//! `setoption name UCI_Elo value <n>` (with `UCI_LimitStrength` on, the level whose measured
//! Elo is nearest `n`; it replaces `Level`). A level narrows every `go`: its depth or node
//! count where they are smaller than the `go`'s, its evaluation noise, and the clock as given.
//! `position (startpos | fen <fen>) [moves <uci>...]`, `go [wtime|btime|winc|binc|movestogo|
//! movetime|depth|nodes|mate <n>] [infinite] [ponder]`, `ponderhit`, `stop`, `quit`. The moves
//! after `position` are the game record the repetition scan sees. `setoption` reads its name
//! and value by the keywords' positions ([`parse_setoption`]).
//!
//! # Xiangqi
//!
//! After `setoption name UCI_Variant value xiangqi` the loop plays xiangqi with the same search
//! ([`Engine::search_xiangqi`]): `position startpos` is xiangqi's start, `position fen F` reads
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
//! where it is, [`Engine::search_pondering`]) or `stop` (another move: the GUI ignores the
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
//! is read (every page touched, by several threads for a large table: [`super::tt`]), so the
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
//! `go` with no usable limit for the side to move ([`time::is_limited`]: the other side's clock
//! alone is none) searches [`DEFAULT_MOVETIME`] (a typo must not start a search that never
//! ends); a depth beyond the search's maximum is clamped to it, with a note.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Color, Move, Position, uci::UciMove};
use threefold_xiangqi as xq;

use super::level;
use super::repetition::Method;
use super::score::MAX_DEPTH;
use super::shadow::ShadowScore;
use super::time;
use super::tt::{MAX_HASH_MB, MIN_HASH_MB};
use super::{DEFAULT_HASH_MB, Engine, Limits, Score, SearchInfo};

/// `UCI_Elo`'s default: the middle level's Elo.
fn default_uci_elo() -> i32 {
    level::elo(4).elo
}

/// Engine name announced by `uci`.
pub const NAME: &str = concat!("threefold ", env!("CARGO_PKG_VERSION"));

/// Longest input line read (a `position` with 10,000 moves is about 50 KB); longer lines are
/// skipped with a note, so input without line breaks cannot grow memory without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// What a `go` without any limit searches for.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(5);

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

/// The game of `UCI_Variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Chess,
    Xiangqi,
}

impl Variant {
    /// Every variant, as the `uci` announcement lists them.
    pub const ALL: [Variant; 2] = [Variant::Chess, Variant::Xiangqi];

    /// The name of `UCI_Variant`'s value (Fairy-Stockfish's).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Xiangqi => "xiangqi",
        }
    }

    /// The variant named `text` (any case).
    pub fn parse(text: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(text))
    }
}

/// The game of the last valid `position`: its start and the moves played since.
#[derive(Clone, Debug)]
enum GameRecord {
    Chess {
        start: Chess,
        moves: Vec<Move>,
    },
    Xiangqi {
        start: Box<xq::Position>,
        moves: Vec<xq::Move>,
    },
}

impl GameRecord {
    /// The start position of `variant`, no moves.
    fn start(variant: Variant) -> GameRecord {
        match variant {
            Variant::Chess => GameRecord::Chess {
                start: Chess::default(),
                moves: Vec::new(),
            },
            Variant::Xiangqi => GameRecord::Xiangqi {
                start: Box::new(xq::Position::start()),
                moves: Vec::new(),
            },
        }
    }

    /// The clock of the side to move: White's or Red's is `wtime`.
    fn turn(&self) -> Color {
        let (first_starts, n) = match self {
            GameRecord::Chess { start, moves } => (start.turn().is_white(), moves.len()),
            GameRecord::Xiangqi { start, moves } => {
                (start.side_to_move() == xq::Color::Red, moves.len())
            }
        };
        if first_starts == n.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
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
                u.refuse_position(&format!(
                    "input line longer than {MAX_LINE_BYTES} bytes (a position command)"
                ));
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
                say(&self.out, &format!("id name {NAME}"));
                say(&self.out, "id author the threefold authors");
                say(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {}",
                        self.options.max_hash_mb
                    ),
                );
                say(
                    &self.out,
                    "option name Contempt type spin default 0 min -1000 max 1000",
                );
                say(
                    &self.out,
                    "option name Threads type spin default 1 min 1 max 1",
                );
                say(&self.out, "option name Ponder type check default false");
                say(&self.out, "option name OwnBook type check default false");
                let vars: Vec<String> = Method::ALL.iter().map(|m| format!("var {m}")).collect();
                say(
                    &self.out,
                    &format!(
                        "option name Repetition type combo default {} {}",
                        Method::default(),
                        vars.join(" ")
                    ),
                );
                say(
                    &self.out,
                    "option name UpcomingRepetition type check default false",
                );
                say(
                    &self.out,
                    "option name ShadowScore type check default false",
                );
                let vars: Vec<String> = Variant::ALL
                    .iter()
                    .map(|v| format!("var {}", v.name()))
                    .collect();
                say(
                    &self.out,
                    &format!(
                        "option name UCI_Variant type combo default chess {}",
                        vars.join(" ")
                    ),
                );
                say(&self.out, "option name Judge type check default true");
                say(
                    &self.out,
                    &format!(
                        "option name Level type spin default 0 min 0 max {}",
                        level::LEVELS.end()
                    ),
                );
                say(
                    &self.out,
                    "option name UCI_LimitStrength type check default false",
                );
                let (lo, hi) = level::elo_range();
                say(
                    &self.out,
                    &format!(
                        "option name UCI_Elo type spin default {} min {lo} max {hi}",
                        default_uci_elo()
                    ),
                );
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

    fn setoption(&mut self, rest: &[&str]) {
        let (name, value) = match parse_setoption(rest) {
            Ok(nv) => nv,
            Err(e) => {
                note(&self.out, &format!("{e}; ignored"));
                return;
            }
        };
        let max_hash = self.options.max_hash_mb;
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (MIN_HASH_MB..=max_hash).contains(&mb) => {
                    let engine = self.engine();
                    let result = engine.set_hash(mb);
                    let now = engine.hash_mb();
                    if let Err(e) = result {
                        note(
                            &self.out,
                            &format!("Hash {mb} refused: {e}; the table has {now} MB"),
                        );
                    }
                }
                _ => note(
                    &self.out,
                    &format!("Hash value '{value}' is not in {MIN_HASH_MB}..={max_hash}; ignored"),
                ),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(cp) if (-1000..=1000).contains(&cp) => self.engine().set_contempt(cp),
                _ => note(
                    &self.out,
                    &format!("Contempt value '{value}' is not in -1000..=1000; ignored"),
                ),
            },
            "repetition" => match value.parse::<Method>() {
                Ok(m) => self.engine().set_repetition(m),
                Err(e) => note(&self.out, &format!("Repetition: {e}; ignored")),
            },
            "upcomingrepetition" => {
                if let Some(on) = self.check_value("UpcomingRepetition", &value) {
                    self.engine().set_upcoming_repetition(on);
                }
            }
            "shadowscore" => {
                if let Some(on) = self.check_value("ShadowScore", &value) {
                    self.engine().set_shadow_score(if on {
                        ShadowScore::On
                    } else {
                        ShadowScore::Off
                    });
                }
            }
            "ownbook" => {
                if let Some(on) = self.check_value("OwnBook", &value) {
                    self.own_book = on;
                }
            }
            "uci_variant" => match Variant::parse(&value) {
                Some(v) => {
                    if v != self.variant {
                        self.engine().new_game();
                        self.variant = v;
                    }
                    self.game = GameRecord::start(v);
                    self.position_ok = true;
                }
                None => note(
                    &self.out,
                    &format!("UCI_Variant value '{value}' is not chess or xiangqi; ignored"),
                ),
            },
            "judge" => {
                if let Some(on) = self.check_value("Judge", &value) {
                    self.engine().set_judge(on);
                }
            }
            "level" => match value.parse::<u8>() {
                Ok(l) if l == 0 || level::LEVELS.contains(&l) => {
                    self.level = l;
                    if l > 0 {
                        note(
                            &self.out,
                            &format!(
                                "Level {l}: {}{}",
                                level::summary(l),
                                if self.limit_strength {
                                    "; UCI_LimitStrength is on and chooses the level by UCI_Elo"
                                } else {
                                    ""
                                }
                            ),
                        );
                    }
                }
                _ => note(
                    &self.out,
                    &format!(
                        "Level value '{value}' is not in 0..={}; ignored",
                        level::LEVELS.end()
                    ),
                ),
            },
            "uci_limitstrength" => {
                if let Some(on) = self.check_value("UCI_LimitStrength", &value) {
                    self.limit_strength = on;
                    self.say_level();
                }
            }
            "uci_elo" => {
                let (lo, hi) = level::elo_range();
                match value.parse::<i32>() {
                    Ok(e) => {
                        if !(lo..=hi).contains(&e) {
                            note(
                                &self.out,
                                &format!(
                                    "UCI_Elo {e} is outside {lo}..={hi}; taken as {}",
                                    e.clamp(lo, hi)
                                ),
                            );
                        }
                        self.uci_elo = e.clamp(lo, hi);
                        self.say_level();
                    }
                    Err(_) => note(
                        &self.out,
                        &format!("UCI_Elo value '{value}' is not a number; ignored"),
                    ),
                }
            }
            "threads" | "ponder" | "multipv" | "uci_chess960" | "uci_showwdl" => {}
            _ => note(&self.out, &format!("unknown option '{name}' ignored")),
        }
    }

    /// The level every `go` is narrowed to, if any: `UCI_Elo`'s when `UCI_LimitStrength` is on,
    /// else `Level`'s (0: none).
    fn level(&self) -> Option<u8> {
        if self.limit_strength {
            Some(level::from_elo(self.uci_elo))
        } else {
            (self.level > 0).then_some(self.level)
        }
    }

    /// With `UCI_LimitStrength` on, which level `UCI_Elo` chose.
    fn say_level(&self) {
        if self.limit_strength {
            let l = level::from_elo(self.uci_elo);
            note(
                &self.out,
                &format!("UCI_Elo {}: level {l}, {}", self.uci_elo, level::summary(l)),
            );
        }
    }

    /// The value of a `check` option, `true` or `false` in any case; anything else is
    /// noted as ignored and gives `None`.
    fn check_value(&self, option: &str, value: &str) -> Option<bool> {
        match value.to_ascii_lowercase().as_str() {
            "true" => Some(true),
            "false" => Some(false),
            _ => {
                note(
                    &self.out,
                    &format!("{option} value '{value}' is not true or false; ignored"),
                );
                None
            }
        }
    }

    fn position(&mut self, rest: &[&str]) {
        let mi = rest.iter().position(|w| *w == "moves");
        let (head, tail) = match mi {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let game = match self.variant {
            Variant::Chess => chess_position(head, tail),
            Variant::Xiangqi => xiangqi_position(head, tail),
        };
        match game {
            Ok(game) => {
                if let GameRecord::Xiangqi { start, .. } = &game
                    && let Some(w) = start.unreachable_warning()
                {
                    note(&self.out, &format!("xiangqi FEN: {w}"));
                }
                self.game = game;
                self.position_ok = true;
            }
            Err(why) => self.refuse_position(&why),
        }
    }

    /// A refused `position`: says why, and refuses `go` until a valid one comes.
    fn refuse_position(&mut self, why: &str) {
        self.position_ok = false;
        note(
            &self.out,
            &format!("{why}; position ignored, and go refused until a valid position"),
        );
    }

    fn go(&mut self, rest: &[&str]) {
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
            && let Some(b) = super::book::Book::builtin().choose(start, moves, &mut self.rng)
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
                    GameRecord::Chess { start, moves } => {
                        let mut on_info = |i: &SearchInfo| {
                            if !say(&out2, &info_line(i)) {
                                stop2.store(true, Ordering::SeqCst);
                            }
                        };
                        let r = engine.search_pondering(
                            &start,
                            &moves,
                            &limits,
                            &stop2,
                            pondering,
                            &mut on_info,
                        );
                        bestmove_line(r.best, r.ponder)
                    }
                    GameRecord::Xiangqi { start, moves } => {
                        let mut on_info = |i: &SearchInfo<xq::Move>| {
                            if !say(&out2, &info_line(i)) {
                                stop2.store(true, Ordering::SeqCst);
                            }
                        };
                        let r = engine.search_xiangqi_pondering(
                            &start,
                            &moves,
                            &limits,
                            &stop2,
                            pondering,
                            &mut on_info,
                        );
                        bestmove_line(r.best, r.ponder)
                    }
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

/// The start of a `position` command: `None` for `startpos`, the FEN's words joined for
/// `fen <fen>`; anything else is an error.
fn position_start(head: &[&str]) -> Result<Option<String>, String> {
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok(None),
        Some(&"fen") if head.len() > 1 => Ok(Some(head[1..].join(" "))),
        _ => Err("position needs 'startpos' or 'fen <fen>'".to_string()),
    }
}

/// The moves after `moves`, each read in the position it is played from (`parse` says why
/// one is refused, `play` makes it); the error names the move and its index.
fn replay<P: Clone, M: Copy>(
    start: &P,
    tail: &[&str],
    parse: impl Fn(&P, &str) -> Result<M, String>,
    play: impl Fn(&mut P, M),
) -> Result<Vec<M>, String> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(tail.len());
    for (i, text) in tail.iter().enumerate() {
        let m = parse(&pos, text)
            .map_err(|why| format!("illegal move '{text}' at index {i} of the move list{why}"))?;
        play(&mut pos, m);
        moves.push(m);
    }
    Ok(moves)
}

/// A chess `position`: `head` is `startpos` or `fen <fen>`, `tail` the moves after `moves`;
/// the error says what is wrong and where.
fn chess_position(head: &[&str], tail: &[&str]) -> Result<GameRecord, String> {
    let start = match position_start(head)? {
        None => Chess::default(),
        Some(fen) => threefold_rules::fen::position(&fen).map_err(|e| e.to_string())?,
    };
    let moves = replay(
        &start,
        tail,
        |pos, text| {
            UciMove::from_ascii(text.as_bytes())
                .ok()
                .and_then(|u| u.to_move(pos).ok())
                .ok_or_else(String::new)
        },
        |pos, m| pos.play_unchecked(m),
    )?;
    Ok(GameRecord::Chess { start, moves })
}

/// A xiangqi `position` (moves in UCCI coordinates), as [`chess_position`].
fn xiangqi_position(head: &[&str], tail: &[&str]) -> Result<GameRecord, String> {
    let start = match position_start(head)? {
        None => xq::Position::start(),
        Some(fen) => xq::Position::from_fen(&fen).map_err(|e| format!("xiangqi FEN: {e}"))?,
    };
    let moves = replay(
        &start,
        tail,
        |pos, text| xq::notation::parse_ucci(pos, text).map_err(|e| format!(" ({e})")),
        |pos, m| {
            pos.make(m);
        },
    )?;
    Ok(GameRecord::Xiangqi {
        start: Box::new(start),
        moves,
    })
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

/// A `setoption` line that names no option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetoptionError {
    /// No `name` keyword.
    #[error("setoption without 'name' (setoption name <id> [value <x>])")]
    NoName,
    /// `name` followed by no word (or directly by `value`).
    #[error("setoption with no option name after 'name'")]
    EmptyName,
    /// Words before the first keyword.
    #[error("setoption: '{0}' before 'name' or 'value' (setoption name <id> [value <x>])")]
    Stray(String),
}

/// Reads `setoption name <id> [value <x>]` by the keywords' positions: the name is the words
/// after `name` up to `value` (or the end), the value the words after `value` up to `name`
/// (or the end), in either order, so `setoption value 3 name Hash` sets Hash to 3. Names and
/// values may have several words; the first `name` and the first `value` are the keywords.
pub fn parse_setoption(rest: &[&str]) -> Result<(String, String), SetoptionError> {
    let ni = rest
        .iter()
        .position(|w| *w == "name")
        .ok_or(SetoptionError::NoName)?;
    let vi = rest.iter().position(|w| *w == "value");
    let first = vi.map_or(ni, |v| v.min(ni));
    if first > 0 {
        return Err(SetoptionError::Stray(rest[..first].join(" ")));
    }
    let (name, value) = match vi {
        None => (&rest[ni + 1..], &[][..]),
        // name <id> value <x>: the value runs to the end (it may contain "name").
        Some(v) if v > ni => (&rest[ni + 1..v], &rest[v + 1..]),
        // value <x> name <id>.
        Some(v) => (&rest[ni + 1..], &rest[v + 1..ni]),
    };
    if name.is_empty() {
        return Err(SetoptionError::EmptyName);
    }
    Ok((name.join(" "), value.join(" ")))
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
    fn setoption_reads_name_and_value_by_their_keywords() {
        let ok = |rest: &[&str], name: &str, value: &str| {
            assert_eq!(
                parse_setoption(rest),
                Ok((name.to_string(), value.to_string())),
                "{rest:?}"
            );
        };
        ok(&["name", "Hash", "value", "3"], "Hash", "3");
        ok(&["value", "3", "name", "Hash"], "Hash", "3");
        ok(&["name", "Clear", "Hash"], "Clear Hash", "");
        ok(
            &["name", "Path", "value", "a", "name", "b"],
            "Path",
            "a name b",
        );
        ok(&["name", "Hash", "value"], "Hash", "");
        assert_eq!(parse_setoption(&[]), Err(SetoptionError::NoName));
        assert_eq!(
            parse_setoption(&["value", "3"]),
            Err(SetoptionError::NoName)
        );
        assert_eq!(
            parse_setoption(&["name", "value", "3"]),
            Err(SetoptionError::EmptyName)
        );
        assert_eq!(
            parse_setoption(&["value", "3", "name"]),
            Err(SetoptionError::EmptyName)
        );
        assert_eq!(
            parse_setoption(&["Hash", "name", "Hash", "value", "3"]),
            Err(SetoptionError::Stray("Hash".into()))
        );
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
