//! `threefold bench` and `threefold review`'s numeric options as a user gives them: sizes and
//! depths that cannot be honoured are refused in one line (exit 2), before anything runs.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// The first line of stderr, after checking the run was refused with exit 2 and printed
/// nothing on stdout.
fn refused(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
    err.lines().next().unwrap_or_default().to_string()
}

#[test]
fn depth_zero_and_hash_zero_are_refused() {
    for target in ["search", "pollution"] {
        let e = refused(&["bench", target, "--depth", "0"]);
        assert!(
            e.starts_with("error: invalid value '0' for '--depth <DEPTH>': 0 is not in 1..="),
            "{e}"
        );
    }
    for args in [
        &["bench", "search", "--hash", "0"][..],
        &["bench", "suite", "--hash", "0"],
        &["bench", "pollution", "--hash", "0"],
        &["review", "--hash", "0", "--pgn", "nonexistent.pgn"],
    ] {
        let e = refused(args);
        assert!(
            e.starts_with("error: invalid value '0' for '--hash <HASH>': 0 is not in 1..=65536"),
            "{args:?}: {e}"
        );
    }
    // Beyond the largest UCI Hash: refused the same way.
    let e = refused(&["bench", "--hash", "65537"]);
    assert!(e.contains("65537 is not in 1..=65536"), "{e}");
}

#[test]
fn bench_depth_one_says_and_searches_depth_one() {
    let out = run(&["bench", "--depth", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.contains("depth 1,"), "{last}");
}

/// Runs the binary, killing it if it is still running after `limit` (a
/// corpus without bounds would run until memory ran out).
fn run_for(args: &[&str], limit: Duration) -> Option<std::process::Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let t = Instant::now();
    while t.elapsed() < limit {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// `--plies` past the bound is refused in one line before anything is
/// generated (it grew the in-memory corpus without bound).
#[test]
fn bench_rules_plies_are_bounded() {
    for plies in ["10000001", "1000000000000"] {
        let out = run_for(
            &["bench", "rules", "--plies", plies, "--rounds", "1"],
            Duration::from_secs(20),
        )
        .unwrap_or_else(|| panic!("--plies {plies} was not refused: still running"));
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("error: --plies "), "{err}");
        assert!(err.contains("at most 10000000"), "{err}");
        assert!(out.stdout.is_empty(), "nothing was run");
    }
}
