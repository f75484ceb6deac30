//! Blind mode (issue 13): play without repetition marks or hints, at 80×24.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::rules::Game;

use super::app::{Action, App};
use super::chess::Overlay;
use super::chess::Players;
use super::config::{self, Config};
use super::keys::{self, Cmd, Ctx};
use super::tests::{key, keys, screen, typed};
use super::theme::Theme;
use super::widgets::Marks;

fn app(blind: bool) -> App {
    let cfg = Config {
        human: Players::TwoHumans,
        blind,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(80, 24));
    a
}

fn text(a: &App) -> String {
    screen(a, &Theme::colored(), a.size.width, a.size.height).0
}

const KNIGHTS: [&str; 8] = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"];

/// What gives a repetition away on the game screen.
fn assert_nothing_counted(s: &str) {
    assert!(!s.contains('×'), "a mark\n{s}");
    for hint in [
        "claim possible",
        "Occurrences per ply",
        "occurrence",
        "appeared",
        "Repetition",
    ] {
        assert!(!s.contains(hint), "{hint:?} shown\n{s}");
    }
}

#[test]
fn blind_mode_hides_marks_and_hints_and_the_claim_still_works() {
    let mut a = app(false);
    keys(&mut a, "B");
    assert_eq!(a.play.marks_setting(), Marks::Hidden);
    assert!(a.message.clone().unwrap().text.contains("Blind mode"));
    for m in KNIGHTS {
        typed(&mut a, m);
        let s = text(&a);
        assert_nothing_counted(&s);
        assert!(
            s.contains(" threefold blind "),
            "the header says blind\n{s}"
        );
    }
    let s = text(&a);
    assert!(s.contains("4. Ng1"), "{s}");
    // The 50-move count is kept back too: the player counts from the move list.
    assert!(s.contains("White's move 5"), "{s}");
    assert!(!s.contains("50-move count"), "{s}");
    assert!(
        s.contains("Blind mode: count the repetitions yourself"),
        "{s}"
    );
    // Jumping to the earlier occurrences would count for the player.
    keys(&mut a, "r");
    assert!(a.message.clone().unwrap().is_error());
    assert_eq!(a.play.view, None);
    // The claim dialog does not count either; the ruling may.
    keys(&mut a, "c");
    assert_eq!(a.play.overlay, Some(Overlay::Claim));
    assert_nothing_counted(&text(&a));
    keys(&mut a, "1");
    match &a.play.overlay {
        Some(Overlay::Verdict { correct, text, .. }) => {
            assert!(*correct);
            assert!(text.contains("third time"), "{text}");
        }
        o => panic!("no ruling: {o:?}"),
    }
    assert!(a.play.game.is_over());
    // Once the game is over the marks are the player's to study.
    key(&mut a, KeyCode::Enter);
    assert_eq!(a.play.overlay, None);
    let s = text(&a);
    assert!(s.contains("Ng8 ×3"), "{s}");
    assert!(s.contains("Occurrences per ply"), "{s}");
}

#[test]
fn blind_mode_off_shows_the_marks_again() {
    let mut a = app(true);
    assert_eq!(a.play.marks_setting(), Marks::Hidden);
    for m in KNIGHTS {
        typed(&mut a, m);
    }
    assert_nothing_counted(&text(&a));
    keys(&mut a, "B");
    assert_eq!(a.play.marks_setting(), Marks::Shown);
    let s = text(&a);
    assert!(s.contains("Ng8 ×3"), "{s}");
    assert!(s.contains("claim possible"), "{s}");
    assert!(!s.contains("blind"), "{s}");
}

/// The panel "How engines see it" counts occurrences (the rules core's answer): in
/// blind mode it waits for the end of the game, and says so.
/// The review lists missed claims ("the position had appeared three times"): in blind mode
/// it waits for the end of the game, and says so; then it opens.
#[test]
fn blind_mode_keeps_the_review_back_until_the_game_ends() {
    let mut a = app(true);
    for m in KNIGHTS {
        typed(&mut a, m);
    }
    keys(&mut a, "v");
    assert_eq!(a.screen, super::app::Screen::Play);
    let s = text(&a);
    assert_nothing_counted(&s);
    assert!(s.contains("review waits for the end of the game"), "{s}");
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    keys(&mut a, "v");
    assert_eq!(a.screen, super::app::Screen::Review);
}

#[test]
fn blind_mode_keeps_how_engines_see_it_back_until_the_game_ends() {
    let mut a = app(true);
    for m in KNIGHTS {
        typed(&mut a, m);
    }
    keys(&mut a, "E");
    let s = text(&a);
    assert_nothing_counted(&s);
    for word in ["Rules core", "Zarkov", "agree"] {
        assert!(!s.contains(word), "{word:?} shown\n{s}");
    }
    assert!(s.contains("waits for the end of the game"), "{s}");
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    let s = text(&a);
    assert!(s.contains("Rules core: ×3"), "{s}");
}

#[test]
fn blind_is_a_setting_and_a_key() {
    let (c, msg) = config::parse("blind = true\n", "c.toml");
    assert_eq!(msg, None);
    assert!(c.blind);
    let (c, msg) = config::parse("level = 2\nblind = 1\n", "c.toml");
    assert!(!c.blind);
    assert_eq!(c.level, 2);
    let msg = msg.unwrap();
    assert!(
        msg.contains("c.toml line 2") && msg.contains("true or false"),
        "{msg}"
    );
    assert!(config::default_text().contains("blind = false"));
    let b = KeyEvent::new(KeyCode::Char('B'), KeyModifiers::NONE);
    assert_eq!(keys::lookup(Ctx::Play, &b), Some(Cmd::Blind));
    assert!(
        keys::help_rows(Ctx::Play)
            .iter()
            .any(|(k, h)| k == "B" && h.contains("blind mode: no marks, no hints"))
    );
}
