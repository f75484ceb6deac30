//! End-to-end: the drill screen of the real binary in a pseudo-terminal
//! (vt100), with its own HOME / XDG dirs so no real progress file is touched.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use shakmaty::Position;
use threefold::drills::types::short_label;
use threefold::drills::{Answer, ClaimRule, EndingRule, Puzzle, load_builtin, solve};

struct Session {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    _master: Box<dyn MasterPty + Send>,
}

fn temp_home(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("threefold-dpty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("config/threefold")).unwrap();
    std::fs::create_dir_all(d.join("data/threefold")).unwrap();
    std::fs::write(d.join("config/threefold/config.toml"), "human = \"both\"\n").unwrap();
    d
}

impl Session {
    fn spawn(home: &PathBuf) -> Session {
        let (cols, rows) = (120u16, 40u16);
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_threefold"));
        cmd.env("HOME", home);
        cmd.env("XDG_CONFIG_HOME", home.join("config"));
        cmd.env("XDG_DATA_HOME", home.join("data"));
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        cmd.cwd(home);
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(
            rows.try_into().unwrap(),
            cols.try_into().unwrap(),
            0,
        )));
        let mut reader = pair.master.try_clone_reader().unwrap();
        let p2 = Arc::clone(&parser);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p2.lock().unwrap().process(&buf[..n]);
            }
        });
        let writer = pair.master.take_writer().unwrap();
        Session {
            parser,
            writer,
            child,
            _master: pair.master,
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    fn wait_for(&self, text: &str) {
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(20) {
            if self.screen().contains(text) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting for {text:?}; screen:\n{}", self.screen());
    }

    fn send(&mut self, s: &str) {
        self.writer.write_all(s.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(30));
    }

    fn quit_and_check_restored(mut self) {
        self.send("q");
        let t0 = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status:?}");
                break;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(10),
                "did not quit:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        let p = self.parser.lock().unwrap();
        let s = p.screen();
        assert!(!s.alternate_screen(), "still on the alternate screen");
        assert!(!s.hide_cursor(), "cursor still hidden");
        assert_eq!(s.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    }

    /// The built-in puzzle whose title is on screen (the longest that fits).
    fn shown_puzzle(&self) -> Puzzle {
        let s = self.screen();
        load_builtin()
            .puzzles()
            .filter(|p| s.contains(&p.title))
            .max_by_key(|p| p.title.len())
            .unwrap_or_else(|| panic!("no puzzle title on screen:\n{s}"))
            .clone()
    }
}

/// A typed answer (the words the puzzle files use), right or wrong.
fn answer_text(p: &Puzzle, right: bool) -> String {
    let game = p.game();
    match solve(p).unwrap().answer {
        Answer::Claim(r) => {
            let r = if right {
                r
            } else if r == ClaimRule::None {
                ClaimRule::Both
            } else {
                ClaimRule::None
            };
            r.code().to_string()
        }
        Answer::Ending(e) => {
            let e = if right {
                e
            } else if e == EndingRule::Checkmate {
                EndingRule::Stalemate
            } else {
                EndingRule::Checkmate
            };
            e.code().to_string()
        }
        Answer::Same(b) => if b == right { "yes" } else { "no" }.to_string(),
        Answer::Moves(ms) => {
            let san = |m| shakmaty::san::San::from_move(game.position(), m).to_string();
            match (right, ms.is_empty()) {
                (true, true) => "none".to_string(),
                (true, false) => ms.into_iter().map(san).collect::<Vec<_>>().join(" "),
                (false, true) => san(game.position().legal_moves()[0]),
                (false, false) => "none".to_string(),
            }
        }
        Answer::Count { plies, .. } => {
            let plies = if right {
                plies
            } else if plies == vec![game.len()] {
                vec![0, game.len()]
            } else {
                vec![game.len()]
            };
            plies
                .iter()
                .map(|&q| short_label(&game, q))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

#[test]
fn drills_one_right_one_wrong_with_feedback_and_saved_progress() {
    let home = temp_home("rightwrong");
    let mut s = Session::spawn(&home);
    s.wait_for("Claim draw");
    s.send("d");
    s.wait_for("All themes");
    assert!(s.screen().contains("solved  0/58"), "{}", s.screen());
    s.send("\r");
    s.wait_for("Moves (");
    // The first puzzle: answered right (typed, in the files' words).
    let p = s.shown_puzzle();
    s.send("i");
    s.wait_for("Your answer:");
    s.send(&answer_text(&p, true));
    s.send("\r");
    if p.question.code() == "claim-moves" {
        s.wait_for("Your moves: {");
        s.send("\r");
    }
    s.wait_for("Right!");
    s.wait_for("n next");
    // The next puzzle: answered wrong.
    s.send("n");
    s.wait_for("Enter submit");
    let q = s.shown_puzzle();
    assert_ne!(p.id, q.id);
    s.send("i");
    s.wait_for("Your answer:");
    s.send(&answer_text(&q, false));
    s.send("\r");
    if q.question.code() == "claim-moves" {
        std::thread::sleep(Duration::from_millis(100));
        s.send("\r");
    }
    s.wait_for("Wrong.");
    s.wait_for("The answer:");
    // Back to the theme list: the score counts both answers.
    s.send("\x1b");
    s.wait_for("All themes");
    s.wait_for("score   1/2");
    let saved = std::fs::read_to_string(home.join("data/threefold/progress.toml")).unwrap();
    assert!(saved.contains(&p.id), "{saved}");
    s.quit_and_check_restored();
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn a_corrupt_progress_file_is_set_aside_with_a_message() {
    let home = temp_home("corrupt");
    let path = home.join("data/threefold/progress.toml");
    std::fs::write(&path, "version = [[[ not progress").unwrap();
    let mut s = Session::spawn(&home);
    s.wait_for("Claim draw");
    s.send("d");
    s.wait_for("All themes");
    s.wait_for("was unreadable");
    let aside = std::fs::read_dir(home.join("data/threefold"))
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().contains(".corrupt-"));
    assert!(aside);
    s.quit_and_check_restored();
    let _ = std::fs::remove_dir_all(&home);
}
