//! The drill screen: a theme list (plus "all"), then one puzzle at a time
//! with an answer widget suited to its question, then the ruling.
//!
//! The screen owns its state ([`DrillState`]), its keys (the key table's
//! `DrillThemes`, `DrillAnswer` and `DrillFeedback` contexts, handled by
//! [`DrillState::command`]), its drawing ([`DrillState::render`]) and its
//! mouse hit-testing ([`DrillState::click`]); drawing and hit-testing use
//! one layout ([`DrillState::layout`]). The [`App`](crate::tui::app::App) only
//! routes keys, clicks and typed lines here and carries out the [`Request`]s.
//! The judging, scoring, saving and the choice of the next puzzle are the
//! [`crate::drills`] library's.
//!
//! The trainer trains: until the answer is given nothing on screen gives
//! it away — no repetition marks or their colours in the move list
//! ([`Marks::Hidden`]), and no puzzle title (titles often name the
//! answer). What a player at the board knows is always there: the move
//! number, the fifty-move count, and the FEN on request. The ruling
//! reveals the marks and the title, and scrolls when it does not fit.

mod layout;
mod puzzle;
#[cfg(test)]
mod tests;
mod view;

use ratatui::layout::Rect;
use shakmaty::fen::Fen;
use shakmaty::{EnPassantMode, Position, Square};

pub use crate::drills::Pick;
use crate::drills::{Answer, Question, Session};
use crate::rules::Game;
pub use layout::{Layout, PuzzleAreas, ThemeAreas};
pub use puzzle::{PuzzleState, Ruling, Widget};

use crate::drills::GameKind;
use crate::rules::notation::king_target;
use crate::tui::game::{drill_score, scenario};
use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::prompt::InputKind;
use crate::tui::screen::{Component, Env, Request, Requests};
use crate::tui::widgets::{Marks, history_cells_in, scrolled};

/// What the drill screen shows.
#[derive(Clone, Debug)]
pub enum View {
    Themes,
    Puzzle(Box<PuzzleState>),
}

/// The whole drill screen: the session (puzzles and progress) and the view.
#[derive(Debug)]
pub struct DrillState {
    pub session: Session,
    /// The row of the theme list: 0 = all, then the themes.
    pub row: usize,
    pub view: View,
    /// The list of scenarios from real games, when open ([`scenario::List`]).
    pub scenarios: Option<scenario::List>,
}

/// A theme's score as the drill screens show it (one for both games).
pub use crate::tui::game::drill_score::Score;

/// "Give moves: i to type them, or make them on the board."
fn give_moves_hint() -> String {
    format!(
        "Give moves: {} to type them, or make them on the board.",
        keys::key_in(Ctx::DrillAnswer, Cmd::DrillType)
    )
}

/// "Your moves: {Nf3, Ng1}. Enter submits; …" after a move was added.
fn your_moves(p: &PuzzleState) -> Requests {
    Request::Info(format!(
        "Your moves: {}. {} submits; {} adds more; {} removes the last.",
        Answer::Moves(p.moves.clone()).describe(p.game()),
        keys::key_in(Ctx::DrillAnswer, Cmd::DrillSubmit),
        keys::key_in(Ctx::DrillAnswer, Cmd::DrillType),
        keys::key_in(Ctx::DrillAnswer, Cmd::DrillRemoveMove)
    ))
    .into()
}

/// The FEN of a position as the standard writes it: an en passant square
/// after every double step, legal capture or not (so that the FEN does
/// not tell whether the capture is possible; the player works that out).
/// Before the answer without its move counters
/// ([`crate::drills::shown::fen_without_counters`], the one function both drill screens
/// show a FEN with): the halfmove clock answers the fifty-move question.
fn fen(game: &Game, ply: usize, answered: bool) -> String {
    let full = Fen::from_position(game.position_at(ply), EnPassantMode::Always).to_string();
    if answered {
        full
    } else {
        crate::drills::shown::fen_without_counters(&full)
    }
}

impl DrillState {
    pub fn new(session: Session) -> DrillState {
        DrillState {
            session,
            row: 0,
            view: View::Themes,
            scenarios: None,
        }
    }

    /// Rows of the theme list: "all" then each theme.
    pub fn rows(&self) -> usize {
        self.session.collection.themes.len() + 1
    }

    pub fn pick_at(&self, row: usize) -> Pick {
        match row {
            0 => Pick::All,
            r => Pick::Theme(self.session.collection.themes[r - 1].id.clone()),
        }
    }

    /// The key-table context of the view shown.
    pub fn ctx(&self) -> Ctx {
        if self.scenarios.is_some() {
            return Ctx::PickScenario;
        }
        match &self.view {
            View::Themes => Ctx::DrillThemes,
            View::Puzzle(p) if p.answered() => Ctx::DrillFeedback,
            View::Puzzle(_) => Ctx::DrillAnswer,
        }
    }

    /// Whether `cmd` (a paging key) would move the ruling shown at `size`: the key bar
    /// offers only what works (no "more" on the last page).
    pub fn can_page(&self, cmd: Cmd, size: Rect, ascii: bool) -> bool {
        let (View::Puzzle(p), Some(Layout::Puzzle(a))) = (&self.view, self.layout(size)) else {
            return false;
        };
        let Some(r) = &p.ruling else {
            return false;
        };
        let (n, page) = view::ruling_page(p, r, ascii, a.ruling);
        let last = n.saturating_sub(page);
        match cmd {
            Cmd::PageDown | Cmd::ScrollDown => r.scroll.min(last) < last,
            Cmd::PageUp | Cmd::ScrollUp => r.scroll.min(last) > 0,
            _ => true,
        }
    }

    /// Repetition marks are hidden until the answer is given.
    pub fn marks(&self) -> Marks {
        match &self.view {
            View::Puzzle(p) if !p.answered() => Marks::Hidden,
            _ => Marks::Shown,
        }
    }

    /// What the screen says when it opens.
    pub fn greeting(&self) -> Requests {
        Request::Info(format!(
            "Pick a theme ({}/{} and {}, or click it).",
            keys::key_in(Ctx::DrillThemes, Cmd::DrillUp),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillDown),
            keys::key_in(Ctx::DrillThemes, Cmd::DrillPick)
        ))
        .into()
    }

    /// The session's messages (a corrupt progress file set aside, a failed
    /// save), once.
    pub fn take_messages(&mut self) -> Option<String> {
        let m = &mut self.session.messages;
        (!m.is_empty()).then(|| std::mem::take(m).join(" · "))
    }

    /// Show the next puzzle of `pick` (the session chooses it).
    pub fn open_next(&mut self, pick: Pick) -> Requests {
        match self.session.next(&pick).cloned() {
            Some(p) => {
                self.view = View::Puzzle(Box::new(PuzzleState::new(pick, p)));
                Request::Clear.into()
            }
            None => Request::Error("There are no puzzles in this theme.".into()).into(),
        }
    }

    /// Judge the answer to the puzzle shown (records and saves progress).
    pub fn answer(&mut self, answer: Answer) {
        let View::Puzzle(p) = &mut self.view else {
            return;
        };
        if p.answered() {
            return;
        }
        if let Some(feedback) = self.session.answer(&p.puzzle.id, &answer) {
            p.ruling = Some(Ruling {
                feedback,
                given: answer,
                scroll: 0,
            });
            p.selected = None;
        }
    }

    /// The score of a theme.
    pub fn score(&self, theme: &str) -> Score {
        let th = self.session.collection.theme(theme);
        let ids = th
            .into_iter()
            .flat_map(|t| t.puzzles.iter().map(|p| p.id.as_str()));
        drill_score::theme_score(&self.session, theme, ids)
    }

    /// The totals over all themes; the streak is the one over all themes
    /// ([`crate::drills::Progress::all_themes`]), not the themes' added up.
    pub fn total(&self) -> Score {
        let themes = &self.session.collection.themes;
        drill_score::all_themes(
            &self.session,
            crate::drills::GameKind::Chess,
            themes.iter().map(|t| self.score(&t.id)),
        )
    }

    /// Esc: put down a piece, leave the puzzle for the theme list, leave
    /// the theme list for the game.
    pub fn back(&mut self) -> Requests {
        match &mut self.view {
            View::Puzzle(p) if p.selected.is_some() => {
                p.selected = None;
                Requests::none()
            }
            View::Puzzle(_) => {
                self.view = View::Themes;
                self.session.new_round();
                Request::Clear.into()
            }
            View::Themes => Request::Leave.into(),
        }
    }

    /// Answer with option `i` (0-based) of a choice question.
    pub fn choose(&mut self, i: usize) -> Requests {
        let View::Puzzle(p) = &self.view else {
            return Requests::none();
        };
        if p.answered() {
            return Requests::none();
        }
        let opts = p.options();
        match opts.get(i) {
            Some((_, a)) => {
                let a = a.clone();
                self.give(a)
            }
            None if opts.is_empty() => Request::Error(match p.widget() {
                Widget::Moves => give_moves_hint(),
                _ => format!(
                    "Choose plies in the move list: {}/{} and {}.",
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                    keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle)
                ),
            })
            .into(),
            None => Request::Error(format!("Options are 1 to {}.", opts.len())).into(),
        }
    }

    /// Give an answer: the ruling replaces the question.
    fn give(&mut self, a: Answer) -> Requests {
        self.answer(a);
        Request::Clear.into()
    }

    /// A command of the drill contexts (keys from the table; `size` is the
    /// terminal's, for paging the ruling).
    pub fn command(&mut self, cmd: Cmd, size: Rect, ascii: bool) -> Requests {
        let rows = self.rows();
        let ruling = match self.layout(size) {
            Some(Layout::Puzzle(a)) => Some(a.ruling),
            _ => None,
        };
        let pick = match &mut self.view {
            View::Themes => match cmd {
                Cmd::DrillUp => {
                    self.row = (self.row + rows - 1) % rows;
                    return Requests::none();
                }
                Cmd::DrillDown => {
                    self.row = (self.row + 1) % rows;
                    return Requests::none();
                }
                Cmd::DrillFirst => {
                    self.row = 0;
                    return Requests::none();
                }
                Cmd::DrillLast => {
                    self.row = rows - 1;
                    return Requests::none();
                }
                Cmd::DrillPick => self.pick_at(self.row),
                _ => return Requests::none(),
            },
            View::Puzzle(p) => match cmd {
                Cmd::DrillNext | Cmd::DrillSkip => p.pick.clone(),
                _ => {
                    return match puzzle_command(p, cmd, ruling, ascii) {
                        Ok(reply) => reply,
                        Err(answer) => self.give(answer),
                    };
                }
            },
        };
        self.open_next(pick)
    }

    /// A typed answer: words, places or moves, as the puzzle files write them.
    pub fn typed(&mut self, text: &str) -> Requests {
        let View::Puzzle(p) = &mut self.view else {
            return Requests::none();
        };
        if p.answered() {
            return Requests::none();
        }
        match crate::drills::parse_answer(&p.puzzle, text) {
            Err(e) => Requests::from_iter([
                Request::Type(InputKind::DrillAnswer, text.to_string()),
                Request::Error(e.to_string()),
            ]),
            Ok(Answer::Moves(ms)) if !ms.is_empty() => {
                for m in ms {
                    p.add_move(m);
                }
                your_moves(p)
            }
            Ok(a) => self.give(a),
        }
    }

    /// A click: a theme, an option, a ply, a square (on the one layout).
    pub fn click(&mut self, size: Rect, x: u16, y: u16) -> Requests {
        let at = (x, y).into();
        let a = match self.layout(size) {
            Some(Layout::Themes(a)) => {
                return match a.rows.iter().position(|r| r.contains(at)) {
                    Some(row) => {
                        self.row = row;
                        self.open_next(self.pick_at(row))
                    }
                    None => Requests::none(),
                };
            }
            Some(Layout::Puzzle(a)) => a,
            None => return Requests::none(),
        };
        let View::Puzzle(p) = &mut self.view else {
            return Requests::none();
        };
        let answered = p.answered();
        if let Some(i) = a.buttons.iter().position(|r| r.contains(at)) {
            if answered {
                return Requests::none();
            }
            p.option = i;
            let answer = p.options()[i].1.clone();
            return self.give(answer);
        }
        let cell = history_cells_in(p.game(), p.cursor, a.history)
            .into_iter()
            .find(|(r, _)| r.contains(at));
        if let Some((_, ply)) = cell {
            p.cursor = ply;
            if !answered && p.widget() == Widget::Plies {
                p.toggle(ply);
            }
            return Requests::none();
        }
        match a.geom.and_then(|g| g.square_at(x, y)) {
            Some(sq) if !answered && p.widget() == Widget::Moves => board_click(p, sq),
            _ => Requests::none(),
        }
    }

    /// The mouse wheel: over the ruling it scrolls the ruling; elsewhere it
    /// steps through the move list (or the theme list).
    pub fn wheel(&mut self, size: Rect, ascii: bool, up: bool, x: u16, y: u16) -> Requests {
        let over_ruling = match self.layout(size) {
            Some(Layout::Puzzle(a)) if a.ruling.contains((x, y).into()) => Some(a.ruling),
            _ => None,
        };
        if let (View::Puzzle(p), Some(area)) = (&mut self.view, over_ruling)
            && let Some(r) = &p.ruling
        {
            let (n, page) = view::ruling_page(p, r, ascii, area);
            let r = p.ruling.as_mut().expect("checked");
            let cmd = if up { Cmd::ScrollUp } else { Cmd::ScrollDown };
            r.scroll = scrolled(cmd, r.scroll, page, n.saturating_sub(page));
            return Requests::none();
        }
        let cmd = if up { Cmd::DrillUp } else { Cmd::DrillDown };
        self.command(cmd, size, ascii)
    }
}

/// A command on a puzzle. `Err(answer)`: the command gives that answer.
fn puzzle_command(
    p: &mut PuzzleState,
    cmd: Cmd,
    ruling: Option<Rect>,
    ascii: bool,
) -> Result<Requests, Answer> {
    let nothing = Ok(Requests::none());
    match cmd {
        Cmd::DrillUp => {
            p.cursor = p.cursor.saturating_sub(1);
            return nothing;
        }
        Cmd::DrillDown => {
            p.cursor = (p.cursor + 1).min(p.game().len());
            return nothing;
        }
        Cmd::DrillFirst => {
            p.cursor = 0;
            return nothing;
        }
        Cmd::DrillLast => {
            p.cursor = p.game().len();
            return nothing;
        }
        Cmd::Fen => {
            let place = match p.cursor {
                0 => "of the start position".to_string(),
                ply => p.game().place_label(ply),
            };
            let fen = fen(p.game(), p.cursor, p.answered());
            return Ok(Request::Info(format!("FEN {place}: {fen}")).into());
        }
        Cmd::PageUp | Cmd::PageDown => {
            if let (Some(area), Some(r)) = (ruling, &p.ruling) {
                let (n, page) = view::ruling_page(p, r, ascii, area);
                let r = p.ruling.as_mut().expect("checked");
                r.scroll = scrolled(cmd, r.scroll, page, n.saturating_sub(page));
            }
            return nothing;
        }
        _ if p.answered() => return nothing,
        _ => {}
    }
    match cmd {
        Cmd::DrillPrevOption | Cmd::DrillNextOption => {
            let n = p.options().len();
            if n > 0 {
                p.option = if cmd == Cmd::DrillNextOption {
                    (p.option + 1) % n
                } else {
                    (p.option + n - 1) % n
                };
            }
            nothing
        }
        Cmd::DrillToggle => match p.widget() {
            Widget::Plies => {
                p.toggle(p.cursor);
                nothing
            }
            Widget::Choice => match p.options().get(p.option) {
                Some(o) => Err(o.1.clone()),
                None => nothing,
            },
            Widget::Moves => Ok(Request::Error(give_moves_hint()).into()),
        },
        Cmd::DrillSubmit => match p.widget() {
            Widget::Plies if p.chosen.is_empty() => Ok(Request::Error(format!(
                "Choose the positions first: {}/{} through the move list, {} on each place the position stands.",
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillUp),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillDown),
                keys::key_in(Ctx::DrillAnswer, Cmd::DrillToggle)
            )).into()),
            _ => p.pending().map_or(nothing, Err),
        },
        Cmd::DrillYes | Cmd::DrillNo => {
            if matches!(p.puzzle.question, Question::Same { .. }) {
                Err(Answer::Same(cmd == Cmd::DrillYes))
            } else {
                Ok(Request::Error("This is not a yes/no question.".into()).into())
            }
        }
        Cmd::DrillType => Ok(Request::Type(InputKind::DrillAnswer, String::new()).into()),
        Cmd::DrillRemoveMove => {
            match p.widget() {
                Widget::Moves => {
                    p.moves.pop();
                }
                Widget::Plies => p.chosen.retain(|&c| c != p.cursor),
                Widget::Choice => {}
            }
            nothing
        }
        _ => nothing,
    }
}

/// Pick up a piece or put it down, adding the move to the answer (claim-moves).
fn board_click(p: &mut PuzzleState, sq: Square) -> Requests {
    if p.cursor != p.game().len() {
        p.cursor = p.game().len();
        p.selected = None;
        return Request::Info("Back to the position of the question: make the moves here.".into())
            .into();
    }
    let pos = p.game().position().clone();
    let own = pos
        .board()
        .piece_at(sq)
        .is_some_and(|pc| pc.color == pos.turn());
    match p.selected {
        Some(from) if from != sq => {
            let m = pos
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    m.from() == Some(from) && (m.to() == sq || king_target(m, pos.turn()) == sq)
                })
                .max_by_key(|m| m.promotion().map_or(0, |r| r as u8));
            match m {
                Some(m) => {
                    p.selected = None;
                    p.add_move(m);
                    your_moves(p)
                }
                None if own => {
                    p.selected = Some(sq);
                    Requests::none()
                }
                None => {
                    p.selected = None;
                    Request::Error(format!("{from}-{sq} is not a legal move")).into()
                }
            }
        }
        Some(_) => {
            p.selected = None;
            Requests::none()
        }
        None if own => {
            p.selected = Some(sq);
            Requests::none()
        }
        None => Requests::none(),
    }
}

impl Component for DrillState {
    fn ctx(&self) -> Ctx {
        DrillState::ctx(self)
    }

    /// A digit answers with that option.
    fn key(&mut self, k: &crossterm::event::KeyEvent, _env: &Env, out: &mut Requests) -> bool {
        if keys::lookup(self.ctx(), k) == Some(Cmd::DrillChoose)
            && let crossterm::event::KeyCode::Char(c) = k.code
            && let Some(n) = c.to_digit(10)
        {
            out.extend(self.choose(n as usize - 1));
            return true;
        }
        false
    }

    fn command(&mut self, cmd: Cmd, env: &Env, out: &mut Requests) {
        let all = &self.session.collection.scenarios;
        if scenario::route(&mut self.scenarios, GameKind::Chess, all, cmd, out) {
            return;
        }
        out.extend(if cmd == Cmd::Back {
            self.back()
        } else {
            DrillState::command(self, cmd, env.size, env.ascii)
        });
    }

    fn submit(&mut self, _kind: InputKind, text: &str, _env: &Env, out: &mut Requests) {
        out.extend(self.typed(text));
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, out: &mut Requests) {
        if self.scenarios.is_some() {
            return;
        }
        out.extend(DrillState::click(self, env.size, x, y));
    }

    fn wheel(&mut self, up: bool, x: u16, y: u16, env: &Env, out: &mut Requests) {
        out.extend(DrillState::wheel(self, env.size, env.ascii, up, x, y));
    }

    fn render(
        &self,
        env: &Env,
        theme: &crate::tui::theme::Theme,
        buf: &mut ratatui::buffer::Buffer,
    ) {
        DrillState::render(self, env.ascii, theme, env.size, buf);
    }

    fn render_overlay(
        &self,
        env: &Env,
        theme: &crate::tui::theme::Theme,
        buf: &mut ratatui::buffer::Buffer,
    ) {
        if let Some(l) = &self.scenarios {
            l.render(theme, env.size, buf);
        }
    }

    /// The key bar offers paging only where the ruling pages.
    fn enabled(&self, cmd: Cmd, env: &Env) -> bool {
        match cmd {
            Cmd::ScrollDown | Cmd::PageDown | Cmd::ScrollUp | Cmd::PageUp => {
                self.can_page(cmd, env.size, env.ascii)
            }
            _ => true,
        }
    }

    fn marks(&self) -> Marks {
        DrillState::marks(self)
    }

    fn take_note(&mut self) -> Option<String> {
        self.take_messages()
    }
}
