//! Spawns `threefold uci` and speaks UCI to it: handshake, options, positions with long move
//! lists, go/stop, malformed input, and a short self-played game.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Uci {
    child: Child,
    stdin: ChildStdin,
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
            stdin,
            lines: rx,
        }
    }

    fn send(&mut self, s: &str) {
        writeln!(self.stdin, "{s}").unwrap();
        self.stdin.flush().unwrap();
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

    fn quit(mut self) -> String {
        self.send("quit");
        let out = self.child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
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
    u.send("setoption name Hash value 8");
    u.send("setoption name Contempt value 20");
    u.send("isready");
    u.until("readyok");
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
    // Malformed and unknown input is ignored; the engine keeps working.
    u.send("bogus command");
    u.send("position startpos moves e2e4 e7e4");
    u.send("go depth banana nodes 5000");
    u.until("bestmove");
    u.send("setoption name Hash value 0");
    u.send("position fen not a fen");
    u.send("isready");
    u.until("readyok");
    let stderr = u.quit();
    assert!(stderr.contains("unknown command 'bogus'"), "{stderr}");
    assert!(
        stderr.contains("illegal move 'e7e4' at index 1"),
        "{stderr}"
    );
    assert!(stderr.contains("Hash value '0'"), "{stderr}");
    assert!(stderr.contains("bad FEN"), "{stderr}");
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
    let stderr = u.quit();
    assert!(!stderr.contains("illegal move"), "{stderr}");
    assert!(moves.len() >= 10);
}
