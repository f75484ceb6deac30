//! Moves on the chess screen: typed (SAN, UCI, leniently read, refused with the reason), by cursor and by mouse, promotion and castling, stepping through the history and jumping between occurrences.

use crossterm::event::{KeyCode, KeyModifiers, MouseEvent, MouseEventKind};
use shakmaty::{Position, Role, Square};

use crate::rules::Game;

use super::app::Action;
use super::app::render::layout;
use super::chess::Overlay as PlayOverlay;
use super::tests::{app, click, click_square, key, keys, screen, shuffle, typed};
use super::theme::Theme;

#[test]
fn typed_moves_san_and_uci() {
    let mut a = app();
    typed(&mut a, "e4");
    typed(&mut a, "e7e5");
    assert_eq!(a.play.game.len(), 2);
    assert!(a.input.is_none());
}

#[test]
fn illegal_and_ambiguous_typed_moves_change_nothing_but_the_message() {
    let mut a = app();
    typed(&mut a, "Ke2");
    assert_eq!(a.play.game.len(), 0);
    let m = a.message.clone().unwrap();
    assert!(m.is_error());
    let msg = m.text;
    assert_eq!(
        msg, "Ke2: the king on e1 cannot go to e2 (your own pawn stands there)",
        "the reason, in one line"
    );
    assert!(!msg.contains('\n'));
    key(&mut a, KeyCode::Esc);
    let fen = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
    a.new_game(Game::from_fen(fen).unwrap());
    typed(&mut a, "Nd2");
    assert_eq!(a.play.game.len(), 0);
    let msg = a.message.clone().unwrap().text;
    assert!(msg.contains("ambiguous: the knights on b1 and f1"), "{msg}");
    // The typed text stays for correction.
    assert_eq!(a.input.as_ref().unwrap().text(), "Nd2");
    key(&mut a, KeyCode::Backspace);
    key(&mut a, KeyCode::Backspace);
    keys(&mut a, "bd2");
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.game.len(), 1);
}

#[test]
fn cursor_moves_with_arrows_and_hjkl() {
    let mut a = app();
    assert_eq!(a.play.cursor, Square::E2);
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.selected, Some(Square::E2));
    assert_eq!(a.play.targets().len(), 2);
    key(&mut a, KeyCode::Up);
    keys(&mut a, "k");
    keys(&mut a, " ");
    assert_eq!(a.play.game.len(), 1);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::E4)
            .unwrap()
            .role,
        Role::Pawn
    );
    // Flipped: up moves towards White's side.
    keys(&mut a, "f");
    let before = a.play.cursor;
    keys(&mut a, "k");
    assert_eq!(u8::from(a.play.cursor.rank()) + 1, u8::from(before.rank()));
    keys(&mut a, "hl");
    assert_eq!(a.play.cursor.file(), before.file());
}

#[test]
fn mouse_select_then_target() {
    let mut a = app();
    click_square(&mut a, Square::G1);
    assert_eq!(a.play.selected, Some(Square::G1));
    click_square(&mut a, Square::F3);
    assert_eq!(a.play.game.len(), 1);
    // Flipped board, same clicks land on the right squares.
    a.play.flipped = true;
    click_square(&mut a, Square::B8);
    click_square(&mut a, Square::C6);
    assert_eq!(a.play.game.len(), 2);
    assert_eq!(a.play.game.ply_label(2), "1...Nc6");
}

#[test]
fn promotion_asks_which_piece() {
    let mut a = app();
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    assert!(matches!(a.play.overlay, Some(PlayOverlay::Promotion(_))));
    assert_eq!(a.play.game.len(), 0);
    keys(&mut a, "n");
    assert_eq!(a.play.game.len(), 1);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::A8)
            .unwrap()
            .role,
        Role::Knight
    );
}

#[test]
fn promotion_by_click() {
    let mut a = app();
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    let (r, cmd) = super::chess::promotion_layout(a.size).1[1];
    assert_eq!(cmd, super::keys::Cmd::Promote(Role::Rook));
    click(&mut a, r.x + 1, r.y);
    assert_eq!(
        a.play
            .game
            .position()
            .board()
            .piece_at(Square::A8)
            .unwrap()
            .role,
        Role::Rook
    );
}

#[test]
fn history_stepping_and_occurrence_jumps() {
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, ",");
    assert_eq!(a.play.view, Some(7));
    key(&mut a, KeyCode::End);
    assert_eq!(a.play.view, None);
    keys(&mut a, "r");
    assert_eq!(a.play.view, Some(4));
    keys(&mut a, "r");
    assert_eq!(a.play.view, Some(0));
    keys(&mut a, "R");
    assert_eq!(a.play.view, Some(4));
    // Mouse wheel and clicking a move in the list.
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 0,
        row: 0,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.play.view, Some(3));
    let areas = layout(a.size).unwrap();
    let (r, ply) = super::chess::history_cells(&a.play, areas.history)
        .into_iter()
        .find(|c| c.1 == 5)
        .unwrap();
    click(&mut a, r.x, r.y);
    assert_eq!(a.play.view, Some(ply));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.view, None);
}

#[test]
fn sparkline_click_views_that_ply() {
    let mut a = app();
    shuffle(&mut a, 6);
    let areas = layout(a.size).unwrap();
    click(&mut a, areas.spark.x + 4, areas.spark.y + 1);
    assert_eq!(a.play.view, Some(4));
}

#[test]
fn castling_by_clicking_the_kings_square_or_the_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut a = app();
    a.new_game(Game::from_fen(fen).unwrap());
    click_square(&mut a, Square::E1);
    assert!(a.play.targets().contains(&Square::G1));
    assert!(a.play.targets().contains(&Square::C1));
    click_square(&mut a, Square::G1);
    assert_eq!(a.play.game.ply_label(1), "1.O-O");
    click_square(&mut a, Square::E8);
    click_square(&mut a, Square::A8);
    assert_eq!(a.play.game.ply_label(2), "1...O-O-O");
}

/// `r` and `R` say which occurrence they jumped to in plain words, the start
/// position too, read whole on the message rows at 80×24.
#[test]
fn occurrence_jumps_say_where_in_plain_words() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    keys(&mut a, "r");
    let msg = a.message.clone().unwrap().text;
    assert_eq!(msg, "Occurrence 2 of 3 of this position: after 2...Ng8.");
    keys(&mut a, "r");
    let msg = a.message.clone().unwrap().text;
    assert_eq!(
        msg,
        "Occurrence 1 of 3 of this position: the start position."
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains(&msg), "{s}");
    keys(&mut a, "R");
    assert_eq!(
        a.message.clone().unwrap().text,
        "Occurrence 2 of 3 of this position: after 2...Ng8."
    );
}

#[test]
fn typed_moves_are_read_leniently_and_refusals_say_why_on_screen() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    for m in ["e2-e4", "e7e5", "nf3", "Nc6", "Bc4", "bc5", "0-0"] {
        typed(&mut a, m);
        assert!(a.input.is_none(), "{m}: {:?}", a.message);
    }
    assert_eq!(a.play.game.len(), 7);
    assert_eq!(a.play.game.ply_label(7), "4.O-O");
    // Pinned: the knight on c6 after Bb5 (White's bishop pins it to the king on e8).
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.new_game(Game::from_fen("4k3/8/2n5/1B6/8/8/8/4K3 b - - 0 1").unwrap());
    typed(&mut a, "ne5");
    let msg = a.message.clone().unwrap();
    assert!(msg.is_error());
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(
        s.contains("ne5: the knight on c6 is pinned: moving it would expose the king to"),
        "{s}"
    );
    assert_eq!(
        a.input.as_ref().unwrap().text(),
        "ne5",
        "kept for correction"
    );
}
