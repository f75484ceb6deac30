//! The xiangqi judge's words for a player (issue 39 item 5) and the help opening at the
//! screen's own section (item 6), at 80×24 on the TestBackend.

use crossterm::event::KeyCode;

use crate::xiangqi::Square;

use super::app::{App, Screen};
use super::tests::{app, key, keys};
use super::theme::Theme;
use super::xiangqi_tests::{from_fen, text, typed, xq};

/// The crate's perpetual chase (see xiangqi_tests): Red's cannon swings between a2 and b2
/// attacking the unprotected black rook, which escapes between a7 and b7.
const CHASE_FEN: &str = "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w";

fn sq(s: &str) -> Square {
    s.parse().expect("a point")
}

/// After four plies of the chase, Red's cannon on b2 picked up: a2 would bring the position
/// after ply 1 back and complete Red's own perpetual chase.
fn chase_with_cannon_picked_up(blind: bool) -> App {
    let mut a = xq(80, 24);
    from_fen(&mut a, CHASE_FEN);
    if blind {
        keys(&mut a, "B");
    }
    for m in ["c2a2", "a7b7", "a2b2", "b7a7"] {
        typed(&mut a, m);
    }
    a.xiangqi.selected = Some(sq("b2"));
    a.xiangqi.cursor = sq("a2");
    a.message = None;
    a
}

/// The row of the board showing rank 2 (its label " 2").
fn rank_row(s: &str, rank: u8) -> String {
    s.lines()
        .find(|l| l.starts_with(&format!("{rank:>3} ")))
        .unwrap_or_default()
        .to_string()
}

/// The forbidden target a2 is marked `x` (the other targets `o`), and `y` says why, naming
/// the perpetual chase; not in blind mode. Broken to see it fail: the screen's `forbidden`
/// passed to the board as `&[]` (a2 drawn `o`).
#[test]
fn a_forbidden_target_is_marked_and_the_reason_is_one_key_away() {
    let mut a = chase_with_cannon_picked_up(false);
    let s = text(&a, &Theme::plain(), 80, 24);
    let row = rank_row(&s, 2);
    assert!(row.contains("x-"), "{s}");
    assert!(row.contains("o-"), "{s}");
    keys(&mut a, "y");
    let msg = a
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(
        msg.contains("is forbidden (perpetual chase: Red loses)"),
        "{msg}"
    );
    let s = text(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("perpetual chase"), "{s}");
    // In blind mode nothing is marked, and the key says so.
    let mut b = chase_with_cannon_picked_up(true);
    let s = text(&b, &Theme::plain(), 80, 24);
    assert!(!rank_row(&s, 2).contains("x-"), "{s}");
    keys(&mut b, "y");
    let msg = b
        .message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default();
    assert!(msg.starts_with("Blind mode"), "{msg}");
}

/// The judge's panel gives one line on why the move shown is a chase, in a player's words,
/// and `g` opens the glossary (a section of the help) at 80×24. Broken to see it fail: the
/// "In short" line left out of the panel; `Cmd::Glossary` opening the help at the top.
#[test]
fn the_judge_panel_says_why_and_opens_the_glossary() {
    let mut a = xq(80, 24);
    from_fen(&mut a, CHASE_FEN);
    for m in ["c2a2", "a7b7", "a2b2"] {
        typed(&mut a, m);
    }
    keys(&mut a, ",,J");
    a.message = None;
    let s = text(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("In short: chase: the cannon on a2"), "{s}");
    assert!(s.contains("attacks the rook on a7 (worth more than"), "{s}");
    assert!(s.contains("g: the words"), "{s}");
    keys(&mut a, "g");
    let s = text(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("The judge's words (glossary)"), "{s}");
    assert!(s.contains("cancel"), "{s}");
    assert!(!s.contains("move the cursor up"), "{s}");
}

/// `?` opens the help at the section of the screen shown: the Euwe stepper's, the chess
/// game's, the xiangqi screen's. Broken to see it fail: `help_start` returning 0 (the Euwe
/// stepper's help opened at "Game").
#[test]
fn the_help_opens_at_the_section_of_the_screen_shown() {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    keys(&mut a, "?");
    let s = text(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Game"), "{s}");
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "e");
    assert_eq!(a.screen, Screen::Euwe);
    keys(&mut a, "?");
    let s = text(&a, &Theme::plain(), 80, 24);
    let first = s
        .lines()
        .nth(s.lines().position(|l| l.contains(" Help (")).unwrap() + 1)
        .unwrap_or_default()
        .to_string();
    assert!(first.contains("Euwe stepper"), "{s}");
}

/// Without a UTF-8 locale (the trainer then draws in ASCII, as `--ascii` does) no cell of
/// the screen holds a character beyond ASCII: not "≈", "·", "─", "—" of the panels and
/// frames, on the chess screen with its help, and on the xiangqi screen with the judge's
/// panel. Broken to see it fail: the `ascii_buffer` pass left out of `render_with`.
#[test]
fn without_utf8_every_glyph_on_screen_is_ascii() {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    a.ascii = true;
    let check = |a: &App, what: &str| {
        let s = text(a, &Theme::plain(), 80, 24);
        let odd: String = s.chars().filter(|c| !c.is_ascii()).collect();
        assert!(odd.is_empty(), "{what}: {odd:?}\n{s}");
    };
    check(&a, "chess");
    keys(&mut a, "?");
    check(&a, "chess help");
    key(&mut a, KeyCode::Esc);
    keys(&mut a, "X");
    assert_eq!(a.screen, Screen::Xiangqi);
    from_fen(&mut a, CHASE_FEN);
    for m in ["c2a2", "a7b7", "a2b2"] {
        typed(&mut a, m);
    }
    keys(&mut a, ",J");
    check(&a, "xiangqi with the judge's panel");
}

/// The chess move list's `*` is explained on the play screen too: once a ruling names plies
/// the list's title says what `*` means (its legend is in the help's "Marks"). Broken to see
/// it fail: the title's hint arm left out (the title stays "repeated positions marked").
#[test]
fn the_move_lists_star_is_explained_on_the_play_screen() {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    super::tests::shuffle(&mut a, 8);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Esc);
    let (s, _) = super::tests::screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("*Ng8") || s.contains("*start"), "{s}");
    assert!(s.contains("* plies the ruling names"), "{s}");
    keys(&mut a, "?");
    let s = super::tests::help_over_pages(&mut a, 80, 24);
    assert!(
        s.contains("* a ply the ruling names: the occurrences of a repetition"),
        "{s}"
    );
}
