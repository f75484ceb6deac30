//! End-to-end: the xiangqi screen of the real binary in a pseudo-terminal, a person
//! chasing the engine's rook to the WXF ruling.

mod common;

use std::time::Duration;

use common::Session;
use ratatui::layout::Rect;
use threefold::tui::xiangqi;

const COLS: u16 = 80;
const ROWS: u16 = 24;

/// Red's cannon on c2 and two advanced pawns on a5 and b5 (the cannon's screens); Black's
/// rook on a7 has its horse on c7 beside it. Each cannon move attacks the rook down its
/// file, and the rook's one safe point is the other file on its rank: a7 and b7, back and
/// forth (every other point of the file is behind the screen, c7 is its own horse, and
/// taking the pawn on a5 or b5 gives the rook for a protected pawn).
const FEN: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";
/// Red's moves (UCCI, typed) and the engine's forced answers (WXF, as the move list has
/// them): the position after Red's third move stands again after the fifth, for the third
/// time, and is ruled there.
const LINE: [(&str, &str); 5] = [
    ("c2a2", "R1=2"),
    ("a2b2", "R2=1"),
    ("b2a2", "R1=2"),
    ("a2b2", "R2=1"),
    ("b2a2", ""),
];

/// The side panel's text, its rows joined and spaces collapsed (the banner wraps).
fn side_text(s: &Session) -> String {
    let a = xiangqi::layout(Rect::new(0, 0, COLS, ROWS)).expect("80x24 fits");
    let rows = s.rows(a.side.x, a.side.width);
    rows[a.side.y as usize..(a.side.y + a.side.height) as usize]
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The move in the move list after the number `label` (`3.` or `3...`), if listed.
fn listed(s: &Session, label: &str) -> Option<String> {
    let a = xiangqi::layout(Rect::new(0, 0, COLS, ROWS)).expect("80x24 fits");
    s.rows(a.side.x, a.side.width).iter().find_map(|row| {
        let mut words = row.split_whitespace();
        // A row may start with the repetition marks (`*`, `|`) before the number.
        words
            .find(|w| w.trim_start_matches(['*', '|']) == label)
            .and_then(|_| words.next())
            .map(str::to_string)
    })
}

/// The whole screen, row by row (vt100's `contents` leaves out some of this screen's rows).
fn dump(s: &Session) -> String {
    s.rows(0, COLS).join("\n")
}

fn type_move(s: &mut Session, mv: &str) {
    s.send("i");
    s.wait_for("Move (WXF");
    s.send(mv);
    s.send("\r");
}

#[test]
fn a_perpetual_chase_of_the_engines_rook_is_ruled_a_loss_for_red() {
    // Level 2 searches to a fixed depth and node count: the same answers however busy
    // the machine is.
    let mut s = Session::spawn("xq-chase", Some("level = 2\n"), &["xiangqi"], COLS, ROWS);
    s.wait_for("You (Red) vs engine · L2 · Red to move");
    s.send("F");
    s.wait_for("Xiangqi FEN:");
    s.send("\x15"); // Ctrl-u: the line holds the current FEN
    s.send(FEN);
    s.send("\r");
    s.wait_for("New game from the FEN.");
    for (n, (red, black)) in LINE.iter().enumerate() {
        let n = n + 1;
        type_move(&mut s, red);
        s.wait_until(
            &format!("Red's move {n} ({red}) listed"),
            Duration::from_secs(10),
            |s| listed(s, &format!("{n}.")).is_some(),
        );
        if black.is_empty() {
            break;
        }
        let label = format!("{n}...");
        s.wait_until(
            &format!("the engine's reply {label}"),
            Duration::from_secs(20),
            |s| listed(s, &label).is_some(),
        );
        let reply = listed(&s, &label).unwrap();
        assert_eq!(
            &reply,
            black,
            "the engine did not take the rook's one escape; screen:\n{}",
            dump(&s)
        );
        // No ruling yet (the note under the board gives the judge's reading so far).
        let title = s.rows(0, COLS).remove(0).trim_end().to_string();
        assert!(
            title.ends_with("· Red to move"),
            "ruled before the third occurrence (move {n}); screen:\n{}",
            dump(&s)
        );
    }
    // The ruling: in the title, and the banner in the judge's words.
    s.wait_for("L2 · Black wins, Red loses");
    let side = side_text(&s);
    for words in [
        "Black wins, Red loses.",
        "also stood after plies 1 and 5",
        "Red chases the black rook (now on a7) on every move: \
         C9=8, C8=9, C9=8, C8=9 — perpetual chase.",
    ] {
        assert!(
            side.contains(words),
            "{words:?} not in the side panel:\n{side}"
        );
    }
    // The game is over: no move more.
    s.send("i");
    s.wait_for("The game is over: Black wins, Red loses.");
    assert!(!s.screen().contains("Move (WXF"), "{}", dump(&s));
    // The command line's judge rules the same line the same way.
    let moves = "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2";
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_threefold"))
        .args(["xiangqi", "judge", "--fen", FEN, "--moves", moves])
        .output()
        .unwrap();
    let judge = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{judge}");
    assert!(
        judge.starts_with("Black wins, Red loses.") && judge.contains("perpetual chase"),
        "{judge}"
    );
    s.quit_and_check_restored();
}
