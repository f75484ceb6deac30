//! Drawing at 80×24 and other sizes (TestBackend): the chess screen's board, move list, button and hints, colours and ASCII, the help and its pages, banners, messages and the occurrence lines, every screen and overlay.

use crossterm::event::{KeyCode, KeyModifiers, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use shakmaty::{Position, Role, Square};

use crate::rules::{EndingKind, Game};

use super::app::render::layout;
use super::app::{Action, App, Effect, Overlay};
use super::engine_thread::Report;
use super::tests::{
    app, assert_help_lists, click, click_square, find, help_over_pages, key, keys, no_book,
    on_the_game_screens_help, screen, shuffle, typed,
};
use super::theme::Theme;

#[test]
fn main_screen_renders_board_history_button_and_hints() {
    let mut a = app();
    shuffle(&mut a, 8);
    let (s, buf) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("Claim draw"), "{s}");
    assert!(s.contains("claim possible"));
    assert!(s.contains(" c claim "), "{s}");
    assert!(s.contains("♞"));
    assert!(s.contains("Ng8 ×2"), "{s}");
    assert!(s.contains("Ng8 ×3"), "{s}");
    // Badges in their colours: 2nd and 3rd occurrence differ.
    let t = Theme::colored();
    let (x2, y2) = find(&buf, "Ng8 ×2").unwrap();
    let (x3, y3) = find(&buf, "Ng8 ×3").unwrap();
    assert_eq!(buf[(x2, y2)].bg, t.rep2.bg.unwrap());
    assert_ne!(buf[(x3, y3)].bg, buf[(x2, y2)].bg);
    assert!(
        s.contains("third occurrence; earlier: the start position"),
        "{s}"
    );
    // Rank labels: White at the bottom.
    let (_, y8) = find(&buf, "8 ").unwrap();
    let (_, ya) = find(&buf, "a       b").unwrap();
    assert!(y8 < ya);
}

#[test]
fn no_color_keeps_marks_as_text() {
    let mut a = app();
    shuffle(&mut a, 8);
    let (s, buf) = screen(&a, &Theme::plain(), 120, 40);
    assert!(s.contains("Ng8 ×3"));
    for y in 0..40 {
        for x in 0..120 {
            assert_eq!(buf[(x, y)].bg, ratatui::style::Color::Reset);
        }
    }
    // White pieces outlined, black solid.
    assert!(s.contains("♘") && s.contains("♞"));
}

#[test]
fn flipped_board_has_black_at_the_bottom() {
    let mut a = app();
    keys(&mut a, "f");
    let (_, buf) = screen(&a, &Theme::colored(), 120, 40);
    let (_, y1) = find(&buf, "1 ").unwrap();
    let (_, yh) = find(&buf, "h       g").unwrap();
    assert!(y1 < yh);
}

#[test]
fn too_small_terminal_asks_to_enlarge() {
    let a = app();
    let (s, _) = screen(&a, &Theme::colored(), 50, 12);
    assert!(s.contains("enlarge to 64×20"), "{s}");
    // Every size renders without panicking.
    for (w, h) in [(1, 1), (63, 19), (64, 20), (80, 24), (200, 60)] {
        let _ = screen(&a, &Theme::colored(), w, h);
    }
}

#[test]
fn fivefold_ends_with_a_banner() {
    let mut a = app();
    shuffle(&mut a, 8);
    shuffle(&mut a, 8);
    assert_eq!(
        a.play.game.termination().unwrap().ending.kind,
        EndingKind::FivefoldRepetition
    );
    let (s, _) = screen(&a, &Theme::colored(), 120, 40);
    assert!(s.contains("GAME OVER"), "{s}");
    assert!(s.contains("fivefold repetition (FIDE 9.6.1)"));
    assert!(s.contains("×5"));
}

#[test]
fn help_overlay_is_generated_from_the_key_table() {
    let mut a = app();
    keys(&mut a, "?");
    // The drill screen's own help lists the drill bindings (drill_tests).
    let help = help_over_pages(&mut a, 120, 40);
    assert_help_lists(&help, on_the_game_screens_help);
}

/// Every mark the screens draw is in the help's legend, each with one meaning; the `*`
/// that `r` draws in the move list is the legend's.
#[test]
fn the_help_has_a_legend_of_every_mark() {
    let mut a = app();
    shuffle(&mut a, 8);
    keys(&mut a, "c1");
    key(&mut a, KeyCode::Enter);
    assert!(a.play.game.is_over());
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("*Ng8"), "{s}");
    keys(&mut a, "?");
    let help = help_over_pages(&mut a, 80, 24);
    for row in [
        "Marks",
        "×2 ×3 the position after this ply stands for the 2nd, 3rd … time",
        "* a ply the ruling names: the occurrences of a repetition, the ply of an ending",
        "| xiangqi: a ply of the repetition the ruling judges",
        "✗ a repetition detector errs at this ply (How engines see it)",
        "[ ] a ply chosen in a drill's answer",
        "★ a drill's difficulty",
        "▶ the player to move; in a list, the row selected",
    ] {
        assert!(help.contains(row), "help lacks {row:?} in {help}");
    }
    // In ASCII the marks are letters and signs, and still one meaning each.
    let legend = super::theme::legend(true);
    let marks: Vec<&str> = legend.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        marks,
        ["x2 x3", "*", "|", "check chase idle", "?", "[ ]", "+", ">"]
    );
}

#[test]
fn help_fits_80x24_over_its_pages() {
    let mut a = app();
    keys(&mut a, "?");
    let help = help_over_pages(&mut a, 80, 24);
    // Every binding but the drill screen's (drill_tests checks those).
    assert_help_lists(&help, on_the_game_screens_help);
    assert!(help.contains("Mouse: click a piece"), "{help}");
    // The smallest terminal the trainer runs in, too.
    keys(&mut a, "g");
    let help = help_over_pages(&mut a, 64, 20);
    assert_help_lists(&help, on_the_game_screens_help);
}

#[test]
fn help_scrolls_and_stops_at_its_ends() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    keys(&mut a, "?");
    key(&mut a, KeyCode::Up);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 0 }));
    key(&mut a, KeyCode::Down);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 1 }));
    key(&mut a, KeyCode::End);
    let Some(Overlay::Help { scroll: end }) = a.overlay else {
        panic!()
    };
    assert!(end > 1);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: end }));
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    assert!(s.contains("wheel steps through the history"), "{s}");
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::NONE,
    }));
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: end - 1 }));
    key(&mut a, KeyCode::Home);
    assert_eq!(a.overlay, Some(Overlay::Help { scroll: 0 }));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.overlay, None);
}

#[test]
fn ascii_board() {
    let mut a = app();
    a.ascii = true;
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let rank8 = s
        .lines()
        .find(|l| l.starts_with(" 8") || l.starts_with("8"))
        .unwrap();
    let letters: String = rank8
        .chars()
        .take(36)
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    assert!(letters.starts_with("rnbqkbnr"), "{s}");
    let _ = Rect::default();
}

/// Every screen and overlay at 80×24, the default terminal: its content and
/// its key hints are there, and clicking a dialog's button (laid out by the
/// same function that draws it) runs the button's command.
#[test]
fn every_screen_and_overlay_works_at_80x24() {
    let show = |a: &App| screen(a, &Theme::plain(), 80, 24).0;
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    let s = show(&a);
    assert!(s.contains("Claim draw"), "{s}");
    assert!(s.contains("c claim"), "{s}");
    // Help: game, Euwe and global keys, closed by its own keys.
    keys(&mut a, "?");
    let s = show(&a);
    assert!(s.contains("Help (") && s.contains("claim a draw"), "{s}");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.overlay, None);
    // The claim dialog, answered with a click on its first button.
    keys(&mut a, "c");
    let s = show(&a);
    assert!(
        s.contains("[1] threefold now") && s.contains("[2] threefold with"),
        "{s}"
    );
    assert!(s.contains("Esc cancel"), "{s}");
    let (r, cmd) = super::chess::claim_layout(&a.play, a.size).buttons[0];
    assert_eq!(
        cmd,
        super::keys::Cmd::ClaimAs(super::chess::ClaimOption::THREEFOLD_NOW)
    );
    click(&mut a, r.x + 1, r.y);
    let s = show(&a);
    assert!(s.contains("Claim correct: draw"), "{s}");
    assert!(s.contains("Enter close"), "{s}");
    key(&mut a, KeyCode::Enter);
    // A question: its keys are shown, in its words; Esc leaves things as they are.
    let mut a = app();
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    keys(&mut a, "n");
    let s = show(&a);
    assert!(s.contains("start a new one?"), "{s}");
    assert!(
        s.contains("y abandon the game")
            && s.contains("n keep playing")
            && s.contains("Esc keep playing"),
        "{s}"
    );
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.game.len(), 1);
    // Promotion, chosen by a click.
    a.new_game(Game::from_fen("8/P7/8/8/8/8/8/k6K w - - 0 1").unwrap());
    click_square(&mut a, Square::A7);
    click_square(&mut a, Square::A8);
    let s = show(&a);
    assert!(s.contains("q Queen") && s.contains("n Knight"), "{s}");
    let (r, _) = super::chess::promotion_layout(a.size).1[3];
    click(&mut a, r.x + 1, r.y);
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
    // The input line shows its keys from the table.
    keys(&mut a, "i");
    let s = show(&a);
    assert!(
        s.contains("Enter submit") && s.contains("Esc cancel"),
        "{s}"
    );
    key(&mut a, KeyCode::Esc);
    // Euwe.
    keys(&mut a, "e5");
    let s = show(&a);
    assert!(
        s.contains("Former German rule") && s.contains("FIDE"),
        "{s}"
    );
    assert!(s.contains("5 fivefold"), "{s}");
}

/// Long occurrence lists are summarised to the space given: the first
/// places, "… N more …", the last place; short ones are written out.
#[test]
fn occurrence_lists_fit_their_width_and_lines() {
    let e = super::chess::euwe::EuweState::new();
    let game = &e.game;
    let plies: Vec<usize> = (0..=128).step_by(4).collect();
    assert_eq!(plies.len(), 33);
    let lines = super::widgets::fit_places(game, "×33 here; before: ", &plies, "", 43, 2);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l.chars().count() <= 43), "{lines:?}");
    let text = lines.join(" ");
    assert!(
        text.starts_with("×33 here; before: the start position,"),
        "{text}"
    );
    assert!(text.ends_with("after 64...Ng8"), "{text}");
    let shown = text.matches("after ").count() + 1;
    assert!(text.contains(&format!("… {} more …", 33 - shown)), "{text}");
    // Room enough: every place, as the rulings write them.
    let all = super::widgets::fit_places(game, "", &plies[..3], "", 80, 2);
    assert_eq!(all, ["the start position, after 2...Nb8 and after 4...Ng8"]);
}

/// The play screen's occurrence line at 80×24: a fourth occurrence's places
/// and the jump keys fit its two lines.
#[test]
fn play_screen_occurrence_line_fits_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    shuffle(&mut a, 8);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8"] {
        typed(&mut a, m);
    }
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let same = layout(a.size).unwrap().same;
    let rows: Vec<&str> = s.lines().skip(same.y as usize).take(2).collect();
    let text: String = rows
        .iter()
        .map(|r| {
            r.chars()
                .skip(same.x as usize)
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("fourth occurrence; earlier:"), "{s}");
    assert!(
        text.contains("more …") && text.contains("after 4...Ng8"),
        "{s}"
    );
    assert!(text.contains("(r/R jump)"), "{s}");
}

/// A long ruling on the message rows is read whole at 80×24, its FIDE
/// article at the end included.
#[test]
fn a_dead_position_ruling_is_read_whole_at_80x24() {
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.new_game(Game::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap());
    typed(&mut a, "Kxd2");
    let msg = a.message.clone().unwrap().text;
    assert!(msg.ends_with("a dead position (FIDE 5.2.2)."), "{msg}");
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let flat = s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&msg), "{s}");
}

/// A game that ended: at 80×24 the banner is whole with the review key, and the hint
/// line offers what can be done now instead of moves and claims.
#[test]
fn a_finished_game_says_what_can_be_done_at_80x24() {
    use super::chess::Clock;
    use std::time::{Duration, Instant};
    let mut a = app();
    a.update(Action::Resize(80, 24));
    a.play.clock = Some(Clock::new(Duration::from_secs(60), Duration::ZERO));
    shuffle(&mut a, 2);
    a.update(Action::Tick(Instant::now() + Duration::from_secs(61)));
    assert!(a.play.game.is_over());
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    let title = s.lines().next().unwrap().trim_end();
    assert!(title.contains("White's flag fell"), "{title}");
    assert!(title.ends_with("v review"), "{title}");
    assert!(
        s.contains("n new game · u take back · v review the game · d drills"),
        "{s}"
    );
    assert!(!s.contains("type a move"), "{s}");
}

/// Nothing stale stays on screen: leaving the history view says where the board is,
/// and the engine's last line goes when no engine plays any more.
#[test]
fn no_stale_lines_after_the_view_or_the_players_change() {
    let mut a = App::new(&no_book(), Game::new());
    a.update(Action::Resize(80, 24));
    typed(&mut a, "e4");
    let Some(Effect::Think { id, .. }) = a.effects.pop() else {
        panic!("the engine did not think")
    };
    let e5 = a.play.game.parse_move("e5").unwrap();
    a.update(Action::Engine(Report::Info {
        id,
        info: super::engine_thread::Info {
            depth: 3,
            score: super::engine_thread::Score::Cp(10),
            nodes: 1,
            nps: 1000,
            pv: vec![e5.into()],
        },
    }));
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(e5.into()),
    }));
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    assert!(s.contains("pv 1...e5"), "{s}");
    keys(&mut a, ",");
    assert!(screen(&a, &Theme::plain(), 80, 24).0.contains("Viewing"));
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.play.view, None);
    assert_eq!(a.message.clone().unwrap().text, "Back to the position now.");
    keys(&mut a, "p3");
    let s = screen(&a, &Theme::plain(), 80, 24).0;
    assert!(!s.contains("pv 1...e5"), "{s}");
    assert!(!s.contains("depth 3"), "{s}");
}

/// Problems found at start (several config lines with long paths, the
/// engine's memory) are read whole at 80×24: the message grows upwards
/// over the panels instead of being cut after two rows (issue 27, item 16).
#[test]
fn a_long_message_is_shown_whole_at_80x24() {
    let mut a = app();
    let file = "/home/someone/.config/threefold/config.toml";
    a.error(format!(
        "{file} line 2: level = 9: out of range (allowed: 0 to 5); using the default 2"
    ));
    a.add_error(format!(
        "{file} line 3: contempt = 9999: out of range (allowed: -100 to 100); using the default 0"
    ));
    a.add_error(format!(
        "{file} line 4: clock_base_secs = -1: out of range (allowed: 1 to 36000); using the default 300"
    ));
    a.add_error(
        super::hash_fallback_message(
            60000,
            16,
            Some("a 60000 MB transposition table does not fit: 20000 MB of memory is available"),
        )
        .unwrap(),
    );
    let text = a.message.clone().unwrap().text;
    assert!(
        text.len() > 4 * 80,
        "a message longer than two rows: {}",
        text.len()
    );
    let (s, _) = screen(&a, &Theme::plain(), 80, 24);
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat(&s).contains(&flat(&text)), "{s}");
    // The title and the key bar stay.
    assert!(s.lines().last().unwrap().contains("help"), "{s}");
}

#[test]
fn message_rows_wrap_at_spaces_and_cut_only_words_too_long() {
    use super::app::render::message_rows;
    assert_eq!(message_rows("ab cd ef", 5), ["ab cd", "ef"]);
    assert_eq!(message_rows("abcdefgh ij", 3), ["abc", "def", "gh", "ij"]);
    assert_eq!(message_rows("  ", 10), Vec::<String>::new());
    let long = "x".repeat(1000);
    let rows = message_rows(&long, 80);
    assert_eq!(rows.concat(), long, "every character is kept");
}
