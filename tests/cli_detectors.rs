//! `threefold detectors` as a user runs it.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .arg("detectors")
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn json_has_the_fields_of_every_detector() {
    let out = run(&[
        "--moves",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "--json",
    ]);
    assert!(out.status.success());
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 9);
    for field in [
        "ply",
        "move",
        "exact",
        "zarkov",
        "rookie_hit",
        "rookie",
        "belle",
        "axon",
        "cuckoo",
    ] {
        assert!(rows[0].get(field).is_some(), "{field}: {}", rows[0]);
    }
    assert!(rows[0]["move"].is_null());
    assert_eq!(rows[1]["move"], "g1f3");
    let last = &rows[8];
    assert_eq!(last["exact"], 3);
    assert_eq!(last["zarkov"], 2);
    for d in ["rookie_hit", "rookie", "belle", "axon", "cuckoo"] {
        assert_eq!(last[d], true, "{d}: {last}");
    }
    assert_eq!(
        rows[3]["cuckoo"], true,
        "Black can go back to ply 0's position"
    );
    assert_eq!(rows[2]["cuckoo"], false);
    assert!(
        rows.iter()
            .all(|r| r["disagreements"].as_array().unwrap().is_empty())
    );
}

#[test]
fn the_table_marks_and_explains_axons_mistakes() {
    let out = run(&[
        "--fen",
        "7k/8/8/3r4/3R4/8/8/K7 w - - 0 1",
        "--moves",
        "a1a2 h8g8 a2b1 g8h8 b1a1",
    ]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("rep/5✗"), "{text}");
    assert!(
        text.contains(
            "ply 5, Axon: the chains closed over 5 plies, so the side to move differs — triangulation"
        ),
        "{text}"
    );
    let out = run(&[
        "--fen",
        "7k/8/8/8/8/8/8/RR2K3 w - - 0 1",
        "--moves",
        "a1a2 h8g8 b1a1 g8h8 a2b2 h8g8 b2b1 g8h8",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains(
            "ply 8, Axon: missed the repetition of ply 0: chains a1→b1, b1→a1 stayed open"
        ),
        "{text}"
    );
}

#[test]
fn a_small_belle_table_shows_shared_slot_losses() {
    let out = run(&[
        "--moves",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8",
        "--belle-slots",
        "1",
    ]);
    let text = stdout(&out);
    assert!(text.contains("(a shared-slot loss)"), "{text}");
    let out = run(&["--moves", "g1f3 g8f6 f3g1 f6g8"]);
    assert!(
        stdout(&out).contains("Every detector agrees with the rules core at every ply."),
        "{}",
        stdout(&out)
    );
}

/// Bad input is the error only, as `analyze` answers (issue 39): not the plies before it.
#[test]
fn bad_input_is_one_line_and_nothing_else() {
    let out = run(&["--moves", "e2e4 e7e4", "--json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(json_lines(&out).is_empty(), "no ply is reported");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains("e7e4"), "{err}");
    let out = run(&["--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = run(&["--pgn", "/nonexistent/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// MemAvailable in MB, if the system says.
fn available_mb() -> Option<u64> {
    let m = std::fs::read_to_string("/proc/meminfo").ok()?;
    let l = m.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(l.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
}

#[test]
fn belle_slots_beyond_the_cap_or_the_memory_are_refused_in_one_line() {
    // More than the largest Hash (65536 MB) holds: refused whatever the machine.
    let out = run(&["--moves", "e2e4", "--belle-slots", "10000000000"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: --belle-slots 10000000000: 10000000000 slots are more than"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // 2^32 slots are 48 GiB: where that is more than the memory there is, refused by the
    // memory check of UCI Hash (it aborted allocating 51539607552 bytes, exit 134).
    if available_mb().is_some_and(|a| a < 50_000) {
        let out = run(&["--moves", "e2e4", "--belle-slots", "4294967296"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(
                "error: --belle-slots 4294967296: a 49152 MB transposition table does not fit"
            ),
            "{err}"
        );
    }
    // A large table that fits is not filled: a billion slots (12 GB) where they fit.
    if available_mb().is_some_and(|a| a > 14_000) {
        let out = run(&["--moves", "e2e4 e7e5", "--belle-slots", "1000000000"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout(&out).contains("Every detector agrees"));
    }
}
