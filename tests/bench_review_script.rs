//! tools/bench_review.py, the review benchmark, run end to end on a small generated file with
//! stand-ins for threefold and for pgn-reader's rate example (shell scripts that log their
//! command lines and read the file): it makes the .pgn.zst, runs every command of its table
//! with the options it names, `--runs` times, and prints one row each.
//! Skipped without python-chess (except in CI) or without the zstd command.

mod common;
mod pychess;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use threefold::lab::pgn_gen::{Size, write};

/// An executable shell script at `path` that appends its arguments to `log` and reads the file
/// named after `--pgn` (or its first argument).
fn stand_in(path: &Path, log: &Path) {
    let script = format!(
        "#!/bin/sh\necho \"$*\" >> '{}'\nf=\"$1\"\nwhile [ $# -gt 0 ]; do [ \"$1\" = --pgn ] && f=\"$2\"; shift; done\ncat \"$f\" > /dev/null\n",
        log.display()
    );
    std::fs::write(path, script).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn run_script(dir: &Path, extra: &[&str]) -> (String, Vec<String>) {
    let pgn = dir.join("db.pgn");
    let (bin, reader, log) = (dir.join("threefold"), dir.join("reader"), dir.join("log"));
    let _ = std::fs::remove_file(&log);
    stand_in(&bin, &log);
    stand_in(&reader, &log);
    let out = Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tools/bench_review.py"
        ))
        .arg(&pgn)
        .args(["--runs", "2", "--py-runs", "1", "--py-mb", "0.2"])
        .arg("--bin")
        .arg(&bin)
        .arg("--reader")
        .arg(&reader)
        .args(extra)
        .output()
        .expect("run tools/bench_review.py");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = std::fs::read_to_string(&log).unwrap();
    (stdout, log.lines().map(str::to_string).collect())
}

#[test]
fn the_review_benchmark_runs_every_command_and_prints_its_table() {
    if !pychess::available("chess.pgn") {
        return;
    }
    if Command::new("zstd").arg("--version").output().is_err() {
        eprintln!("no zstd command: skipped (apt-get install zstd)");
        return;
    }
    let dir = common::temp_dir("bench-review", "script");
    let pgn = dir.join("db.pgn");
    let mut file = std::fs::File::create(&pgn).unwrap();
    write(&mut file, Size::Games(300), 5).unwrap();
    drop(file);
    let zst = format!("{}.zst", pgn.display());
    let (p, z) = (pgn.display().to_string(), zst.clone());

    let (table, calls) = run_script(&dir, &[]);
    assert!(Path::new(&zst).exists(), "no {zst}");
    // Two runs of each: pgn-reader on both files, threefold on 1 and 2 threads on both.
    let mut want = Vec::new();
    for f in [&p, &z] {
        want.push(f.to_string());
    }
    for f in [&p, &z] {
        for n in ["1", "2"] {
            want.push(format!("review --pgn {f} --all --no-engine --threads {n}"));
        }
    }
    for w in &want {
        assert_eq!(
            calls.iter().filter(|c| c == &w).count(),
            2,
            "{w:?} in {calls:#?}"
        );
    }
    assert_eq!(calls.len(), 2 * want.len(), "{calls:#?}");
    for row in [
        "pgn-reader 0.29 tokenizing, .pgn ",
        "pgn-reader 0.29 tokenizing, .pgn.zst ",
        "review --all --no-engine --threads 1, .pgn ",
        "review --all --no-engine --threads 2, .pgn ",
        "review --all --no-engine --threads 1, .pgn.zst ",
        "review --all --no-engine --threads 2, .pgn.zst ",
        "read_game (first 0.2 MB only)",
    ] {
        let line = table
            .lines()
            .find(|l| l.contains(row))
            .unwrap_or_else(|| panic!("no row {row:?} in\n{table}"));
        // Runs, MB/s wall and CPU, seconds, and the peak RSS of a threefold run.
        assert!(line.contains("  2  ") || line.contains("  1  "), "{line}");
        // The peak RSS (GNU time's; without it the peak is not known: "-").
        if !line.contains("python-chess") && Path::new("/usr/bin/time").exists() {
            assert!(line.ends_with(" MB"), "{line}");
        }
    }

    // A binary without --threads: once per file, the option left out.
    let (table, calls) = run_script(&dir, &["--no-threads"]);
    assert!(
        table.contains("review --all --no-engine, .pgn.zst "),
        "{table}"
    );
    for f in [&p, &z] {
        let w = format!("review --pgn {f} --all --no-engine");
        assert_eq!(calls.iter().filter(|c| **c == w).count(), 2, "{calls:#?}");
    }

    // A binary that cannot read .zst: threefold on the .pgn only, pgn-reader on both.
    let (table, calls) = run_script(&dir, &["--no-zst"]);
    assert!(!table.contains("--threads 1, .pgn.zst"), "{table}");
    assert!(table.contains("tokenizing, .pgn.zst"), "{table}");
    assert!(
        !calls
            .iter()
            .any(|c| c.starts_with("review") && c.contains(".zst")),
        "{calls:#?}"
    );
    assert_eq!(calls.len(), 2 * 4, "{calls:#?}");
    let _ = std::fs::remove_dir_all(&dir);
}
