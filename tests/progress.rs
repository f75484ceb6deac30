//! The progress line of the long commands (src/cli/progress.rs): drawn on standard error when
//! it is a terminal, cleared at the end, and nothing at all when it is not a terminal.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{Session, temp_home};

/// Each long command, made short: every loop that has a progress line runs.
const LONG_COMMANDS: &[&[&str]] = &[
    &["bench", "suite", "--nodes", "2000"],
    &["bench", "pollution", "--depth", "1", "--moves", "2"],
    &[
        "xiangqi", "bench", "perft", "--depth", "2", "--rounds", "2", "--fsf", "none",
    ],
    &[
        "xiangqi", "bench", "judge", "--plies", "2000", "--rounds", "2",
    ],
    &[
        "xiangqi", "bench", "search", "--depth", "2", "--rounds", "1", "--fsf", "none",
    ],
    &[
        "review",
        "--pgn",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/review/missed_perpetual.pgn"
        ),
        "--nodes",
        "2000",
    ],
    &[
        "review",
        "--pgn",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/xiangqi/fsf_selfplay.pgn"
        ),
        "--all",
        "--xiangqi",
    ],
];

#[test]
fn no_progress_output_when_stderr_is_a_pipe() {
    for args in LONG_COMMANDS {
        let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
            .args(*args)
            // A terminal type that can draw: only the pipe keeps the line off.
            .env("TERM", "xterm-256color")
            .output()
            .expect("binary runs");
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert!(
            out.stderr.is_empty(),
            "{args:?}: stderr {:?}",
            String::from_utf8_lossy(&out.stderr)
        );
        // The results are all on stdout, as before.
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn on_a_terminal_the_line_counts_positions_and_is_cleared_at_the_end() {
    let mut s = Session::spawn_in(
        temp_home("progress"),
        None,
        &["bench", "suite", "--nodes", "100000"],
        &[],
        120,
        50,
    );
    // The count, the time and the ETA, on the line below the positions' results.
    s.wait_until("the progress line", Duration::from_secs(60), |s| {
        let screen = s.screen();
        screen.lines().any(|l| {
            l.contains("/32 positions") && l.contains("ETA") && l.contains('[') && l.contains(']')
        })
    });
    let t0 = Instant::now();
    let status = loop {
        if let Some(status) = s.try_exit() {
            break status;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(300),
            "bench suite did not end:\n{}",
            s.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
    s.wait_for("suite: 32 positions");
    let screen = s.screen();
    // Cleared, and the results' lines were not cut by it: each position's line is whole.
    assert!(!screen.contains("ETA"), "{screen}");
    assert!(
        screen
            .lines()
            .filter(|l| l.contains(" plain ") && l.contains(" shadow "))
            .count()
            >= 32,
        "{screen}"
    );
    let _ = std::fs::remove_dir_all(&s.home);
}

/// `review --all` on a terminal of 80 columns: the games, the bytes of the file read and the
/// time left, on one line.
#[test]
fn review_all_shows_games_and_the_file_read_on_a_terminal() {
    let games = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/xiangqi/fsf_selfplay.pgn"
    );
    let dir = temp_home("progress-review");
    // The collection with the engine's review of chess games would be slow: the xiangqi
    // collection, many times over, read by the judge.
    let text = std::fs::read_to_string(games).unwrap().repeat(40);
    let path = dir.join("many.pgn");
    std::fs::write(&path, text).unwrap();
    let mut s = Session::spawn_in(
        dir.clone(),
        None,
        &[
            "review",
            "--pgn",
            path.to_str().unwrap(),
            "--all",
            "--xiangqi",
            "--summary",
            "--threads",
            "1",
        ],
        &[],
        80,
        24,
    );
    s.wait_until("the progress line", Duration::from_secs(60), |s| {
        s.screen().lines().any(|l| {
            let read = l
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u64>().ok());
            // The bar takes the width the figures leave: the line is as wide as the terminal
            // (80 columns), never wider, whatever the figures.
            read.is_some_and(|n| n > 0)
                && l.contains(" games ")
                && l.contains("ETA")
                && l.trim_end().ends_with(']')
                && l.trim_end().chars().count() == 80
        })
    });
    let t0 = Instant::now();
    while s.try_exit().is_none() {
        assert!(t0.elapsed() < Duration::from_secs(120), "{}", s.screen());
        std::thread::sleep(Duration::from_millis(50));
    }
}
