//! The xiangqi review screen: the post-game review ([`crate::review::xiangqi`]) of the
//! xiangqi game on the board, in the trainer. The screen is the one review screen of both
//! games ([`crate::tui::game::review::ReviewScreen`]: the same keys, the same list and header, the
//! same engine worker, the same requests to the routing [`App`](crate::tui::app::App): `Leave` goes
//! back to the xiangqi game, `ViewPly` shows a ply there, `PuzzlesAdded` tells the xiangqi
//! drills to reload); this module is what xiangqi gives it ([`XiangqiReview`]): the game, its
//! rulings and findings, the xiangqi board, the WXF notation, the rows' words, its layout
//! ([`xq_review_layout`]) and the puzzle a finding makes.
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

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::drills::GameKind;
use crate::drills::from_games::{self, Added, FromGamesError, NewPuzzle};
use crate::drills::xiangqi::from_games::{XqAsk, XqFindingPuzzle, xiangqi_puzzle};
use crate::review::xiangqi::{
    XqCall, XqFinding, XqFindingKind, XqOptions, XqReview, engine_pass, review_with_calls,
};
use crate::review::{self, Budget, Options};
use crate::xiangqi::judge::{Record, RuleAt};
use crate::xiangqi::notation::wxf;
use crate::xiangqi::pgn::PgnGame;
use crate::xiangqi::{Move, Position};

use crate::tui::game::review::{ReviewAreas, ReviewGame, Worker, side_areas};
use crate::tui::theme::Theme;
use crate::tui::widgets;
use crate::tui::xq_board::{XqBoardView, XqGeom};

/// The xiangqi review screen's slot in the app.
pub type XqReviewScreen = crate::tui::game::review::ReviewScreen<XiangqiReview>;
/// The review of one xiangqi game, as the screen shows it.
pub type XqReviewState = crate::tui::game::review::ReviewState<XiangqiReview>;

/// One row of the list: a ruling of the judge, or a player's finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Ruling(usize),
    Finding(usize),
}

/// What xiangqi gives the review screen: the game reviewed, its calls, the review and the
/// rows listed.
pub struct XiangqiReview {
    /// The game reviewed (a copy: the xiangqi screen may go on).
    pub record: Record,
    pub calls: Vec<XqCall>,
    pub rule_at: RuleAt,
    pub review: XqReview,
    /// The rows listed, by ply.
    pub rows: Vec<Row>,
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

impl XiangqiReview {
    /// The rows of the review, by ply: a game in progress without the call open to the
    /// side to move now.
    fn list(&mut self, in_progress: bool) {
        let len = self.record.ply();
        let r = &self.review;
        let mut rows: Vec<Row> = (0..r.rulings.len()).map(Row::Ruling).collect();
        rows.extend(
            r.findings
                .iter()
                .enumerate()
                .filter(|(_, f)| {
                    !(in_progress && f.kind == XqFindingKind::MissedCall && f.ply == len)
                })
                .map(|(i, _)| Row::Finding(i)),
        );
        rows.sort_by_key(|&row| self.ply_of(row));
        self.rows = rows;
    }

    /// The ply whose position a row is about.
    pub fn ply_of(&self, row: Row) -> usize {
        match row {
            Row::Ruling(i) => self.review.rulings[i].ruling.ply,
            Row::Finding(i) => self.review.findings[i].ply,
        }
    }

    /// The ply of the move a finding is about: a forbidden move's own ply (its row's position
    /// is the one before it), else the move that reached the row's position (the move a
    /// call was or could have been made on). None for a ruling, whose explanation goes
    /// through both sides' moves.
    fn moment(&self, row: Row) -> Option<usize> {
        match row {
            Row::Finding(i) if self.review.findings[i].kind == XqFindingKind::ForbiddenMove => {
                Some(self.review.findings[i].ply + 1)
            }
            Row::Finding(_) => Some(self.ply_of(row)),
            Row::Ruling(_) => None,
        }
    }

    /// "In short: chase: the cannon on b7 attacks the unprotected rook on h7, …": why the
    /// judge counts a finding's move as it does, in the judge's words ([`MoveNote::why`], as
    /// the judge's panel says it); none before the first move.
    ///
    /// [`MoveNote::why`]: crate::xiangqi::judge::MoveNote::why
    pub fn why(&self, row: Row) -> Option<String> {
        let ply = self.moment(row)?;
        (1..=self.record.ply()).contains(&ply).then(|| {
            let why = self.record.move_note(ply).why(self.record.position(ply));
            format!("In short: {why}.")
        })
    }

    /// The finding of row `i`, if it is one.
    fn finding(&self, i: usize) -> Option<&XqFinding> {
        match self.rows.get(i)? {
            Row::Finding(f) => self.review.findings.get(*f),
            Row::Ruling(_) => None,
        }
    }
}

impl XqReviewState {
    /// The finding of the row selected, if it is one.
    pub fn selected_finding(&self) -> Option<&XqFinding> {
        self.finding(self.selected)
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

/// The puzzle a finding makes (see [`crate::drills::xiangqi::from_games`]): a missed or
/// wrong call asks the ruling, a forbidden move asks for the moves that break it.
fn puzzle_of(
    review: &XqReview,
    start: &Position,
    f: &XqFinding,
    source: Option<&str>,
) -> Result<NewPuzzle, FromGamesError> {
    let ask = match f.kind {
        XqFindingKind::RightCall => {
            return Err(FromGamesError::NotAXiangqiMistake(f.kind.code()));
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

impl ReviewGame for XiangqiReview {
    type Source<'a> = GameToReview<'a>;
    type Done = XqReview;
    type Key = Row;
    const TITLE: &'static str = "Xiangqi review";
    const ENGINE_OFF: &'static str = "the judge's findings only";
    const EMPTY_LOOKING: &'static str =
        "No call missed or made wrongly; the engine is still looking.";
    const EMPTY: &'static str = "Nothing to report: no repetition ruled, no call missed or made wrongly, no forbidden move.";

    /// The review of the game with the calls made in it, ruled at its `rule_at`
    /// ([`review_with_calls`], the one review of a xiangqi game: `threefold review --xiangqi`
    /// calls it too).
    fn start(src: &GameToReview<'_>) -> (Self, bool) {
        let pgn = pgn_of(src.record, src.result);
        let review = review_with_calls(
            &pgn,
            src.calls,
            &XqOptions {
                rule_at: src.rule_at,
            },
        );
        let mut record = Record::new(pgn.start.clone());
        for &m in &pgn.moves {
            record.push(m);
        }
        let mut r = XiangqiReview {
            record,
            calls: src.calls.to_vec(),
            rule_at: src.rule_at,
            review,
            rows: Vec::new(),
        };
        r.list(!src.over);
        (r, !src.over)
    }

    fn flipped(src: &GameToReview<'_>) -> bool {
        src.flipped
    }

    fn is_of(&self, src: &GameToReview<'_>) -> bool {
        let record = src.record;
        self.rule_at == src.rule_at
            && self.calls == src.calls
            && self.record.ply() == record.ply()
            && self.record.position(0).fen() == record.position(0).fen()
            && (1..=record.ply()).all(|p| self.record.move_at(p) == record.move_at(p))
    }

    /// [`engine_pass`]: which findings mattered.
    fn engine(&self, budget: Budget, options: Options) -> (usize, Worker<XqReview>) {
        let (mut r, start) = (self.review.clone(), self.record.position(0).clone());
        let hash = options.hash_mb;
        (
            0,
            Worker::spawn(move |stop, progress| {
                engine_pass(&mut r, &start, budget, hash, stop, progress).map(|()| r)
            }),
        )
    }

    fn finish(&mut self, done: XqReview, in_progress: bool, total: usize) -> usize {
        self.review = done;
        self.list(in_progress);
        total
    }

    fn count(&self) -> usize {
        self.rows.len()
    }

    fn plies(&self) -> usize {
        self.record.ply()
    }

    fn row_ply(&self, i: usize) -> usize {
        self.ply_of(self.rows[i])
    }

    fn key(&self, i: usize) -> Row {
        self.rows[i]
    }

    fn find(&self, key: &Row) -> Option<usize> {
        self.rows.iter().position(|r| r == key)
    }

    fn result(&self, in_progress: bool) -> String {
        if in_progress {
            "in progress".to_string()
        } else {
            self.review.result.pgn().to_string()
        }
    }

    fn game_line(&self) -> String {
        match self.calls.len() {
            0 => "No call to the arbiter in the game.".to_string(),
            1 => "1 call to the arbiter in the game.".to_string(),
            n => format!("{n} calls to the arbiter in the game."),
        }
    }

    /// "perpetual check (ruling)", "missed call", "forbidden move (mattered)".
    fn row(&self, i: usize) -> (String, &'static str, String) {
        let row = self.rows[i];
        let place = self.review.place(self.ply_of(row));
        match row {
            Row::Ruling(i) => {
                let r = &self.review.rulings[i];
                (
                    place,
                    r.ruling.side.title(),
                    format!("ruling: {}", r.kind.name()),
                )
            }
            Row::Finding(i) => {
                let f = &self.review.findings[i];
                let mark = if f.mattered { " (mattered)" } else { "" };
                (
                    place,
                    f.side.title(),
                    format!("{}{mark}", f.kind.code().replace('-', " ")),
                )
            }
        }
    }

    fn names_move(&self, i: usize, ply: usize) -> bool {
        self.finding(i)
            .is_some_and(|f| f.ply == ply && f.mv.is_some())
    }

    fn place_label(&self, ply: usize) -> String {
        format!(
            "after {} {}",
            self.review.place(ply - 1),
            wxf(self.record.position(ply - 1), self.record.move_at(ply))
        )
    }

    fn explain(&self, i: usize, t: &Theme) -> Vec<(String, Style)> {
        let mut paragraphs = Vec::new();
        match self.rows.get(i) {
            Some(Row::Ruling(r)) => {
                let r = &self.review.rulings[*r];
                paragraphs.push((format!("{}.", r.ruling.headline()), t.info));
                paragraphs.push((r.ruling.explanation(), Style::new()));
            }
            Some(Row::Finding(_)) => {
                let Some(f) = self.finding(i) else {
                    return paragraphs;
                };
                if let Some(e) = f.eval {
                    paragraphs.push((
                        format!(
                            "Engine ({}'s view, before the move): {}.",
                            f.side.title(),
                            review::eval_text(e)
                        ),
                        t.info,
                    ));
                }
                paragraphs.push((f.text.clone(), Style::new()));
            }
            None => {}
        }
        if let Some(why) = self.rows.get(i).and_then(|&row| self.why(row)) {
            paragraphs.push((why, t.dim));
        }
        paragraphs
    }

    fn layout(size: Rect, count: usize) -> Option<ReviewAreas> {
        xq_review_layout(size, count)
    }

    fn render_board(
        &self,
        selected: Option<usize>,
        ply: usize,
        flipped: bool,
        ascii: bool,
        t: &Theme,
        area: Rect,
        buf: &mut Buffer,
    ) {
        let Some(geom) = XqGeom::fit(area, flipped) else {
            return;
        };
        let named: Option<Move> = selected
            .and_then(|i| self.finding(i))
            .filter(|f| f.ply == ply)
            .and_then(|f| f.mv);
        let targets: Vec<_> = named.iter().map(|m| m.to()).collect();
        XqBoardView {
            selected: named.map(|m| m.from()),
            targets: &targets,
            ..XqBoardView::at_ply(&self.record, ply, geom, t, ascii)
        }
        .render(area, buf);
    }

    /// `from-your-xiangqi-games.toml`, beside the chess file.
    fn drills_path(chess_file: Option<&Path>) -> Option<PathBuf> {
        chess_file.map(|c| from_games::file_of(c, GameKind::Xiangqi))
    }

    fn not_a_puzzle(&self, i: usize) -> Option<&'static str> {
        self.finding(i).is_none().then_some(
            "Select a missed or wrong call or a forbidden move to add as a puzzle (a ruling is the judge's, no mistake).",
        )
    }

    fn puzzle(&self, i: usize, source: Option<&str>) -> Result<NewPuzzle, FromGamesError> {
        let Some(f) = self.finding(i) else {
            return Err(FromGamesError::NotAXiangqiMistake("ruling"));
        };
        puzzle_of(&self.review, self.record.position(0), f, source)
    }

    fn add(path: &Path, p: NewPuzzle) -> Result<Added, FromGamesError> {
        from_games::add_puzzles_of(path, &[p], GameKind::Xiangqi)
    }
}
