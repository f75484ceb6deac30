//! Side-effect-free rendering: `render(&App, &mut Frame)` draws the screen
//! shown (each screen draws itself), the message and input lines, the key
//! bar, and the overlay on top. Layout is a pure function of the terminal
//! size ([`layout`]), so mouse hit-testing uses the same rects.

use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::App;
use crate::tui::keys;
use crate::tui::screen::Env;
use crate::tui::theme::Theme;

use crate::tui::widgets::{Areas, MIN_H, MIN_W};

// Where the library's callers find the frame's layout (`tui::render::layout`, as the pty tests
// do to click on the board): the one layout the screens draw and hit-test with.
pub use crate::tui::widgets::{board_geom, layout};

/// Draw the whole screen.
pub fn render(app: &App, f: &mut Frame) {
    let size = f.area();
    let theme = Theme::from_env();
    render_with(app, &theme, size, f.buffer_mut());
}

/// Draw into a buffer with an explicit theme (tests use this too).
pub fn render_with(app: &App, theme: &Theme, size: Rect, buf: &mut Buffer) {
    let Some(areas) = layout(size) else {
        let text = vec![
            Line::from("threefold"),
            Line::from(format!("enlarge to {MIN_W}×{MIN_H}")),
            Line::from(format!("(now {}×{})", size.width, size.height)),
            Line::from(format!("{} quits", keys::key_for(keys::Cmd::Quit))),
        ];
        Paragraph::new(text)
            .alignment(Alignment::Center)
            .wrap(Wrap { trim: true })
            .render(size, buf);
        return;
    };
    // The frame's size (a test draws at a size of its own).
    let env = Env {
        size,
        ..app.env(app.screen)
    };
    if let Some(c) = app.component(app.screen) {
        c.render(&env, theme, buf);
    }
    render_status(app, theme, &areas, buf);
    // The question of the screen that has the keys (it can be up over another screen).
    let owner = app.keys_owner();
    if let Some(c) = app.component(owner) {
        let env = Env {
            size,
            ..app.env(owner)
        };
        c.render_overlay(&env, theme, buf);
    }
    if let Some(o) = &app.overlay {
        super::overlay::render(app, o, theme, size, buf);
    }
    // A terminal that cannot show more than ASCII (or `--ascii`): every glyph of the
    // screen, not only the board's, goes to ASCII.
    if app.ascii {
        crate::tui::theme::ascii_buffer(buf);
    }
}

/// The rows of a message `width` columns wide: wrapped at spaces, a word
/// longer than a row cut into pieces, so that every character is shown.
pub fn message_rows(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let mut row_len = 0;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        if row_len > 0 && row_len + 1 + word.len() <= width {
            row.push(' ');
            row.extend(&word);
            row_len += 1 + word.len();
            continue;
        }
        if row_len > 0 {
            rows.push(std::mem::take(&mut row));
        }
        while word.len() > width {
            rows.push(word.drain(..width).collect());
        }
        row = word.iter().collect();
        row_len = word.len();
    }
    if row_len > 0 {
        rows.push(row);
    }
    rows
}

/// The message's area: its own two rows above the input line, grown upwards
/// over the panels when the message needs more (at most up to the title),
/// so a long message (several config problems, a long path) is read whole.
pub fn message_area(a: &Areas, rows: usize) -> Rect {
    let bottom = a.message.bottom();
    let most = bottom - a.title.bottom();
    let h = (rows.min(most as usize) as u16).max(a.message.height);
    Rect::new(a.message.x, bottom - h, a.message.width, h)
}

fn render_status(app: &App, t: &Theme, a: &Areas, buf: &mut Buffer) {
    if let Some(msg) = &app.message {
        let rows = message_rows(&msg.text, a.message.width as usize);
        let area = message_area(a, rows.len());
        let style = if msg.is_error() { t.error } else { t.info };
        ratatui::widgets::Clear.render(area, buf);
        Paragraph::new(
            rows.into_iter()
                .map(|r| Line::from(Span::styled(r, style)))
                .collect::<Vec<_>>(),
        )
        .render(area, buf);
    }
    if let Some(input) = &app.input {
        let prompt = format!("{}: ", input.prompt);
        let room = (a.input.width as usize).saturating_sub(prompt.chars().count());
        let (before, at, after) = input.line.window(room);
        // The cursor: the character under it reversed, or a block at the end.
        let cursor = match at {
            Some(c) => Span::styled(c.to_string(), Style::new().add_modifier(Modifier::REVERSED)),
            None => Span::styled(if app.ascii { "_" } else { "█" }, t.dim),
        };
        let line = Line::from(vec![
            Span::styled(prompt, t.key),
            Span::raw(before),
            cursor,
            Span::raw(after),
        ]);
        Paragraph::new(line).render(a.input, buf);
    } else if let Some(hint) = app.component(app.screen).and_then(|c| c.hint()) {
        Paragraph::new(Line::from(Span::styled(hint, t.dim))).render(a.input, buf);
    }
    let mut spans = Vec::new();
    // Only what works now (the screen says: claims while the game goes on, scrolling a
    // ruling that scrolls); everything on the App's own overlays.
    let env = app.env(app.keys_owner());
    let screen = app.component(app.keys_owner());
    let enabled = |cmd| app.overlay.is_some() || screen.is_none_or(|c| c.enabled(cmd, &env));
    let sides = screen.and_then(|c| c.sides());
    // A screen's question says what each key does in its own words, on the bar as in its popup.
    let answers = screen
        .filter(|_| app.overlay.is_none())
        .and_then(|c| c.answers());
    let bar = match answers {
        Some(words) if app.ctx() == keys::Ctx::Question => keys::question_bar(words),
        _ => keys::key_bar_for(app.ctx(), a.status.width as usize, enabled, sides),
    };
    for (k, h) in bar {
        spans.push(Span::styled(format!(" {k}"), t.key));
        spans.push(Span::raw(format!(" {h} ")));
    }
    Paragraph::new(Line::from(spans)).render(a.status, buf);
}
