//! `threefold xiangqi` as a user runs it.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    let mut all = vec!["xiangqi"];
    all.extend_from_slice(args);
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(&all)
        .output()
        .expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn assert_one_line_error(out: &Output, needles: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "exit status 2");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{err} should mention {n}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

const CHASE_FEN: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1";
const CHASE: &str = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";

#[test]
fn perft_last_line_is_the_count() {
    let out = run(&["perft", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("79666"));
    let out = run(&["perft", "--depth", "2", "--divide", "--fen", CHASE_FEN]);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 39, "38 first moves and the total");
    assert_eq!(text.lines().last(), Some("1055"));
}

#[test]
fn judge_text_and_json() {
    let out = run(&["judge", "--fen", CHASE_FEN, "--moves", CHASE]);
    assert!(out.status.success());
    let text = stdout(&out);
    // The first line says whose win it is; the verdict names both sides once
    // and the earlier occurrences read as English.
    assert_eq!(text.lines().next(), Some("Black wins, Red loses."));
    assert!(text.contains("Red chases the black rook"), "{text}");
    assert!(text.contains("perpetual chase"), "{text}");
    assert!(
        text.contains("(Black to move) also stood after plies 1 and 5; judged over plies 2–9."),
        "{text}"
    );
    assert!(
        text.contains("Perpetual chase outranks idle moves: Black wins, Red loses."),
        "{text}"
    );
    assert!(!text.contains("(to move) wins"), "{text}");

    let out = run(&["judge", "--fen", CHASE_FEN, "--moves", CHASE, "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON object");
    assert_eq!(v["result"], "win");
    assert_eq!(v["side"], "black");
    assert_eq!(v["red"]["level"], "chase");
    assert_eq!(v["black"]["level"], "idle");
    assert_eq!(v["red"]["chased"][0]["piece"], "black rook");
    assert_eq!(v["red"]["chased"][0]["square"], "a7");
    assert!(
        v["explanation"]
            .as_str()
            .unwrap()
            .contains("perpetual chase")
    );
    assert_eq!(v["red"]["moves"].as_array().unwrap().len(), 4);

    // WXF moves are accepted too; --ntimes 1 rules at the first repetition.
    let out = run(&[
        "judge",
        "--fen",
        CHASE_FEN,
        "--moves",
        "C7=9 R1=2 C9=8 R2=1 C8=9",
        "--ntimes",
        "1",
    ]);
    let text = stdout(&out);
    assert_eq!(text.lines().next(), Some("Black wins, Red loses."));
    assert!(text.contains("also stood after ply 1; judged"), "{text}");
    let out = run(&[
        "judge",
        "--fen",
        CHASE_FEN,
        "--moves",
        "c2a2 a7b7 a2b2 b7a7 b2a2",
    ]);
    assert_eq!(
        stdout(&out).lines().next(),
        Some("Undecided (Black to move).")
    );
}

#[test]
fn analyze_rows() {
    let out = run(&["analyze", "--fen", CHASE_FEN, "--moves", CHASE, "--json"]);
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[0]["wxf"], "C7=9");
    assert_eq!(rows[0]["ucci"], "c2a2");
    assert_eq!(rows[0]["status"], "chase");
    assert_eq!(rows[1]["status"], "idle");
    assert_eq!(rows[4]["repetitions"], 2);
    assert_eq!(rows[8]["repetitions"], 3);
    assert!(rows[7]["ruling"].is_null());
    assert_eq!(rows[8]["ruling"]["result"], "win");
    let text = stdout(&run(&["analyze", "--fen", CHASE_FEN, "--moves", CHASE]));
    assert!(
        text.lines()
            .last()
            .unwrap()
            .contains("Black wins, Red loses — "),
        "{text}"
    );
}

#[test]
fn bad_input_names_the_problem_and_the_ply() {
    assert_one_line_error(
        &run(&["judge", "--fen", "rnbakabnr/9/1c5c1 w", "--moves", ""]),
        &["FEN", "ranks"],
    );
    assert_one_line_error(
        &run(&["judge", "--fen", "4k4/9/9/9/9/9/9/9/9/4Q4 w", "--moves", ""]),
        &["FEN", "'Q'"],
    );
    assert_one_line_error(
        &run(&["judge", "--fen", "4k4/9/9/9/9/9/9/9/9/9 w", "--moves", ""]),
        &["no red king"],
    );
    assert_one_line_error(
        &run(&["judge", "--moves", "h2e2 h7e7 e2e9"]),
        &["ply 3", "e2e9"],
    );
    assert_one_line_error(
        &run(&["judge", "--moves", "h2e2 banana"]),
        &["ply 2", "banana", "neither"],
    );
    assert_one_line_error(
        &run(&["analyze", "--moves", "C2=5 C8=5 C2=5"]),
        &["ply 3", "C2=5"],
    );
    assert_one_line_error(&run(&["perft", "--fen", "xyz w", "--depth", "1"]), &["FEN"]);
    assert_one_line_error(
        &run(&["judge", "--fen", "3k5/9/9/9/9/9/9/9/9/3K5 w", "--moves", ""]),
        &["check"],
    );
}
