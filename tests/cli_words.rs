//! Issue 39's rough edges on the command line, and the judge's words there: bad input to
//! `detectors` prints the error only, `--ascii` is offered only where a board is drawn, and
//! `xiangqi judge` says why each move counts as it does and has the glossary in its help.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .output()
        .expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `f3g2` is no knight move: the error only, as `analyze` answers, without the table nor
/// "Every detector agrees…". Broken to see it fail: `detectors::run` writing its rows
/// straight to `out` (the table and the agreement printed before the error).
#[test]
fn detectors_on_bad_input_print_the_error_only() {
    let out = run(&["detectors", "--moves", "g1f3 g8f6 f3g2"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(stdout(&out), "", "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("f3g2"), "{err}");
    let analyze = run(&["analyze", "--moves", "g1f3 g8f6 f3g2"]);
    assert_eq!(stdout(&analyze), "");
}

/// `--ascii` is in the help of the trainer (`threefold`, `threefold xiangqi`) and of no
/// command that draws no board. Broken to see it fail: `global = true` put back on the
/// root's `--ascii`.
#[test]
fn ascii_is_offered_only_where_a_board_is_drawn() {
    for args in [&["--help"][..], &["xiangqi", "--help"]] {
        assert!(stdout(&run(args)).contains("--ascii"), "{args:?}");
    }
    for cmd in [
        &["analyze", "--help"][..],
        &["detectors", "--help"],
        &["review", "--help"],
        &["euwe", "--help"],
        &["xiangqi", "judge", "--help"],
        &["xiangqi", "perft", "--help"],
    ] {
        let text = stdout(&run(cmd));
        assert!(!text.contains("--ascii"), "{cmd:?}: {text}");
    }
    // It still works before the subcommand and after `xiangqi` (the trainer needs a
    // terminal: the refusal, not a usage error).
    for args in [&["--ascii"][..], &["xiangqi", "--ascii"]] {
        let out = run(args);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("needs a terminal"),
            "{out:?}"
        );
    }
}

/// `xiangqi judge` gives each judged move's line in a player's words, and its `--help` ends
/// with the glossary. Broken to see it fail: the "Why, move by move" lines left out.
#[test]
fn xiangqi_judge_says_why_and_has_the_glossary() {
    let out = run(&[
        "xiangqi",
        "judge",
        "--fen",
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w",
        "--moves",
        "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{out:?}");
    assert!(text.contains("Why, move by move:"), "{text}");
    assert!(
        text.contains(
            "chase: the cannon on a2 attacks the rook on a7 (worth more than the cannon)"
        ),
        "{text}"
    );
    let help = stdout(&run(&["xiangqi", "judge", "--help"]));
    for term in ["outranks", "cancel", "third occurrence"] {
        assert!(help.contains(term), "{term}: {help}");
    }
}

/// Under `LC_ALL=C` the help is ASCII too: `euwe --help` wrote "Thue–Morse" and "log² n".
/// Broken to see it fail: the help printed by clap whatever the locale.
#[test]
fn without_a_utf8_locale_the_help_is_ascii() {
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["euwe", "--help"])
        .env("LC_ALL", "C")
        .output()
        .expect("binary runs");
    let text = stdout(&out);
    assert!(out.status.success(), "{out:?}");
    assert!(
        text.contains("Thue-Morse") && text.contains("log2 n"),
        "{text}"
    );
    assert!(text.is_ascii(), "{text}");
}

/// Under `LC_ALL=C` the output is ASCII: Axon's mistake is marked and explained with "x"
/// and "-", not "✗" and "—". Broken to see it fail: `out` left as stdout whatever the locale.
#[test]
fn without_a_utf8_locale_the_output_is_ascii() {
    let args = [
        "detectors",
        "--fen",
        "7k/8/8/3r4/3R4/8/8/K7 w - - 0 1",
        "--moves",
        "a1a2 h8g8 a2b1 g8h8 b1a1",
    ];
    let out = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .env("LC_ALL", "C")
        .output()
        .expect("binary runs");
    let text = stdout(&out);
    assert!(out.status.success(), "{out:?}");
    assert!(text.is_ascii(), "{text}");
    assert!(text.contains("rep/5x"), "{text}");
    let utf8 = Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(args)
        .env("LC_ALL", "C.UTF-8")
        .output()
        .expect("binary runs");
    assert!(stdout(&utf8).contains("rep/5✗"));
}
