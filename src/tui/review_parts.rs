//! What the review screens of both games share ([`super::review`] for chess,
//! [`super::xq_review`] for xiangqi): the engine's part on a thread of its own ([`Worker`])
//! and where it stands ([`EngineStatus`], [`engine_line`]), the text column beside the board
//! ([`side_areas`], [`list_rows`]), the list's heading and the scrolled explanation. A leaf
//! module: it knows no screen.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

use std::path::Path;

use crate::drills::from_games::{self, Added, FromGamesError, NewPuzzle};
use crate::engine::TtAllocError;
use crate::review::{self, Budget};

use super::keys::{self, Cmd, Ctx};
use super::screen::{Request, Requests};
use super::theme::Theme;
use super::widgets::board_beside_text;

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
    let list_h = (count as u16).clamp(2, most);
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

/// "Findings: 2 of 5  (↑/k / ↓/j select, click one)": the list's heading, the keys from the
/// table.
pub fn findings_heading(selected: usize, n: usize) -> String {
    format!(
        "Findings: {} of {n}  ({}/{} select, click one)",
        selected + 1,
        keys::key_in(Ctx::Review, Cmd::Up),
        keys::key_in(Ctx::Review, Cmd::Down)
    )
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
                super::widgets::counted(*positions, "position")
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
            super::widgets::wrap(&text, width.max(1) as usize)
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
