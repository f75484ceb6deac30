//! The drill screen's layout: one function ([`DrillState::layout`]) that
//! both drawing and mouse hit-testing use. The title, message, input and
//! status rows are the trainer's frame ([`widgets::layout`](crate::tui::widgets::layout)); the drill
//! screen lays out the body between them.

use ratatui::layout::Rect;
use shakmaty::{Color, Position};

use super::puzzle::{PuzzleState, Widget};
use super::{DrillState, View};
use crate::tui::board::Geom;
use crate::tui::widgets::{layout, split};

/// Where everything of the theme list is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeAreas {
    pub title: Rect,
    /// The line that says how to pick.
    pub intro: Rect,
    /// One row per theme, "all" first (those that fit).
    pub rows: Vec<Rect>,
    /// The description of the highlighted row.
    pub about: Rect,
}

/// Where everything of a puzzle is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleAreas {
    pub title: Rect,
    pub board: Rect,
    /// The board's squares (seen from the side to move in the question).
    pub geom: Option<Geom>,
    /// The puzzle's name (after the answer), score, and what a player at
    /// the board knows (move number, fifty-move count).
    pub header: Rect,
    pub history: Rect,
    pub question: Rect,
    /// The answer widget.
    pub answer: Rect,
    /// The option buttons of a choice question, in the answer area.
    pub buttons: Vec<Rect>,
    /// The ruling, once answered: where the question and the answer widget were.
    pub ruling: Rect,
}

/// The drill screen's layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    Themes(ThemeAreas),
    Puzzle(PuzzleAreas),
}

impl DrillState {
    /// Lay the screen out for the terminal's size, or None if it is too small.
    pub fn layout(&self, size: Rect) -> Option<Layout> {
        let frame = layout(size)?;
        let top = frame.title.bottom();
        let body = Rect::new(size.x, top, size.width, frame.message.y - top);
        Some(match &self.view {
            View::Themes => Layout::Themes(themes(frame.title, body, self.rows())),
            View::Puzzle(p) => Layout::Puzzle(puzzle(frame.title, body, p)?),
        })
    }
}

fn themes(title: Rect, body: Rect, n: usize) -> ThemeAreas {
    let rows: Vec<Rect> = (0..n)
        .map(|i| {
            Rect::new(
                body.x + 1,
                body.y + 3 + i as u16,
                body.width.saturating_sub(2),
                1,
            )
        })
        .filter(|r| r.y + 1 < body.bottom())
        .collect();
    let below = rows.last().map_or(body.y + 4, |r| r.y + 2);
    ThemeAreas {
        title,
        intro: Rect::new(body.x + 2, body.y + 1, body.width.saturating_sub(4), 1),
        rows,
        about: Rect::new(
            body.x + 2,
            below,
            body.width.saturating_sub(4),
            body.bottom().saturating_sub(below),
        ),
    }
}

/// Rows of the header above the move list: the puzzle's name, the score (one or two rows:
/// never cut within a number) and what a player at the board knows (two rows, wrapped).
const HEADER_H: u16 = 5;
/// Rows of the question.
const QUESTION_H: u16 = 4;

fn puzzle(title: Rect, body: Rect, p: &PuzzleState) -> Option<PuzzleAreas> {
    let (y, h) = (body.y, body.height);
    let (board, side) = split(body)?;
    let flipped = p.game().position().turn() == Color::Black;
    let (sx, sw) = (side.x, side.width);
    let header = Rect::new(sx, y, sw, HEADER_H);
    let hist_h = (h / 3).max(5);
    let history = Rect::new(sx, y + HEADER_H, sw, hist_h);
    let q_y = history.bottom();
    let question = Rect::new(
        sx,
        q_y,
        sw,
        QUESTION_H.min(body.bottom().saturating_sub(q_y)),
    );
    let answer = Rect::new(
        sx,
        question.bottom(),
        sw,
        body.bottom().saturating_sub(question.bottom()),
    );
    Some(PuzzleAreas {
        title,
        board,
        geom: Geom::fit(board, flipped),
        header,
        history,
        question,
        buttons: buttons(p, answer),
        answer,
        ruling: Rect::new(sx, q_y, sw, body.bottom().saturating_sub(q_y)),
    })
}

/// Where the option buttons of a choice question are (first answer rows: the one layout
/// of both drill screens' buttons, [`crate::tui::widgets::button_rects`]).
fn buttons(p: &PuzzleState, area: Rect) -> Vec<Rect> {
    if p.widget() != Widget::Choice {
        return Vec::new();
    }
    crate::tui::widgets::button_rects(p.options().iter().map(|(l, _)| *l), area)
}
