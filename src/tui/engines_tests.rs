//! The panel "How engines see it" at 80×24: on the game screen (live and
//! stepped back, with the move list's marks) and in the Euwe stepper.

use crossterm::event::KeyCode;

use crate::rules::Game;

use super::app::App;
use super::app::render::layout;
use super::tests::{app, click, find, key, keys, screen, typed};
use super::theme::Theme;

/// The king goes round a1-a2-b1 in three moves, the other back and forth in
/// two: Axon's chains close over five plies, but the side to move differs.
const TRIANGULATION: (&str, &str) = (
    "7k/8/8/3r4/3R4/8/8/K7 w - - 0 1",
    "a1a2 h8g8 a2b1 g8h8 b1a1",
);

/// Two rooks exchange squares while the black king shuffles: the start
/// position again, which Axon's chains never close on.
const TWO_ROOKS: (&str, &str) = (
    "7k/8/8/8/8/8/8/RR2K3 w - - 0 1",
    "a1a2 h8g8 b1a1 g8h8 a2b2 h8g8 b2b1 g8h8",
);

fn game(line: (&str, &str)) -> Game {
    let mut g = Game::from_fen(line.0).unwrap();
    for m in line.1.split_whitespace() {
        g.play_uci(m).unwrap();
    }
    g
}

/// An 80×24 game screen with `line` played (typed, as a player would).
fn played(line: (&str, &str)) -> App {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    a.new_game(Game::from_fen(line.0).unwrap());
    for m in line.1.split_whitespace() {
        typed(&mut a, m);
    }
    assert_eq!(a.play.game.len(), line.1.split_whitespace().count());
    a
}

/// The screen at 80×24 and the text of the side column (right of the board),
/// its rows joined by single spaces so wrapped lines read as one.
fn side_text(a: &App) -> (String, String) {
    let (s, _) = screen(a, &Theme::plain(), 80, 24);
    let x = layout(a.size).unwrap().history.x as usize;
    let side: Vec<String> = s
        .lines()
        .map(|l| l.chars().skip(x).collect::<String>())
        .collect();
    let joined = side
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (s, joined)
}

fn assert_five_names(side: &str) {
    for name in ["Zarkov", "Rookie", "Belle", "Axon", "cuckoo"] {
        assert!(side.contains(name), "{name} missing: {side}");
    }
}

#[test]
fn play_triangulation_axon_sees_a_false_repetition() {
    let mut a = played(TRIANGULATION);
    let (s, _) = side_text(&a);
    assert!(!s.contains("How engines see it"), "off by default: {s}");
    keys(&mut a, "E");
    let (s, side) = side_text(&a);
    assert!(side.contains("How engines see it · ply 5"), "{s}");
    assert_five_names(&side);
    assert!(side.contains("Rules core: new position"), "{s}");
    assert!(side.contains("Axon closed in 5 ✗ disagrees"), "{s}");
    assert!(side.contains("Zarkov none earlier ✓ agrees"), "{s}");
    assert!(
        side.contains(
            "Axon: the chains closed over 5 plies, so the side to move differs — triangulation"
        ),
        "{s}"
    );
    // The move list marks the ply where a detector errs, and only that one.
    let row = s
        .lines()
        .find(|l| l.contains("3. Ka1"))
        .expect("ply 5 listed");
    assert!(row.contains('✗'), "{s}");
    assert_eq!(s.matches('✗').count(), 2, "mark and verdict: {s}");

    // Stepped back: the panel follows the shown ply.
    keys(&mut a, ",");
    let (s, side) = side_text(&a);
    assert!(side.contains("How engines see it · ply 4"), "{s}");
    assert!(side.contains("All five agree with the rules core."), "{s}");
    assert!(!side.contains("disagrees"), "{s}");

    // Off again: the occurrence panel is back, and the marks are gone.
    keys(&mut a, "E");
    let (s, _) = side_text(&a);
    assert!(!s.contains("How engines see it"), "{s}");
    assert!(s.contains("Occurrences per ply"), "{s}");
    assert!(!s.contains('✗'), "{s}");
}

#[test]
fn play_two_rooks_axon_misses_the_repetition() {
    let mut a = played(TWO_ROOKS);
    keys(&mut a, "E");
    let (s, side) = side_text(&a);
    assert!(side.contains("How engines see it · ply 8"), "{s}");
    assert_five_names(&side);
    assert!(side.contains("Rules core: ×2 (ply 0)"), "{s}");
    assert!(side.contains("Axon chains open ✗ disagrees"), "{s}");
    assert!(side.contains("Rookie hit, verified ✓ agrees"), "{s}");
    assert!(
        side.contains("Axon: missed the repetition of ply 0: chains"),
        "{s}"
    );
    assert!(
        side.contains("stayed open — pieces of one kind exchanged squares"),
        "{s}"
    );
    // Stepping back to the start: nothing to disagree about.
    key(&mut a, KeyCode::Home);
    let (s, side) = side_text(&a);
    assert!(side.contains("How engines see it · ply 0"), "{s}");
    assert!(side.contains("All five agree with the rules core."), "{s}");
}

#[test]
fn play_move_list_stays_clickable_with_the_panel() {
    let mut a = played(TRIANGULATION);
    keys(&mut a, "E");
    let (_, buf) = screen(&a, &Theme::plain(), 80, 24);
    let (x, y) = find(&buf, "Kg8").expect("ply 2 in the move list");
    click(&mut a, x, y);
    assert_eq!(a.play.view, Some(2));
    let (_, side) = side_text(&a);
    assert!(side.contains("How engines see it · ply 2"), "{side}");
}

#[test]
fn euwe_stepper_shows_the_panel() {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    keys(&mut a, "eE");
    for _ in 0..8 {
        key(&mut a, KeyCode::Right);
    }
    let (s, side) = side_text(&a);
    assert!(side.contains("Ply 8/128"), "{s}");
    assert!(side.contains("How engines see it · ply 8"), "{s}");
    assert_five_names(&side);
    assert!(side.contains("Zarkov 2 earlier ✓ agrees"), "{s}");
    assert!(side.contains("All five agree with the rules core."), "{s}");
    keys(&mut a, "E");
    let (s, _) = side_text(&a);
    assert!(!s.contains("How engines see it"), "{s}");
}

/// `line`, then `cycle` (moves back to the same position) over and over, to
/// the Euwe stepper's length.
fn stepper_game(line: (&str, &str), cycle: &str) -> Game {
    let mut g = game(line);
    for m in cycle.split_whitespace().cycle() {
        if g.len() == super::chess::euwe::MAX_PLY {
            break;
        }
        let m = m.parse::<shakmaty::uci::UciMove>().unwrap();
        g.play_past_end(m.to_move(g.position()).unwrap()).unwrap();
    }
    g
}

/// The stepper's panel is the same widget on (game, ply): stepping through a
/// game where Axon errs, it explains both of Axon's mistakes.
#[test]
fn euwe_stepper_panel_explains_axons_mistakes() {
    let mut a = app();
    a.update(super::app::Action::Resize(80, 24));
    keys(&mut a, "eE");
    a.euwe.game = stepper_game(TRIANGULATION, "h8g8 a1b1 g8h8 b1a1");
    for _ in 0..5 {
        key(&mut a, KeyCode::Right);
    }
    let (s, side) = side_text(&a);
    assert!(side.contains("Ply 5/128"), "{s}");
    assert_five_names(&side);
    assert!(side.contains("Axon closed in 5 ✗ disagrees"), "{s}");
    assert!(
        side.contains(
            "Axon: the chains closed over 5 plies, so the side to move differs — triangulation"
        ),
        "{s}"
    );
    a.euwe.game = stepper_game(TWO_ROOKS, TWO_ROOKS.1);
    for _ in 0..3 {
        key(&mut a, KeyCode::Right);
    }
    let (s, side) = side_text(&a);
    assert!(side.contains("Ply 8/128"), "{s}");
    assert_five_names(&side);
    assert!(side.contains("Axon chains open ✗ disagrees"), "{s}");
    assert!(side.contains("Belle open entry ✓ agrees"), "{s}");
    assert!(
        side.contains(
            "Axon: missed the repetition of ply 0: chains a1→b1, b1→a1 stayed open — pieces \
             of one kind exchanged squares"
        ) || side.contains(
            "Axon: missed the repetition of ply 0: chains b1→a1, a1→b1 stayed open — pieces \
             of one kind exchanged squares"
        ),
        "{s}"
    );
}

#[test]
fn the_panel_key_is_in_the_table_for_both_screens() {
    use super::keys::{Cmd, Ctx, help_rows, lookup};
    use crossterm::event::{KeyEvent, KeyModifiers};
    let e = KeyEvent::new(KeyCode::Char('E'), KeyModifiers::NONE);
    assert_eq!(lookup(Ctx::Play, &e), Some(Cmd::EnginesPanel));
    assert_eq!(lookup(Ctx::Euwe, &e), Some(Cmd::EnginesPanel));
    assert!(
        help_rows(Ctx::Play)
            .iter()
            .any(|(k, h)| k == "E" && h.contains("how engines see it"))
    );
}
