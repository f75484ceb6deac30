//! What the trainer's tests share: an App on the chess screen, keys, clicks and typed moves
//! sent to it, its screen drawn on a TestBackend and searched. The tests themselves are
//! by topic in the `*_tests.rs` files beside this one.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use shakmaty::Square;

use crate::rules::Game;

use super::app::render::{self, layout, render_with};
use super::app::{Action, App, Effect, Overlay};
use super::chess::Players;
use super::config::Config;
use super::engine_thread::Report;
use super::theme::Theme;

pub(super) fn app() -> App {
    let cfg = Config {
        human: Players::TwoHumans,
        book: false,
        ..Config::default()
    };
    let mut a = App::new(&cfg, Game::new());
    a.update(Action::Resize(120, 40));
    a
}

/// The default settings without the opening book, for tests of the engine's search from the
/// start position.
pub(super) fn no_book() -> Config {
    Config {
        book: false,
        ..Config::default()
    }
}

pub(super) fn key(a: &mut App, code: KeyCode) {
    a.update(Action::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

pub(super) fn keys(a: &mut App, s: &str) {
    for c in s.chars() {
        key(a, KeyCode::Char(c));
    }
}

pub(super) fn typed(a: &mut App, mv: &str) {
    key(a, KeyCode::Char('i'));
    keys(a, mv);
    key(a, KeyCode::Enter);
}

pub(super) fn click(a: &mut App, x: u16, y: u16) {
    a.update(Action::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x,
        row: y,
        modifiers: KeyModifiers::NONE,
    }));
}

pub(super) fn click_square(a: &mut App, sq: Square) {
    let areas = layout(a.size).unwrap();
    let g = render::board_geom(&areas, a.play.flipped).unwrap();
    let r = g.rect(sq);
    click(a, r.x + 1, r.y);
}

/// Knights out and back twice: the start position stands a third time at ply 8.
pub(super) fn shuffle(a: &mut App, plies: usize) {
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"]
        .iter()
        .take(plies)
    {
        typed(a, m);
    }
}

pub(super) fn screen(a: &App, theme: &Theme, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render_with(a, theme, f.area(), f.buffer_mut()))
        .unwrap();
    let buf = t.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    (s, buf)
}

pub(super) fn find(buf: &ratatui::buffer::Buffer, text: &str) -> Option<(u16, u16)> {
    for y in 0..buf.area.height {
        let row: Vec<&str> = (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect();
        let line: String = row.concat();
        if let Some(i) = line.find(text) {
            // Byte index to column (symbols may be multi-byte).
            let mut bytes = 0;
            for (x, s) in row.iter().enumerate() {
                if bytes == i {
                    return Some((x as u16, y));
                }
                bytes += s.len();
            }
        }
    }
    None
}

/// The engine's search: an info line with `score` (its own point of view), then `mv`.
pub(super) fn engine_answers(a: &mut App, score: i32, mv: &str) {
    let id = a.play.thinking.as_ref().expect("the engine is thinking").id;
    let m = a.play.game.parse_move(mv).unwrap();
    a.update(Action::Engine(Report::Info {
        id,
        info: super::engine_thread::Info {
            depth: 5,
            score: super::engine_thread::Score::Cp(score),
            nodes: 100,
            nps: 1000,
            pv: vec![m.into()],
        },
    }));
    a.update(Action::Engine(Report::Best {
        id,
        mv: Some(m.into()),
    }));
}

pub(super) const KNIGHTS: [&str; 9] = [
    "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8", "Nf3",
];

/// A game between humans up to `plies`, then engine against engine.
pub(super) fn engines_after(plies: usize, contempt: i32) -> App {
    let mut a = app();
    for m in KNIGHTS.iter().take(plies) {
        typed(&mut a, m);
    }
    a.play.config.human = Players::Engines;
    a.play.config.contempt = contempt;
    a.start();
    a
}

/// Whether the help on the chess game screen lists a context's keys: every context but the
/// drill screens' and the xiangqi screens' (their own helps list those; drill_tests,
/// xiangqi_tests).
pub(super) fn on_the_game_screens_help(c: super::keys::Ctx) -> bool {
    use super::keys::Ctx;
    !matches!(
        c,
        Ctx::DrillThemes
            | Ctx::DrillAnswer
            | Ctx::DrillFeedback
            | Ctx::Xiangqi
            | Ctx::XqCall
            | Ctx::XqDrillThemes
            | Ctx::XqDrillAnswer
            | Ctx::XqDrillFeedback
            | Ctx::PickScenario
    )
}

/// The help overlay at `w`×`h`, read page by page with the table's page key:
/// each row between the popup's borders, placed at the scroll it was shown
/// at, joined with single spaces (so wrapped help texts read as one).
pub(super) fn help_over_pages(a: &mut App, w: u16, h: u16) -> String {
    use super::keys::{BINDINGS, Cmd, Ctx, Key};
    use std::collections::BTreeMap;
    let page_down = match BINDINGS
        .iter()
        .find(|b| b.ctx == Ctx::Help && b.cmd == Cmd::PageDown)
        .expect("the help has a page key")
        .keys[0]
    {
        Key::Char(c) => KeyCode::Char(c),
        Key::Code(c) => c,
        Key::Ctrl(_) => unreachable!(),
    };
    a.update(Action::Resize(w, h));
    // The help opens at the screen's section: read it from its top.
    key(a, KeyCode::Home);
    let mut rows = BTreeMap::new();
    loop {
        let Some(Overlay::Help { scroll }) = a.overlay else {
            panic!("help is not shown: {:?}", a.overlay)
        };
        let (s, _) = screen(a, &Theme::plain(), w, h);
        let lines: Vec<&str> = s.lines().collect();
        let top = lines.iter().position(|l| l.contains(" Help (")).unwrap();
        // The popup's columns: between its top corners.
        let corners: Vec<usize> = lines[top]
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == '┌' || c == '┐')
            .map(|(i, _)| i)
            .collect();
        let (left, right) = (corners[0], corners[corners.len() - 1]);
        for (i, l) in lines[top + 1..].iter().enumerate() {
            let inside: String = l.chars().skip(left + 1).take(right - left - 1).collect();
            if l.chars().nth(left) == Some('└') {
                break;
            }
            rows.insert(scroll + i, inside.trim().to_string());
        }
        key(a, page_down);
        if a.overlay == Some(Overlay::Help { scroll }) {
            break;
        }
    }
    let text: Vec<String> = rows.into_values().collect();
    text.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Assert every binding of the contexts `shown` appears in the help, its
/// keys followed by its whole help text.
pub(super) fn assert_help_lists(help: &str, shown: impl Fn(super::keys::Ctx) -> bool) {
    for b in super::keys::BINDINGS.iter().filter(|b| shown(b.ctx)) {
        let row = format!("{} {}", b.keys_label(), super::keys::help_text(b));
        let row = row.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&row), "help lacks {row:?} in {help}");
    }
}

pub(super) fn ctrl(a: &mut App, c: char) {
    a.update(Action::Key(KeyEvent::new(
        KeyCode::Char(c),
        KeyModifiers::CONTROL,
    )));
}

pub(super) fn thinks(a: &App) -> usize {
    a.effects
        .iter()
        .filter(|e| matches!(e, Effect::Think { .. }))
        .count()
}

/// Play a move as whoever is to move (the players may include the engine).
pub(super) fn typed_as(a: &mut App, mv: &str) {
    let m = a.play.game.parse_move(mv).unwrap();
    a.play.game.play(m).unwrap();
}

pub(super) fn render_header(a: &App) -> String {
    let (s, _) = screen(a, &Theme::plain(), 120, 40);
    s.lines().next().unwrap_or_default().to_string()
}
