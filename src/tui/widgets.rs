//! What several screens draw with: the trainer's frame ([`layout`]: title, message, input
//! and status rows around a body), the move list ([`HistoryView`] and its cells, which
//! clicks hit-test), the occurrence line and sparkline, word-wrapping and scrolling of
//! long text, popups, the engine score's label, and [`Marks`], whether a screen may show the repetition marks.
//!
//! A leaf of the trainer: it uses the board widget, the key table and the theme, and no
//! screen, so the screens (play, Euwe, drills, review, the overlays) share it without
//! importing each other.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};
use shakmaty::{Color, Position};

use crate::rules::Game;
use crate::rules::ending::list_places;
use crate::rules::notation::color_name;

use super::board::Geom;
use super::keys::Cmd;
use super::theme::{PLACE_MARK, Theme, badge};

/// Whether a screen shows what the player is there to find out alone: the
/// repetition marks of the move list (×2, ×3, …, and their colours), the
/// occurrence panel, the sparkline and the "claim possible" hint. Every
/// widget that could give a repetition away asks this; the App's `marks`
/// decides it for the screen shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Marks {
    #[default]
    Shown,
    /// Drills before the answer is given; play in blind mode.
    Hidden,
}

impl Marks {
    /// The badge of a ply's occurrence count ("×3"), or nothing when hidden.
    pub fn badge(self, occurrence: u32, ascii: bool) -> String {
        match self {
            Marks::Shown => badge(occurrence, ascii),
            Marks::Hidden => String::new(),
        }
    }

    /// The style of a ply's occurrence count (plain when hidden).
    pub fn style(self, occurrence: u32, t: &Theme) -> Style {
        match self {
            Marks::Shown if occurrence >= 2 => t.repetition(occurrence),
            _ => Style::new(),
        }
    }
}

/// `text` cut to `width` columns, with "…" (or "~" in ASCII) where it was cut.
pub fn clip(text: &str, width: usize, ascii: bool) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let mut t: String = text.chars().take(width.saturating_sub(1)).collect();
    t.push(if ascii { '~' } else { '…' });
    t
}

/// What a player at the board knows of a position besides the pieces:
/// whose move it is, the move number and, with the marks shown, the fifty-move count
/// ("White's move 41 · 50-move count 98/100"). Blind mode and a drill before its answer
/// ([`Marks::Hidden`]) keep the count back: the player counts from the move list, as from
/// a scoresheet (it answers a fifty-move question).
pub fn position_facts(pos: &shakmaty::Chess, marks: Marks) -> String {
    let side = format!("{}'s move {}", color_name(pos.turn()), pos.fullmoves());
    match marks {
        Marks::Shown => format!("{side} · 50-move count {}/100", pos.halfmoves()),
        Marks::Hidden => side,
    }
}

/// Smallest usable terminal.
pub const MIN_W: u16 = 64;
pub const MIN_H: u16 = 20;
const SIDE_MIN: u16 = 36;

/// The screen's regions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub title: Rect,
    pub board: Rect,
    pub players: Rect,
    pub engine: Rect,
    pub claim: Rect,
    pub history: Rect,
    pub same: Rect,
    pub spark: Rect,
    pub message: Rect,
    pub input: Rect,
    pub status: Rect,
}

/// Lay out the screen, or None if the terminal is too small.
pub fn layout(size: Rect) -> Option<Areas> {
    if size.width < MIN_W || size.height < MIN_H {
        return None;
    }
    let (x, y, w, h) = (size.x, size.y, size.width, size.height);
    let mid_h = h - 5;
    let geom = Geom::fit(Rect::new(0, 0, w - SIDE_MIN - 2, mid_h), false)?;
    let board_w = geom.outer().width + 2;
    let board = Rect::new(x, y + 1, board_w, mid_h);
    let sx = x + board_w + 1;
    let sw = w - board_w - 1;
    let sy = y + 1;
    let players = Rect::new(sx, sy, sw, 3);
    let engine = Rect::new(sx, sy + 3, sw, 2);
    let claim = Rect::new(sx, sy + 5, sw, 1);
    let spark = Rect::new(sx, sy + mid_h - 3, sw, 3);
    let same = Rect::new(sx, sy + mid_h - 5, sw, 2);
    let hist_y = sy + 6;
    let history = Rect::new(sx, hist_y, sw, (sy + mid_h - 5).saturating_sub(hist_y));
    Some(Areas {
        title: Rect::new(x, y, w, 1),
        board,
        players,
        engine,
        claim,
        history,
        same,
        spark,
        message: Rect::new(x, y + h - 4, w, 2),
        input: Rect::new(x, y + h - 2, w, 1),
        status: Rect::new(x, y + h - 1, w, 1),
    })
}

/// The board's geometry inside the layout.
pub fn board_geom(a: &Areas, flipped: bool) -> Option<Geom> {
    Geom::fit(a.board, flipped)
}

/// History rows: row 0 is the start position; then one row per move number.
fn history_row(game: &Game, ply: usize) -> (usize, usize) {
    if ply == 0 {
        return (0, 0);
    }
    let first = game.move_number(1).number as usize;
    let number = game.move_number(ply);
    (
        number.number as usize - first + 1,
        if number.side == Color::White { 0 } else { 1 },
    )
}

/// Where each ply's cell of `game` is in a history panel scrolled to show `shown`.
pub fn history_cells_in(game: &Game, shown: usize, area: Rect) -> Vec<(Rect, usize)> {
    let inner = Rect::new(
        area.x + 1,
        area.y + 1,
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    );
    if inner.height == 0 || inner.width < 12 {
        return Vec::new();
    }
    let rows = history_row(game, game.len()).0 + 1;
    let focus = history_row(game, shown).0;
    let h = inner.height as usize;
    let offset = if rows <= h {
        0
    } else {
        (focus + 1).saturating_sub(h).min(rows - h)
    };
    let cw = ((inner.width - 5) / 2).min(16);
    let mut out = Vec::new();
    for ply in 0..=game.len() {
        let (row, col) = history_row(game, ply);
        if row < offset || row >= offset + h {
            continue;
        }
        let y = inner.y + (row - offset) as u16;
        let x = if ply == 0 {
            inner.x + 5
        } else {
            inner.x + 5 + col as u16 * cw
        };
        out.push((Rect::new(x, y, cw.saturating_sub(1), 1), ply));
    }
    out
}

/// An engine score as the trainer shows it everywhere: from White's side,
/// labelled, as lichess does ("+0.80 (White)", "#-2 (White)": White is
/// mated in 2). A score whose side is unknown says so ("(side to move)").
pub fn score_label(score: crate::engine::Score, side_to_move: Option<Color>) -> String {
    match side_to_move {
        Some(side) => format!("{} (White)", score.for_white(side)),
        None => format!("{score} (side to move)"),
    }
}

fn ply_text(game: &Game, ply: usize, marks: Marks, ascii: bool) -> String {
    if ply == 0 {
        return "start".to_string();
    }
    let san = game
        .san_plus(ply)
        .map(|s| s.to_string())
        .unwrap_or_default();
    let b = marks.badge(game.occurrences(ply), ascii);
    if b.is_empty() {
        san
    } else {
        format!("{san} {b}")
    }
}

/// The move list with repetition badges, shared by the game and the drills.
pub struct HistoryView<'a> {
    pub game: &'a Game,
    /// The ply whose board is shown.
    pub shown: usize,
    /// Whether `shown` is marked even when it is the last ply.
    pub viewing: bool,
    /// Plies named by a ruling (marked `*` and in the "claimed" style).
    pub highlight: &'a [usize],
    /// Plies chosen by the player (marked with brackets), if choosing.
    pub chosen: Option<&'a [usize]>,
    /// Whether repetitions are marked (badges and colours).
    pub marks: Marks,
    pub ascii: bool,
    pub title: &'a str,
}

impl HistoryView<'_> {
    pub fn render(&self, t: &Theme, area: Rect, buf: &mut Buffer) {
        let game = self.game;
        let block = Block::default()
            .borders(Borders::TOP | Borders::BOTTOM)
            .title(Span::styled(self.title.to_string(), t.title));
        block.render(area, buf);
        let shown = self.shown;
        let cells = history_cells_in(game, shown, area);

        let mut numbered = std::collections::HashSet::new();
        for (r, ply) in cells {
            if ply > 0 {
                let n = game.move_number(ply).number;
                if numbered.insert(r.y) {
                    let num = format!("{n:>3}.");
                    buf.set_string(area.x + 1, r.y, &num, t.dim);
                }
            }
            let mut style = self.marks.style(game.occurrences(ply), t);
            if self.highlight.contains(&ply) {
                style = t.claimed;
            }
            if ply == shown && (self.viewing || ply == game.len()) {
                style = style.patch(t.viewing);
            }
            let mut text = ply_text(game, ply, self.marks, self.ascii);
            if let Some(chosen) = self.chosen {
                text = if chosen.contains(&ply) {
                    format!("[{text}]")
                } else {
                    format!(" {text} ")
                };
            }
            if self.chosen.is_some() || !self.highlight.is_empty() {
                let mark = if self.highlight.contains(&ply) {
                    PLACE_MARK
                } else {
                    " "
                };
                text = format!("{mark}{text}");
            }
            let text: String = text.chars().take(r.width as usize).collect();
            buf.set_string(r.x, r.y, format!("{text:<w$}", w = r.width as usize), style);
        }
    }
}

/// An occurrence list fitted to `width` columns and at most `max_lines`
/// lines: `lead`, the places of `plies` ("the start position, after
/// 2...Nb8 and after 4...Nb8"), then `tail`, word-wrapped. When the whole
/// list does not fit, it is summarised as the first few places, "… N more …"
/// and the last place; if even that does not fit, the last line ends in "…".
/// The play screen's occurrence line and the Euwe screen use it.
pub fn fit_places(
    game: &Game,
    lead: &str,
    plies: &[usize],
    tail: &str,
    width: usize,
    max_lines: usize,
) -> Vec<String> {
    let wrap = |text: String| self::wrap(&text, width.max(1));
    let full = wrap(format!("{lead}{}{tail}", list_places(game, plies)));
    if full.len() <= max_lines || plies.len() < 3 {
        return cut(full, width, max_lines);
    }
    // The first `k` places, "… N more …" (kept on one line: its spaces are
    // held by a stand-in while wrapping), the last place.
    const HELD: char = '\u{E000}';
    let summary = |k: usize| {
        let mut items: Vec<String> = plies[..k].iter().map(|&p| game.place_label(p)).collect();
        items.push(format!("…{HELD}{}{HELD}more{HELD}…", plies.len() - k - 1));
        items.push(game.place_label(plies[plies.len() - 1]));
        wrap(format!("{lead}{}{tail}", items.join(", ")))
            .into_iter()
            .map(|l| l.replace(HELD, " "))
            .collect::<Vec<_>>()
    };
    // Fewer places shown make a text no longer: bisect for the most that fit.
    let (mut good, mut bad) = (0, plies.len() - 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if summary(mid).len() <= max_lines {
            good = mid;
        } else {
            bad = mid;
        }
    }
    cut(summary(good), width, max_lines)
}

/// At most `max_lines` of `lines`, the last ending in "…" if any were left out.
fn cut(mut lines: Vec<String>, width: usize, max_lines: usize) -> Vec<String> {
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            let keep: String = last.chars().take(width.saturating_sub(2)).collect();
            *last = format!("{keep} …");
        }
    }
    lines
}

/// The occurrence sparkline: one column per ply (the latest plies that fit).
pub fn spark_line(
    game: &Game,
    upto: usize,
    shown: usize,
    width: usize,
    t: &Theme,
    ascii: bool,
) -> (Line<'static>, Line<'static>) {
    let first = (upto + 1).saturating_sub(width);
    let mut bars = Vec::new();
    let mut marks = Vec::new();
    for p in first..=upto {
        let occ = game.occurrences(p);
        let ch = if ascii {
            match occ {
                1 => "_",
                2 => "=",
                3 | 4 => "#",
                _ => "@",
            }
        } else {
            match occ {
                1 => "▁",
                2 => "▃",
                3 => "▅",
                4 => "▇",
                _ => "█",
            }
        };
        let style = if occ >= 2 { t.repetition(occ) } else { t.dim };
        bars.push(Span::styled(ch, style));
        marks.push(Span::raw(if p == shown { "^" } else { " " }));
    }
    (Line::from(bars), Line::from(marks))
}

/// The text area of a bordered popup: inside the border, a column of
/// padding on each side.
pub(crate) fn body_of(p: Rect) -> Rect {
    Rect::new(
        p.x + 2,
        p.y + 1,
        p.width.saturating_sub(4),
        p.height.saturating_sub(2),
    )
}

/// How far `rows` rows scroll in `body`: the furthest scroll that still fills it.
pub(crate) fn max_scroll(rows: usize, body: Rect) -> usize {
    rows.saturating_sub(body.height as usize)
}

/// A centred popup of at most `w`×`h`.
pub fn popup(size: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(size.width);
    let h = h.min(size.height);
    Rect::new(
        size.x + (size.width - w) / 2,
        size.y + (size.height - h) / 2,
        w,
        h,
    )
}

/// Clear the area a popup takes (under its border too). A wide (CJK) piece whose first
/// half lies just left of the popup would be drawn over the popup's left border, its second
/// half under it: that piece is cleared as well, so the border shows on every row.
pub fn clear_popup(p: Rect, buf: &mut Buffer) {
    let p = p.intersection(buf.area);
    Clear.render(p, buf);
    if p.x <= buf.area.x {
        return;
    }
    for y in p.top()..p.bottom() {
        let cell = &mut buf[(p.x - 1, y)];
        if Span::raw(cell.symbol()).width() > 1 {
            cell.reset();
        }
    }
}

/// A yes/no question in a centred popup, its keys below it (the App's questions and the
/// game screen's look alike).
pub fn question_popup(
    text: String,
    answers: Option<super::keys::Answers>,
    t: &Theme,
    size: Rect,
    buf: &mut Buffer,
) {
    // Tall enough for the text wrapped at the popup's width (a path in a
    // reason can be long): words wrap early, so a line in four is added.
    let text_w = 60;
    let rows = text.chars().count().div_ceil(text_w) as u16;
    let p = popup(size, 64, (rows + rows / 4 + 5).max(7));
    clear_popup(p, buf);
    let block = Block::bordered();
    let inner = block.inner(p);
    block.render(p, buf);
    Paragraph::new(vec![
        Line::from(text),
        Line::from(Span::styled(
            match answers {
                Some(words) => super::keys::question_hint(words),
                None => super::keys::hint_line(super::keys::Ctx::Question),
            },
            t.dim,
        )),
    ])
    .wrap(Wrap { trim: true })
    .render(inner, buf);
}

/// A scroll command on scrolled text (help, the arbiter's and a drill's ruling, a review
/// finding) with `page` rows shown and `max` the furthest scroll.
pub fn scrolled(cmd: Cmd, scroll: usize, page: usize, max: usize) -> usize {
    let s = match cmd {
        Cmd::ScrollUp => scroll.saturating_sub(1),
        Cmd::ScrollDown => scroll + 1,
        Cmd::PageUp => scroll.saturating_sub(page),
        Cmd::PageDown => scroll + page,
        Cmd::ScrollTop => 0,
        Cmd::ScrollBottom => max,
        _ => scroll,
    };
    s.min(max)
}

/// Word-wrap `text` to lines of at most `width` columns (a word longer than
/// the width gets a line of its own and is cut by the renderer).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let fits = Span::raw(line.as_str()).width() + 1 + Span::raw(word).width() <= width;
        if !line.is_empty() && !fits {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// The body split as the drill screen splits it (the review screen too): a
/// board smaller than the game's on the left (the text needs the room), the
/// text beside it. None if the terminal is too small.
pub fn board_beside_text(size: Rect) -> Option<(Rect, Rect)> {
    let frame = layout(size)?;
    let top = frame.title.bottom();
    split(Rect::new(size.x, top, size.width, frame.message.y - top))
}

pub fn split(body: Rect) -> Option<(Rect, Rect)> {
    let (x, y, w, h) = (body.x, body.y, body.width, body.height);
    let fit = Geom::fit(Rect::new(0, 0, w / 2, h), false)?;
    let board_w = fit.outer().width + 2;
    Some((
        Rect::new(x, y, board_w, h),
        Rect::new(x + board_w + 1, y, w - board_w - 1, h),
    ))
}

/// `n` things, the word in the plural unless `n` is 1 ("1 puzzle", "3 puzzles").
pub fn counted(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// An answer button's label: "[1 none]" (option `i`, 0-based, is keyed by digit `i + 1`).
pub fn button_label(i: usize, label: &str) -> String {
    format!("[{} {label}]", i + 1)
}

/// Where answer buttons with these labels go in `area`: left to right, wrapped to its
/// width, as many as fit; one cell before each for the marker of the option highlighted.
/// The one layout of both drill screens' buttons, for drawing and for clicks.
pub fn button_rects<'a>(labels: impl IntoIterator<Item = &'a str>, area: Rect) -> Vec<Rect> {
    let mut out = Vec::new();
    let (mut x, mut y) = (area.x, area.y);
    for (i, label) in labels.into_iter().enumerate() {
        let w = button_label(i, label).chars().count() as u16 + 1;
        if x + w > area.right() && x > area.x {
            x = area.x;
            y += 1;
        }
        if y >= area.bottom() {
            break;
        }
        out.push(Rect::new(x, y, w, 1));
        x += w + 1;
    }
    out
}

/// Draw answer buttons (labels) in their places ([`button_rects`]), the option `selected`
/// marked and underlined.
pub fn draw_buttons(
    labels: &[&str],
    rects: &[Rect],
    selected: usize,
    ascii: bool,
    t: &Theme,
    buf: &mut Buffer,
) {
    for (i, (r, label)) in rects.iter().zip(labels).enumerate() {
        let sel = i == selected;
        let mark = match (sel, ascii) {
            (false, _) => " ",
            (true, false) => "▸",
            (true, true) => ">",
        };
        buf.set_string(r.x, r.y, mark, t.key);
        let style = if sel {
            t.button.add_modifier(ratatui::style::Modifier::UNDERLINED)
        } else {
            t.button
        };
        buf.set_string(r.x + 1, r.y, button_label(i, label), style);
    }
}

#[cfg(test)]
mod counted_tests {
    #[test]
    fn one_is_singular_every_other_count_plural() {
        assert_eq!(super::counted(1, "puzzle"), "1 puzzle");
        assert_eq!(super::counted(0, "puzzle"), "0 puzzles");
        assert_eq!(super::counted(12, "position"), "12 positions");
    }
}
