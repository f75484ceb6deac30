//! `threefold bench rules` refusals, as a user meets them.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
