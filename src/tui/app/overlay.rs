//! The App's overlays, on top of any screen: the help (generated from the
//! key table, for the screen shown) and the questions on quitting. Each owns
//! its keys (a context of the key table), its layout (one function, used by
//! both rendering and scrolling) and its rendering. The game screen's own
//! overlays (claim dialog, ruling, promotion, players menu, game list, its
//! questions) are the play screen's ([`crate::tui::chess::Overlay`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Widget};

use super::{App, Screen};
use crate::drills::GameKind;
use crate::tui::keys::{self, Ctx};
use crate::tui::theme::Theme;
use crate::tui::widgets::{body_of, max_scroll, popup, question_popup, wrap};

/// A question of the App's: on quitting, from any screen. `game` is the game the
/// question is about (the chess screen's or the xiangqi screen's: each keeps its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Quit and lose the game in progress? (There is nowhere to keep it.)
    Quit { game: GameKind },
    /// The game in progress cannot be kept (`reason`): quit and lose it?
    /// No opens the save prompt, to keep it as PGN elsewhere. `saved_as`:
    /// the PGN file already holding it, if one does.
    QuitUnkept {
        game: GameKind,
        reason: String,
        saved_as: Option<std::path::PathBuf>,
    },
    /// The game played to its end is in no file (nothing keeps a finished game for the
    /// next start): quit and lose it? No opens the save prompt.
    QuitFinished { game: GameKind },
}

impl Question {
    /// The game the question is about.
    pub fn game(&self) -> GameKind {
        match self {
            Question::Quit { game }
            | Question::QuitUnkept { game, .. }
            | Question::QuitFinished { game } => *game,
        }
    }
}

/// "The game in progress" or "The xiangqi game in progress": chess's words stay as they
/// were where only chess is played.
fn the_game(game: GameKind) -> &'static str {
    match game {
        GameKind::Chess => "The game in progress",
        GameKind::Xiangqi => "The xiangqi game in progress",
    }
}

/// A modal of the App's on top of any screen (the game screen's own are
/// [`crate::tui::chess::Overlay`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// The help, scrolled down by so many rows.
    Help {
        scroll: usize,
    },
    Ask(Question),
}

impl Overlay {
    /// The key-table context of the overlay.
    pub fn ctx(&self) -> Ctx {
        match self {
            Overlay::Help { .. } => Ctx::Help,
            Overlay::Ask(_) => Ctx::Question,
        }
    }
}

/// Draw an overlay of the App's.
pub fn render(app: &App, o: &Overlay, t: &Theme, size: Rect, buf: &mut Buffer) {
    match o {
        Overlay::Help { scroll } => render_help(app, *scroll, t, size, buf),
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
        max_scroll(self.row_count(), self.body)
    }
}

/// The sections of the help on a screen: a title and a key-table context.
fn help_sections(screen: Screen) -> &'static [(&'static str, Ctx)] {
    match screen {
        Screen::Drills => &[
            ("Drills: theme list", Ctx::DrillThemes),
            ("Drills: answering", Ctx::DrillAnswer),
            ("Drills: the ruling", Ctx::DrillFeedback),
            ("Choosing a scenario", Ctx::PickScenario),
            ("Everywhere", Ctx::Global),
            ("Typing an answer", Ctx::Input),
            ("This help", Ctx::Help),
        ],
        Screen::XqDrills => &[
            ("Xiangqi drills: theme list", Ctx::XqDrillThemes),
            ("Xiangqi drills: answering", Ctx::XqDrillAnswer),
            ("Xiangqi drills: the answer judged", Ctx::XqDrillFeedback),
            ("Choosing a scenario", Ctx::PickScenario),
            ("Everywhere", Ctx::Global),
            ("Typing an answer", Ctx::Input),
            ("This help", Ctx::Help),
        ],
        Screen::Xiangqi => &[
            ("Xiangqi", Ctx::Xiangqi),
            ("Calling the arbiter", Ctx::XqCall),
            ("Xiangqi review", Ctx::Review),
            ("Everywhere", Ctx::Global),
            ("Typing a move", Ctx::Input),
            ("This help", Ctx::Help),
        ],
        Screen::XqReview => &[
            ("Xiangqi review", Ctx::Review),
            ("Everywhere", Ctx::Global),
            ("This help", Ctx::Help),
        ],
        _ => &[
            ("Game", Ctx::Play),
            ("Euwe stepper", Ctx::Euwe),
            ("Post-game review", Ctx::Review),
            ("Everywhere", Ctx::Global),
            ("Typing a move", Ctx::Input),
            ("Claim dialog", Ctx::ClaimDialog),
            ("The arbiter's ruling", Ctx::Verdict),
            ("Promotion", Ctx::Promotion),
            ("Questions", Ctx::Question),
            ("Players menu", Ctx::PlayersMenu),
            ("Choosing a game of a PGN file", Ctx::PickGame),
            ("This help", Ctx::Help),
        ],
    }
}

/// The title of the help's section on the xiangqi judge's words (its glossary).
pub const GLOSSARY_TITLE: &str = "The judge's words (glossary)";

/// The help's first row shown when it opens: the section of the screen shown (the context of
/// its keys now: the Euwe stepper's, the review's, a drill's answering...), else the top.
pub fn help_start(app: &App, size: Rect) -> usize {
    let ctx = app.ctx();
    let title = help_sections(app.screen)
        .iter()
        .find(|&&(_, c)| c == ctx)
        .map(|&(t, _)| t);
    title.map_or(0, |t| help_scroll_to(app, size, t))
}

/// The scroll that puts the help's section `title` at the top (as far as the help scrolls).
pub fn help_scroll_to(app: &App, size: Rect, title: &str) -> usize {
    let l = help_layout(app, size);
    l.rows
        .iter()
        .position(|r| matches!(r, HelpRow::Title(t) if *t == title))
        .unwrap_or(0)
        .min(l.max_scroll())
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
    // The judge's words (xiangqi): its glossary, written once in the judge crate.
    if matches!(app.screen, Screen::Xiangqi | Screen::XqReview) {
        rows.push(HelpRow::Blank);
        rows.push(HelpRow::Title(GLOSSARY_TITLE));
        let term_w = text_w.saturating_sub(2).max(1);
        for (term, meaning) in crate::xiangqi::judge::GLOSSARY {
            rows.push(HelpRow::Prose((*term).to_string()));
            rows.extend(
                wrap(meaning, term_w)
                    .into_iter()
                    .map(|line| HelpRow::Prose(format!("  {line}"))),
            );
        }
    }
    // The legend: every mark on screen and what it means.
    rows.push(HelpRow::Blank);
    rows.push(HelpRow::Title("Marks"));
    for (mark, meaning) in crate::tui::theme::legend(app.ascii) {
        for (i, line) in wrap(meaning, help_w).into_iter().enumerate() {
            let k = if i == 0 { mark.clone() } else { String::new() };
            rows.push(HelpRow::Binding(k, line));
        }
    }
    // What one game has and the other cannot: said here, not left to be noticed missing.
    rows.push(HelpRow::Blank);
    rows.push(HelpRow::Title(match app.screen {
        Screen::Xiangqi | Screen::XqDrills | Screen::XqReview => "Not in xiangqi",
        _ => "Not in chess",
    }));
    let not_here = match app.screen {
        Screen::Xiangqi | Screen::XqDrills | Screen::XqReview => format!(
            "Euwe's Thue–Morse stepper (chess's {}): its sequence avoids a threefold \
             repetition, a chess claim; a xiangqi repetition is ruled by who checks or \
             chases, so it has no counterpart. How engines see it (chess's {}): its five \
             detectors are chess engines' ways of seeing a draw by repetition; the xiangqi \
             engine rules repetitions by the WXF judge, whose reading is the judge's panel \
             ({}). Claiming a draw (chess's {}): in xiangqi a repetition is not claimed but \
             ruled; call the arbiter ({}).",
            keys::key_in(Ctx::Play, crate::tui::keys::Cmd::Euwe),
            keys::key_in(Ctx::Play, crate::tui::keys::Cmd::EnginesPanel),
            keys::key_in(Ctx::Xiangqi, crate::tui::keys::Cmd::JudgePanel),
            keys::key_in(Ctx::Play, crate::tui::keys::Cmd::Claim),
            keys::key_in(Ctx::Xiangqi, crate::tui::keys::Cmd::CallArbiter),
        ),
        _ => format!(
            "Calling the arbiter and the judge's panel (xiangqi's {} and {}): a chess \
             repetition is claimed (FIDE 9.2), not ruled by who checks or chases; claim \
             with {}. The post-game review ({}) and the drills from your games are in \
             both games.",
            keys::key_in(Ctx::Xiangqi, crate::tui::keys::Cmd::CallArbiter),
            keys::key_in(Ctx::Xiangqi, crate::tui::keys::Cmd::JudgePanel),
            keys::key_in(Ctx::Play, crate::tui::keys::Cmd::Claim),
            keys::key_in(Ctx::Play, crate::tui::keys::Cmd::Review),
        ),
    };
    rows.extend(wrap(&not_here, text_w).into_iter().map(HelpRow::Prose));
    rows.push(HelpRow::Blank);
    let mouse = if app.screen == Screen::Drills {
        "Mouse: click a theme, an answer button, a ply in the move list \
         (count questions: it is chosen), or a piece then its target \
         (questions asking for moves); the wheel scrolls the ruling."
    } else {
        "Mouse: click a piece, then its target; click a move in the list \
         to view it; the wheel steps through the history."
    };
    rows.extend(wrap(mouse, text_w).into_iter().map(HelpRow::Prose));
    let h = (rows.len() as u16).saturating_add(2).min(size.height);
    let p = popup(size, w, h);
    let body = body_of(p);
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
    crate::tui::widgets::clear_popup(l.popup, buf);
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

fn render_question(q: &Question, t: &Theme, size: Rect, buf: &mut Buffer) {
    let the_game = the_game(q.game());
    let text = match q {
        Question::Quit { .. } => format!("Quit? {the_game} will be lost."),
        Question::QuitFinished { game } => format!(
            "The finished {} game is saved in no file. Quit and lose it? (no: save it as PGN)",
            match game {
                GameKind::Chess => "chess",
                GameKind::Xiangqi => "xiangqi",
            }
        ),
        Question::QuitUnkept {
            reason,
            saved_as: None,
            ..
        } => format!(
            "{the_game} cannot be kept for the next start: {reason}. \
             Quit and lose it? (no: save it as PGN elsewhere)"
        ),
        Question::QuitUnkept {
            reason,
            saved_as: Some(p),
            ..
        } => format!(
            "{the_game} cannot be kept for the next start: {reason}. \
             It is saved as PGN in {}. Quit? (no: save it again)",
            p.display()
        ),
    };
    question_popup(text, None, t, size, buf);
}
