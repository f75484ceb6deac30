//! Endings outside the rules of play: a draw offer (FIDE 9.1) answered by the engine or
//! the other player, a resignation (5.1.2), a loaded game that its record ends, and playing
//! on from them by choice.

use crossterm::event::KeyCode;

use crate::rules::{EndingKind, Game};

use super::app::{Action, App};
use super::chess::{Overlay, Question};
use super::chess::{Players, draw_offer_answer};
use super::config::Config;
use super::tests::{app, engine_answers, key, keys, screen, typed};
use super::theme::Theme;
use super::widgets::Marks;

fn against_engine(contempt: i32) -> App {
    let cfg = Config {
        human: Players::HumanWhite,
        contempt,
        book: false,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(80, 24));
    a
}

fn text(a: &App) -> String {
    screen(a, &Theme::plain(), a.size.width, a.size.height).0
}

fn ending(a: &App) -> Option<EndingKind> {
    a.play.game.termination().map(|t| t.ending.kind)
}

#[test]
fn the_engine_answers_a_draw_offer_by_its_score_and_contempt() {
    // A quarter pawn or more below what a draw is worth to it: accepted; else declined.
    assert!(draw_offer_answer(Some(-50), 25).0);
    assert!(!draw_offer_answer(Some(-49), 25).0);
    assert!(!draw_offer_answer(Some(-30), 25).0);
    assert!(!draw_offer_answer(Some(40), 0).0);
    assert!(
        !draw_offer_answer(Some(-6), 0).0,
        "an equal position: played on"
    );
    assert!(draw_offer_answer(Some(-25), 0).0);
    assert!(!draw_offer_answer(None, 0).0);
    let (_, why) = draw_offer_answer(Some(-80), 25);
    assert_eq!(
        why,
        "it scores its position -0.80, worse than the -0.25 a draw is worth to it (contempt 25)"
    );
    let (_, why) = draw_offer_answer(Some(-6), 0);
    assert_eq!(
        why,
        "it scores its position -0.06, not clearly worse than the +0.00 a draw is worth to it \
         (contempt 0; it accepts from -0.25)"
    );

    // Offered after the player's move, while the engine thinks: it accepts when worse.
    let mut a = against_engine(0);
    typed(&mut a, "e4");
    keys(&mut a, "D");
    assert!(a.message.as_ref().unwrap().text.contains("Draw offered"));
    engine_answers(&mut a, -120, "e5");
    assert_eq!(ending(&a), Some(EndingKind::DrawAgreed));
    assert_eq!(a.play.game.len(), 1, "accepted instead of moving");
    let s = text(&a);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(s.contains("The engine accepts the draw offer"), "{s}");

    // Better for the engine: declined by its move, which is played (FIDE 9.1.2.2).
    let mut a = against_engine(0);
    typed(&mut a, "e4");
    keys(&mut a, "D");
    engine_answers(&mut a, 35, "e5");
    assert_eq!(ending(&a), None);
    assert_eq!(a.play.game.len(), 2);
    let m = &a.message.as_ref().unwrap().text;
    assert!(
        m.starts_with("The engine declines the draw offer: it scores its position +0.35"),
        "{m}"
    );
    assert_eq!(a.play.draw_offer, None, "answered once");
}

/// An offer made before one's own move is still valid (FIDE 9.1.2.1): the engine answers
/// it after that move.
#[test]
fn an_offer_before_ones_move_is_answered_after_it() {
    let mut a = against_engine(0);
    keys(&mut a, "D");
    let m = &a.message.as_ref().unwrap().text;
    assert!(m.contains("FIDE 9.1.2.1"), "{m}");
    assert!(a.play.draw_offer.is_some());
    typed(&mut a, "e4");
    engine_answers(&mut a, -200, "e5");
    assert_eq!(ending(&a), Some(EndingKind::DrawAgreed));
    // A takeback withdraws an offer not yet answered.
    let mut a = against_engine(0);
    typed(&mut a, "e4");
    keys(&mut a, "D");
    keys(&mut a, "u");
    assert_eq!(a.play.draw_offer, None);
}

#[test]
fn two_humans_answer_each_others_offer_and_a_resignation_is_asked() {
    let mut a = app();
    typed(&mut a, "e4");
    keys(&mut a, "D");
    assert_eq!(a.play.overlay, Some(Overlay::Ask(Question::AcceptDraw)));
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    assert!(
        s.contains("Black offers a draw (FIDE 9.1). White, do you accept?"),
        "{s}"
    );
    keys(&mut a, "n");
    assert_eq!(ending(&a), None);
    keys(&mut a, "D");
    keys(&mut a, "y");
    assert_eq!(ending(&a), Some(EndingKind::DrawAgreed));
    assert_eq!(
        a.play.game.termination().unwrap().ending.result(),
        "1/2-1/2"
    );

    // Resigning: asked first, then the game is lost by the side that resigns.
    let mut a = against_engine(0);
    keys(&mut a, "K");
    assert_eq!(a.play.overlay, Some(Overlay::Ask(Question::Resign)));
    key(&mut a, KeyCode::Esc);
    assert_eq!(ending(&a), None);
    keys(&mut a, "Ky");
    assert_eq!(
        ending(&a),
        Some(EndingKind::Resignation {
            winner: shakmaty::Color::Black
        })
    );
    let s = text(&a);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(s.contains("White resigned: Black wins (FIDE 5.1.2)"), "{s}");
    // Playing on is a choice.
    keys(&mut a, "P");
    assert_eq!(ending(&a), None);
    assert!(a.play.thinking.is_none(), "White to move: the engine waits");
}

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn load(text: &str, name: &str, blind: bool) -> App {
    let dir = std::env::temp_dir().join(format!("threefold-endings-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.pgn");
    std::fs::write(&path, text).unwrap();
    let mut a = app();
    a.update(Action::Resize(80, 24));
    if blind {
        keys(&mut a, "B");
    }
    a.load_pgn(&path);
    let _ = std::fs::remove_dir_all(&dir);
    a
}

/// A loaded game that ended by a recorded claim or by its recorded result opens finished:
/// the banner, the marks (in blind mode too), no claim button; playing on is a choice.
#[test]
fn a_loaded_game_that_ended_opens_finished() {
    let _ = DIR;
    let claimed = "[Event \"t\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 \
                   {[%claim now 9.2]} 1/2-1/2\n";
    let a = load(claimed, "claim", true);
    assert_eq!(ending(&a), Some(EndingKind::ThreefoldClaim));
    assert_eq!(
        a.marks(),
        Marks::Shown,
        "the marks of a finished game, blind or not"
    );
    let s = text(&a);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(!s.contains("Claim draw"), "{s}");
    assert!(!s.contains("claim possible"), "{s}");
    assert!(s.contains("×3"), "{s}");

    // A claim with a move, recorded after the move it intended.
    let with_move = "[Event \"t\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 \
                     {[%claim move]} 1/2-1/2\n";
    let a = load(with_move, "move", false);
    assert_eq!(ending(&a), Some(EndingKind::ThreefoldClaim));
    assert_eq!(a.play.game.len(), 8);

    // A result with a termination the rules do not rule on: ended as recorded.
    let resigned =
        "[Event \"t\"]\n[Result \"0-1\"]\n[Termination \"normal\"]\n\n1. f3 e5 2. g4 0-1\n";
    let mut a = load(resigned, "resigned", false);
    assert_eq!(
        ending(&a),
        Some(EndingKind::Recorded {
            winner: Some(shakmaty::Color::Black)
        })
    );
    let s = text(&a);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(!s.contains("Claim draw"), "{s}");
    // Moves are refused until the player chooses to play on.
    typed(&mut a, "Qh4");
    assert_eq!(a.play.game.len(), 3);
    keys(&mut a, "P");
    assert_eq!(ending(&a), None);
    typed(&mut a, "Qh4");
    assert_eq!(
        ending(&a).map(|k| k.winner()),
        Some(Some(shakmaty::Color::Black))
    );
    assert!(matches!(ending(&a), Some(EndingKind::Checkmate { .. })));

    // An unfinished record ("*") opens in progress, as before.
    let open = "[Event \"t\"]\n\n1. e4 e5 *\n";
    let a = load(open, "open", false);
    assert_eq!(ending(&a), None);
    assert!(text(&a).contains("Claim draw"));

    // An incorrect claim at the end does not end it; the result then does.
    let wrong = "[Event \"t\"]\n\n1. Nf3 Nf6 2. Ng1 {[%claim now 9.2]} 1/2-1/2\n";
    let a = load(wrong, "wrong", false);
    assert_eq!(ending(&a), Some(EndingKind::Recorded { winner: None }));
}
