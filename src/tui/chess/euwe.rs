//! The Euwe screen: Euwe's Thue–Morse knight sequence ply by ply, with the
//! former German rule (never met: how close it came, and why) beside FIDE's
//! (a claim after two blocks, the fivefold ending after four). The screen owns
//! its state, its commands (the key table's [`Ctx::Euwe`](crate::tui::keys::Ctx)),
//! its layout (one function for drawing and for clicks) and its drawing, and
//! answers the [`App`](crate::tui::app::App), which only routes to it, with [`Request`]s.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};
use shakmaty::Position;

use crate::rules::Game;
use crate::rules::ending::times;
use crate::rules::euwe::{self, CUBE_FREE, EuweIndex, Repeat, Successions, count_plies};

use crate::tui::board::{BoardView, Geom};
use crate::tui::config::Config;
use crate::tui::engines::EnginesPanel;
use crate::tui::keys::Cmd;
use crate::tui::screen::{Component, Env, Request, Requests};
use crate::tui::theme::{Theme, badge};
use crate::tui::widgets::{self, fit_places, spark_line};

/// How many plies the stepper prepares (32 blocks).
pub const MAX_PLY: usize = 128;

#[derive(Clone, Debug)]
pub struct EuweState {
    pub game: Game,
    pub ply: usize,
    pub autoplay: bool,
    /// The autoplay's time per ply (the config's `euwe_delay_ms`; faster and slower keys).
    pub delay: Duration,
    last_step: Option<Instant>,
    /// The former German rule's view of every ply of `game`.
    successions: Successions,
}

impl Default for EuweState {
    fn default() -> Self {
        EuweState::new()
    }
}

impl EuweState {
    /// The sequence at its start, autoplay at the default config's delay.
    pub fn new() -> EuweState {
        EuweState::with_delay(Duration::from_millis(Config::default().euwe_delay_ms))
    }

    /// The sequence at its start, autoplay stepping every `delay`.
    pub fn with_delay(delay: Duration) -> EuweState {
        let game = euwe::euwe_game(MAX_PLY);
        EuweState {
            successions: Successions::of(&game),
            game,
            ply: 0,
            autoplay: false,
            delay,
            last_step: None,
        }
    }

    /// Back to the start of the sequence, autoplay off; the delay chosen is kept.
    pub fn restart(&mut self) {
        *self = EuweState::with_delay(self.delay);
    }

    /// The game and the ply on the board, for what is drawn over this screen
    /// (an overlay explaining the position shown). The game holds all
    /// [`MAX_PLY`] plies; only those up to the ply shown have been "played".
    pub fn shown(&self) -> (&Game, usize) {
        (&self.game, self.ply)
    }

    /// A command of the screen (the key table's `Euwe` context, the mouse wheel as
    /// [`Cmd::EuwePrev`]/[`Cmd::EuweNext`]).
    pub fn command(&mut self, cmd: Cmd) -> Requests {
        let delay = &mut self.delay;
        match cmd {
            Cmd::Back => return Request::Leave.into(),
            Cmd::EuweNext => self.ply = (self.ply + 1).min(MAX_PLY),
            Cmd::EuwePrev => self.ply = self.ply.saturating_sub(1),
            Cmd::EuweJumpStart => self.ply = 0,
            Cmd::EuweJumpEnd => self.ply = MAX_PLY,
            Cmd::EuweJumpFivefold => self.ply = self.fivefold_ply().unwrap_or(self.ply),
            Cmd::EuweAutoplay => {
                self.autoplay = !self.autoplay;
                self.last_step = None;
                if self.ply >= MAX_PLY {
                    self.ply = 0;
                }
            }
            Cmd::EuweFaster => *delay = (*delay / 2).max(Duration::from_millis(25)),
            Cmd::EuweSlower => *delay = (*delay * 2).min(Duration::from_secs(4)),
            _ => {}
        }
        Requests::none()
    }

    /// Time passes: autoplay steps a ply every [`EuweState::delay`].
    pub fn tick(&mut self, now: Instant) {
        let delay = self.delay;
        if !self.autoplay {
            return;
        }
        match self.last_step {
            None => self.last_step = Some(now),
            Some(t) if now.saturating_duration_since(t) >= delay => {
                self.last_step = Some(now);
                if self.ply < MAX_PLY {
                    self.ply += 1;
                } else {
                    self.autoplay = false;
                }
            }
            Some(_) => {}
        }
    }

    /// A click at (`x`, `y`) on a terminal of `size`: a click on the
    /// occurrence sparkline shows that ply. Returns whether it hit anything.
    pub fn click(&mut self, size: Rect, x: u16, y: u16) -> bool {
        let Some(a) = layout(size) else { return false };
        match spark_ply(&a, self.ply, x, y) {
            Some(p) => {
                self.ply = p;
                true
            }
            None => false,
        }
    }

    /// Thue–Morse bits of the blocks begun up to the current ply, and the index of the current block.
    pub fn bits(&self) -> (Vec<u8>, Option<u64>) {
        if self.ply == 0 {
            return (Vec::new(), None);
        }
        let cur = EuweIndex::of_ply(self.ply);
        (
            (0..=cur.block).map(euwe::thue_morse).collect(),
            Some(cur.block),
        )
    }

    /// The former German rule at the current ply: the first sequence of moves
    /// played three times in succession, if any.
    pub fn german(&self) -> Option<Repeat> {
        self.successions.german_rule(self.ply)
    }

    /// The first ply at which the position has appeared three times (claim 9.2 b).
    pub fn threefold_ply(&self) -> Option<usize> {
        (0..=MAX_PLY).find(|&p| self.game.occurrences(p) >= 3)
    }

    /// The ply of the fivefold repetition (9.6.1), which ends the game.
    pub fn fivefold_ply(&self) -> Option<usize> {
        self.game.termination().map(|t| t.ply)
    }
}

/// The Euwe screen's regions inside the frame [`widgets::layout`] gives
/// (title row, message, input and status rows). Drawing and clicks both use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EuweAreas {
    pub title: Rect,
    pub board: Rect,
    /// The sequence, the former German rule and FIDE's rules.
    pub panel: Rect,
    /// The label row, then the occurrence bars and the marker row.
    pub spark: Rect,
}

/// Lay the Euwe screen out, or None if the terminal is too small.
pub fn layout(size: Rect) -> Option<EuweAreas> {
    let a = widgets::layout(size)?;
    let panel = Rect::new(
        a.players.x,
        a.players.y,
        a.players.width,
        a.spark.y.saturating_sub(a.players.y),
    );
    Some(EuweAreas {
        title: a.title,
        board: a.board,
        panel,
        spark: a.spark,
    })
}

/// The ply under a click on the sparkline, which ends at the ply shown.
fn spark_ply(a: &EuweAreas, shown: usize, x: u16, y: u16) -> Option<usize> {
    if y != a.spark.y + 1 || x < a.spark.x || x >= a.spark.right() {
        return None;
    }
    let first = (shown + 1).saturating_sub(a.spark.width as usize);
    let ply = first + (x - a.spark.x) as usize;
    (ply <= shown).then_some(ply)
}

impl EuweState {
    /// Draw the Euwe screen (the frame's message and status rows are drawn by the
    /// caller), with the panel "How engines see it" if `engines_panel`.
    pub fn render(
        &self,
        ascii: bool,
        engines_panel: bool,
        t: &Theme,
        size: Rect,
        buf: &mut Buffer,
    ) {
        render(self, ascii, engines_panel, t, size, buf);
    }
}

fn render(
    e: &EuweState,
    ascii: bool,
    engines_panel: bool,
    t: &Theme,
    size: Rect,
    buf: &mut Buffer,
) {
    let delay = e.delay;
    let Some(a) = layout(size) else { return };
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw("Euwe's sequence (1929): former German rule vs FIDE"),
    ]))
    .render(a.title, buf);
    let (game, ply) = e.shown();
    if let Some(geom) = Geom::fit(a.board, false) {
        let last = game
            .record(ply)
            .mv
            .and_then(|m| m.from().map(|f| (f, m.to())));
        BoardView {
            board: game.position_at(ply).board(),
            geom,
            theme: t,
            ascii,
            last_move: last,
            check: None,
            selected: None,
            targets: &[],
            cursor: None,
        }
        .render(a.board, buf);
    }
    if engines_panel {
        // "How engines see it" at the bottom of the side column, in place of
        // the occurrence sparkline.
        let panel = EnginesPanel { game, ply, ascii };
        let side = Rect::new(
            a.panel.x,
            a.panel.y,
            a.panel.width,
            a.spark.bottom() - a.panel.y,
        );
        let panel_h = panel.height(side.width).min(side.height.saturating_sub(4));
        let text = Rect::new(side.x, side.y, side.width, side.height - panel_h);
        let rows = fit_rows(panel_rows(e, t, ascii, text.width), text.height);
        Paragraph::new(rows).render(text, buf);
        panel.render(
            t,
            Rect::new(side.x, text.bottom(), side.width, panel_h),
            buf,
        );
        return;
    }
    let rows = fit_rows(panel_rows(e, t, ascii, a.panel.width), a.panel.height);
    Paragraph::new(rows).render(a.panel, buf);

    let label = format!(
        "Occurrences · autoplay {} ({} ms)",
        if e.autoplay { "ON" } else { "off" },
        delay.as_millis()
    );
    buf.set_stringn(a.spark.x, a.spark.y, label, a.spark.width as usize, t.dim);
    let (bars, marks) = spark_line(game, ply, ply, a.spark.width as usize, t, ascii);
    Paragraph::new(vec![bars, marks])
        .render(Rect::new(a.spark.x, a.spark.y + 1, a.spark.width, 2), buf);
}

/// How much an item of the panel matters when the panel is short: items
/// of a lower priority are left out first, whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Priority {
    Must,
    Useful,
}

/// One item of the panel: its rows, already fitted to the panel's width.
struct Item {
    priority: Priority,
    rows: Vec<Line<'static>>,
}

fn item(priority: Priority, line: impl Into<Line<'static>>) -> Item {
    Item {
        priority,
        rows: vec![line.into()],
    }
}

/// `text` word-wrapped to `width`, all in one style.
fn wrapped(priority: Priority, text: &str, style: Style, width: u16) -> Item {
    Item {
        priority,
        rows: widgets::wrap(text, width as usize)
            .into_iter()
            .map(|l| Line::from(Span::styled(l, style)))
            .collect(),
    }
}

/// The rows of the items that fit `height`: the most important items
/// first, each whole or not at all, in the panel's order.
fn fit_rows(items: Vec<Item>, height: u16) -> Vec<Line<'static>> {
    let mut budget = height as usize;
    let mut keep = vec![false; items.len()];
    for p in [Priority::Must, Priority::Useful] {
        for (i, it) in items.iter().enumerate() {
            if it.priority == p && it.rows.len() <= budget {
                keep[i] = true;
                budget -= it.rows.len();
            }
        }
    }
    items
        .into_iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .flat_map(|(it, _)| it.rows)
        .collect()
}

/// The panel: the ply and its block, the former German rule, FIDE.
fn panel_rows(e: &EuweState, t: &Theme, ascii: bool, width: u16) -> Vec<Item> {
    use Priority::{Must, Useful};
    let (game, ply) = e.shown();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut rows = Vec::new();
    // The ply, its block and the Thue–Morse bits.
    let head = if ply == 0 {
        format!("Ply 0/{MAX_PLY}: the start position")
    } else {
        let idx = EuweIndex::of_ply(ply);
        format!(
            "Ply {ply}/{MAX_PLY}: {}, block t({}) = {}",
            game.ply_label(ply),
            idx.block,
            idx.bit
        )
    };
    rows.push(wrapped(Must, &head, bold, width));
    if ply > 0 {
        let idx = EuweIndex::of_ply(ply);
        let mut spans = vec![Span::raw("Block: ")];
        for (i, m) in euwe::block_sans(idx.bit).iter().enumerate() {
            let style = if i == idx.step {
                t.viewing
            } else {
                Style::new()
            };
            spans.push(Span::styled(m.to_string(), style));
            spans.push(Span::raw(" "));
        }
        rows.push(item(Must, spans));
    } else {
        let text = format!(
            "Blocks: 0 = {}, 1 = {}",
            euwe::block_sans(0).join(" "),
            euwe::block_sans(1).join(" ")
        );
        rows.push(wrapped(Must, &text, Style::new(), width));
    }
    let (mut bits, cur) = e.bits();
    let mut spans = vec![Span::raw("Thue–Morse: ")];
    if ply == 0 {
        // Before the first block: the sequence itself, t(0), t(1), ...
        bits = (0..8).map(euwe::thue_morse).collect();
        spans[0] = Span::raw("Thue–Morse t(k): ");
    }
    let maxbits = (width as usize).saturating_sub(14) / 2;
    let start = bits.len().saturating_sub(maxbits);
    if start > 0 {
        spans.push(Span::raw("… "));
    }
    for (k, b) in bits.iter().enumerate().skip(start) {
        let style = if Some(k as u64) == cur {
            t.rep3
        } else {
            Style::new()
        };
        spans.push(Span::styled(b.to_string(), style));
        spans.push(Span::raw(" "));
    }
    if ply == 0 {
        spans.push(Span::raw("…"));
    }
    rows.push(item(Must, spans));

    // The former German rule.
    rows.push(item(
        Must,
        Span::styled("Former German rule (3 times in succession)", t.title),
    ));
    rows.extend(german_rows(e, t, width));
    // Why no third time ever comes: a remark on the whole sequence, which
    // gives way before the facts of the ply shown (with the engines' panel
    // open at 80×24 there is room for the facts only).
    rows.push(wrapped(Useful, CUBE_FREE, t.dim, width));

    // FIDE.
    rows.push(item(
        Must,
        Span::styled("FIDE (same position, any order)", t.title),
    ));
    let occ = game.occurrences(ply);
    let earlier = game.earlier(ply);
    let style = if occ >= 2 {
        t.repetition(occ)
    } else {
        Style::new()
    };
    if earlier.is_empty() {
        rows.push(item(
            Must,
            Span::styled("This position stands for the first time", style),
        ));
    } else {
        let lead = format!("{} here {}; before: ", badge(occ, ascii), times(occ));
        rows.push(Item {
            priority: Must,
            rows: fit_places(game, &lead, &earlier, "", width as usize, 2)
                .into_iter()
                .map(|l| Line::from(Span::styled(l, style)))
                .collect(),
        });
    }
    if let Some(p3) = e.threefold_ply() {
        let text = if ply >= p3 {
            format!("9.2 claim possible since ply {p3} ({})", game.ply_label(p3))
        } else {
            format!(
                "9.2 claim: ply {} writing {}, or ply {p3}",
                p3 - 1,
                game.ply_label(p3)
            )
        };
        rows.push(wrapped(Must, &text, Style::new(), width));
    }
    if let Some(p5) = e.fivefold_ply() {
        let (text, style) = if ply >= p5 {
            (
                format!("9.6.1 fivefold at ply {p5}: game over, drawn"),
                t.banner,
            )
        } else {
            (
                format!("9.6.1 fivefold ends it at ply {p5} ({} to go)", p5 - ply),
                Style::new(),
            )
        };
        rows.push(wrapped(Must, &text, style, width));
    }
    rows
}

/// The former German rule at the ply shown: the longest sequence played
/// twice in succession so far, and how close a third time came.
fn german_rows(e: &EuweState, t: &Theme, width: u16) -> Vec<Item> {
    use Priority::{Must, Useful};
    let (game, ply) = e.shown();
    if let Some(g) = e.german() {
        let text = format!(
            "DRAW: {} played three times in succession ({})",
            g.sans(game).join(" "),
            g.span()
        );
        return vec![wrapped(Must, &text, t.banner, width)];
    }
    let s = &e.successions;
    let Some(longest) = s.longest_square(ply) else {
        let text = "No sequence of moves played twice in succession yet";
        return vec![wrapped(Must, text, Style::new(), width)];
    };
    let mut rows = vec![wrapped(
        Must,
        &format!(
            "Longest played twice: {}, {}",
            count_plies(longest.len),
            longest.span()
        ),
        Style::new(),
        width,
    )];
    if let Some(c) = s.closest_to_german_rule(ply) {
        let seq = if c.len <= 4 {
            c.sans(game).join(" ")
        } else {
            count_plies(c.len)
        };
        let times = if c.played == 2 * c.len {
            "twice".to_string()
        } else {
            format!(
                "{} times and {}",
                c.played / c.len,
                count_plies(c.played % c.len)
            )
        };
        let text = if c.end() == ply {
            format!(
                "Closest: {seq} {times} ({}); {} more would make three times",
                c.span(),
                count_plies(c.missing())
            )
        } else if c.played == 2 * c.len {
            format!(
                "Closest: {seq} twice ({}); {} did not start a third time",
                c.span(),
                game.ply_label(c.end() + 1)
            )
        } else {
            format!(
                "Closest: {seq} {times} ({}); {} broke off the third time",
                c.span(),
                game.ply_label(c.end() + 1)
            )
        };
        // How close a third time came: a detail beside the longest
        // repetition, so it gives way first when the panel is short.
        rows.push(wrapped(Useful, &text, t.rep2, width));
    }
    rows
}

impl Component for EuweState {
    fn ctx(&self) -> crate::tui::keys::Ctx {
        crate::tui::keys::Ctx::Euwe
    }

    fn command(&mut self, cmd: Cmd, _env: &Env, out: &mut Requests) {
        out.extend(EuweState::command(self, cmd));
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, _out: &mut Requests) {
        EuweState::click(self, env.size, x, y);
    }

    fn wheel(&mut self, up: bool, _x: u16, _y: u16, _env: &Env, out: &mut Requests) {
        let cmd = if up { Cmd::EuwePrev } else { Cmd::EuweNext };
        out.extend(EuweState::command(self, cmd));
    }

    /// The autoplay steps only while the screen is shown.
    fn tick(&mut self, now: Instant, env: &Env, _out: &mut Requests) {
        if env.shown {
            EuweState::tick(self, now);
        }
    }

    fn render(&self, env: &Env, theme: &Theme, buf: &mut Buffer) {
        EuweState::render(self, env.ascii, env.engines_panel, theme, env.size, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_ends_it_the_old_rule_never_does() {
        let mut e = EuweState::new();
        assert_eq!(e.threefold_ply(), Some(8));
        assert_eq!(e.fivefold_ply(), Some(16));
        e.ply = MAX_PLY;
        assert_eq!(e.german(), None);
        let (bits, cur) = e.bits();
        assert_eq!(&bits[..8], &[0, 1, 1, 0, 1, 0, 0, 1]);
        assert_eq!(cur, Some(31));
    }

    #[test]
    fn stepping_and_autoplay() {
        let mut e = EuweState::with_delay(Duration::from_millis(100));
        e.command(Cmd::EuweNext);
        e.command(Cmd::EuweNext);
        e.command(Cmd::EuwePrev);
        assert_eq!(e.ply, 1);
        e.command(Cmd::EuweJumpFivefold);
        assert_eq!(e.ply, 16);
        e.command(Cmd::EuweAutoplay);
        let t0 = Instant::now();
        e.tick(t0);
        e.tick(t0 + Duration::from_millis(50));
        assert_eq!(e.ply, 16);
        e.tick(t0 + Duration::from_millis(100));
        assert_eq!(e.ply, 17);
        e.command(Cmd::EuweFaster);
        assert_eq!(e.delay, Duration::from_millis(50));
    }
}
