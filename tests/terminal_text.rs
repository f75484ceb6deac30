//! Text from a file or the command line reaches the terminal with its control
//! characters escaped, in every command: a PGN tag `AAA ESC [2J ESC ]0;PWNED BEL`
//! cleared the screen and set the window title through `review`'s report.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// A file of this test's own in the target directory.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal_text");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Every byte a terminal acts on: C0 but newline, DEL, and C1 (as UTF-8).
fn assert_no_control(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(
        bad.is_empty(),
        "{what}: raw control characters {bad:?} in {text}"
    );
}

const HOSTILE: &str = "AAA\u{1b}[2J\u{1b}]0;PWNED\u{7}";
const SHOWN: &str = "AAA\\e[2J\\e]0;PWNED\\a";

fn hostile_pgn() -> PathBuf {
    file(
        "hostile.pgn",
        &format!(
            "[Event \"x\"]\n[White \"{HOSTILE}\"]\n[Black \"B\u{9b}31m\"]\n[Result \"*\u{1b}c\"]\n\n\
             1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n"
        ),
    )
}

#[test]
fn review_report_escapes_tags() {
    let pgn = hostile_pgn();
    let out = run(&["review", "--pgn", pgn.to_str().unwrap(), "--no-engine"]);
    assert!(out.status.success(), "{out:?}");
    assert_no_control("review", &out.stdout);
    assert_no_control("review stderr", &out.stderr);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(SHOWN),
        "the escape is shown, not dropped: {text}"
    );
    assert!(text.contains("B\\u{9b}31m"), "{text}");
    let out = run(&[
        "review",
        "--pgn",
        pgn.to_str().unwrap(),
        "--no-engine",
        "--json",
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_no_control("review --json", &out.stdout);
}

#[test]
fn error_lines_escape_what_they_quote() {
    // A move typed on the command line, quoted in the error.
    let out = run(&["xiangqi", "judge", "--moves", &format!("h2e2 {HOSTILE}")]);
    assert_eq!(out.status.code(), Some(2));
    assert_no_control("xiangqi judge error", &out.stderr);
    assert!(String::from_utf8_lossy(&out.stderr).contains(SHOWN));
    let out = run(&["analyze", "--moves", &format!("e2e4 {HOSTILE}")]);
    assert_eq!(out.status.code(), Some(2));
    assert_no_control("analyze error", &out.stderr);
    let out = run(&["detectors", "--moves", &format!("e2e4 {HOSTILE}")]);
    assert_eq!(out.status.code(), Some(2));
    assert_no_control("detectors error", &out.stderr);
    // A PGN whose movetext holds the sequence: the reader quotes it.
    let pgn = file("hostile_move.pgn", &format!("1. e4 {HOSTILE} *\n"));
    let out = run(&["analyze", "--pgn", pgn.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_no_control("analyze --pgn error", &out.stderr);
}

#[test]
fn drills_check_escapes_puzzle_text() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("terminal_text_puzzles");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.toml"),
        "name = \"t\"\ndescription = \"d\"\n\n[[puzzle]]\nid = \"a\"\ntitle = \"t\"\n\
         moves = \"Nf3\"\nask = \"\\u001b[2J\\u001b]0;PWNED\\u0007\"\nanswer = \"no\"\n\
         explanation = \"x\"\n",
    )
    .unwrap();
    let out = run(&["drills", "--check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_no_control("drills --check", &out.stdout);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("\\e[2J\\e]0;PWNED\\a"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// The trainer's game list (and its title) show the tags escaped too: the
/// screen library would drop the controls unseen.
#[test]
fn game_list_escapes_tags() {
    let (games, problem) = threefold::rules::pgn::list_games(&hostile_pgn(), 10);
    assert!(problem.is_none(), "{problem:?}");
    assert_eq!(games[0].white, SHOWN);
    assert_eq!(games[0].black, "B\\u{9b}31m");
}
