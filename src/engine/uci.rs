//! UCI front end (`threefold uci`).
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name <Hash|Contempt> value <n>`,
//! `position (startpos | fen <fen>) [moves <uci>...]`, `go [wtime|btime|winc|binc|movestogo|
//! movetime|depth|nodes <n>] [infinite]`, `stop`, `quit`. The moves after `position` are the
//! game record the repetition scan sees.
//!
//! The search runs on its own thread and owns the [`Engine`] while it runs; `stop` sets a
//! shared flag, the search answers with `bestmove` at once and hands the engine back. Unknown
//! or malformed lines are ignored with a one-line note on stderr; an illegal move in
//! `position` is reported (which move, which index) and the whole command is ignored.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen, uci::UciMove};

use super::{DEFAULT_HASH_MB, Engine, Limits, Score, SearchInfo, tt::MAX_HASH_MB};

/// Engine name announced by `uci`.
pub const NAME: &str = concat!("threefold ", env!("CARGO_PKG_VERSION"));

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

fn say(out: &Out, line: &str) {
    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// Formats a score for `info`.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// Formats an `info` line.
pub fn info_line(i: &SearchInfo) -> String {
    let pv: Vec<String> =
        i.pv.iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
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

struct Running {
    handle: JoinHandle<Engine>,
    stop: Arc<AtomicBool>,
}

/// The UCI loop state.
struct Uci {
    engine: Option<Engine>,
    running: Option<Running>,
    start: Chess,
    moves: Vec<Move>,
    out: Out,
}

/// Runs the UCI protocol on `input` / `output` until `quit` or end of input.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> std::io::Result<()> {
    let engine = Engine::new(DEFAULT_HASH_MB).map_err(std::io::Error::other)?;
    let mut u = Uci {
        engine: Some(engine),
        running: None,
        start: Chess::default(),
        moves: Vec::new(),
        out: Arc::new(Mutex::new(Box::new(output))),
    };
    for line in input.lines() {
        let line = line?;
        if !u.command(line.trim()) {
            break;
        }
    }
    u.finish();
    Ok(())
}

impl Uci {
    /// Waits for a running search (after stopping it if `stop`) and takes the engine back.
    fn join(&mut self, stop: bool) {
        if let Some(r) = self.running.take() {
            if stop {
                r.stop.store(true, Ordering::SeqCst);
            }
            match r.handle.join() {
                Ok(e) => self.engine = Some(e),
                Err(_) => {
                    eprintln!("info string search thread panicked; engine reset");
                    self.engine = Engine::new(DEFAULT_HASH_MB).ok();
                }
            }
        }
    }

    fn finish(&mut self) {
        self.join(true);
    }

    fn engine(&mut self) -> &mut Engine {
        self.join(false);
        if self.engine.is_none() {
            self.engine = Engine::new(1).ok();
        }
        self.engine.as_mut().expect("engine with a 1 MB table")
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
                        "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
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
                say(&self.out, "uciok");
            }
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.engine().new_game();
                self.start = Chess::default();
                self.moves.clear();
            }
            "setoption" => self.setoption(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => self.join(true),
            "ponderhit" => {}
            "quit" => return false,
            "debug" | "register" => {}
            other => eprintln!("threefold uci: unknown command '{other}' ignored"),
        }
        true
    }

    fn setoption(&mut self, rest: &[&str]) {
        // setoption name <id...> [value <x...>]
        let Some(ni) = rest.iter().position(|w| *w == "name") else {
            eprintln!("threefold uci: setoption without 'name' ignored");
            return;
        };
        let vi = rest.iter().position(|w| *w == "value");
        let name = rest[ni + 1..vi.unwrap_or(rest.len())].join(" ");
        let value = vi.map(|v| rest[v + 1..].join(" ")).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    if let Err(e) = self.engine().set_hash(mb) {
                        eprintln!("threefold uci: {e}; keeping the old table");
                    }
                }
                _ => eprintln!(
                    "threefold uci: Hash value '{value}' is not in 1..={MAX_HASH_MB}; ignored"
                ),
            },
            "contempt" => match value.parse::<i32>() {
                Ok(cp) if (-1000..=1000).contains(&cp) => self.engine().set_contempt(cp),
                _ => eprintln!(
                    "threefold uci: Contempt value '{value}' is not in -1000..=1000; ignored"
                ),
            },
            "threads" | "ponder" | "multipv" | "uci_chess960" | "uci_showwdl" => {}
            _ => eprintln!("threefold uci: unknown option '{name}' ignored"),
        }
    }

    fn position(&mut self, rest: &[&str]) {
        let mi = rest.iter().position(|w| *w == "moves");
        let (head, tail) = match mi {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &[][..]),
        };
        let start = match head.first() {
            Some(&"startpos") if head.len() == 1 => Chess::default(),
            Some(&"fen") if head.len() > 1 => {
                let text = head[1..].join(" ");
                let fen = match text.parse::<Fen>() {
                    Ok(f) => f,
                    Err(e) => {
                        eprintln!("threefold uci: bad FEN '{text}': {e}; position ignored");
                        return;
                    }
                };
                match fen.into_position::<Chess>(CastlingMode::Standard) {
                    Ok(p) => p,
                    Err(e) => {
                        eprintln!(
                            "threefold uci: illegal FEN position '{text}': {e}; position ignored"
                        );
                        return;
                    }
                }
            }
            _ => {
                eprintln!("threefold uci: position needs 'startpos' or 'fen <fen>'; ignored");
                return;
            }
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(tail.len());
        for (i, text) in tail.iter().enumerate() {
            let m = UciMove::from_ascii(text.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            match m {
                Some(m) => {
                    pos.play_unchecked(m);
                    moves.push(m);
                }
                None => {
                    eprintln!(
                        "threefold uci: illegal move '{text}' at index {i} of the move list; position ignored"
                    );
                    return;
                }
            }
        }
        self.start = start;
        self.moves = moves;
    }

    fn go(&mut self, rest: &[&str]) {
        let mut limits = Limits::default();
        let mut i = 0;
        let num = |s: Option<&&str>| s.and_then(|s| s.parse::<i64>().ok());
        let dur = |v: i64| Duration::from_millis(v.max(0) as u64);
        while i < rest.len() {
            let key = rest[i];
            let val = num(rest.get(i + 1));
            let takes_value = matches!(
                key,
                "wtime"
                    | "btime"
                    | "winc"
                    | "binc"
                    | "movestogo"
                    | "movetime"
                    | "depth"
                    | "nodes"
                    | "mate"
            );
            if takes_value && val.is_none() {
                eprintln!("threefold uci: go: '{key}' needs a number; ignored");
                i += 1;
                continue;
            }
            match (key, val) {
                ("wtime", Some(v)) => limits.wtime = Some(dur(v)),
                ("btime", Some(v)) => limits.btime = Some(dur(v)),
                ("winc", Some(v)) => limits.winc = Some(dur(v)),
                ("binc", Some(v)) => limits.binc = Some(dur(v)),
                ("movestogo", Some(v)) => limits.movestogo = Some(v.clamp(1, 1000) as u32),
                ("movetime", Some(v)) => limits.movetime = Some(dur(v)),
                ("depth", Some(v)) => limits.depth = Some(v.clamp(1, 1000) as u32),
                ("nodes", Some(v)) => limits.nodes = Some(v.max(1) as u64),
                ("mate", Some(v)) => limits.depth = Some((2 * v).clamp(1, 1000) as u32),
                ("infinite", _) => limits.infinite = true,
                ("ponder", _) => {}
                ("searchmoves", _) => {
                    eprintln!(
                        "threefold uci: go searchmoves is not supported; searching all moves"
                    );
                    while i + 1 < rest.len() && UciMove::from_ascii(rest[i + 1].as_bytes()).is_ok()
                    {
                        i += 1;
                    }
                }
                (other, _) => eprintln!("threefold uci: go: unknown parameter '{other}' ignored"),
            }
            i += if takes_value { 2 } else { 1 };
        }
        self.join(true);
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(1).expect("1 MB table"));
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let out = Arc::clone(&self.out);
        let start = self.start.clone();
        let moves = self.moves.clone();
        let spawn = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let out2 = Arc::clone(&out);
                let mut on_info = |i: &SearchInfo| say(&out2, &info_line(i));
                let r = engine.search(&start, &moves, &limits, &stop2, &mut on_info);
                if limits.infinite {
                    // UCI: no bestmove before `stop` in infinite mode.
                    while !stop2.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                let best = r.best.map(|m| m.to_uci(CastlingMode::Standard).to_string());
                let line = match (best, r.ponder) {
                    (Some(b), Some(p)) => {
                        format!("bestmove {b} ponder {}", p.to_uci(CastlingMode::Standard))
                    }
                    (Some(b), None) => format!("bestmove {b}"),
                    (None, _) => "bestmove 0000".to_string(),
                };
                say(&out, &line);
                engine
            });
        match spawn {
            Ok(handle) => self.running = Some(Running { handle, stop }),
            Err(e) => {
                eprintln!("threefold uci: cannot start the search thread: {e}");
                say(&self.out, "bestmove 0000");
            }
        }
    }
}
