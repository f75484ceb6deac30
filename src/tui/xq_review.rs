//! The xiangqi review screen: the post-game review ([`crate::review::xiangqi`]) of the
//! xiangqi game on the board, in the trainer, as the review screen ([`super::review`]) is
//! chess's: the same keys (the key table's `Review` context), the same layout of the text
//! column ([`side_areas`]), the same engine worker ([`Worker`]) and header, and it asks the routing
//! [`App`](super::app::App) through the one screen contract ([`Component`], [`Request`]):
//! `Leave` goes back to the xiangqi game, `ViewPly` shows a ply there, `PuzzlesAdded` tells the
//! xiangqi drills to reload. It knows nothing of the other screens.
//!
//! The list holds the judge's rulings of the game's repetitions and the players' findings
//! ([`XqFinding`]: missed and wrong calls to the arbiter, the moves that made one's own
//! repetition forbidden with the moves that would have broken it), from
//! [`review_with_calls`], the one review of a xiangqi game (`threefold review --xiangqi`
//! calls it too), given the calls made on the xiangqi screen. The engine's part
//! ([`engine_pass`]: which findings mattered) runs on its own thread with the screen's
//! budget, its progress in the header. Selecting a row shows its position on the board,
//! the move it names marked, and its explanation.
//!
//! A game in progress is reviewed without what concerns the position now (a call open to
//! the side to move); blind mode waits for the end of the game (the App refuses to open the
//! screen before).

use std::path::Path;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::drills::GameKind;
use crate::drills::from_games;
use crate::drills::xiangqi::from_games::{XqAsk, XqFindingPuzzle, xiangqi_puzzle};
use crate::review::xiangqi::{
    XqCall, XqFinding, XqFindingKind, XqOptions, XqReview, engine_pass, review_with_calls,
};
use crate::review::{self, Options};
use crate::xiangqi::judge::{Record, RuleAt};
use crate::xiangqi::notation::wxf;
use crate::xiangqi::pgn::PgnGame;
use crate::xiangqi::{Move, Position};

use super::keys::{Cmd, Ctx};
use super::review_parts::{
    EngineStatus, ReviewAreas, SCREEN_BUDGET, Worker, add_finding_puzzle, engine_line,
    findings_heading, list_rows, list_target, render_scrolled, side_areas, wrap_paragraphs,
};
use super::screen::{Component, Env, Request, Requests};
use super::theme::Theme;
use super::widgets::{self, clip, scrolled};
use super::xq_board::{XqBoardView, XqGeom};

/// One row of the list: a ruling of the judge, or a player's finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Ruling(usize),
    Finding(usize),
}

/// The review of one xiangqi game, as the screen shows it.
pub struct XqReviewState {
    /// The game reviewed (a copy: the xiangqi screen may go on).
    pub record: Record,
    pub calls: Vec<XqCall>,
    pub rule_at: RuleAt,
    pub review: XqReview,
    /// The rows listed, by ply.
    pub rows: Vec<Row>,
    pub selected: usize,
    pub scroll: usize,
    pub detail_scroll: usize,
    /// The ply whose position is on the board.
    pub ply: usize,
    pub flipped: bool,
    /// The game was in progress: what concerns the position now is left out.
    pub in_progress: bool,
    pub engine: EngineStatus,
    started: Instant,
    worker: Option<Worker<XqReview>>,
}

/// The xiangqi review screen's slot in the app: the options the next review runs with and
/// the review shown (kept while it is of the game as it stands).
pub struct XqReviewScreen {
    pub options: Options,
    pub state: Option<Box<XqReviewState>>,
    /// The chess drills file, beside which the xiangqi puzzles from your games are kept
    /// (set by the App when the screen opens; None: no data directory).
    pub drills_file: Option<std::path::PathBuf>,
    /// The PGN tags of the game reviewed (a puzzle's source).
    pub tags: Vec<(String, String)>,
}

impl Default for XqReviewScreen {
    fn default() -> Self {
        XqReviewScreen {
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

/// The xiangqi game to review, as the xiangqi screen holds it.
pub struct GameToReview<'a> {
    pub record: &'a Record,
    /// The result as the screen rules it.
    pub result: crate::xiangqi::pgn::Outcome,
    /// The calls made in the game.
    pub calls: &'a [XqCall],
    /// The occurrence the game rules at.
    pub rule_at: RuleAt,
    /// The game is over (else it is reviewed as in progress).
    pub over: bool,
    pub flipped: bool,
}

/// The game of `record` as PGN (the review reads a game as the PGN reader gives it).
fn pgn_of(record: &Record, result: crate::xiangqi::pgn::Outcome) -> PgnGame {
    let mut g = PgnGame::new(record.position(0).clone());
    g.moves = (1..=record.ply()).map(|p| record.move_at(p)).collect();
    g.result = result;
    g
}

impl XqReviewState {
    /// Review the game `pgn` with the calls made in it, ruled at `rule_at`: the rules'
    /// findings now, the engine's on a worker thread.
    pub fn start(
        pgn: &PgnGame,
        calls: &[XqCall],
        rule_at: RuleAt,
        over: bool,
        options: Options,
        flipped: bool,
    ) -> Self {
        let review = review_with_calls(pgn, calls, &XqOptions { rule_at });
        let mut record = Record::new(pgn.start.clone());
        for &m in &pgn.moves {
            record.push(m);
        }
        let (engine, worker) = match options.budget {
            Some(budget) => {
                let (mut r, start) = (review.clone(), pgn.start.clone());
                let hash = options.hash_mb;
                (
                    EngineStatus::Running { done: 0, total: 0 },
                    Some(Worker::spawn(move |stop, progress| {
                        engine_pass(&mut r, &start, budget, hash, stop, progress).map(|()| r)
                    })),
                )
            }
            None => (EngineStatus::Off, None),
        };
        let mut s = XqReviewState {
            record,
            calls: calls.to_vec(),
            rule_at,
            review,
            rows: Vec::new(),
            selected: 0,
            scroll: 0,
            detail_scroll: 0,
            ply: pgn.moves.len(),
            flipped,
            in_progress: !over,
            engine,
            started: Instant::now(),
            worker,
        };
        s.list();
        if let Some(p) = s.rows.first().map(|&r| s.row_ply(r)) {
            s.ply = p;
        }
        s
    }

    /// The rows of the review, by ply: a game in progress without the call open to the
    /// side to move now.
    fn list(&mut self) {
        let len = self.record.ply();
        let r = &self.review;
        let mut rows: Vec<Row> = (0..r.rulings.len()).map(Row::Ruling).collect();
        rows.extend(
            r.findings
                .iter()
                .enumerate()
                .filter(|(_, f)| {
                    !(self.in_progress && f.kind == XqFindingKind::MissedCall && f.ply == len)
                })
                .map(|(i, _)| Row::Finding(i)),
        );
        rows.sort_by_key(|&row| self.row_ply(row));
        self.rows = rows;
    }

    /// The ply whose position a row is about.
    pub fn row_ply(&self, row: Row) -> usize {
        match row {
            Row::Ruling(i) => self.review.rulings[i].ruling.ply,
            Row::Finding(i) => self.review.findings[i].ply,
        }
    }

    /// The finding of the row selected, if it is one.
    pub fn selected_finding(&self) -> Option<&XqFinding> {
        match self.rows.get(self.selected)? {
            Row::Finding(i) => self.review.findings.get(*i),
            Row::Ruling(_) => None,
        }
    }

    /// Whether this is the review of `record` with `calls`, ruled at `rule_at`.
    pub fn is_of(&self, record: &Record, calls: &[XqCall], rule_at: RuleAt) -> bool {
        self.rule_at == rule_at
            && self.calls == calls
            && self.record.ply() == record.ply()
            && self.record.position(0).fen() == record.position(0).fen()
            && (1..=record.ply()).all(|p| self.record.move_at(p) == record.move_at(p))
    }

    pub fn running(&self) -> bool {
        self.worker.is_some()
    }

    /// Take what the worker sent: progress, or the review completed with the engine's word
    /// (the row selected stays selected).
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
                let positions = match self.engine {
                    EngineStatus::Running { total, .. } => total,
                    _ => 0,
                };
                self.review = review;
                self.list();
                self.engine = EngineStatus::Done {
                    positions,
                    secs: self.started.elapsed().as_secs_f64(),
                };
            }
            Err(e) => self.engine = EngineStatus::Failed(e),
        }
    }

    /// Select row `i` and show its position.
    pub fn select(&mut self, i: usize, list_rows: usize) {
        if self.rows.is_empty() {
            return;
        }
        self.selected = i.min(self.rows.len() - 1);
        self.ply = self.row_ply(self.rows[self.selected]);
        self.detail_scroll = 0;
        let rows = list_rows.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + rows {
            self.scroll = self.selected + 1 - rows;
        }
    }
}

/// The xiangqi review screen's regions: the xiangqi board on the left (the xiangqi drill
/// screen's), the review's text column beside it.
pub fn xq_review_layout(size: Rect, count: usize) -> Option<ReviewAreas> {
    let a = widgets::layout(size)?;
    let body_h = a.message.y - a.board.y;
    let g = XqGeom::fit(Rect::new(0, 0, 40, body_h), false)?;
    let board = Rect::new(a.board.x, a.board.y, g.width(), g.height().min(body_h));
    let side = Rect::new(
        board.right() + 1,
        a.board.y,
        size.width.saturating_sub(board.right() + 1),
        body_h,
    );
    let board = Rect::new(board.x, board.y, board.width, body_h);
    Some(side_areas(board, side, count))
}

impl XqReviewScreen {
    /// Open the review of the xiangqi game `g` (the review shown is kept if it is of the
    /// same game as it stands) on a terminal of `size`.
    pub fn open(&mut self, g: &GameToReview<'_>, size: Rect) {
        if !self
            .state
            .as_ref()
            .is_some_and(|s| s.is_of(g.record, g.calls, g.rule_at))
        {
            self.state = Some(Box::new(XqReviewState::start(
                &pgn_of(g.record, g.result),
                g.calls,
                g.rule_at,
                g.over,
                self.options,
                g.flipped,
            )));
        }
        let rows = self.list_rows(size);
        if let Some(s) = &mut self.state {
            let i = s.selected;
            s.select(i, rows);
        }
    }

    /// Whether the engine's part is still running (the run loop keeps ticking).
    pub fn running(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.running())
    }

    /// Stop the engine's part if it still runs (the screen closes, the app quits): the
    /// unfinished review is dropped.
    pub fn cancel(&mut self) {
        if self.running() {
            self.state = None;
        }
    }

    fn list_rows(&self, size: Rect) -> usize {
        let count = self.state.as_ref().map_or(0, |s| s.rows.len());
        xq_review_layout(size, count).map_or(1, |a| a.list.height as usize)
    }

    /// Time passes: take the worker's news.
    pub fn tick(&mut self, size: Rect) {
        let rows = self.list_rows(size);
        if let Some(s) = &mut self.state {
            s.poll();
            s.selected = s.selected.min(s.rows.len().saturating_sub(1));
            s.scroll = s
                .scroll
                .min(s.selected)
                .max((s.selected + 1).saturating_sub(rows.max(1)));
        }
    }

    /// A command of the key table's `Review` context (the chess review's keys).
    pub fn command(&mut self, cmd: Cmd, size: Rect) -> Requests {
        if cmd == Cmd::Back {
            return Request::Leave.into();
        }
        let rows = self.list_rows(size);
        let Some(s) = self.state.as_deref_mut() else {
            return Requests::none();
        };
        if let Some(i) = list_target(cmd, s.selected, s.rows.len(), rows) {
            s.select(i, rows);
            return Requests::none();
        }
        match cmd {
            Cmd::HistBack => s.ply = s.ply.saturating_sub(1),
            Cmd::HistForward => s.ply = (s.ply + 1).min(s.record.ply()),
            Cmd::Flip => s.flipped = !s.flipped,
            Cmd::ScrollDown | Cmd::ScrollUp => {
                let a = xq_review_layout(size, s.rows.len());
                let (max, page) = a.map_or((0, 1), |a| {
                    let lines = detail_lines(s, &Theme::plain(), a.detail.width).len();
                    (
                        lines.saturating_sub(a.detail.height.max(1) as usize),
                        a.detail.height as usize,
                    )
                });
                s.detail_scroll = scrolled(cmd, s.detail_scroll, page, max);
            }
            Cmd::Select => return Request::ViewPly(s.ply).into(),
            _ => {}
        }
        Requests::none()
    }

    /// Add the finding selected as a puzzle of the theme "From your xiangqi games" in the
    /// file beside the chess drills file `chess_file` (None: no data directory), its source
    /// from the game's `tags`.
    pub fn add_selected_puzzle(
        &self,
        chess_file: Option<&Path>,
        tags: &[(String, String)],
    ) -> Requests {
        let Some(s) = self.state.as_deref() else {
            return Requests::none();
        };
        let Some(f) = s.selected_finding() else {
            return Request::Error(
                "Select a missed or wrong call or a forbidden move to add as a puzzle (a ruling is the judge's, no mistake)."
                    .to_string(),
            )
            .into();
        };
        let start = s.record.position(0).clone();
        let path = chess_file.map(|c| from_games::file_of(c, GameKind::Xiangqi));
        add_finding_puzzle(
            path.as_deref(),
            tags,
            |source| puzzle_of(&s.review, &start, f, source),
            |path, p| from_games::add_puzzles_of(path, &[p], GameKind::Xiangqi),
        )
    }

    /// A click: a row of the list selects it.
    pub fn click(&mut self, size: Rect, x: u16, y: u16) {
        let Some(s) = self.state.as_deref_mut() else {
            return;
        };
        let Some(a) = xq_review_layout(size, s.rows.len()) else {
            return;
        };
        let rows = a.list.height as usize;
        if let Some((_, i)) = list_rows(&a, s.rows.len(), s.scroll)
            .into_iter()
            .find(|(r, _)| r.contains((x, y).into()))
        {
            s.select(i, rows);
        }
    }

    /// Draw the screen (the frame's message and status rows are drawn by the caller).
    pub fn render(&self, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
        if let Some(s) = self.state.as_deref() {
            render(s, ascii, t, size, buf);
        }
    }
}

/// The puzzle a finding makes (see [`crate::drills::xiangqi::from_games`]): a missed or
/// wrong call asks the ruling, a forbidden move asks for the moves that break it.
pub fn puzzle_of(
    review: &XqReview,
    start: &Position,
    f: &XqFinding,
    source: Option<&str>,
) -> Result<from_games::NewPuzzle, from_games::FromGamesError> {
    let ask = match f.kind {
        XqFindingKind::RightCall => {
            return Err(from_games::FromGamesError::NotAXiangqiMistake(
                f.kind.code(),
            ));
        }
        XqFindingKind::MissedCall | XqFindingKind::WrongCall(_) => XqAsk::Ruling,
        XqFindingKind::ForbiddenMove => XqAsk::Break,
    };
    let from_ply = f
        .repetition
        .and_then(|i| review.repetitions.get(i))
        .map_or(f.ply, |r| r.first_ply);
    xiangqi_puzzle(&XqFindingPuzzle {
        start,
        moves: &review.moves,
        ply: f.ply,
        from_ply,
        ask,
        kind: f.kind.code(),
        text: &f.text,
        source,
    })
}

fn render(s: &XqReviewState, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
    let (Some(frame), Some(a)) = (widgets::layout(size), xq_review_layout(size, s.rows.len()))
    else {
        return;
    };
    let result = if s.in_progress {
        "in progress".to_string()
    } else {
        s.review.result.pgn().to_string()
    };
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw(format!(
            "Xiangqi review: {} plies, {result}",
            s.record.ply()
        )),
    ]))
    .render(frame.title, buf);
    if let Some(geom) = XqGeom::fit(a.board, s.flipped) {
        let named: Option<Move> = s
            .selected_finding()
            .filter(|f| f.ply == s.ply)
            .and_then(|f| f.mv);
        let targets: Vec<_> = named.iter().map(|m| m.to()).collect();
        XqBoardView {
            selected: named.map(|m| m.from()),
            targets: &targets,
            ..XqBoardView::at_ply(&s.record, s.ply.min(s.record.ply()), geom, t, ascii)
        }
        .render(a.board, buf);
    }
    let w = a.header.width as usize;
    let calls = match s.calls.len() {
        0 => "No call to the arbiter in the game.".to_string(),
        1 => "1 call to the arbiter in the game.".to_string(),
        n => format!("{n} calls to the arbiter in the game."),
    };
    let game_line = if s.in_progress {
        format!("In progress: the position now is left out. {calls}")
    } else {
        calls
    };
    buf.set_stringn(a.header.x, a.header.y, clip(&game_line, w, ascii), w, t.dim);
    let (engine, style) = engine_line(&s.engine, "the judge's findings only", ascii, t);
    buf.set_stringn(a.header.x, a.header.y + 1, engine, w, style);
    let heading = match s.rows.len() {
        0 => "Findings: none".to_string(),
        n => findings_heading(s.selected, n),
    };
    buf.set_stringn(a.header.x, a.header.y + 2, heading, w, t.title);
    render_list(s, ascii, t, &a, buf);
    render_scrolled(
        detail_lines(s, t, a.detail.width),
        s.detail_scroll,
        t,
        a.detail,
        buf,
    );
}

/// A row's words: "perpetual check (ruling)", "missed call", "forbidden move (mattered)".
fn row_words(s: &XqReviewState, row: Row) -> (String, String) {
    match row {
        Row::Ruling(i) => {
            let r = &s.review.rulings[i];
            (
                r.ruling.side.title().to_string(),
                format!("ruling: {}", r.kind.name()),
            )
        }
        Row::Finding(i) => {
            let f = &s.review.findings[i];
            let mark = if f.mattered { " (mattered)" } else { "" };
            (
                f.side.title().to_string(),
                format!("{}{mark}", f.kind.code().replace('-', " ")),
            )
        }
    }
}

fn render_list(s: &XqReviewState, ascii: bool, t: &Theme, a: &ReviewAreas, buf: &mut Buffer) {
    if s.rows.is_empty() {
        let text = if s.running() {
            "No call missed or made wrongly; the engine is still looking."
        } else {
            "Nothing to report: no repetition ruled, no call missed or made wrongly, no forbidden move."
        };
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(a.list, buf);
        return;
    }
    for (r, i) in list_rows(a, s.rows.len(), s.scroll) {
        let row = s.rows[i];
        let sel = i == s.selected;
        let mark = match (sel, ascii) {
            (false, _) => " ",
            (true, false) => "▶",
            (true, true) => ">",
        };
        let (side, words) = row_words(s, row);
        let text = format!(
            "{mark}{:<6}{:<6}{words}",
            s.review.place(s.row_ply(row)),
            side
        );
        let style = if sel { t.viewing } else { Style::new() };
        let w = r.width as usize;
        buf.set_stringn(r.x, r.y, format!("{:<w$}", clip(&text, w, ascii)), w, style);
    }
}

/// The explanation of the row selected, wrapped to `width`.
fn detail_lines(s: &XqReviewState, t: &Theme, width: u16) -> Vec<(String, Style)> {
    let board = if s.ply == 0 {
        "the start position".to_string()
    } else {
        let p = s.ply;
        format!(
            "{} {}",
            s.review.place(p - 1),
            wxf(s.record.position(p - 1), s.record.move_at(p))
        )
    };
    let finding = s.selected_finding();
    let marked = finding
        .filter(|f| f.ply == s.ply && f.mv.is_some())
        .map_or("", |_| ", its move marked");
    let mut paragraphs = vec![(
        format!("Board: after {board}{marked}"),
        Style::new().add_modifier(Modifier::BOLD),
    )];
    match s.rows.get(s.selected) {
        Some(Row::Ruling(i)) => {
            let r = &s.review.rulings[*i];
            paragraphs.push((format!("{}.", r.ruling.headline()), t.info));
            paragraphs.push((r.ruling.explanation(), Style::new()));
        }
        Some(Row::Finding(_)) => {
            if let Some(e) = finding.and_then(|f| f.eval) {
                paragraphs.push((
                    format!(
                        "Engine ({}'s view, before the move): {}.",
                        finding.map_or("", |f| f.side.title()),
                        review::eval_text(e)
                    ),
                    t.info,
                ));
            }
            if let Some(f) = finding {
                paragraphs.push((f.text.clone(), Style::new()));
            }
        }
        None => {}
    }
    wrap_paragraphs(paragraphs, width)
}

#[cfg(test)]
impl XqReviewState {
    /// Wait for the engine's part (tests).
    pub fn wait(&mut self) {
        while self.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
            self.poll();
        }
    }
}

/// The key-table context of the screen: the chess review's (the same keys in both games).
pub const CTX: Ctx = Ctx::Review;

impl Component for XqReviewScreen {
    fn ctx(&self) -> Ctx {
        CTX
    }

    fn command(&mut self, cmd: Cmd, env: &Env, out: &mut Requests) {
        out.extend(if cmd == Cmd::AddPuzzle {
            self.add_selected_puzzle(self.drills_file.as_deref(), &self.tags)
        } else {
            XqReviewScreen::command(self, cmd, env.size)
        });
    }

    fn click(&mut self, x: u16, y: u16, env: &Env, _out: &mut Requests) {
        XqReviewScreen::click(self, env.size, x, y);
    }

    fn wheel(&mut self, up: bool, _x: u16, _y: u16, env: &Env, out: &mut Requests) {
        let cmd = if up { Cmd::Up } else { Cmd::Down };
        out.extend(XqReviewScreen::command(self, cmd, env.size));
    }

    fn tick(&mut self, _now: Instant, env: &Env, _out: &mut Requests) {
        XqReviewScreen::tick(self, env.size);
    }

    fn render(&self, env: &Env, theme: &Theme, buf: &mut Buffer) {
        XqReviewScreen::render(self, env.ascii, theme, env.size, buf);
    }
}
