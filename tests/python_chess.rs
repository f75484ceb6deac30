//! A UCI client nobody here wrote drives `threefold uci` through a whole game:
//! python-chess's `chess.engine` (tools/uci_game.py checks every move and the protocol).
//!
//! python-chess is a Python package (`python3 -m pip install chess`). `.ci/run` installs it
//! and sets `THREEFOLD_REQUIRE_PYTHON_CHESS=1`, so there a missing package is a failure; on a
//! machine without it the test says so and passes.

use std::process::Command;

#[test]
fn python_chess_plays_a_whole_game() {
    let has_python_chess = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !has_python_chess {
        assert!(
            std::env::var_os("THREEFOLD_REQUIRE_PYTHON_CHESS").is_none(),
            "python-chess is required here but `python3 -c 'import chess.engine'` fails"
        );
        eprintln!("python-chess not installed: skipped (python3 -m pip install chess)");
        return;
    }
    // uci_game.py splits the command line like a shell: quote the path.
    let engine = format!("'{}' uci", env!("CARGO_BIN_EXE_threefold"));
    let out = Command::new("python3")
        .args([
            concat!(env!("CARGO_MANIFEST_DIR"), "/tools/uci_game.py"),
            "--engine",
            &engine,
            "--games",
            "1",
            "--movetime",
            "0.02",
        ])
        .output()
        .expect("run tools/uci_game.py");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // "game 1: N plies, RESULT TERMINATION" (the game ends by the rules or at 400 plies).
    let summary = stdout
        .lines()
        .find(|l| l.starts_with("game 1:"))
        .unwrap_or_else(|| panic!("no game summary in {stdout}"));
    let plies: u32 = summary
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{summary}"));
    assert!(plies >= 10, "{summary}");
}
