//! Whether python-chess can be used by a test.
//!
//! python-chess is a Python package (`python3 -m pip install chess`). `.ci/run` installs it
//! and sets `THREEFOLD_REQUIRE_PYTHON_CHESS=1`, so there a missing package is a failure; on a
//! machine without it the test says so and is skipped.

use std::process::Command;

/// True if `python3 -c 'import MODULE'` works (e.g. "chess.pgn"); false, with a line on
/// stderr, if it does not and python-chess is not required; a panic if it is required.
pub fn available(module: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {module}")])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("THREEFOLD_REQUIRE_PYTHON_CHESS").is_none(),
            "python-chess is required here but `python3 -c 'import {module}'` fails"
        );
        eprintln!("python-chess not installed: skipped (python3 -m pip install chess)");
    }
    ok
}
