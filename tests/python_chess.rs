//! Programs nobody here wrote read what threefold writes: python-chess's `chess.engine`
//! drives `threefold uci` through a whole game (tools/uci_game.py checks every move and the
//! protocol), and python-chess's PGN reader reads a saved game back with its tags.
//! Without python-chess the tests are skipped, except in CI (see `pychess`).

mod pychess;

use std::process::Command;

#[test]
fn python_chess_plays_a_whole_game() {
    if !pychess::available("chess.engine") {
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

/// A game the trainer saves reads back in python-chess's PGN reader with its tags and moves.
#[test]
fn python_chess_reads_a_written_game_with_its_tags() {
    use threefold::rules::Game;
    use threefold::rules::claim::{Claim, Clocks, judge};
    if !pychess::available("chess.pgn") {
        return;
    }
    let mut g = Game::new();
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        g.play_san(m).unwrap();
    }
    let m = g.parse_move("Ng8").unwrap();
    assert!(
        judge(&mut g, Claim::WithMove(m), Clocks::On)
            .unwrap()
            .correct()
    );
    let text = threefold::rules::pgn::write(
        &g,
        &[
            ("Event", "threefold training game"),
            ("Date", "2026.11.23"),
            ("White", "Player"),
            ("Black", "threefold level 4"),
        ],
    );
    let dir = std::env::temp_dir().join(format!("threefold-pychess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.pgn");
    std::fs::write(&path, &text).unwrap();
    let script = "import sys, chess.pgn\n\
        g = chess.pgn.read_game(open(sys.argv[1]))\n\
        assert not g.errors, g.errors\n\
        for k in ['Event', 'Date', 'White', 'Black', 'Result', 'Termination']:\n    \
            print(k, '=', g.headers.get(k))\n\
        print('moves', ' '.join(m.uci() for m in g.mainline_moves()))\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&path)
        .output()
        .expect("python3 runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "Event = threefold training game",
        "Date = 2026.11.23",
        "White = Player",
        "Black = threefold level 4",
        "Result = 1/2-1/2",
        "Termination = normal",
        "moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
    ] {
        assert!(
            stdout.lines().any(|l| l == line),
            "{line}: {stdout}\n{text}"
        );
    }
}
