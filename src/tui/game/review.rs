//! The review screen, written once over both games ([`ReviewScreen`], [`ReviewState`]): the
//! list of findings and moving through it, the board at the finding's ply, the engine's pass
//! on a thread of its own ([`Worker`]) and where it stands ([`EngineStatus`],
//! [`engine_line`]), adding a finding as a puzzle (`p`), the header, the scrolled
//! explanation, clicks and the wheel, the keys of the key table's `Review` context. What
//! differs per game is the [`ReviewGame`] trait's: chess's in [`crate::tui::chess::review`], xiangqi's in
//! [`crate::tui::xiangqi::review`] (the game and its rows, the board widget, the notation, the rows'
//! words, the layout, the puzzle a row makes). A leaf module: it knows no screen; the App
//! opens and closes the review of either game in one place (`app/review_route.rs`), and
//! blind mode waits for the end of the game there.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use crate::drills::from_games::{self, Added, FromGamesError, NewPuzzle};
use crate::engine::TtAllocError;
use crate::review::{self, Budget, Options};

use crate::tui::keys::{self, Cmd, Ctx};
use crate::tui::screen::{Component, Env, Request, Requests};
use crate::tui::theme::Theme;
use crate::tui::widgets::{board_beside_text, clip, layout, scrolled};

/// The engine's budget on the review screen: [`review::params::SCREEN_NODES`] nodes per
/// position, small enough that the list is complete a few seconds after the screen opens.
pub const SCREEN_BUDGET: Budget = Budget::Nodes(review::params::SCREEN_NODES);

/// Where the engine's part of the review stands.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineStatus {
    /// No engine: the claim findings only.
    Off,
    /// Positions searched so far, of how many.
    Running { done: usize, total: usize },
    /// Every position searched, in so many seconds.
    Done { positions: usize, secs: f64 },
    /// The engine could not start (its table could not be allocated).
    Failed(TtAllocError),
}

/// What the worker thread sends: progress, then the review (of either game).
pub enum Msg<T> {
    Progress(usize, usize),
    Done(Result<T, TtAllocError>),
}

/// What [`Worker::take`] found: the progress last reported (positions searched, of how
/// many), and the result if the work is done.
pub type Taken<T> = (Option<(usize, usize)>, Option<Result<T, TtAllocError>>);

/// The engine's part of a review on its own thread (the chess review's and the xiangqi
/// review's: `T` is the review it completes). Dropping it sets the stop flag and waits for
/// the thread, which stops within one position's search.
pub struct Worker<T> {
    rx: Receiver<Msg<T>>,
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl<T: Send + 'static> Worker<T> {
    /// Run `job` (given the stop flag and a progress callback) on a thread of its own.
    pub fn spawn(
        job: impl FnOnce(&AtomicBool, &mut dyn FnMut(usize, usize)) -> Result<T, TtAllocError>
        + Send
        + 'static,
    ) -> Worker<T> {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stop2 = Arc::clone(&stop);
        let handle = std::thread::Builder::new()
            .name("review".to_string())
            .spawn(move || {
                let progress_tx = tx.clone();
                let mut progress = |done: usize, total: usize| {
                    let _ = progress_tx.send(Msg::Progress(done, total));
                };
                let r = job(&stop2, &mut progress);
                if !stop2.load(Ordering::Relaxed) {
                    let _ = tx.send(Msg::Done(r));
                }
            })
            .expect("spawn the review thread");
        Worker {
            rx,
            stop,
            handle: Some(handle),
        }
    }

    /// What the thread sent since the last look: the progress last reported, and the
    /// result if it is done.
    pub fn take(&self) -> Taken<T> {
        let (mut progress, mut done) = (None, None);
        for msg in self.rx.try_iter() {
            match msg {
                Msg::Progress(d, total) => progress = Some((d, total)),
                Msg::Done(r) => done = Some(r),
            }
        }
        (progress, done)
    }
}

impl<T> Drop for Worker<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The review screen's regions (the title, message and status rows are [`layout`]'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewAreas {
    pub board: Rect,
    /// The game, the engine's progress, the list's heading.
    pub header: Rect,
    /// One row per finding shown.
    pub list: Rect,
    /// The finding selected, explained.
    pub detail: Rect,
}

/// Lay out the review screen for `count` findings (the list takes the rows they need, up to
/// two fifths of the height; the explanation the rest), or None if the terminal is too small.
pub fn review_layout(size: Rect, count: usize) -> Option<ReviewAreas> {
    // The drill screen's frame: a board small enough to leave the text a column.
    let (board, side) = board_beside_text(size)?;
    Some(side_areas(board, side, count))
}

/// The review's text column `side` beside `board` (of either game) for `count` findings:
/// the header, the list (the rows it needs, up to two fifths of the height) and the
/// explanation down to the board's bottom.
pub fn side_areas(board: Rect, side: Rect, count: usize) -> ReviewAreas {
    let (sx, sy, sw) = (side.x, side.y, side.width);
    let bottom = board.bottom();
    let header = Rect::new(sx, sy, sw, 3);
    let most = ((bottom - sy - 3) * 2 / 5).max(3);
    // No finding: the rows the longest "nothing to report" needs at 80 columns.
    let list_h = if count == 0 {
        3.min(most)
    } else {
        (count as u16).clamp(2, most)
    };
    let list = Rect::new(sx, sy + 3, sw, list_h);
    let dy = sy + 3 + list_h + 1;
    let detail = Rect::new(sx, dy, sw, bottom.saturating_sub(dy));
    ReviewAreas {
        board,
        header,
        list,
        detail,
    }
}

/// The list's rows on screen: (row, index of the finding), from `scroll`.
pub fn list_rows(a: &ReviewAreas, count: usize, scroll: usize) -> Vec<(Rect, usize)> {
    (scroll..count)
        .take(a.list.height as usize)
        .enumerate()
        .map(|(row, i)| {
            (
                Rect::new(a.list.x, a.list.y + row as u16, a.list.width, 1),
                i,
            )
        })
        .collect()
}

/// "Findings: 2 of 5  (Up/Down select, click one)": the list's heading, the keys from the
/// table, in `width` columns: shorter keys' words where they do not fit ("(Up/Down or a
/// click)"), none where those do not either; never cut.
pub fn findings_heading(selected: usize, n: usize, width: usize) -> String {
    let count = format!("Findings: {} of {n}", selected + 1);
    let (up, down) = (
        keys::key_in(Ctx::Review, Cmd::Up),
        keys::key_in(Ctx::Review, Cmd::Down),
    );
    [
        format!("{count}  ({up}/{down} select, click one)"),
        format!("{count}  ({up}/{down} or a click)"),
    ]
    .into_iter()
    .find(|h| h.chars().count() <= width)
    .unwrap_or(count)
}

/// The engine's line of a review's header: off (the rules' findings only: `off`), its
/// progress bar, done, or failed.
pub fn engine_line(engine: &EngineStatus, off: &str, ascii: bool, t: &Theme) -> (String, Style) {
    match engine {
        EngineStatus::Off => (format!("Engine: off ({off})"), t.dim),
        EngineStatus::Running { done, total } => {
            let bar_w = 12;
            let filled = done * bar_w / (*total).max(1);
            let (full, empty) = if ascii { ("#", ".") } else { ("█", "░") };
            (
                format!(
                    "Engine: {}{} {done}/{total} positions",
                    full.repeat(filled),
                    empty.repeat(bar_w - filled)
                ),
                t.info,
            )
        }
        EngineStatus::Done { positions, secs } => (
            format!(
                "Engine: {} searched in {secs:.1} s",
                crate::tui::widgets::counted(*positions, "position")
            ),
            t.dim,
        ),
        EngineStatus::Failed(e) => (format!("Engine: {e}; {off}"), t.error),
    }
}

/// Wrap paragraphs of (text, style) to `width`: a review's explanation, line by line.
pub fn wrap_paragraphs(paragraphs: Vec<(String, Style)>, width: u16) -> Vec<(String, Style)> {
    paragraphs
        .into_iter()
        .flat_map(|(text, style)| {
            crate::tui::widgets::wrap(&text, width.max(1) as usize)
                .into_iter()
                .map(move |l| (l, style))
        })
        .collect()
}

/// Draw a review's explanation `lines` in `area`, scrolled down by `scroll` (a hint on the
/// last row while more follows).
pub fn render_scrolled(
    lines: Vec<(String, Style)>,
    scroll: usize,
    t: &Theme,
    area: Rect,
    buf: &mut Buffer,
) {
    let rows = area.height as usize;
    let scroll = scroll.min(lines.len().saturating_sub(rows));
    let more = lines.len() > scroll + rows;
    let shown = if more { rows.saturating_sub(1) } else { rows };
    let mut out: Vec<Line> = lines
        .into_iter()
        .skip(scroll)
        .take(shown)
        .map(|(l, style)| Line::from(Span::styled(l, style)))
        .collect();
    if more {
        out.push(Line::from(Span::styled(
            format!(
                "… more ({} scrolls)",
                keys::key_in(Ctx::Review, Cmd::ScrollDown)
            ),
            t.dim,
        )));
    }
    Paragraph::new(out).render(area, buf);
}

/// Add a finding of a review as a puzzle of the game's "From your games" theme: the one way
/// both review screens do it. `path` is the game's drills file (None: no data directory),
/// `tags` the game's PGN tags (the puzzle's source), `puzzle` makes the puzzle from that
/// source (or says why the finding cannot be one), `add` writes it to the file. The request
/// says where the puzzle went, that it was there already, or why it was not added.
pub fn add_finding_puzzle(
    path: Option<&Path>,
    tags: &[(String, String)],
    puzzle: impl FnOnce(Option<&str>) -> Result<NewPuzzle, FromGamesError>,
    add: impl FnOnce(&Path, NewPuzzle) -> Result<Added, FromGamesError>,
) -> Requests {
    let Some(path) = path else {
        return Request::Error(
            "No data directory on this platform: the puzzle cannot be kept.".to_string(),
        )
        .into();
    };
    let source = from_games::source_from_tags(|n| {
        tags.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str())
    });
    match puzzle(source.as_deref()).and_then(|p| add(path, p)) {
        Ok(added) if added.added.is_empty() => Request::Info(added.summary()).into(),
        Ok(added) => Request::PuzzlesAdded(added.summary()).into(),
        Err(e) => Request::Error(format!("The puzzle was not added: {e}.")).into(),
    }
}

/// Where a list key of a review screen moves the selection (`selected` of `count` rows,
/// `rows` shown at once): the same keys in both review screens. `None`: not a list key.
pub fn list_target(cmd: Cmd, selected: usize, count: usize, rows: usize) -> Option<usize> {
    let last = count.saturating_sub(1);
    Some(match cmd {
        Cmd::Up => selected.saturating_sub(1),
        Cmd::Down => selected + 1,
        Cmd::PageUp => selected.saturating_sub(rows),
        Cmd::PageDown => selected + rows,
        Cmd::ScrollTop => 0,
        Cmd::ScrollBottom => last,
        _ => return None,
    })
}

/// What the review screen leaves to each game ([`crate::tui::chess::review`]'s chess,
/// [`crate::tui::xiangqi::review`]'s xiangqi): the game reviewed and its findings, the board, the
/// notation, the findings' kinds and words, and the puzzle a finding makes. The screen itself
/// ([`ReviewScreen`]: the list and moving through it, the board at the finding's ply, the
/// engine's pass on its worker, `p`, the header, the explanation, the clicks) is written once
/// over it.
pub trait ReviewGame: Sized {
    /// The game to review, as its game screen holds it.
    type Source<'a>;
    /// What the engine's part completes (on the [`Worker`]).
    type Done: Send + 'static;
    /// A row's identity: the row selected stays selected when the engine's part completes
    /// the list.
    type Key: PartialEq;
    /// The screen's title ("Post-game review").
    const TITLE: &'static str;
    /// What the list holds without the engine ("claim findings only").
    const ENGINE_OFF: &'static str;
    /// The empty list while the engine still looks, and when it is done.
    const EMPTY_LOOKING: &'static str;
    const EMPTY: &'static str;

    /// The rules' part of the review of `src` (the engine's comes later) and whether the game
    /// is in progress (what concerns the position now is then left out).
    fn start(src: &Self::Source<'_>) -> (Self, bool);
    /// Whether the board of `src` is seen from the other side.
    fn flipped(src: &Self::Source<'_>) -> bool;
    /// Whether this is the review of `src` as it stands.
    fn is_of(&self, src: &Self::Source<'_>) -> bool;
    /// The engine's part with `budget` per position (the `options`' budget) on a worker: the
    /// positions to search (0 while unknown) and the worker.
    fn engine(&self, budget: Budget, options: Options) -> (usize, Worker<Self::Done>);
    /// Take the engine's part, done: the rows listed anew (a game `in_progress` without the
    /// position now); returns the positions searched (`total`: the last count reported).
    fn finish(&mut self, done: Self::Done, in_progress: bool, total: usize) -> usize;
    /// The rows listed.
    fn count(&self) -> usize;
    /// The plies of the game.
    fn plies(&self) -> usize;
    /// The ply whose position row `i` is about.
    fn row_ply(&self, i: usize) -> usize;
    fn key(&self, i: usize) -> Self::Key;
    fn find(&self, key: &Self::Key) -> Option<usize>;
    /// The game's result for the title ("1-0", "in progress").
    fn result(&self, in_progress: bool) -> String;
    /// The header's first line for a finished game: the claims or calls made (a game in
    /// progress has [`LEFT_OUT`] there, which fills the line).
    fn game_line(&self) -> String;
    /// Row `i` in the list: its place ("12."), side and words ("missed claim (9.2 a)").
    fn row(&self, i: usize) -> (String, &'static str, String);
    /// Whether row `i` names a move played from the position of `ply` (marked on the board).
    fn names_move(&self, i: usize, ply: usize) -> bool;
    /// The position after ply `ply` (at least 1) in words ("after 4...Ng8").
    fn place_label(&self, ply: usize) -> String;
    /// Row `i` explained: (text, style) paragraphs.
    fn explain(&self, i: usize, t: &Theme) -> Vec<(String, Style)>;
    /// The screen's regions on a terminal of `size` for `count` rows.
    fn layout(size: Rect, count: usize) -> Option<ReviewAreas>;
    /// Draw the board at `ply` in `area`, the move row `selected` names marked.
    #[allow(clippy::too_many_arguments)]
    fn render_board(
        &self,
        selected: Option<usize>,
        ply: usize,
        flipped: bool,
        ascii: bool,
        t: &Theme,
        area: Rect,
        buf: &mut Buffer,
    );
    /// The game's drills file of "From your games", given the chess one (None: no data
    /// directory).
    fn drills_path(chess_file: Option<&Path>) -> Option<PathBuf>;
    /// Why row `i` cannot be offered as a puzzle at all (a ruling), before any file is read.
    fn not_a_puzzle(&self, i: usize) -> Option<&'static str>;
    /// The puzzle row `i` makes, its source `source`, or why it cannot be one.
    fn puzzle(&self, i: usize, source: Option<&str>) -> Result<NewPuzzle, FromGamesError>;
    /// Add puzzle `p` to the drills file `path`.
    fn add(path: &Path, p: NewPuzzle) -> Result<Added, FromGamesError>;
}

/// The header's first line of a game in progress, in both games.
pub const LEFT_OUT: &str = "In progress: the position now is left out.";

/// The review of one game, as the screen shows it: the game's part `G` (read through it:
/// `state.findings`, `state.rows`) and where the screen stands.
pub struct ReviewState<G: ReviewGame> {
    /// The game reviewed and its rows (a copy: the game screen may go on).
    pub part: G,
    /// The row selected (an index into the list).
    pub selected: usize,
    /// The first row shown in the list (it scrolls).
    pub scroll: usize,
    /// The first line of the explanation shown (a long one scrolls).
    pub detail_scroll: usize,
    /// The ply whose position is on the board.
    pub ply: usize,
    pub flipped: bool,
    /// The game was in progress: what concerns the position now is left out.
    pub in_progress: bool,
    pub engine: EngineStatus,
    started: Instant,
    worker: Option<Worker<G::Done>>,
}

impl<G: ReviewGame> std::ops::Deref for ReviewState<G> {
    type Target = G;
    fn deref(&self) -> &G {
        &self.part
    }
}

impl<G: ReviewGame> std::ops::DerefMut for ReviewState<G> {
    fn deref_mut(&mut self) -> &mut G {
        &mut self.part
    }
}

impl<G: ReviewGame> ReviewState<G> {
    /// Review `src`: the rules' findings now, the engine's on a worker thread.
    pub fn start(src: &G::Source<'_>, options: Options) -> Self {
        let (part, in_progress) = G::start(src);
        let (engine, worker) = match options.budget {
            Some(budget) => {
                let (total, worker) = part.engine(budget, options);
                (EngineStatus::Running { done: 0, total }, Some(worker))
            }
            None => (EngineStatus::Off, None),
        };
        let ply = part.plies();
        let mut s = ReviewState {
            part,
            selected: 0,
            scroll: 0,
            detail_scroll: 0,
            ply,
            flipped: G::flipped(src),
            in_progress,
            engine,
            started: Instant::now(),
            worker,
        };
        if s.part.count() > 0 {
            s.ply = s.part.row_ply(0);
        }
        s
    }

    pub fn running(&self) -> bool {
        self.worker.is_some()
    }

    /// Take what the worker sent: progress, or the complete list (the row selected stays
    /// selected).
    pub fn poll(&mut self) {
        let Some(w) = &self.worker else { return };
        let (progress, done) = w.take();
        if let Some((d, total)) = progress {
            self.engine = EngineStatus::Running { done: d, total };
        }
        let Some(r) = done else { return };
        self.worker = None;
        match r {
            Ok(done) => {
                let was = (self.selected < self.part.count()).then(|| self.part.key(self.selected));
                let total = match self.engine {
                    EngineStatus::Running { total, .. } => total,
                    _ => 0,
                };
                let positions = self.part.finish(done, self.in_progress, total);
                self.engine = EngineStatus::Done {
                    positions,
                    secs: self.started.elapsed().as_secs_f64(),
                };
                match was.and_then(|w| self.part.find(&w)) {
                    Some(i) => self.selected = i,
                    None => {
                        self.selected = 0;
                        if self.part.count() > 0 {
                            self.ply = self.part.row_ply(0);
                        }
                    }
                }
            }
            Err(e) => self.engine = EngineStatus::Failed(e),
        }
    }

    /// Select row `i` and show its position.
    pub fn select(&mut self, i: usize, list_rows: usize) {
        let n = self.part.count();
        if n == 0 {
            return;
        }
        self.selected = i.min(n - 1);
        self.ply = self.part.row_ply(self.selected);
        self.detail_scroll = 0;
        self.scroll_to_selected(list_rows);
    }

    /// Scroll the list so that the row selected is on it.
    pub fn scroll_to_selected(&mut self, list_rows: usize) {
        let rows = list_rows.max(1);
        self.scroll = self.scroll.min(self.part.count().saturating_sub(1));
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + rows {
            self.scroll = self.selected + 1 - rows;
        }
    }

    /// The row selected, if there is one.
    pub fn selected_row(&self) -> Option<usize> {
        (self.selected < self.part.count()).then_some(self.selected)
    }

    /// Wait for the engine's part (tests).
    #[cfg(test)]
    pub fn wait(&mut self) {
        while self.running() {
            std::thread::sleep(std::time::Duration::from_millis(5));
            self.poll();
        }
    }
}

/// The review screen's slot in the app, for either game: the options the next review runs
/// with, and the review shown (kept when the screen closes with its review complete, so
/// reopening it on the same game is instant).
pub struct ReviewScreen<G: ReviewGame> {
    pub options: Options,
    pub state: Option<Box<ReviewState<G>>>,
    /// The chess drills file, where (or beside which) a finding added as a puzzle goes (set
    /// by the App when the screen opens; None: no data directory).
    pub drills_file: Option<PathBuf>,
    /// The PGN tags of the game reviewed (a puzzle's source).
    pub tags: Vec<(String, String)>,
}

impl<G: ReviewGame> Default for ReviewScreen<G> {
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

impl<G: ReviewGame> ReviewScreen<G> {
    /// Open the review of `src` (reusing the review shown if it is of the same game as it
    /// stands) on a terminal of `size`.
    pub fn open(&mut self, src: &G::Source<'_>, size: Rect) {
        if !self.is_of(src) {
            self.state = Some(Box::new(ReviewState::start(src, self.options)));
        }
        let rows = self.list_rows(size);
        if let Some(s) = &mut self.state {
            let i = s.selected;
            s.select(i, rows);
        }
    }

    /// Whether the review shown is of `src` as it stands.
    pub fn is_of(&self, src: &G::Source<'_>) -> bool {
        self.state.as_ref().is_some_and(|s| s.part.is_of(src))
    }

    /// Whether the engine's part is still running (the run loop keeps ticking).
    pub fn running(&self) -> bool {
        self.state.as_ref().is_some_and(|s| s.running())
    }

    /// Where ply `ply` of the game reviewed stands, in words: "at the start position",
    /// "after 4...Ng8" (None: no review).
    pub fn place_words(&self, ply: usize) -> Option<String> {
        let s = self.state.as_deref()?;
        Some(if ply == 0 {
            "at the start position".to_string()
        } else {
            s.part.place_label(ply.min(s.part.plies()))
        })
    }

    /// Stop the engine's part if it is still running (the screen closes, the app quits):
    /// the unfinished review is dropped, a finished one kept.
    pub fn cancel(&mut self) {
        if self.running() {
            self.state = None;
        }
    }

    fn list_rows(&self, size: Rect) -> usize {
        let count = self.state.as_ref().map_or(0, |s| s.part.count());
        G::layout(size, count).map_or(1, |a| a.list.height as usize)
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
    /// wheel as [`Cmd::Up`]/[`Cmd::Down`]) on a terminal of `size`.
    pub fn command(&mut self, cmd: Cmd, size: Rect) -> Requests {
        if cmd == Cmd::Back {
            return Request::Leave.into();
        }
        if cmd == Cmd::AddPuzzle {
            return self.add_selected_puzzle();
        }
        let rows = self.list_rows(size);
        let Some(s) = self.state.as_deref_mut() else {
            return Requests::none();
        };
        if let Some(i) = list_target(cmd, s.selected, s.part.count(), rows) {
            s.select(i, rows);
            return Requests::none();
        }
        match cmd {
            Cmd::HistBack => s.ply = s.ply.saturating_sub(1),
            Cmd::HistForward => s.ply = (s.ply + 1).min(s.part.plies()),
            Cmd::Flip => s.flipped = !s.flipped,
            Cmd::ScrollDown | Cmd::ScrollUp => {
                let a = G::layout(size, s.part.count());
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

    /// Add the row selected as a puzzle of the game's theme "From your games" in the game's
    /// drills file ([`ReviewGame::drills_path`]), its source from the game's PGN tags; the
    /// reply says where it went, that it was already there, or why it cannot be one.
    pub fn add_selected_puzzle(&self) -> Requests {
        let Some(s) = self.state.as_deref() else {
            return Requests::none();
        };
        let Some(i) = s.selected_row() else {
            return Request::Error("There is no finding to add as a puzzle.".to_string()).into();
        };
        if let Some(why) = s.part.not_a_puzzle(i) {
            return Request::Error(why.to_string()).into();
        }
        let path = G::drills_path(self.drills_file.as_deref());
        add_finding_puzzle(
            path.as_deref(),
            &self.tags,
            |source| s.part.puzzle(i, source),
            G::add,
        )
    }

    /// A click on the review screen (a terminal of `size`): a row of the list selects it.
    pub fn click(&mut self, size: Rect, x: u16, y: u16) {
        let Some(s) = self.state.as_deref_mut() else {
            return;
        };
        let Some(a) = G::layout(size, s.part.count()) else {
            return;
        };
        let rows = a.list.height as usize;
        if let Some((_, i)) = list_rows(&a, s.part.count(), s.scroll)
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

fn render<G: ReviewGame>(s: &ReviewState<G>, ascii: bool, t: &Theme, size: Rect, buf: &mut Buffer) {
    let g = &s.part;
    let (Some(frame), Some(a)) = (layout(size), G::layout(size, g.count())) else {
        return;
    };
    Paragraph::new(Line::from(vec![
        Span::styled(" threefold ", t.title),
        Span::raw(format!(
            "{}: {} plies, {}",
            G::TITLE,
            g.plies(),
            g.result(s.in_progress)
        )),
    ]))
    .render(frame.title, buf);
    g.render_board(
        s.selected_row(),
        s.ply.min(g.plies()),
        s.flipped,
        ascii,
        t,
        a.board,
        buf,
    );
    // The header: the game, the engine, the list's heading.
    let w = a.header.width as usize;
    let game_line = if s.in_progress {
        LEFT_OUT.to_string()
    } else {
        g.game_line()
    };
    buf.set_stringn(a.header.x, a.header.y, clip(&game_line, w, ascii), w, t.dim);
    let (engine, style) = engine_line(&s.engine, G::ENGINE_OFF, ascii, t);
    buf.set_stringn(a.header.x, a.header.y + 1, engine, w, style);
    let heading = match g.count() {
        0 => "Findings: none".to_string(),
        n => findings_heading(s.selected, n, w),
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

fn render_list<G: ReviewGame>(
    s: &ReviewState<G>,
    ascii: bool,
    t: &Theme,
    a: &ReviewAreas,
    buf: &mut Buffer,
) {
    if s.part.count() == 0 {
        let text = if s.running() {
            G::EMPTY_LOOKING
        } else {
            G::EMPTY
        };
        Paragraph::new(text)
            .wrap(Wrap { trim: true })
            .render(a.list, buf);
        return;
    }
    for (r, i) in list_rows(a, s.part.count(), s.scroll) {
        let sel = i == s.selected;
        let mark = match (sel, ascii) {
            (false, _) => " ",
            (true, false) => "▶",
            (true, true) => ">",
        };
        let (place, side, words) = s.part.row(i);
        let text = format!("{mark}{place:<6}{side:<6}{words}");
        let style = if sel { t.viewing } else { Style::new() };
        let w = r.width as usize;
        buf.set_stringn(r.x, r.y, format!("{:<w$}", clip(&text, w, ascii)), w, style);
    }
}

/// The explanation of the row selected, wrapped to `width`: (text, style) lines.
fn detail_lines<G: ReviewGame>(s: &ReviewState<G>, t: &Theme, width: u16) -> Vec<(String, Style)> {
    let board = if s.ply == 0 {
        "the start position".to_string()
    } else {
        s.part.place_label(s.ply)
    };
    let row = s.selected_row();
    let marked = row
        .filter(|&i| s.part.names_move(i, s.ply))
        .map_or("", |_| ", its move marked");
    let mut paragraphs = vec![(
        format!("Board: {board}{marked}"),
        Style::new().add_modifier(Modifier::BOLD),
    )];
    if let Some(i) = row {
        paragraphs.extend(s.part.explain(i, t));
    }
    wrap_paragraphs(paragraphs, width)
}

impl<G: ReviewGame> Component for ReviewScreen<G> {
    fn ctx(&self) -> Ctx {
        Ctx::Review
    }

    fn command(&mut self, cmd: Cmd, env: &Env, out: &mut Requests) {
        out.extend(ReviewScreen::command(self, cmd, env.size));
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
