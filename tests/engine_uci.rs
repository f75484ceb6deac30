//! Spawns `threefold uci` and speaks UCI to it: handshake, options, positions with long move
//! lists, go/stop, malformed input, commands during a search, and a short self-played game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

struct Uci {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Uci {
    fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn threefold uci");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin: Some(stdin),
            lines: rx,
        }
    }

    fn send(&mut self, s: &str) {
        self.send_bytes(format!("{s}\n").as_bytes());
    }

    fn send_bytes(&mut self, b: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(b).unwrap();
        stdin.flush().unwrap();
    }

    /// Every line that arrives within `t`.
    fn drain(&mut self, t: Duration) -> Vec<String> {
        let end = Instant::now() + t;
        let mut out = Vec::new();
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(l) => out.push(l),
                Err(_) => break,
            }
        }
        out
    }

    /// The next line that is not a search `info` line, within `t`.
    fn next_answer(&mut self, t: Duration) -> Result<String, RecvTimeoutError> {
        let end = Instant::now() + t;
        loop {
            let left = end
                .checked_duration_since(Instant::now())
                .ok_or(RecvTimeoutError::Timeout)?;
            let l = self.lines.recv_timeout(left)?;
            if !l.starts_with("info depth") {
                return Ok(l);
            }
        }
    }

    /// Waits for the process to end (killing it after `t`) and returns its stdout lines not
    /// yet read and whether it exited successfully on its own.
    fn wait_exit(mut self, t: Duration) -> (Vec<String>, bool) {
        drop(self.stdin.take());
        let end = Instant::now() + t;
        let ok = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status.success();
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break false;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        (self.drain(Duration::from_millis(200)), ok)
    }

    fn rss_kb(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no '{prefix}' line; got {out:?}"));
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Sends `quit`; returns the lines printed after the last one read, and stderr.
    fn quit(mut self) -> (Vec<String>, String) {
        self.send("quit");
        drop(self.stdin.take());
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success());
        let mut rest = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(500)) {
            rest.push(l);
        }
        (rest, String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[test]
fn handshake_options_and_go() {
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name threefold")));
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Hash type spin default 16 min 1 max 65536")
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Contempt type spin default 0"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l == "option name ShadowScore type check default false")
    );
    u.send("setoption name Hash value 8");
    u.send("setoption name Contempt value 20");
    u.send("setoption name ShadowScore value maybe");
    u.send("setoption name ShadowScore value true");
    u.send("isready");
    let lines = u.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("ShadowScore value 'maybe' is not true or false")),
        "{lines:?}"
    );
    u.send("ucinewgame");
    u.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    u.send("go depth 4");
    let lines = u.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4"))
        .expect("info depth 4");
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    // Malformed and unknown input is ignored with a note for the GUI; the engine keeps
    // working.
    u.send("bogus command");
    u.send("go depth banana nodes 5000");
    let mut notes = u.until("bestmove");
    u.send("position startpos moves e2e4 e7e4");
    u.send("setoption name Hash value 0");
    u.send("position fen not a fen");
    u.send("isready");
    notes.extend(u.until("readyok"));
    let notes = notes.join("\n");
    u.quit();
    for want in [
        "info string unknown command 'bogus' ignored",
        "info string illegal move 'e7e4' at index 1",
        "info string go: 'depth' needs a whole number, not 'banana'; ignored",
        "info string Hash value '0'",
        "info string invalid FEN 'not a fen'",
    ] {
        assert!(notes.contains(want), "{want}: {notes}");
    }
}

#[test]
fn stop_answers_at_once_and_threefold_is_seen() {
    let mut u = Uci::start();
    u.send("uci");
    u.until("uciok");
    u.send("position startpos");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    u.send("stop");
    let lines = u.until("bestmove");
    assert!(lines.last().unwrap().len() > 9);
    // Black is a knight up; after two shuffle cycles Kh1 repeats for the third time: White
    // (the engine) takes the draw.
    let fen = "n5k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1";
    let cyc = "g1h1 a8b6 h1g1 b6a8 g1h1 a8b6 h1g1 b6a8";
    u.send(&format!("position fen {fen} moves {cyc}"));
    u.send("go depth 5");
    let lines = u.until("bestmove");
    assert_eq!(
        lines.last().unwrap().split_whitespace().nth(1),
        Some("g1h1"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("score cp 0 ")), "{lines:?}");
    u.quit();
}

#[test]
fn plays_a_short_game_against_itself() {
    let mut u = Uci::start();
    u.send("uci");
    u.until("uciok");
    u.send("ucinewgame");
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..24 {
        u.send(&format!("position startpos moves {}", moves.join(" ")));
        u.send("go wtime 1000 btime 1000 winc 10 binc 10");
        let lines = u.until("bestmove");
        let best = lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string();
        if best == "0000" {
            break;
        }
        moves.push(best);
    }
    let (rest, _) = u.quit();
    assert!(!rest.join("\n").contains("illegal move"), "{rest:?}");
    assert!(moves.len() >= 10);
}

/// A GUI may send `ucinewgame`, `setoption` or `position` while a search runs: the engine
/// stops the search (its `bestmove` first), then obeys, and stays responsive to `isready`,
/// `stop`, `quit` and the end of input. The sequences reproduce issue 12's reports.
fn search_then(cmds: &[&str]) -> (Vec<String>, bool) {
    let mut u = Uci::start();
    u.send("uci");
    u.until("uciok");
    u.send("position startpos");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    for c in cmds {
        u.send(c);
    }
    u.send("isready");
    let mut answers = Vec::new();
    while let Ok(l) = u.next_answer(Duration::from_secs(5)) {
        let done = l == "readyok";
        answers.push(l);
        if done {
            break;
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    u.send("stop");
    u.send("quit");
    let (rest, ok) = u.wait_exit(Duration::from_secs(10));
    answers.extend(rest.into_iter().filter(|l| !l.starts_with("info depth")));
    (answers, ok)
}

#[test]
fn commands_that_need_the_engine_stop_the_search_first() {
    for cmds in [
        &["ucinewgame"][..],
        &["setoption name Hash value 32"],
        &["setoption name Contempt value 10"],
        &["position startpos moves e2e4"],
    ] {
        let (answers, exited) = search_then(cmds);
        assert!(exited, "{cmds:?}: the engine did not quit: {answers:?}");
        let best = answers.iter().position(|l| l.starts_with("bestmove"));
        let ready = answers.iter().position(|l| l == "readyok");
        assert!(
            matches!((best, ready), (Some(b), Some(r)) if b < r),
            "{cmds:?}: want bestmove then readyok, got {answers:?}"
        );
        assert_eq!(
            answers.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "{answers:?}"
        );
    }
}

#[test]
fn isready_is_answered_during_a_search_and_stop_quit_eof_work() {
    let mut u = Uci::start();
    u.send("position startpos");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    u.send("isready");
    // readyok comes while the infinite search runs on (no bestmove before it).
    assert_eq!(
        u.next_answer(Duration::from_secs(5)).as_deref(),
        Ok("readyok")
    );
    eprintln!("readyok during a search after {:?}", t.elapsed());
    u.send("stop");
    assert!(
        u.next_answer(Duration::from_secs(5))
            .unwrap()
            .starts_with("bestmove")
    );
    // The end of input during a search: bestmove, then a clean exit.
    u.send("go depth 40");
    std::thread::sleep(Duration::from_millis(100));
    let (rest, ok) = u.wait_exit(Duration::from_secs(10));
    assert!(ok, "{rest:?}");
    assert!(rest.iter().any(|l| l.starts_with("bestmove")), "{rest:?}");
    // quit during a search.
    let mut u = Uci::start();
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    u.send("quit");
    let (rest, ok) = u.wait_exit(Duration::from_secs(10));
    assert!(
        ok && rest.iter().any(|l| l.starts_with("bestmove")),
        "{rest:?}"
    );
}

#[test]
fn newgame_during_a_deep_search_does_not_block_isready() {
    let mut u = Uci::start();
    u.send("position startpos");
    u.send("go depth 40");
    std::thread::sleep(Duration::from_millis(200));
    u.send("ucinewgame");
    u.send("isready");
    let a = u.next_answer(Duration::from_secs(5)).unwrap();
    let b = u.next_answer(Duration::from_secs(5)).unwrap();
    assert!(a.starts_with("bestmove"), "{a}");
    assert_eq!(b, "readyok");
    u.quit();
}

#[test]
fn invalid_utf8_during_a_search_is_ignored() {
    let mut u = Uci::start();
    u.send("position startpos");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    u.send_bytes(b"setoption name Caf\xe9 value 1\n");
    u.send_bytes(b"\xff\xfe\n");
    u.send("isready");
    let mut lines = Vec::new();
    loop {
        let l = u.next_answer(Duration::from_secs(5)).unwrap();
        let done = l == "readyok";
        lines.push(l);
        if done {
            break;
        }
    }
    u.send("stop");
    lines.push(u.next_answer(Duration::from_secs(5)).unwrap());
    u.quit();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string unknown option 'Caf\u{fffd}' ignored"),
        "{lines:?}"
    );
    assert!(lines.last().unwrap().starts_with("bestmove"), "{lines:?}");
}

#[test]
fn a_large_hash_is_touched_before_readyok_and_an_impossible_one_is_refused() {
    let mut u = Uci::start();
    u.send("setoption name Hash value 1024");
    u.send("isready");
    let lines = u.until("readyok");
    let refused = lines.iter().any(|l| l.contains("Hash 1024 refused"));
    // Every page of the table is backed before `readyok`, not by page faults during the
    // search (which made a `go` with a clock overrun it several times with Hash 4096).
    if let Some(kb) = u.rss_kb()
        && !refused
    {
        assert!(
            kb >= 1024 * 1024,
            "resident {kb} kB after Hash 1024 and readyok"
        );
    }
    u.send("go depth 6");
    u.until("bestmove");
    // A new game clears the table in place: it stays resident.
    u.send("ucinewgame");
    u.send("isready");
    u.until("readyok");
    if let Some(kb) = u.rss_kb()
        && !refused
    {
        assert!(kb >= 1024 * 1024, "resident {kb} kB after ucinewgame");
    }
    // A size beyond the memory there is: refused with a note, and the engine still plays.
    let avail_mb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            let l = m
                .lines()
                .find(|l| l.starts_with("MemAvailable:"))?
                .to_string();
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map(|kb| kb / 1024);
    if avail_mb.is_some_and(|a| a < 60_000) {
        u.send("setoption name Hash value 65536");
        u.send("isready");
        let lines = u.until("readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string Hash 65536 refused") && l.contains("MB")),
            "{lines:?}"
        );
        u.send("go depth 6");
        u.until("bestmove");
    }
    u.quit();
}

#[test]
fn go_without_a_usable_limit_ends_by_itself() {
    // The other side's clock is no limit: `go wtime` with Black to move searched until the
    // input ended. Each case runs in its own engine, all at once (each takes the default 5 s).
    let cases = [
        ("position startpos", "go", "white"),
        ("position startpos", "go depth", "white"),
        ("position startpos", "go depth 1e20", "white"),
        (
            "position startpos moves e2e4",
            "go wtime 1000 winc 100",
            "black",
        ),
        ("position startpos", "go btime 1000", "white"),
        // Xiangqi: Red's clock is wtime, and the note names Red.
        (
            "setoption name UCI_Variant value xiangqi\nposition startpos",
            "go btime 1000",
            "red",
        ),
    ];
    let runs: Vec<_> = cases
        .iter()
        .map(|&(position, go, side)| {
            std::thread::spawn(move || {
                let mut u = Uci::start();
                u.send(position);
                u.send(go);
                let t = Instant::now();
                let lines = u.until("bestmove");
                let took = t.elapsed();
                u.quit();
                (position, go, side, lines, took)
            })
        })
        .collect();
    for run in runs {
        let (position, go, side, lines, took) = run.join().unwrap();
        let said = format!("info string go without a limit for {side} to move: searching 5 s");
        assert!(
            lines.iter().any(|l| l.starts_with(&said)),
            "{position} / {go}: {lines:?}"
        );
        assert!(
            took < Duration::from_secs(10),
            "{position} / {go}: {took:?}"
        );
    }
}

#[test]
fn every_repetition_detector_is_an_option_and_plays() {
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    assert!(lines.iter().any(|l| l
        == "option name Repetition type combo default zarkov var zarkov var belle var rookie var axon"));
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UpcomingRepetition type check default false")
    );
    // Black to move can repeat the start position a third time with f6g8: every detector
    // sees the repetition in the search and still answers.
    for method in ["belle", "rookie", "axon", "zarkov"] {
        u.send(&format!("setoption name Repetition value {method}"));
        u.send("setoption name UpcomingRepetition value true");
        u.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        u.send("go depth 6");
        let lines = u.until("bestmove");
        assert!(
            !lines.iter().any(|l| l.contains("info string")),
            "{method}: {lines:?}"
        );
    }
    u.send("setoption name Repetition value bogus");
    u.send("setoption name UpcomingRepetition value maybe");
    u.send("isready");
    let notes = u.until("readyok").join("\n");
    u.quit();
    assert!(
        notes.contains("info string Repetition: unknown repetition detector 'bogus'"),
        "{notes}"
    );
    assert!(
        notes.contains("info string UpcomingRepetition value 'maybe' is not true or false"),
        "{notes}"
    );
}

#[test]
fn go_ponder_answers_only_after_ponderhit_or_stop() {
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name Ponder type check default false"),
        "{lines:?}"
    );
    // The deadline counts from ponderhit: none of it is spent while pondering.
    u.send("position startpos moves e2e4");
    u.send("go ponder movetime 100");
    let early = u.drain(Duration::from_millis(800));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    u.send("ponderhit");
    let lines = u.until("bestmove");
    assert!(
        lines.last().unwrap().starts_with("bestmove e7"),
        "{lines:?}"
    );
    // A ponder search that ends by itself (depth 2) still waits for ponderhit or stop.
    u.send("go ponder depth 2");
    let early = u.drain(Duration::from_millis(500));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    u.send("stop");
    u.until("bestmove");
    // ponderhit with no pondering search: a note, nothing else.
    u.send("ponderhit");
    u.send("isready");
    let lines = u.until("readyok");
    assert_eq!(
        lines,
        [
            "info string ponderhit without a 'go ponder' search ignored",
            "readyok"
        ]
    );
    u.quit();
}

#[test]
fn go_after_a_refused_position_is_refused_until_a_valid_one() {
    let mut u = Uci::start();
    u.send("position startpos moves e2e4");
    u.send("position startpos moves e2e5");
    u.send("go depth 1");
    let lines = u.until("bestmove");
    assert_eq!(
        lines,
        [
            "info string illegal move 'e2e5' at index 0 of the move list; position ignored, \
             and go refused until a valid position",
            "info string go refused: the last position was refused and no valid one came since",
            "bestmove 0000",
        ]
    );
    // A valid position ends the refusal: Black (after e2e4) moves.
    u.send("position startpos moves e2e4");
    u.send("go depth 1");
    let lines = u.until("bestmove");
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove 0000",
        "{lines:?}"
    );
    assert!(
        best[9..].starts_with(|c: char| c.is_ascii_lowercase()),
        "{best}"
    );
    assert!(
        ["7", "8"].contains(&&best[10..11]),
        "a Black move from rank 7 or 8: {best}"
    );
    // So does ucinewgame.
    u.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
    u.send("ucinewgame");
    u.send("go depth 1");
    let lines = u.until("bestmove");
    assert_ne!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    u.quit();
}

#[test]
fn mate_and_setoption_are_read_as_given() {
    let mut u = Uci::start();
    u.send("position startpos");
    u.send("go mate -3 depth 1");
    let lines = u.until("bestmove");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string go: mate -3 is not a number of moves (1 or more); ignored"),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("-6")), "{lines:?}");
    // name and value in either order; the value is read as Hash's.
    u.send("setoption value 0 name Hash");
    u.send("setoption value 3 name Hash");
    u.send("setoption Hash name Hash value 3");
    u.send("setoption name value 3");
    u.send("isready");
    let lines = u.until("readyok");
    assert_eq!(
        lines,
        [
            "info string Hash value '0' is not in 1..=65536; ignored",
            "info string setoption: 'Hash' before 'name' or 'value' (setoption name <id> \
             [value <x>]); ignored",
            "info string setoption with no option name after 'name'; ignored",
            "readyok"
        ]
    );
    u.quit();
}

/// `OwnBook`: off by default (the engine searches from the start); on, `go` from a game that
/// follows the book is answered at once with a book move and the line's name, and a game
/// off the book is searched.
#[test]
fn own_book_answers_from_the_book_only_when_asked() {
    let book = threefold::engine::chess::book::Book::builtin();
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    assert!(
        lines.contains(&"option name OwnBook type check default false".to_string()),
        "{lines:?}"
    );
    // Off: a search (info lines before bestmove).
    u.send("position startpos");
    u.send("go depth 3");
    let out = u.until("bestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    // On: the book's move, named, without a search.
    u.send("setoption name OwnBook value true");
    u.send("position startpos moves e2e4 c7c5");
    u.send("go depth 3");
    let out = u.until("bestmove");
    assert!(!out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string book: Sicilian Defence")),
        "{out:?}"
    );
    let best = out
        .last()
        .unwrap()
        .trim_start_matches("bestmove ")
        .to_string();
    let sicilian_thirds: Vec<String> = book
        .lines()
        .iter()
        .filter(|l| l.name.starts_with("Sicilian") && l.moves[1].to_string().contains("c7"))
        .map(|l| {
            l.moves[2]
                .to_uci(shakmaty::CastlingMode::Standard)
                .to_string()
        })
        .collect();
    assert!(
        sicilian_thirds.contains(&best),
        "{best} not in {sicilian_thirds:?}"
    );
    // Off the book: searched again.
    u.send("position startpos moves h2h4");
    u.send("go depth 3");
    let out = u.until("bestmove");
    assert!(out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
    u.quit();
}

// Xiangqi (`setoption name UCI_Variant value xiangqi`): the same loop, moves in UCCI
// coordinates (files a-i, ranks 0-9 from Red's side).

/// The xiangqi position `fen` (the start when `None`) after `moves`, each one checked legal
/// by the xiangqi crate as it is played.
fn xiangqi_after(fen: Option<&str>, moves: &[&str]) -> threefold::xiangqi::Position {
    use threefold::xiangqi::{Position, notation::parse_ucci};
    let mut pos = fen.map_or_else(Position::start, |f| Position::from_fen(f).unwrap());
    for m in moves {
        let mv = parse_ucci(&pos, m).unwrap_or_else(|e| panic!("{m} after {moves:?}: {e}"));
        pos.make(mv);
    }
    pos
}

/// The move of a search's last line, `bestmove <move> [ponder <move>]`.
fn bestmove(lines: &[String]) -> String {
    let last = lines.last().expect("a bestmove line");
    let mut w = last.split_whitespace();
    assert_eq!(w.next(), Some("bestmove"), "{lines:?}");
    w.next().expect("a move after bestmove").to_string()
}

/// Whether `m` (UCCI) is a legal move in `pos`.
fn xiangqi_legal(pos: &threefold::xiangqi::Position, m: &str) -> bool {
    threefold::xiangqi::notation::parse_ucci(pos, m).is_ok()
}

#[test]
fn xiangqi_is_a_variant_that_answers_in_ucci_and_chess_comes_back() {
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    for want in [
        "option name UCI_Variant type combo default chess var chess var xiangqi",
        "option name Judge type check default true",
    ] {
        assert!(lines.iter().any(|l| l == want), "{want}: {lines:?}");
    }
    u.send("setoption name UCI_Variant value xiangqi");
    u.send("position startpos moves h2e2 h9g7");
    u.send("go depth 4");
    let lines = u.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let pos = xiangqi_after(None, &["h2e2", "h9g7"]);
    let best = bestmove(&lines);
    assert!(xiangqi_legal(&pos, &best), "{best}: {lines:?}");
    // The principal variation is a line of legal UCCI moves too.
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4 "))
        .expect("info depth 4");
    let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap().split(' ').collect();
    let mut after = vec!["h2e2", "h9g7"];
    after.extend(&pv);
    xiangqi_after(None, &after);
    // A variant the engine does not play: a note, and xiangqi goes on (h2e2 is no chess move).
    u.send("setoption name UCI_Variant value shogi");
    u.send("position startpos moves h2e2");
    u.send("go depth 2");
    let lines = u.until("bestmove");
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(
        notes,
        ["info string UCI_Variant value 'shogi' is not chess or xiangqi; ignored"],
        "{lines:?}"
    );
    let best = bestmove(&lines);
    assert!(
        xiangqi_legal(&xiangqi_after(None, &["h2e2"]), &best),
        "{best}: {lines:?}"
    );
    // Judge: a check option like the others.
    u.send("setoption name Judge value false");
    u.send("setoption name Judge value maybe");
    u.send("isready");
    assert_eq!(
        u.until("readyok"),
        [
            "info string Judge value 'maybe' is not true or false; ignored",
            "readyok"
        ]
    );
    // Back to chess: chess positions and moves again.
    u.send("setoption name UCI_Variant value chess");
    u.send("position startpos moves e2e4");
    u.send("go depth 3");
    let lines = u.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    let best = bestmove(&lines);
    let mut chess = shakmaty::Chess::default();
    for m in ["e2e4", best.as_str()] {
        let mv = shakmaty::uci::UciMove::from_ascii(m.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&chess).ok())
            .unwrap_or_else(|| panic!("{m} is no legal chess move: {lines:?}"));
        shakmaty::Position::play_unchecked(&mut chess, mv);
    }
    u.quit();
}

#[test]
fn isready_is_answered_during_a_xiangqi_search_and_stop_gives_bestmove() {
    let mut u = Uci::start();
    u.send("setoption name UCI_Variant value xiangqi");
    u.send("position startpos moves h2e2");
    u.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    u.send("isready");
    // readyok while the infinite search runs on: no bestmove before it.
    assert_eq!(
        u.next_answer(Duration::from_secs(5)).as_deref(),
        Ok("readyok")
    );
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let early = u.drain(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    u.send("stop");
    let best = u.next_answer(Duration::from_secs(5)).unwrap();
    let best = bestmove(&[best]);
    assert!(
        xiangqi_legal(&xiangqi_after(None, &["h2e2"]), &best),
        "{best}"
    );
    u.quit();
}

#[test]
fn bad_xiangqi_input_is_one_note_and_go_is_refused_until_a_valid_position() {
    let mut u = Uci::start();
    u.send("setoption name UCI_Variant value xiangqi");
    for (position, why) in [
        // Malformed: five ranks.
        (
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9 w",
            "xiangqi FEN: bad FEN: 5 ranks (expected 10)",
        ),
        // Two red kings.
        (
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKKBNR w",
            "xiangqi FEN: bad FEN: more than 1 red king",
        ),
        // A WXF move where UCI takes only UCCI coordinates.
        (
            "position startpos moves C2=5",
            "illegal move 'C2=5' at index 0 of the move list ('C2=5' is not a UCCI move (from \
             and to point, files a-i, ranks 0-9: like h2e2))",
        ),
        // The rook's way up the a-file is blocked by its own pawn on a3.
        (
            "position startpos moves a0a5",
            "illegal move 'a0a5' at index 0 of the move list (illegal move a0a5: the red rook \
             on a0 cannot move to a5)",
        ),
        // A chess move: no xiangqi piece stands on e2.
        (
            "position startpos moves e2e4",
            "illegal move 'e2e4' at index 0 of the move list (illegal move e2e4: no piece on \
             e2)",
        ),
        // Fairy-Stockfish's ranks 1-10 (its a10a9 is UCCI's a9a8): rank 10 is no UCCI square.
        (
            "position startpos moves h2e2 a10a9",
            "illegal move 'a10a9' at index 1 of the move list ('a10a9' is not a UCCI move \
             (from and to point, files a-i, ranks 0-9: like h2e2))",
        ),
    ] {
        u.send(position);
        u.send("go depth 1");
        let lines = u.until("bestmove");
        assert_eq!(
            lines,
            [
                format!(
                    "info string {why}; position ignored, and go refused until a valid position"
                ),
                "info string go refused: the last position was refused and no valid one came \
                 since"
                    .to_string(),
                "bestmove 0000".to_string(),
            ],
            "{position}"
        );
        // The loop goes on: a valid position is searched.
        u.send("position startpos moves h2e2");
        u.send("go depth 1");
        let lines = u.until("bestmove");
        let best = bestmove(&lines);
        assert!(
            xiangqi_legal(&xiangqi_after(None, &["h2e2"]), &best),
            "after {position}: {lines:?}"
        );
    }
    // A king outside its palace breaks the rules of the board: refused too.
    u.send("position fen 3k5/9/9/9/9/9/9/9/9/K8 w");
    u.send("go depth 1");
    let lines = u.until("bestmove");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove 0000"),
        "{lines:?}"
    );
    // A pawn behind its start (the WXF manual's diagrams 71-75): no game reaches it, but the
    // position is taken with one note, and searched.
    u.send("position fen 4k4/9/9/9/9/9/9/9/4P4/3K5 w");
    u.send("go depth 2");
    let lines = u.until("bestmove");
    let notes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(
        notes,
        [
            "info string xiangqi FEN: no game reaches this position (the red pawn on e1 is behind \
          the pawns' start); it is taken as given"
        ],
        "{lines:?}"
    );
    assert_ne!(bestmove(&lines), "0000", "{lines:?}");
    u.quit();
}

/// The engine plays 30 plies against itself from a game that has already repeated its start
/// position twice (the judge reads the whole game at every search): every bestmove is legal
/// where it is played, and no note is printed.
#[test]
fn a_self_played_xiangqi_game_from_a_repetition_is_legal() {
    let mut u = Uci::start();
    u.send("setoption name UCI_Variant value xiangqi");
    u.send("ucinewgame");
    let mut moves: Vec<String> = "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9"
        .split(' ')
        .map(String::from)
        .collect();
    let mut pos = xiangqi_after(None, &[]);
    for m in &moves {
        pos.make(threefold::xiangqi::notation::parse_ucci(&pos, m).unwrap());
    }
    assert_eq!(pos.fen(), threefold::xiangqi::Position::start().fen());
    for _ in 0..30 {
        u.send(&format!("position startpos moves {}", moves.join(" ")));
        u.send("go nodes 2000");
        let lines = u.until("bestmove");
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:?}"
        );
        let best = bestmove(&lines);
        if best == "0000" {
            assert!(pos.legal_moves().is_empty(), "{moves:?}: {lines:?}");
            break;
        }
        let m = threefold::xiangqi::notation::parse_ucci(&pos, &best)
            .unwrap_or_else(|e| panic!("{best} after {moves:?}: {e}"));
        pos.make(m);
        moves.push(best);
    }
    assert!(moves.len() >= 8 + 20, "{moves:?}");
    u.quit();
}

/// The engine sees the whole game: Red's cannon has chased Black's rook between the a- and
/// b-files for two cycles (the example of the xiangqi crate's documentation), and Black's
/// rook, escaping to b7 as every time, makes the position stand for the third time. With the
/// game's moves the judge rules Red's perpetual chase a loss for Red (a mate score for Black);
/// from the same position without them the move is no win; with `Judge false` the third
/// occurrence is a draw.
#[test]
fn the_xiangqi_judge_rules_the_whole_game() {
    let start = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";
    let game = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";
    let now = xiangqi_after(Some(start), &game.split(' ').collect::<Vec<_>>()).fen();
    let last_info = |lines: &[String]| {
        lines
            .iter()
            .rfind(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap_or_default()
    };
    let mut u = Uci::start();
    u.send("setoption name UCI_Variant value xiangqi");
    u.send(&format!("position fen {start} moves {game}"));
    u.send("go nodes 2000");
    let lines = u.until("bestmove");
    assert_eq!(bestmove(&lines), "a7b7", "{lines:?}");
    assert!(last_info(&lines).contains(" score mate 1 "), "{lines:?}");
    u.send(&format!("position fen {now}"));
    u.send("go nodes 2000");
    let lines = u.until("bestmove");
    assert!(last_info(&lines).contains(" score cp "), "{lines:?}");
    u.send("setoption name Judge value false");
    u.send(&format!("position fen {start} moves {game}"));
    u.send("go nodes 2000");
    let lines = u.until("bestmove");
    assert_eq!(bestmove(&lines), "a7b7", "{lines:?}");
    assert!(last_info(&lines).contains(" score cp 0 "), "{lines:?}");
    u.quit();
}

/// The deepest `info depth` and the most nodes reported in `lines`.
fn deepest(lines: &[String]) -> (u32, u64) {
    let field = |l: &str, k: &str| -> Option<u64> {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == k)?;
        w.get(i + 1)?.parse().ok()
    };
    lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .fold((0, 0), |(d, n), l| {
            (
                d.max(field(l, "depth").unwrap_or(0) as u32),
                n.max(field(l, "nodes").unwrap_or(0)),
            )
        })
}

#[test]
fn level_and_uci_elo_narrow_every_go_to_the_trainers_levels() {
    use threefold::engine::level;
    let mut u = Uci::start();
    u.send("uci");
    let lines = u.until("uciok");
    let (lo, hi) = level::elo_range();
    for want in [
        "option name Level type spin default 0 min 0 max 8".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!(
            "option name UCI_Elo type spin default {} min {lo} max {hi}",
            level::elo(4).elo
        ),
    ] {
        assert!(lines.contains(&want), "{want} not in {lines:?}");
    }
    // Level 1 searches depth 1 whatever the go asks.
    u.send("setoption name Level value 1");
    u.send("position startpos moves e2e4");
    u.send("go depth 6");
    let out = u.until("bestmove");
    let named = format!(
        "info string Level 1: measured {} ± {} ({})",
        level::elo(1).elo,
        level::elo(1).err,
        level::describe(1)
    );
    assert!(out.contains(&named), "{named} not in {out:?}");
    assert_eq!(deepest(&out).0, 1);
    // Level 5: its nodes, with a clock that would allow far more.
    u.send("setoption name Level value 5");
    u.send("go wtime 600000 btime 600000");
    let nodes = level::level(5).nodes.unwrap();
    let (_, n) = deepest(&u.until("bestmove"));
    assert!(n > 0 && n <= nodes, "{n} nodes at level 5 ({nodes})");
    // Out of range: refused, the level kept.
    u.send("setoption name Level value 9");
    u.send("go depth 9");
    let out = u.until("bestmove");
    assert!(
        out.iter()
            .any(|l| l == "info string Level value '9' is not in 0..=8; ignored"),
        "{out:?}"
    );
    assert!(deepest(&out).1 <= nodes, "{out:?}");
    // UCI_LimitStrength with UCI_Elo: the nearest level, named; it replaces Level.
    u.send("setoption name UCI_LimitStrength value true");
    u.send(&format!(
        "setoption name UCI_Elo value {}",
        level::elo(2).elo
    ));
    u.send("go depth 6");
    let out = u.until("bestmove");
    assert!(
        out.iter().any(|l| l.starts_with(&format!(
            "info string UCI_Elo {}: level 2,",
            level::elo(2).elo
        ))),
        "{out:?}"
    );
    assert_eq!(deepest(&out).0, 2, "{out:?}");
    // Beyond the strongest level: the strongest, said so; not a number: refused.
    u.send(&format!("setoption name UCI_Elo value {}", hi + 1));
    u.send("setoption name UCI_Elo value strong");
    let out = u.drain(Duration::from_millis(300));
    for want in [
        format!(
            "info string UCI_Elo {} is outside {lo}..={hi}; taken as {hi}",
            hi + 1
        ),
        "info string UCI_Elo value 'strong' is not a number; ignored".to_string(),
    ] {
        assert!(out.contains(&want), "{want} not in {out:?}");
    }
    assert!(
        out.iter()
            .any(|l| l.starts_with(&format!("info string UCI_Elo {hi}: level 8,"))),
        "{out:?}"
    );
    // Off, and Level 0: full strength again.
    u.send("setoption name UCI_LimitStrength value false");
    u.send("setoption name Level value 0");
    u.send("go depth 6");
    assert_eq!(deepest(&u.until("bestmove")).0, 6);
    u.quit();
}

/// A `position` line longer than the loop reads is a refused position: the `go` after it
/// answers `bestmove 0000` with a note, not a move of the position before (it did), until a
/// valid position comes.
#[test]
fn an_over_long_position_refuses_go_until_a_valid_one() {
    let mut u = Uci::start();
    u.send("position startpos moves e2e4");
    let mut long = b"position startpos moves".to_vec();
    while long.len() <= threefold::engine::uci::MAX_LINE_BYTES {
        long.extend_from_slice(b" e2e4 e7e5");
    }
    long.push(b'\n');
    u.send_bytes(&long);
    u.send("go depth 1");
    let lines = u.until("bestmove");
    assert_eq!(
        lines,
        [
            format!(
                "info string input line longer than {} bytes (a position command); position \
                 ignored, and go refused until a valid position",
                threefold::engine::uci::MAX_LINE_BYTES
            ),
            "info string go refused: the last position was refused and no valid one came since"
                .to_string(),
            "bestmove 0000".to_string(),
        ]
    );
    // Another over-long line is only noted.
    let mut long = b"setoption name".to_vec();
    long.resize(threefold::engine::uci::MAX_LINE_BYTES + 10, b'x');
    long.push(b'\n');
    u.send_bytes(&long);
    u.send("position startpos");
    u.send("go depth 1");
    let lines = u.until("bestmove");
    assert_eq!(
        lines[0],
        format!(
            "info string input line longer than {} bytes ignored",
            threefold::engine::uci::MAX_LINE_BYTES
        )
    );
    assert_ne!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
    u.quit();
}

/// `go nodes` with a number beyond 64 bits searches until `stop` (the largest count) and
/// says so; it was a silent plain search.
#[test]
fn an_overflowing_go_number_is_said() {
    let mut u = Uci::start();
    u.send("position startpos");
    u.send("go nodes 99999999999999999999999999");
    let note = u.next_answer(Duration::from_secs(20)).unwrap();
    assert_eq!(
        note,
        format!(
            "info string go: nodes 99999999999999999999999999 is beyond the numbers read; \
             taken as the largest, {}",
            i64::MAX
        )
    );
    u.send("stop");
    let best = u.until("bestmove");
    assert_ne!(best.last().unwrap(), "bestmove 0000", "{best:?}");
    u.quit();
}

/// Standard output that cannot be written (a full disk; the GUI gone): the loop stops and
/// exits non-zero with one line on stderr. It searched on and exited 0.
#[cfg(target_os = "linux")]
#[test]
fn uci_ends_with_an_error_when_the_gui_cannot_be_written_to() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Enough lines for the loop to see the error after `uci`; it must not wait for the end
    // of its input (stdin stays open) nor search the `go infinite`.
    writeln!(stdin, "uci").unwrap();
    let _ = writeln!(stdin, "isready");
    let _ = writeln!(stdin, "go infinite");
    let _ = stdin.flush();
    let end = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < end, "threefold uci still runs");
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "error: cannot write to the GUI (standard output): No space left on device (os error 28)"
    );
}
