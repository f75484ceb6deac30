//! The commands meet files that never end or never open: `/dev/zero` behind a link, a FIFO
//! with no writer, a directory. Each is refused at once with one line naming it (it once
//! read `/dev/zero` until memory ran out, and a FIFO blocked for good); nothing is written.

#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run the binary with `args` (and a home of the test's own), killing it if it has not
/// ended within ten seconds: a refusal is immediate, a hang fails the test.
fn run(home: &Path, args: &[&std::ffi::OsStr]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            panic!("threefold {args:?} did not end within 10 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// What the command said, on either stream (`drills --check` lists its problems on
/// standard output).
fn said(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A game with a missed threefold claim: `review --drills` has a puzzle to add.
const GAME: &str = "[Event \"Club\"]\n[White \"Ada\"]\n[Black \"Bob\"]\n\n\
                    1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 1-0\n";

#[test]
fn review_drills_refuses_a_puzzle_file_that_never_ends_and_adds_nothing() {
    let home = common::temp_dir("files", "review-zero");
    let pgn = home.join("games.pgn");
    std::fs::write(&pgn, GAME).unwrap();
    let dir = home.join("puzzles");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("from-your-games.toml");
    std::os::unix::fs::symlink("/dev/zero", &file).unwrap();
    let out = run(
        &home,
        &[
            "review".as_ref(),
            "--no-engine".as_ref(),
            "--drills".as_ref(),
            "--drills-dir".as_ref(),
            dir.as_os_str(),
            "--pgn".as_ref(),
            pgn.as_os_str(),
        ],
    );
    assert!(!out.status.success(), "{out:?}");
    let err = said(&out);
    assert!(
        err.contains("from-your-games.toml: a device, not a regular file; nothing was added"),
        "{err}"
    );
    assert!(
        std::fs::symlink_metadata(&file)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is left as it is"
    );
}

#[test]
fn a_fifo_or_a_directory_given_as_a_file_is_refused_at_once() {
    let home = common::temp_dir("files", "cli-fifo");
    let fifo = home.join("games.pgn");
    mkfifo(&fifo);
    let puzzles = home.join("theme.toml");
    mkfifo(&puzzles);
    for (args, why) in [
        (
            vec!["analyze".as_ref(), "--pgn".as_ref(), fifo.as_os_str()],
            "a FIFO, not a regular file",
        ),
        (
            vec![
                "review".as_ref(),
                "--all".as_ref(),
                "--pgn".as_ref(),
                fifo.as_os_str(),
            ],
            "a FIFO, not a regular file",
        ),
        (
            vec!["drills".as_ref(), "--check".as_ref(), puzzles.as_os_str()],
            "a FIFO, not a regular file",
        ),
        (
            vec!["analyze".as_ref(), "--pgn".as_ref(), home.as_os_str()],
            "a directory, not a regular file",
        ),
    ] {
        let out = run(&home, &args);
        assert!(!out.status.success(), "{args:?}: {out:?}");
        let err = said(&out);
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(err.matches(why).count(), 1, "said once: {err}");
    }
}
