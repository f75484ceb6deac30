//! Overlays: modal contexts on top of a screen (help, the claim dialog, the
//! arbiter's ruling, the promotion choice, yes/no questions). Each owns its
//! keys (a context of the key table), its layout (one function, used by both
//! rendering and mouse hit-testing) and its rendering. A click on a button
//! runs the button's command: no key events are faked.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};
use shakmaty::{Move, Position, Role};

use crate::rules::color_name;
use crate::rules::ending::times;

use super::app::{App, Screen};
use super::keys::{self, BINDINGS, Cmd, Ctx};
use super::play::SavedGame;
use super::theme::Theme;

/// A yes/no question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Abandon the game in progress for a new one?
    NewGame,
    /// Quit and lose the game in progress?
    Quit,
    /// A saved game in progress was found: resume it?
    Resume(Box<SavedGame>),
}

/// A modal on top of the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The help, scrolled down by so many rows.
    Help {
        scroll: usize,
    },
    /// The draw-claim dialog.
    Claim,
    /// The arbiter's ruling.
    Verdict {
        correct: bool,
        text: String,
    },
    /// Which piece to promote to.
    Promotion(Vec<Move>),
    Ask(Question),
}

impl Overlay {
    /// The key-table context of the overlay.
    pub fn ctx(&self) -> Ctx {
        match self {
            Overlay::Help { .. } => Ctx::Help,
            Overlay::Claim => Ctx::ClaimDialog,
            Overlay::Verdict { .. } => Ctx::Verdict,
            Overlay::Promotion(_) => Ctx::Promotion,
            Overlay::Ask(_) => Ctx::Question,
        }
    }
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

/// The claim dialog's layout: the popup and its two buttons.
pub fn claim_layout(size: Rect) -> (Rect, [(Rect, Cmd); 2]) {
    let p = popup(size, 70, 12);
    let x = p.x + 2;
    let w = p.width.saturating_sub(4);
    (
        p,
        [
            (Rect::new(x, p.y + 5, w, 1), Cmd::ClaimNow),
            (Rect::new(x, p.y + 7, w, 1), Cmd::ClaimWithMove),
        ],
    )
}

/// The promotion popup's layout: the popup and one button per piece.
pub fn promotion_layout(size: Rect) -> (Rect, Vec<(Rect, Cmd)>) {
    let p = popup(size, 44, 5);
    let buttons = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight]
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let x = p.x + 2 + 10 * i as u16;
            (Rect::new(x, p.y + 2, 9, 1), Cmd::Promote(r))
        })
        .collect();
    (p, buttons)
}

/// The clickable buttons of an overlay (the same rects it is drawn with).
pub fn buttons(o: &Overlay, size: Rect) -> Vec<(Rect, Cmd)> {
    match o {
        Overlay::Claim => claim_layout(size).1.to_vec(),
        Overlay::Promotion(_) => promotion_layout(size).1,
        _ => Vec::new(),
    }
}

/// "[1] claim now …": a binding's first key and its help, for a button.
fn button_label(ctx: Ctx, cmd: Cmd) -> String {
    let help = BINDINGS
        .iter()
        .find(|b| b.ctx == ctx && b.cmd == cmd)
        .map_or(String::new(), keys::help_text);
    format!("[{}] {help}", keys::key_in(ctx, cmd))
}

/// Draw an overlay.
pub fn render(app: &App, o: &Overlay, t: &Theme, size: Rect, buf: &mut Buffer) {
    match o {
        Overlay::Help { scroll } => render_help(app, *scroll, t, size, buf),
        Overlay::Claim => render_claim(app, t, size, buf),
        Overlay::Verdict { correct, text } => render_verdict(*correct, text, t, size, buf),
        Overlay::Promotion(_) => render_promotion(t, size, buf),
        Overlay::Ask(q) => render_question(q, t, size, buf),
    }
}

/// One row of the help overlay, already wrapped to the popup's width.
#[derive(Clone, Debug, PartialEq, Eq)]
enum HelpRow {
    Blank,
    Title(&'static str),
    /// A binding's keys (empty on the continuation rows of a long help
    /// text) and one line of its help text.
    Binding(String, String),
    Prose(String),
}

/// The help overlay's layout: the popup, the scrolled body inside it, the
/// width of the key column, and every row (one column, wrapped to the body's
/// width). Used by rendering and by the scroll keys, so both agree on how far
/// the help can scroll.
pub struct HelpLayout {
    pub popup: Rect,
    pub body: Rect,
    key_w: usize,
    rows: Vec<HelpRow>,
}

impl HelpLayout {
    /// How many rows there are.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }

    /// Rows shown at once.
    pub fn page(&self) -> usize {
        self.body.height as usize
    }

    /// The furthest scroll that still fills the page.
    pub fn max_scroll(&self) -> usize {
        self.row_count().saturating_sub(self.page())
    }
}

/// The sections of the help on a screen: a title and a key-table context.
fn help_sections(screen: Screen) -> &'static [(&'static str, Ctx)] {
    match screen {
        Screen::Drills => &[
            ("Drills: theme list", Ctx::DrillThemes),
            ("Drills: answering", Ctx::DrillAnswer),
            ("Drills: the ruling", Ctx::DrillFeedback),
            ("Everywhere", Ctx::Global),
            ("Typing an answer", Ctx::Input),
            ("This help", Ctx::Help),
        ],
        _ => &[
            ("Game", Ctx::Play),
            ("Euwe stepper", Ctx::Euwe),
            ("Everywhere", Ctx::Global),
            ("Typing a move", Ctx::Input),
            ("Claim dialog", Ctx::ClaimDialog),
            ("The arbiter's ruling", Ctx::Verdict),
            ("Promotion", Ctx::Promotion),
            ("Questions", Ctx::Question),
            ("This help", Ctx::Help),
        ],
    }
}

/// Word-wrap `text` to lines of at most `width` columns (a word longer than
/// the width gets a line of its own and is cut by the renderer).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
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

/// Lay the help out for the screen shown and the terminal's size.
pub fn help_layout(app: &App, size: Rect) -> HelpLayout {
    let sections = help_sections(app.screen);
    let bindings: Vec<Vec<(String, String)>> = sections
        .iter()
        .map(|&(_, ctx)| keys::help_rows(ctx))
        .collect();
    let key_w = bindings
        .iter()
        .flatten()
        .map(|(k, _)| Span::raw(k.as_str()).width())
        .max()
        .unwrap_or(0)
        + 2;
    let w = size.width.min(84);
    // The border and one column of padding on each side.
    let text_w = (w as usize).saturating_sub(4);
    let help_w = text_w.saturating_sub(key_w).max(1);
    let mut rows = Vec::new();
    for (&(title, _), section) in sections.iter().zip(&bindings) {
        if !rows.is_empty() {
            rows.push(HelpRow::Blank);
        }
        rows.push(HelpRow::Title(title));
        for (k, h) in section {
            for (i, line) in wrap(h, help_w).into_iter().enumerate() {
                let k = if i == 0 { k.clone() } else { String::new() };
                rows.push(HelpRow::Binding(k, line));
            }
        }
    }
    rows.push(HelpRow::Blank);
    let mouse = if app.screen == Screen::Drills {
        "Mouse: click a theme, an answer button, a ply in the move list \
         (count questions: it is chosen), or a piece then its target \
         (questions asking for moves)."
    } else {
        "Mouse: click a piece, then its target; click a move in the list \
         to view it; the wheel steps through the history."
    };
    rows.extend(wrap(mouse, text_w).into_iter().map(HelpRow::Prose));
    let h = (rows.len() as u16).saturating_add(2).min(size.height);
    let p = popup(size, w, h);
    let body = Rect::new(
        p.x + 2,
        p.y + 1,
        p.width.saturating_sub(4),
        p.height.saturating_sub(2),
    );
    HelpLayout {
        popup: p,
        body,
        key_w,
        rows,
    }
}

fn render_help(app: &App, scroll: usize, t: &Theme, size: Rect, buf: &mut Buffer) {
    let l = help_layout(app, size);
    let scroll = scroll.min(l.max_scroll());
    let lines: Vec<Line> = l
        .rows
        .iter()
        .skip(scroll)
        .take(l.page())
        .map(|row| match row {
            HelpRow::Blank => Line::from(""),
            HelpRow::Title(title) => Line::from(Span::styled(*title, t.title)),
            HelpRow::Binding(k, h) => Line::from(vec![
                Span::styled(format!("{k:<w$}", w = l.key_w), t.key),
                Span::raw(h.as_str()),
            ]),
            HelpRow::Prose(p) => Line::from(p.as_str()),
        })
        .collect();
    Clear.render(l.popup, buf);
    let mut block = Block::bordered().title(format!(" Help ({}) ", keys::hint_line(Ctx::Help)));
    if l.max_scroll() > 0 {
        let last = (scroll + l.page()).min(l.row_count());
        block = block.title_bottom(
            Line::from(format!(
                " lines {}–{last} of {} ",
                scroll + 1,
                l.row_count()
            ))
            .right_aligned(),
        );
    }
    block.render(l.popup, buf);
    Paragraph::new(lines).render(l.body, buf);
}

fn render_claim(app: &App, t: &Theme, size: Rect, buf: &mut Buffer) {
    let (p, buttons) = claim_layout(size);
    Clear.render(p, buf);
    Block::bordered().title(" Claim a draw ").render(p, buf);
    let game = &app.play.game;
    let lines = vec![
        Line::from(format!(
            "You are {} to move. This position has appeared {};",
            color_name(game.position().turn()),
            times(game.current().occurrence)
        )),
        Line::from(format!(
            "{} half-moves without capture or pawn move.",
            game.position().halfmoves()
        )),
        Line::from(Span::styled(
            "The arbiter rules on your claim. An incorrect claim: FIDE 9.5.",
            t.dim,
        )),
    ];
    let text_w = p.width.saturating_sub(4);
    Paragraph::new(lines).render(Rect::new(p.x + 2, p.y + 1, text_w, 3), buf);
    for (r, cmd) in buttons {
        let label = button_label(Ctx::ClaimDialog, cmd);
        buf.set_stringn(
            r.x,
            r.y,
            format!("{label:<w$}", w = r.width as usize),
            r.width as usize,
            t.button,
        );
    }
    let foot = format!(
        "{}   (or click an option)",
        keys::hint_line(Ctx::ClaimDialog)
    );
    buf.set_stringn(p.x + 2, p.y + 9, foot, text_w as usize, t.dim);
}

fn render_verdict(correct: bool, text: &str, t: &Theme, size: Rect, buf: &mut Buffer) {
    let lines = text.chars().count() / 68 + 1;
    let p = popup(size, 76, lines as u16 + 5);
    Clear.render(p, buf);
    let (title, style) = if correct {
        (" Claim correct: draw ", t.claimed)
    } else {
        (" Claim incorrect ", t.error)
    };
    let block = Block::bordered()
        .title(Span::styled(title, style))
        .padding(ratatui::widgets::Padding::horizontal(1));
    let inner = block.inner(p);
    block.render(p, buf);
    Paragraph::new(vec![
        Line::from(text.to_string()),
        Line::from(""),
        Line::from(Span::styled(keys::hint_line(Ctx::Verdict), t.dim)),
    ])
    .wrap(Wrap { trim: true })
    .render(inner, buf);
}

fn render_promotion(t: &Theme, size: Rect, buf: &mut Buffer) {
    let (p, buttons) = promotion_layout(size);
    Clear.render(p, buf);
    Block::bordered().title(" Promote to ").render(p, buf);
    for (r, cmd) in buttons {
        let label = BINDINGS
            .iter()
            .find(|b| b.ctx == Ctx::Promotion && b.cmd == cmd)
            .map(|b| format!("{} {}", b.keys[0].label(), b.hint.unwrap_or("")))
            .unwrap_or_default();
        buf.set_stringn(r.x, r.y, label, r.width as usize, t.button);
    }
}

fn render_question(q: &Question, t: &Theme, size: Rect, buf: &mut Buffer) {
    let text = match q {
        Question::NewGame => "Abandon the game in progress and start a new one?".to_string(),
        Question::Quit => "Quit? The game in progress will be lost.".to_string(),
        Question::Resume(s) => format!(
            "A game in progress was kept ({} plies). Resume it?",
            s.moves.len()
        ),
    };
    let p = popup(size, 64, 6);
    Clear.render(p, buf);
    let block = Block::bordered();
    let inner = block.inner(p);
    block.render(p, buf);
    Paragraph::new(vec![
        Line::from(text),
        Line::from(Span::styled(keys::hint_line(Ctx::Question), t.dim)),
    ])
    .wrap(Wrap { trim: true })
    .render(inner, buf);
}

impl App {
    /// A key on an overlay: its command from the overlay's context.
    pub(crate) fn overlay_key(&mut self, o: Overlay, k: &crossterm::event::KeyEvent) {
        if let Some(cmd) = keys::lookup(o.ctx(), k) {
            self.overlay_command(o, cmd);
        }
    }

    /// A click while an overlay is shown: a button runs its command; a click
    /// elsewhere closes help and rulings (dialogs wait for an answer).
    pub(crate) fn overlay_click(&mut self, o: Overlay, x: u16, y: u16) {
        if let Some((_, cmd)) = buttons(&o, self.size)
            .into_iter()
            .find(|(r, _)| r.contains((x, y).into()))
        {
            self.overlay_command(o, cmd);
        } else if matches!(o, Overlay::Help { .. } | Overlay::Verdict { .. }) {
            self.overlay = None;
        }
    }

    /// Carry out a command of an overlay's context.
    pub(crate) fn overlay_command(&mut self, o: Overlay, cmd: Cmd) {
        match (o, cmd) {
            (Overlay::Claim, Cmd::ClaimNow) => {
                self.overlay = None;
                self.claim(crate::rules::claim::Claim::Now, true);
            }
            (Overlay::Claim, Cmd::ClaimWithMove) => self.claim_with_move(),
            (Overlay::Promotion(moves), Cmd::Promote(role)) => {
                if let Some(m) = moves.iter().find(|m| m.promotion() == Some(role)) {
                    self.overlay = None;
                    self.human_move(*m);
                }
            }
            (Overlay::Promotion(_), Cmd::Close) => {
                self.overlay = None;
                self.play.selected = None;
            }
            (Overlay::Ask(q), Cmd::Yes | Cmd::No) => {
                self.overlay = None;
                self.answer(q, cmd == Cmd::Yes);
            }
            (Overlay::Help { scroll }, cmd) if cmd != Cmd::Close => {
                let l = help_layout(self, self.size);
                let scroll = match cmd {
                    Cmd::ScrollUp => scroll.saturating_sub(1),
                    Cmd::ScrollDown => scroll + 1,
                    Cmd::PageUp => scroll.saturating_sub(l.page()),
                    Cmd::PageDown => scroll + l.page(),
                    Cmd::ScrollTop => 0,
                    Cmd::ScrollBottom => l.max_scroll(),
                    _ => scroll,
                };
                self.overlay = Some(Overlay::Help {
                    scroll: scroll.min(l.max_scroll()),
                });
            }
            (_, Cmd::Close) => self.overlay = None,
            _ => {}
        }
    }

    /// The answer to a question.
    fn answer(&mut self, q: Question, yes: bool) {
        match (q, yes) {
            (Question::NewGame, true) => self.new_game(crate::rules::Game::new()),
            (Question::Quit, true) => self.do_quit(),
            (Question::Resume(saved), true) => self.resume(&saved),
            (Question::Resume(_), false) => self.discard_saved_game(),
            (_, false) => {}
        }
    }
}
