//! The input line: it edits like a shell line, shows its cursor at 80×24, keeps a refused FEN for correction and explains it whole, and refuses a pasted line too long for a move.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::Action;
use super::tests::{app, ctrl, find, key, keys, screen, typed};
use super::theme::Theme;

#[test]
fn fen_in_app() {
    let mut a = app();
    keys(&mut a, "F");
    a.input.as_mut().unwrap().line =
        super::line_edit::LineEdit::new("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    keys(&mut a, "F");
    a.input.as_mut().unwrap().line = super::line_edit::LineEdit::new("nonsense");
    key(&mut a, KeyCode::Enter);
    assert!(a.message.as_ref().unwrap().is_error());
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn prompts_edit_like_a_shell_line() {
    let mut a = app();
    // A typed move: fix a typo in the middle with the cursor keys.
    key(&mut a, KeyCode::Char('i'));
    keys(&mut a, "Nf4");
    key(&mut a, KeyCode::Left);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "f");
    key(&mut a, KeyCode::End);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "3");
    assert_eq!(a.input.as_ref().unwrap().text(), "Nf3");
    ctrl(&mut a, 'a');
    key(&mut a, KeyCode::Delete);
    keys(&mut a, "N");
    ctrl(&mut a, 'e');
    keys(&mut a, " x");
    ctrl(&mut a, 'w');
    assert_eq!(a.input.as_ref().unwrap().text(), "Nf3 ");
    key(&mut a, KeyCode::Home);
    key(&mut a, KeyCode::Right);
    ctrl(&mut a, 'u');
    assert_eq!(a.input.as_ref().unwrap().text(), "f3 ");
    ctrl(&mut a, 'u');
    ctrl(&mut a, 'k');
    assert_eq!(a.input.as_ref().unwrap().text(), "");
    keys(&mut a, "Nf3");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 1);
    assert!(a.input.is_none());
}

#[test]
fn an_invalid_fen_stays_on_the_prompt_for_correction() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "F");
    ctrl(&mut a, 'u');
    keys(&mut a, "4k3/8/8/8/8/8/8/4K2R w KQ - 0 1");
    key(&mut a, KeyCode::Enter);
    let m = a.message.clone().unwrap();
    assert!(m.is_error(), "{m:?}");
    assert_eq!(
        a.input.as_ref().map(|i| i.text()),
        Some("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"),
        "the FEN is kept"
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("FEN: 4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"), "{s}");
    // Correct it where it is wrong: remove the Q of the castling rights.
    for _ in 0..6 {
        key(&mut a, KeyCode::Left);
    }
    key(&mut a, KeyCode::Backspace);
    key(&mut a, KeyCode::Enter);
    assert!(a.input.is_none());
    assert_eq!(a.play.game.start_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

#[test]
fn the_prompt_shows_the_cursor_where_it_is_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    key(&mut a, KeyCode::Char('i'));
    keys(&mut a, "Nbd2");
    key(&mut a, KeyCode::Left);
    key(&mut a, KeyCode::Left);
    let (s, buf) = screen(&a, &Theme::plain(), 80, 24);
    let (x, y) = find(&buf, "Move (SAN or UCI): Nbd2").unwrap_or_else(|| panic!("{s}"));
    let under = &buf[(x + "Move (SAN or UCI): Nb".len() as u16, y)];
    assert_eq!(under.symbol(), "d");
    assert!(
        under.modifier.contains(ratatui::style::Modifier::REVERSED),
        "the cursor is on the d"
    );
    // A long line scrolls so the cursor stays on screen.
    key(&mut a, KeyCode::End);
    keys(&mut a, &"x".repeat(100));
    keys(&mut a, "END");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("xxEND█"), "{s}");
}

/// A FEN refused in the trainer: the reason in full on the message rows at 80×24 (the
/// FEN itself stays on the input line to be corrected), and the prompt says how to clear it.
#[test]
fn a_refused_fen_is_explained_whole_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "F");
    let m = a.message.clone().unwrap().text;
    assert!(m.contains("Ctrl-u clears the line"), "{m}");
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char('u'),
        KeyModifiers::CONTROL,
    )));
    keys(&mut a, "garbage");
    key(&mut a, KeyCode::Enter);
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let rows: Vec<&str> = s.lines().collect();
    let msg = format!("{} {}", rows[20].trim(), rows[21].trim());
    assert!(
        msg.contains("Invalid FEN: 1 field where a FEN has 4 to 6: board, side to move"),
        "{s}"
    );
    assert!(msg.ends_with("(correct it below)"), "{msg}");
    assert!(rows[22].contains("FEN: garbage"), "{s}");
}

/// A paste of 10,000 characters submitted as a move is refused by its length,
/// not quoted back (the message would fill the screen); the line stays.
#[test]
fn a_pasted_line_too_long_for_a_move_is_refused_by_its_length() {
    let mut a = app();
    let long = "a".repeat(10_000);
    typed(&mut a, &long);
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    assert!(m.text.len() < 120, "{}", m.text);
    assert!(m.text.contains("10000 characters"), "{}", m.text);
    assert_eq!(a.input.as_ref().map(|i| i.line.text().len()), Some(10_000));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("Not a move: 10000 characters"), "{s}");
}
