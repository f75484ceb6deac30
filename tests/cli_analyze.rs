//! `threefold analyze` and `threefold euwe` as a user runs them.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn assert_one_line_error(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "exit status 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(err.contains(needle), "{err} should mention {needle}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn json_fields_for_a_knight_shuffle() {
    let out = run(&[
        "analyze",
        "--moves",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1",
        "--json",
    ]);
    assert!(out.status.success());
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 8);
    let keys: Vec<&str> = rows[0]
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    let mut expected = vec![
        "ply",
        "move",
        "fen",
        "repetitions",
        "earlier",
        "claim_threefold",
        "claim_threefold_moves",
        "claim_fifty",
        "claim_fifty_moves",
        "fivefold",
        "seventy_five",
        "outcome",
    ];
    let mut got = keys.clone();
    got.sort();
    expected.sort();
    assert_eq!(got, expected);
    assert_eq!(rows[0]["move"], serde_json::Value::Null);
    assert_eq!(rows[4]["repetitions"], 2);
    assert_eq!(rows[4]["earlier"], serde_json::json!([0]));
    assert_eq!(
        rows[7]["claim_threefold_moves"],
        serde_json::json!(["f6g8"])
    );
    assert_eq!(rows[7]["claim_threefold"], false);
}

#[test]
fn san_input_and_table_output() {
    let out = run(&[
        "analyze",
        "--san",
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    assert!(last.contains("4...Ng8") && last.contains("now"), "{last}");
}

#[test]
fn pgn_input_reads_the_chosen_game() {
    let out = run(&["analyze", "--pgn", "tests/data/repetition.pgn", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[8]["claim_threefold"], true);
    let out = run(&[
        "analyze",
        "--pgn",
        "tests/data/repetition.pgn",
        "--game",
        "2",
        "--json",
    ]);
    assert!(out.status.success());
    let rows = json_lines(&out);
    assert_eq!(rows[0]["fen"], "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert_eq!(
        rows[4]["repetitions"], 1,
        "castling right lost: not the start"
    );
}

#[test]
fn malformed_fen_is_one_error_line() {
    assert_one_line_error(
        &run(&["analyze", "--fen", "8/8/8 w - - 0 1"]),
        "invalid FEN",
    );
}

#[test]
fn illegal_move_names_move_ply_and_position() {
    let out = run(&["analyze", "--moves", "e2e4 e7e5 e1e3", "--json"]);
    assert_one_line_error(&out, "e1e3");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("ply 3"), "{err}");
    assert!(
        err.contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq"),
        "{err}"
    );
    // And why, as the trainer says it of a typed move.
    assert!(
        err.trim_end().ends_with(": the king on e1 cannot go to e3"),
        "{err}"
    );
    // A game that cannot be read to its end prints nothing to stdout.
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for (args, needle) in [
        (&["analyze", "--moves", "e2e4 xyz"][..], "'xyz'"),
        (&["analyze", "--san", "e4 Ke3"], "Ke3"),
        (&["analyze", "--moves", "e2e4 e7e5 e1e3"], "e1e3"),
    ] {
        let out = run(args);
        assert_one_line_error(&out, needle);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("ply"), "{args:?}: the ply is named: {err}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
    let out = run(&["analyze", "--moves", "e2e4 xyz"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("(ply 2)"));
    // Text that is not a move at all is refused before any row.
    let out = run(&["analyze", "--san", "e4 e5 blah"]);
    assert_one_line_error(&out, "'blah'");
    assert!(out.stdout.is_empty());
}

#[test]
fn malformed_pgn_names_file_and_line() {
    let out = run(&["analyze", "--pgn", "tests/data/illegal.pgn"]);
    assert_one_line_error(&out, "tests/data/illegal.pgn:5");
    assert_one_line_error(
        &run(&["analyze", "--pgn", "tests/data/nonexistent.pgn"]),
        "nonexistent.pgn",
    );
    assert_one_line_error(
        &run(&[
            "analyze",
            "--pgn",
            "tests/data/repetition.pgn",
            "--game",
            "7",
        ]),
        "no game 7",
    );
}

#[test]
fn moves_after_fivefold_are_refused() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(4);
    let out = run(&["analyze", "--moves", &format!("{shuffle} e2e4"), "--json"]);
    assert_one_line_error(&out, "game is over");
    assert!(String::from_utf8_lossy(&out.stderr).contains("(ply 17)"));
    assert!(out.stdout.is_empty());
    let out = run(&["analyze", "--moves", &shuffle, "--json"]);
    let rows = json_lines(&out);
    assert_eq!(rows.last().unwrap()["outcome"], "fivefold");
}

/// `--game` chooses a game of a `--pgn` file: without one it is refused, also beside
/// `--moves` (where clap alone would let it pass), as `--fen` with `--pgn` is.
#[test]
fn game_without_pgn_and_fen_with_pgn_are_refused() {
    for args in [
        &["analyze", "--game", "2"][..],
        &["analyze", "--moves", "e2e4", "--game", "2"],
        &["analyze", "--san", "e4", "--game", "2"],
        &[
            "analyze",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "--game",
            "2",
        ],
        &["detectors", "--moves", "e2e4", "--game", "2"],
        &[
            "analyze",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "--pgn",
            "tests/data/repetition.pgn",
        ],
        // The trainer too.
        &[
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "--pgn",
            "tests/data/repetition.pgn",
        ],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--game") || err.contains("cannot be used with"),
            "{args:?}: {err}"
        );
    }
}

/// Without a terminal the trainer says so in one line, before touching anything.
#[test]
fn the_trainer_without_a_terminal_says_so() {
    for args in [&[][..], &["--ascii"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(args)
            .stdin(std::process::Stdio::null())
            .env("HOME", std::env::temp_dir().join("threefold-no-tty-home"))
            .output()
            .expect("binary runs");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "threefold needs a terminal; try `threefold --help`\n"
        );
        assert!(out.stdout.is_empty());
        assert!(!out.status.success());
    }
}

#[test]
fn euwe_command_prints_every_ply() {
    let out = run(&["euwe", "--plies", "20", "--json"]);
    assert!(out.status.success());
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 20);
    assert_eq!(rows[15]["fivefold_ended"], true);
    assert_eq!(rows[14]["fivefold_ended"], false);
    assert!(rows.iter().all(|r| r["german_rule"].is_null()));
    assert_eq!(rows[7]["claim_now"], true);
    assert_eq!(rows[6]["claim_with"], serde_json::json!(["Ng8"]));
    // Plies 5-12 play Nf3 Nf6 Ng1 Ng8 twice; no third time follows.
    assert!(rows[10]["longest_twice"].is_null());
    assert_eq!(
        rows[11]["longest_twice"],
        serde_json::json!({"start": 4, "len": 4, "played": 8, "missing": 4})
    );
    assert_eq!(rows[19]["closest_to_three"]["missing"], 4);
    // The table's last column says the same, and why no third time comes.
    let table = String::from_utf8(run(&["euwe", "--plies", "12"]).stdout).unwrap();
    let last = table.lines().nth(12).unwrap();
    assert!(
        last.contains("longest twice 4 plies (plies 5–12); closest plies 5–12, 4 plies short"),
        "{table}"
    );
    assert!(table.ends_with("a third time in succession.\n"), "{table}");
}

#[test]
fn san_lists_take_castling_written_with_zeros() {
    let out = run(&[
        "analyze",
        "--san",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0 Nf6",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(json_lines(&out)[7]["move"], "e1g1");
    assert_one_line_error(&run(&["analyze", "--san", "1. e4 blah"]), "'blah'");
}

/// An endless input is refused at once, before a byte is read: it is a device, not a
/// regular file (and a FIFO would block the open). Every file is read so.
#[cfg(target_os = "linux")]
#[test]
fn an_endless_pgn_is_refused_at_once() {
    assert_one_line_error(
        &run(&["analyze", "--pgn", "/dev/zero"]),
        "/dev/zero: cannot read file: a device, not a regular file",
    );
}

#[test]
fn fens_are_read_strictly_with_free_spacing() {
    let tabbed = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq\t- 0 1";
    assert!(run(&["analyze", "--fen", tabbed]).status.success());
    for (fen, why) in [
        (
            "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "two digits",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqq - 0 1",
            "KQkqq",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1",
            "larger than 4294967295",
        ),
    ] {
        assert_one_line_error(&run(&["analyze", "--fen", fen]), why);
    }
}

/// `threefold ... | head -1`: the reader closes the pipe early; the program stops quietly.
#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::io::{BufRead, BufReader};
    for args in [
        &["euwe", "--plies", "20000", "--json"][..],
        &["euwe", "--plies", "20000"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        // The reader is dropped here: the pipe is closed.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!first.is_empty());
        assert!(err.is_empty(), "{args:?}: {err}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
    }
}

#[test]
fn a_refused_san_move_says_why() {
    let out = run(&["analyze", "--san", "e4 Ke3"]);
    assert_one_line_error(&out, "Ke3");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--san, ply 2: Ke3: the king on e8 cannot go to e3"),
        "{err}"
    );
    let out = run(&[
        "analyze",
        "--san",
        "1. e4 Nf6 2. Qh5 Nxh5 3. Nf3 d6 4. Bc4 d5 5. 0-0 Nf4 6. Bxd5 Bh3 7. Bxf7+ Kxf7 8. d5",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ply 15: d5: the pawn on d2 cannot go to d5"),
        "{err}"
    );
}

/// `--san` reads each move as the trainer reads a typed move (`nf3`, `Ng1-f3`), and a
/// refused move is named as it was written.
#[test]
fn san_moves_are_read_as_the_trainer_reads_them() {
    let out = run(&[
        "analyze",
        "--san",
        "1. e4 e5 2. nf3 Nc6 3. Nf3-g5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = json_lines(&out);
    let moves: Vec<&str> = rows.iter().filter_map(|r| r["move"].as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f3g5"]);
    let out = run(&["analyze", "--san", "1. e4 e5 2. Nf3 Nc6 3. nf3"]);
    assert_one_line_error(&out, "--san, ply 5: nf3: no White knight can go to f3");
    let out = run(&["analyze", "--san", "1. e4 e5 2. Nf3 Nc6 3. Ng1-f3"]);
    assert_one_line_error(&out, "--san, ply 5: Ng1-f3: ");
}
