//! End-to-end: the drill screen of the real binary in a pseudo-terminal
//! (vt100), with its own HOME / XDG dirs so no real progress file is touched.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{Session, temp_home};
use shakmaty::Position;
use threefold::drills::types::short_label;
use threefold::drills::{Answer, ClaimRule, EndingRule, Puzzle, load_builtin, solve};

/// A home with a two-humans config and an empty data dir.
fn drills_home(name: &str) -> PathBuf {
    let d = temp_home(&format!("drills-{name}"));
    std::fs::create_dir_all(d.join("data/threefold")).unwrap();
    std::fs::write(d.join("config/threefold/config.toml"), "human = \"both\"\n").unwrap();
    d
}

fn spawn(home: &Path) -> Session {
    Session::spawn_in(home.to_path_buf(), None, &[], &[], 120, 40)
}

/// The built-in puzzle on screen, drilled by theme. Its title is hidden until the answer
/// (it often names the answer); the title bar names the theme and the header says
/// "Puzzle k of n".
fn shown_puzzle(s: &Session) -> Puzzle {
    let screen = s.screen();
    let theme = screen
        .lines()
        .find_map(|l| l.split("Drills: ").nth(1))
        .map(|t| t.trim().trim_end_matches("(all themes)").trim().to_string())
        .unwrap_or_else(|| panic!("no theme in the title bar:\n{screen}"));
    let k: usize = screen
        .split("Puzzle ")
        .nth(1)
        .and_then(|r| r.split(" of ").next())
        .and_then(|k| k.parse().ok())
        .unwrap_or_else(|| panic!("no \"Puzzle k of n\" on screen:\n{screen}"));
    let coll = load_builtin();
    let t = coll
        .themes
        .iter()
        .find(|t| t.name == theme)
        .unwrap_or_else(|| panic!("no theme named {theme:?}"));
    let p = t.puzzles[k - 1].clone();
    assert!(
        !screen.contains(&p.title),
        "the title before the answer:\n{screen}"
    );
    p
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
        Answer::Count(plies) => {
            let plies = plies.as_slice().to_vec();
            let plies = if right {
                plies
            } else if plies == vec![game.len()] {
                vec![0, game.len()]
            } else {
                vec![game.len()]
            };
            plies
                .iter()
                .map(|&q| short_label(game, q))
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

#[test]
fn drills_one_right_one_wrong_with_feedback_and_saved_progress() {
    let home = drills_home("rightwrong");
    let mut s = spawn(&home);
    s.wait_for("Claim draw");
    s.send("d");
    s.wait_for("All themes");
    assert!(s.screen().contains("solved  0/216"), "{}", s.screen());
    // The first theme (under "All themes" the screen names neither the theme nor the
    // puzzle's place in it before the answer).
    s.send("j");
    s.send("\r");
    s.wait_for("Moves (");
    // The first puzzle: answered right (typed, in the files' words).
    let p = shown_puzzle(&s);
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
    assert!(s.screen().contains(&p.title), "{}", s.screen());
    // The next puzzle: answered wrong.
    s.send("n");
    s.wait_for("Enter submit");
    let q = shown_puzzle(&s);
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
    let home = drills_home("corrupt");
    let path = home.join("data/threefold/progress.toml");
    std::fs::write(&path, "version = [[[ not progress").unwrap();
    let mut s = spawn(&home);
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
