//! "How engines see it": the five repetition detectors of chess programs
//! (Zarkov, Rookie, Belle, Axon, the cuckoo upcoming-repetition test; see
//! [`crate::engine::chess::repetition`]) at the shown ply, each answer beside the
//! rules core's, with a one-line reason for every disagreement.
//!
//! A widget on (game, ply, area), so any screen can draw it: the game screen
//! puts it in place of the occurrence panel (and marks the plies where a
//! detector errs in the move list), the Euwe stepper under its sequence.
//! The answers and the reasons come from the engine's
//! [`report::Replay`](crate::engine::chess::repetition::report::Replay) — the same replay and the same sentences as
//! `threefold detectors` — computed once per game and kept while the game only
//! grows (a replay holds Belle's 16 MB table, so it is not rebuilt per frame).

use std::cell::RefCell;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Widget};

use crate::engine::chess::repetition::report::{PlyReport, Replay, Which};
use crate::rules::Game;

use super::theme::{Theme, badge};
use super::widgets::{history_cells_in, wrap};

/// The replay of the last game asked about: its position keys, the replay
/// (to extend it when the game grows) and the report of every ply.
struct Cache {
    keys: Vec<u64>,
    replay: Replay,
    reports: Vec<PlyReport>,
}

thread_local! {
    static CACHE: RefCell<Option<Cache>> = const { RefCell::new(None) };
}

/// Runs `f` on the reports of every ply of `game` (replayed as needed).
fn with_reports<R>(game: &Game, f: impl FnOnce(&[PlyReport]) -> R) -> R {
    CACHE.with(|cell| {
        let mut cache = cell.borrow_mut();
        let keys: Vec<u64> = game.records().iter().map(|r| r.key).collect();
        // The keys of the positions name the game: a position and the next one's
        // key fix the move between them.
        let grows = cache
            .as_ref()
            .is_some_and(|c| keys.len() >= c.keys.len() && keys[..c.keys.len()] == c.keys[..]);
        if !grows {
            *cache = Some(Cache {
                keys: Vec::new(),
                replay: Replay::default(),
                reports: Vec::new(),
            });
        }
        let c = cache.as_mut().expect("set above");
        for ply in c.reports.len()..keys.len() {
            let r = c.replay.step(game, ply);
            c.reports.push(r);
        }
        c.keys = keys;
        f(&c.reports)
    })
}

/// The plies of `game` at which some detector disagrees with the rules core.
pub fn erring_plies(game: &Game) -> Vec<usize> {
    with_reports(game, |reports| {
        reports
            .iter()
            .filter(|r| !r.disagreements.is_empty())
            .map(|r| r.ply)
            .collect()
    })
}

/// Marks, in a move list drawn by [`super::widgets::HistoryView`] in `area`
/// (scrolled to `shown`), the plies where a detector errs: a mark at the
/// right end of the ply's cell.
pub fn mark_history(
    game: &Game,
    shown: usize,
    area: Rect,
    t: &Theme,
    ascii: bool,
    buf: &mut Buffer,
) {
    let erring = erring_plies(game);
    if erring.is_empty() {
        return;
    }
    let mark = super::theme::detector_mark(ascii);
    for (r, ply) in history_cells_in(game, shown, area) {
        if r.width > 0 && erring.contains(&ply) {
            buf.set_string(r.right() - 1, r.y, mark, t.error);
        }
    }
}

/// The panel at one ply of a game.
pub struct EnginesPanel<'a> {
    pub game: &'a Game,
    pub ply: usize,
    pub ascii: bool,
}

const TITLE: &str = "How engines see it";

impl EnginesPanel<'_> {
    /// The rows the panel needs at this width (title row included).
    pub fn height(&self, width: u16) -> u16 {
        self.lines(&Theme::plain(), width).len() as u16 + 1
    }

    /// The rows under the title, wrapped to `width`.
    fn lines(&self, t: &Theme, width: u16) -> Vec<Line<'static>> {
        let width = width as usize;
        let ply = self.ply.min(self.game.len());
        with_reports(self.game, |reports| {
            let r = &reports[ply];
            let mut lines = Vec::new();
            let truth = match (r.previous, r.repeated()) {
                (Some(p), true) => {
                    format!("Rules core: {} (ply {p})", badge(r.exact, self.ascii))
                }
                _ => "Rules core: new position".to_string(),
            };
            let back = if r.cuckoo_reference { "yes" } else { "no" };
            for row in wrap(&format!("{truth}; move back: {back}"), width) {
                lines.push(Line::from(Span::styled(row, t.dim)));
            }
            let (yes, no) = if self.ascii {
                ("+", "x")
            } else {
                ("✓", "✗")
            };
            for which in Which::ALL {
                let wrong = r.disagreement(which).is_some();
                let verdict = if wrong {
                    Span::styled(format!("{no} disagrees"), t.error)
                } else {
                    Span::styled(format!("{yes} agrees"), t.info)
                };
                lines.push(Line::from(vec![
                    Span::styled(
                        format!("{:<7}", which.label()),
                        Style::new().add_modifier(Modifier::BOLD),
                    ),
                    Span::raw(format!("{:<15} ", short_answer(r, which))),
                    verdict,
                ]));
            }
            if r.disagreements.is_empty() {
                lines.push(Line::from(Span::styled(
                    "All five agree with the rules core.",
                    t.dim,
                )));
            }
            for d in &r.disagreements {
                for row in wrap(&format!("{}: {}", d.which, d.why), width) {
                    lines.push(Line::from(Span::styled(row, t.error)));
                }
            }
            lines
        })
    }

    pub fn render(&self, t: &Theme, area: Rect, buf: &mut Buffer) {
        if area.height == 0 {
            return;
        }
        let title = format!(" {TITLE} · ply {} ", self.ply.min(self.game.len()));
        Block::default()
            .borders(Borders::TOP)
            .title(Span::styled(title, t.title))
            .render(area, buf);
        let inner = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
        Paragraph::new(self.lines(t, inner.width)).render(inner, buf);
    }
}

/// A detector's answer in at most 15 columns.
fn short_answer(r: &PlyReport, which: Which) -> String {
    match which {
        Which::Zarkov => match r.zarkov {
            0 => "none earlier".to_string(),
            n => format!("{n} earlier"),
        },
        Which::Rookie => match (r.rookie.hit, r.rookie.verified) {
            (false, _) => "counter zero".to_string(),
            (true, 0) => "hit, false".to_string(),
            (true, _) => "hit, verified".to_string(),
        },
        Which::Belle => match (r.belle.found, r.belle.slot) {
            (true, _) => "open entry".to_string(),
            (false, Some(crate::engine::tt::OpenSlot::Shared)) => "slot lost".to_string(),
            (false, _) => "no open entry".to_string(),
        },
        Which::Axon => match r.axon.closed_after {
            Some(k) => format!("closed in {k}"),
            None => "chains open".to_string(),
        },
        Which::Cuckoo => match r.cuckoo {
            Some(c) => format!("{}{}, {} back", c.from, c.to, c.back),
            None => "no move back".to_string(),
        },
    }
}
