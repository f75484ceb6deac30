//! The review screen: the post-game review ([`crate::review`]) of the game on the board, in
//! the trainer. It owns its state ([`ReviewState`]), its commands (the key table's `Review`
//! context), its layout ([`review_layout`], used for drawing and for clicks) and its drawing,
//! and answers the routing [`App`](super::app::App) with [`Request`]s (leave, show a ply of
//! the game, a message), as the drill screen does: it knows nothing of the other screens.
//!
//! The claim findings ([`crate::rules::review::review_claims`]) are listed at once. The
//! engine findings are computed on a thread of their own ([`Worker`]) with the interactive
//! budget [`SCREEN_BUDGET`]; its progress shows on the screen, the list is completed when it
//! is done, and closing the screen (or quitting) sets its stop flag. Selecting a finding
//! shows the position it is about on the board, the move it names marked, with its
//! explanation.
//!
//! A game still in progress is reviewed without what concerns the position now (a claim
//! open to the player to move, or still open since an earlier turn): the trainer never
//! shows an answer before the player gives it. Claims the player made are listed even in
//! the position now: their rulings were given when they were made.

use std::path::Path;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};
use shakmaty::Position;

use crate::drills::from_games;
use crate::review::{self, Finding, FindingKind, Options, Review};
use crate::rules::Game;
use crate::rules::notation::color_name;
use crate::rules::review::{ClaimFindingKind, GameRecord, review_claims};

use super::board::{BoardView, Geom};
use super::keys::{Cmd, Ctx};
pub use super::review_parts::{
    EngineStatus, ReviewAreas, SCREEN_BUDGET, Worker, add_finding_puzzle, engine_line,
    findings_heading, list_rows, list_target, render_scrolled, review_layout, side_areas,
    wrap_paragraphs,
};
use super::screen::{Component, Env, Request, Requests};
use super::theme::Theme;
use super::widgets::{layout, scrolled};
use crate::rules::notation::king_target;

/// The review screen's slot in the app: the options the next review runs with, and the
/// review shown (kept when the screen closes with its review complete, so reopening it on
/// the same game is instant).
pub struct ReviewScreen {
    pub options: Options,
    pub state: Option<Box<ReviewState>>,
    /// Where a finding added as a puzzle goes (the drills file; None: no data directory).
    pub drills_file: Option<std::path::PathBuf>,
    /// The PGN tags of the game reviewed (a puzzle's source).
    pub tags: Vec<(String, String)>,
}

impl Default for ReviewScreen {
    fn default() -> Self {
        ReviewScreen {
            options: Options {
                budget: Some(SCREEN_BUDGET),
                hash_mb: crate::engine::DEFAULT_HASH_MB,
            },
            state: None,
            drills_file: None,
            tags: Vec::new(),
        }
    }
}

impl ReviewScreen {
    /// Stop the engine's part if it is still running (the screen closes, the app quits):
    /// the unfinished review is dropped, a finished one kept.
    pub fn cancel(&mut self) {
        if self.state.as_ref().is_some_and(|s| s.worker.is_some()) {
            self.state = None;
        }
    }
}

/// The review of one game, as the screen shows it.
pub struct ReviewState {
    /// The game reviewed (a copy: the game screen may go on).
    pub game: Game,
    pub record: GameRecord,
    /// The findings listed, by ply.
    pub findings: Vec<Finding>,
    /// The finding selected (an index into `findings`).
    pub selected: usize,
    /// The first finding shown in the list (it scrolls).
    pub scroll: usize,
    /// The first line of the explanation shown (a long one scrolls).
    pub detail_scroll: usize,
    /// The ply whose position is on the board.
    pub ply: usize,
    pub flipped: bool,
    /// The game was in progress: findings about the position now are left out.
    pub in_progress: bool,
    pub engine: EngineStatus,
    started: Instant,
    worker: Option<Worker<Review>>,
}

/// Whether `f` may be shown for a game in progress of `len` plies: nothing about the
/// position now (a claim open there, or a move that let the player to move claim). A
/// claim the player made is always shown: its ruling was given when it was made.
fn shown_in_progress(f: &Finding, len: usize) -> bool {
    let made = matches!(
        f.kind,
        FindingKind::Claim(ClaimFindingKind::IncorrectClaim | ClaimFindingKind::CorrectClaim)
    );
    made || (f.until_ply < len && !(f.kind == FindingKind::AllowedClaim && f.ply + 1 == len))
}

impl ReviewState {
    /// Review `game`: the claim findings now, the engine's on a worker thread.
    pub fn start(game: &Game, record: &GameRecord, options: Options, flipped: bool) -> Self {
        let in_progress = !game.is_over() && record.result.is_none();
        let claims = review_claims(game, record);
        let findings = claims.findings.iter().map(Finding::from).collect();
        let (engine, worker) = match options.budget {
            Some(_) => (
                EngineStatus::Running {
                    done: 0,
                    total: game.len() + 1,
                },
                {
                    let (game, record) = (game.clone(), record.clone());
                    Some(Worker::spawn(move |stop, progress| {
                        review::review(&game, &record, &options, stop, progress)
                    }))
                },
            ),
            None => (EngineStatus::Off, None),
        };
        let mut s = ReviewState {
            game: game.clone(),
            record: record.clone(),
            findings,
            selected: 0,
            scroll: 0,
            detail_scroll: 0,
            ply: game.len(),
            flipped,
            in_progress,
            engine,
            started: Instant::now(),
            worker,
        };
        s.keep_visible_only();
        if let Some(f) = s.findings.first() {
            s.ply = f.ply;
        }
        s
    }

    /// Whether this is the review of `game` with `record` as they stand.
    pub fn is_of(&self, game: &Game, record: &GameRecord) -> bool {
        &self.record == record
            && self.game.start() == game.start()
            && self.game.moves().eq(game.moves())
            && self.game.termination() == game.termination()
    }

    pub fn running(&self) -> bool {
        self.worker.is_some()
    }

    fn keep_visible_only(&mut self) {
        if self.in_progress {
            let len = self.game.len();
            self.findings.retain(|f| shown_in_progress(f, len));
        }
    }

    /// Take what the worker sent: progress, or the complete list of findings (the finding
    /// selected stays selected).
    pub fn poll(&mut self) {
        let Some(w) = &self.worker else { return };
        let (progress, done) = w.take();
        if let Some((d, total)) = progress {
            self.engine = EngineStatus::Running { done: d, total };
        }
        let Some(r) = done else { return };
        self.worker = None;
        match r {
            Ok(review) => {
                let was = self.findings.get(self.selected).cloned();
                self.findings = review.findings;
                self.keep_visible_only();
                self.engine = EngineStatus::Done {
                    positions: review.evals.len(),
                    secs: self.started.elapsed().as_secs_f64(),
                };
                match was.and_then(|w| self.findings.iter().position(|f| *f == w)) {
                    Some(i) => self.selected = i,
                    None => {
                        self.selected = 0;
                        if let Some(f) = self.findings.first() {
                            self.ply = f.ply;
                        }
                    }
                }
            }
            Err(e) => self.engine = EngineStatus::Failed(e),
        }
    }

    /// Select finding `i` and show its position.
    pub fn select(&mut self, i: usize, list_rows: usize) {
        if self.findings.is_empty() {
            return;
        }
        self.selected = i.min(self.findings.len() - 1);
        self.ply = self.findings[self.selected].ply;
        self.detail_scroll = 0;
        self.scroll_to_selected(list_rows);
    }

    /// Scroll the list so that the finding selected is on it.
    pub fn scroll_to_selected(&mut self, list_rows: usize) {
        let rows = list_rows.max(1);
        self.scroll = self.scroll.min(self.findings.len().saturating_sub(1));
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + rows {
            self.scroll = self.selected + 1 - rows;
        }
    }

    pub fn selected_finding(&self) -> Option<&Finding> {
        self.findings.get(self.selected)
    }
}

/// "missed claim with move (9.2 a)": a finding's kind in words.
fn kind_words(f: &Finding) -> String {
    let words = f.kind.code().replace('-', " ");
    match f.rule {
        Some(r) => format!("{words} ({r})"),
        None => words,
    }
}

impl ReviewScreen {
    /// Open the review of `game` with `record` (reusing the review shown if it is of the
    /// same game as it stands), the board seen as `flipped`, on a terminal of `size`.
    pub fn open(&mut self, game: &Game, record: &GameRecord, flipped: bool, size: Rect) {
        if !self.is_of(game, record) {
            self.state = Some(Box::new(ReviewState::start(
                game,
                record,
                self.options,
                flipped,
            )));
        }
        let rows = self.list_rows(size);
        if let Some(s) = &mut self.state {
            let i = s.selected;
            s.select(i, rows);
        }
    }

    /// Whether the review shown is of `game` with `record` as they stand.
    pub fn is_of(&self, game: &Game, record: &GameRecord) -> bool {
        self.state.as_ref().is_some_and(|s| s.is_of(game, record))
    }

    /// Whether the engine's part is still running (the run loop keeps ticking).
    pub fn running(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.running())
    }

    fn list_rows(&self, size: Rect) -> usize {
        let count = self.state.as_ref().map_or(0, |s| s.findings.len());
        review_layout(size, count).map_or(1, |a| a.list.height as usize)
    }

    /// Time passes: take the worker's news.
    pub fn tick(&mut self, size: Rect) {
        let rows = self.list_rows(size);
        if let Some(s) = &mut self.state {
            s.poll();
            s.scroll_to_selected(rows);
        }
    }

    /// A command of the review screen (the key table's `Review` context, and the mouse
    /// wheel as [`Cmd::Up`]/[`Cmd::Down`]) on a terminal of `size`. Adding the finding
    /// selected as a puzzle is [`ReviewScreen::add_selected_puzzle`]: it needs the file.
    pub fn command(&mut self, cmd: Cmd, size: Rect) -> Requests {
        if cmd == Cmd::Back {
            return Request::Leave.into();
        }
        let rows = self.list_rows(size);
        let Some(s) = self.state.as_deref_mut() else {
            return Requests::none();
        };
        if let Some(i) = list_target(cmd, s.selected, s.findings.len(), rows) {
            s.select(i, rows);
            return Requests::none();
        }
        match cmd {
            Cmd::HistBack => s.ply = s.ply.saturating_sub(1),
            Cmd::HistForward => s.ply = (s.ply + 1).min(s.game.len()),
            Cmd::Flip => s.flipped = !s.flipped,
            Cmd::ScrollDown | Cmd::ScrollUp => {
                let a = review_layout(size, s.findings.len());
                let max = a.map_or(0, |a| detail_max_scroll(s, &a));
                let page = a.map_or(1, |a| a.detail.height as usize);
                s.detail_scroll = scrolled(cmd, s.detail_scroll, page, max);
            }
            Cmd::Select => return Request::ViewPly(s.ply).into(),
            _ => {}
        }
        Requests::none()
    }

    /// Add the finding selected as a puzzle of the drill theme "From your games"
    /// ([`crate::drills::from_games`]) in the file `path` (None: no data directory), its
    /// source from the game's PGN `tags`; the reply says where it went, that it was
    /// already there, or why it cannot be one.
    pub fn add_selected_puzzle(&self, path: Option<&Path>, tags: &[(String, String)]) -> Requests {
        let Some(s) = self.state.as_deref() else {
            return Requests::none();
        };
        let Some(f) = s.selected_finding() else {
            return Request::Error("There is no finding to add as a puzzle.".to_string()).into();
        };
        let finding = match f.kind {
            FindingKind::Claim(kind) => Ok(crate::rules::review::ClaimFinding {
                kind,
                ply: f.ply,
                until_ply: f.until_ply,
                side: f.side,
                mv: f.mv,
                rule: f.rule,
                text: f.text.clone(),
            }),
            other => Err(from_games::FromGamesError::NotAMistake(other.code())),
        };
        add_finding_puzzle(
            path,
            tags,
            |source| finding.and_then(|f| from_games::puzzle_from_finding(&s.game, &f, source)),
            |path, p| from_games::add_puzzles(path, &[p]),
        )
    }

    /// A click on the review screen (a terminal of `size`): a finding in the list selects it.
    pub fn click(&mut self, size: Rect, x: u16, y: u16) {
        let Some(s) = self.state.as_deref_mut() else {
            return;
        };
        let Some(a) = review_layout(size, s.findings.len()) else {
            return;
        };
        let rows = a.list.height as usize;
        if let Some((_, i)) = list_rows(&a, s.findings.len(), s.scroll)
            .into_iter()
            .find(|(r, _)| r.contains((x, y).into()))
        {
            s.select(i, rows);
        }
    }

    /// Draw the review screen (the frame's message and status rows are drawn by the caller).
    pub fn render(&self, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
        if let Some(s) = self.state.as_deref() {
            render(s, ascii, t, size, buf);
        }
    }
}

fn render(s: &ReviewState, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
    let (Some(frame), Some(a)) = (layout(size), review_layout(size, s.findings.len())) else {
        return;
    };
    let game = &s.game;
    let result = match (game.termination(), &s.record.result) {
        (Some(t), _) => t.ending.result().to_string(),
        (None, Some(r)) => r.clone(),
        (None, None) => "in progress".to_string(),
    };
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw(format!("Post-game review: {} plies, {result}", game.len())),
    ]))
    .render(frame.title, buf);

    render_board(s, ascii, t, &a, buf);
    render_header(s, ascii, t, &a, buf);
    render_list(s, ascii, t, &a, buf);
    render_detail(s, t, &a, buf);
}

fn render_board(s: &ReviewState, ascii: bool, t: &Theme, a: &ReviewAreas, buf: &mut Buffer) {
    let Some(geom) = Geom::fit(a.board, s.flipped) else {
        return;
    };
    let pos = s.game.position_at(s.ply);
    // The move the finding names, from the position it is about.
    let named = s
        .selected_finding()
        .filter(|f| f.ply == s.ply)
        .and_then(|f| f.mv)
        .filter(|m| pos.is_legal(*m));
    let targets: Vec<_> = named.iter().map(|m| king_target(m, pos.turn())).collect();
    BoardView {
        selected: named.and_then(|m| m.from()),
        targets: &targets,
        ..BoardView::at_ply(&s.game, s.ply, geom, t, ascii)
    }
    .render(a.board, buf);
}

fn render_header(s: &ReviewState, ascii: bool, t: &Theme, a: &ReviewAreas, buf: &mut Buffer) {
    let w = a.header.width as usize;
    let game_line = if s.in_progress {
        "In progress: the position now is left out.".to_string()
    } else {
        let claims = s.record.claims.len();
        match claims {
            0 => "No claim recorded in the game.".to_string(),
            1 => "1 claim recorded in the game.".to_string(),
            n => format!("{n} claims recorded in the game."),
        }
    };
    buf.set_stringn(a.header.x, a.header.y, game_line, w, t.dim);
    let (engine, style) = engine_line(&s.engine, "claim findings only", ascii, t);
    buf.set_stringn(a.header.x, a.header.y + 1, engine, w, style);
    let heading = match s.findings.len() {
        0 => "Findings: none".to_string(),
        n => findings_heading(s.selected, n),
    };
    buf.set_stringn(a.header.x, a.header.y + 2, heading, w, t.title);
}

fn render_list(s: &ReviewState, ascii: bool, t: &Theme, a: &ReviewAreas, buf: &mut Buffer) {
    if s.findings.is_empty() {
        let text = if s.running() {
            "No claim was missed; the engine is still looking."
        } else {
            "Nothing to report: no claim missed or made wrongly, no repetition that cost a game."
        };
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(a.list, buf);
        return;
    }
    for (r, i) in list_rows(a, s.findings.len(), s.scroll) {
        let f = &s.findings[i];
        let sel = i == s.selected;
        let mark = match (sel, ascii) {
            (false, _) => " ",
            (true, false) => "▶",
            (true, true) => ">",
        };
        let text = format!(
            "{mark}{:<6}{:<6}{}",
            f.place(&s.game).to_string(),
            color_name(f.side),
            kind_words(f)
        );
        let style = if sel { t.viewing } else { Style::new() };
        buf.set_stringn(
            r.x,
            r.y,
            format!("{text:<w$}", w = r.width as usize),
            r.width as usize,
            style,
        );
    }
}

/// The explanation of the finding selected, wrapped to `width`: (text, style) lines.
fn detail_lines(s: &ReviewState, t: &Theme, width: u16) -> Vec<(String, Style)> {
    let game = &s.game;
    let finding = s.selected_finding();
    let board = if s.ply == 0 {
        "the start position".to_string()
    } else {
        game.place_label(s.ply)
    };
    let marked = finding
        .filter(|f| f.ply == s.ply && f.mv.is_some())
        .map_or("", |_| ", its move marked");
    let mut paragraphs = vec![(
        format!("Board: {board}{marked}"),
        Style::new().add_modifier(Modifier::BOLD),
    )];
    if let Some(f) = finding {
        if let (Some(b), Some(af)) = (f.eval_before, f.eval_after) {
            paragraphs.push((
                format!(
                    "Engine (White's view): {} before, {} after the move.",
                    review::eval_text(b),
                    review::eval_text(af)
                ),
                t.info,
            ));
        }
        paragraphs.push((f.text.clone(), Style::new()));
    }
    wrap_paragraphs(paragraphs, width)
}

/// How far the explanation scrolls: its lines beyond the area (the last row shows a hint
/// while more follows).
fn detail_max_scroll(s: &ReviewState, a: &ReviewAreas) -> usize {
    let lines = detail_lines(s, &Theme::plain(), a.detail.width).len();
    lines.saturating_sub(a.detail.height.max(1) as usize)
}

fn render_detail(s: &ReviewState, t: &Theme, a: &ReviewAreas, buf: &mut Buffer) {
    render_scrolled(
        detail_lines(s, t, a.detail.width),
        s.detail_scroll,
        t,
        a.detail,
        buf,
    );
}

impl Component for ReviewScreen {
    fn ctx(&self) -> Ctx {
        Ctx::Review
    }

    fn command(&mut self, cmd: Cmd, env: &Env, out: &mut Requests) {
        out.extend(if cmd == Cmd::AddPuzzle {
            self.add_selected_puzzle(self.drills_file.as_deref(), &self.tags)
        } else {
            ReviewScreen::command(self, cmd, env.size)
        });
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, _out: &mut Requests) {
        ReviewScreen::click(self, env.size, x, y);
    }

    fn wheel(&mut self, up: bool, _x: u16, _y: u16, env: &Env, out: &mut Requests) {
        let cmd = if up { Cmd::Up } else { Cmd::Down };
        out.extend(ReviewScreen::command(self, cmd, env.size));
    }

    fn tick(&mut self, _now: Instant, env: &Env, _out: &mut Requests) {
        ReviewScreen::tick(self, env.size);
    }

    fn render(&self, env: &Env, theme: &Theme, buf: &mut Buffer) {
        ReviewScreen::render(self, env.ascii, theme, env.size, buf);
    }
}
