//! End-to-end, in a pseudo-terminal: files that never end and data directories that cannot
//! be written, met by the real binary on the xiangqi screen. `o` on `/dev/zero` or a FIFO
//! is refused at once (it once read `/dev/zero` until memory ran out, ignoring SIGTERM,
//! and the game was lost), and a SIGTERM afterwards keeps the game; quitting when the game
//! cannot be kept asks first (it once exited at once, losing it).

mod common;

use std::time::Duration;

use common::{Session, temp_home};

const COLS: u16 = 80;
const ROWS: u16 = 24;

/// The engine answers at once at level 1.
const CONFIG: &str = "level = 1\n";

fn type_move(s: &mut Session, mv: &str) {
    s.send("i");
    s.wait_for("Move (WXF");
    s.send(mv);
    s.send("\r");
}

/// `o` with the game in progress: asked first, as chess asks; yes opens the prompt.
fn open(s: &mut Session, path: &str) {
    s.send("o");
    s.wait_for("Abandon the game in progress");
    s.send("y");
    s.wait_for("Open");
    s.send(path);
    s.send("\r");
}

#[test]
fn endless_files_are_refused_at_once_and_the_game_is_kept() {
    let home = temp_home("files-zero");
    let fifo = home.join("pipe.pgn");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let mut s = Session::spawn_in(home.clone(), Some(CONFIG), &["xiangqi"], &[], COLS, ROWS);
    s.wait_for("Red to move");
    type_move(&mut s, "h2e2");
    // The engine's reply.
    s.wait_for("1...");
    s.wait_for("Red to move");
    open(&mut s, "/dev/zero");
    s.wait_for_within(
        "cannot read /dev/zero: a device, not a regular file",
        Duration::from_secs(5),
    );
    s.escape();
    open(&mut s, &fifo.display().to_string());
    s.wait_for_within("a FIFO, not a regular", Duration::from_secs(5));
    s.escape();
    // The screen answers, and a signal ends it keeping the game.
    s.signal("TERM");
    s.wait_exit();
    s.assert_restored();
    // Kept as both games keep theirs: JSON naming the game, with its moves.
    let kept = home.join("data/threefold/xiangqi-in-progress.json");
    let text = std::fs::read_to_string(&kept).expect("the game was kept");
    assert!(text.contains("\"game\":\"xiangqi\""), "{text}");
    assert!(
        text.contains("\"moves\":[\"h2e2\""),
        "a move was kept: {text}"
    );
}

#[test]
fn quitting_a_xiangqi_game_that_cannot_be_kept_asks_first() {
    let home = temp_home("files-unkept");
    // A file where the data directory should be: nothing can be kept there.
    std::fs::write(home.join("data"), "not a directory").unwrap();
    let mut s = Session::spawn_in(home, Some(CONFIG), &["xiangqi"], &[], COLS, ROWS);
    s.wait_for("Red to move");
    type_move(&mut s, "h2e2");
    // The engine's reply.
    s.wait_for("1...");
    s.wait_for("Red to move");
    s.send("q");
    s.wait_for("The xiangqi game in progress cannot be kept");
    assert!(s.try_exit().is_none(), "quit without asking");
    // No: the save prompt, to keep it elsewhere.
    s.send("n");
    s.wait_for("Save");
    s.escape();
    s.send("q");
    s.wait_for("Quit and lose");
    s.send("y");
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
    s.assert_restored();
}
