//! The chess review screen: the post-game review ([`crate::review`]) of the game on the
//! board, in the trainer. The screen is the one review screen of both games
//! ([`crate::tui::game::review::ReviewScreen`]: its state, its commands (the key table's `Review`
//! context), its drawing and its [`Request`](crate::tui::screen::Request)s to the routing
//! [`App`](crate::tui::app::App)); this module is what chess gives it ([`ChessReview`]): the game
//! and its findings, the chess board, the notation, the findings' words, its layout
//! ([`review_layout`]) and the puzzle a missed claim makes.
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

use std::path::{Path, PathBuf};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;
use shakmaty::{Color, Position};

use crate::drills::from_games::{self, Added, FromGamesError, NewPuzzle};
use crate::review::{self, Budget, Finding, FindingKind, Options, Review};
use crate::rules::Game;
use crate::rules::notation::{color_name, king_target};
use crate::rules::review::{ClaimFinding, ClaimFindingKind, GameRecord, review_claims};

use crate::tui::board::{BoardView, Geom};
pub use crate::tui::game::review::{
    EngineStatus, LEFT_OUT, ReviewAreas, ReviewGame, SCREEN_BUDGET, Worker, list_rows,
    review_layout,
};
use crate::tui::theme::Theme;

/// The chess review screen's slot in the app.
pub type ReviewScreen = crate::tui::game::review::ReviewScreen<ChessReview>;
/// The review of one chess game, as the screen shows it.
pub type ReviewState = crate::tui::game::review::ReviewState<ChessReview>;

/// The chess game to review, as the game screen holds it.
pub struct GameToReview<'a> {
    pub game: &'a Game,
    pub record: &'a GameRecord,
    pub flipped: bool,
    /// The sides that never claim (a sparring engine's): their missed claims are no
    /// mistakes and are not listed ([`GameRecord::blames_missed_claims`]).
    pub never_claims: Vec<Color>,
}

impl GameToReview<'_> {
    /// The game's record as it is reviewed: with the sides that never claim.
    fn record(&self) -> GameRecord {
        GameRecord {
            never_claims: self.never_claims.clone(),
            ..self.record.clone()
        }
    }
}

/// What chess gives the review screen: the game reviewed and its findings.
pub struct ChessReview {
    /// The game reviewed (a copy: the game screen may go on).
    pub game: Game,
    /// Its record, with the sides that never claim ([`GameToReview::record`]).
    pub record: GameRecord,
    /// The findings listed, by ply.
    pub findings: Vec<Finding>,
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

impl ChessReview {
    /// List `findings`, a game `in_progress` without those about the position now.
    fn list(&mut self, findings: Vec<Finding>, in_progress: bool) {
        let len = self.game.len();
        self.findings = findings;
        if in_progress {
            self.findings.retain(|f| shown_in_progress(f, len));
        }
    }
}

impl ReviewState {
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

impl ReviewGame for ChessReview {
    type Source<'a> = GameToReview<'a>;
    type Done = Review;
    type Key = Finding;
    const TITLE: &'static str = "Post-game review";
    const ENGINE_OFF: &'static str = "claim findings only";
    const EMPTY_LOOKING: &'static str = "No claim was missed; the engine is still looking.";
    const EMPTY: &'static str =
        "Nothing to report: no claim missed or made wrongly, no repetition that cost a game.";

    fn start(src: &GameToReview<'_>) -> (Self, bool) {
        let in_progress = !src.game.is_over() && src.record.result.is_none();
        let record = src.record();
        let claims = review_claims(src.game, &record);
        let mut r = ChessReview {
            game: src.game.clone(),
            record,
            findings: Vec::new(),
        };
        r.list(
            claims.findings.iter().map(Finding::from).collect(),
            in_progress,
        );
        (r, in_progress)
    }

    fn flipped(src: &GameToReview<'_>) -> bool {
        src.flipped
    }

    fn is_of(&self, src: &GameToReview<'_>) -> bool {
        self.record == src.record()
            && self.game.start() == src.game.start()
            && self.game.moves().eq(src.game.moves())
            && self.game.termination() == src.game.termination()
    }

    fn engine(&self, _budget: Budget, options: Options) -> (usize, Worker<Review>) {
        let (game, record) = (self.game.clone(), self.record.clone());
        (
            self.game.len() + 1,
            Worker::spawn(move |stop, progress| {
                review::review(&game, &record, &options, stop, progress)
            }),
        )
    }

    fn finish(&mut self, done: Review, in_progress: bool, _total: usize) -> usize {
        self.list(done.findings, in_progress);
        done.evals.len()
    }

    fn count(&self) -> usize {
        self.findings.len()
    }

    fn plies(&self) -> usize {
        self.game.len()
    }

    fn row_ply(&self, i: usize) -> usize {
        self.findings[i].ply
    }

    fn key(&self, i: usize) -> Finding {
        self.findings[i].clone()
    }

    fn find(&self, key: &Finding) -> Option<usize> {
        self.findings.iter().position(|f| f == key)
    }

    fn result(&self, _in_progress: bool) -> String {
        match (self.game.termination(), &self.record.result) {
            (Some(t), _) => t.ending.result().to_string(),
            (None, Some(r)) => r.clone(),
            (None, None) => "in progress".to_string(),
        }
    }

    fn game_line(&self) -> String {
        match self.record.claims.len() {
            0 => "No claim recorded in the game.".to_string(),
            1 => "1 claim recorded in the game.".to_string(),
            n => format!("{n} claims recorded in the game."),
        }
    }

    fn row(&self, i: usize) -> (String, &'static str, String) {
        let f = &self.findings[i];
        (
            f.place(&self.game).to_string(),
            color_name(f.side),
            kind_words(f),
        )
    }

    fn names_move(&self, i: usize, ply: usize) -> bool {
        let f = &self.findings[i];
        f.ply == ply && f.mv.is_some()
    }

    fn place_label(&self, ply: usize) -> String {
        self.game.place_label(ply)
    }

    fn explain(&self, i: usize, t: &Theme) -> Vec<(String, Style)> {
        let f = &self.findings[i];
        let mut paragraphs = Vec::new();
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
        paragraphs
    }

    fn layout(size: Rect, count: usize) -> Option<ReviewAreas> {
        review_layout(size, count)
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
        let Some(geom) = Geom::fit(area, flipped) else {
            return;
        };
        let pos = self.game.position_at(ply);
        // The move the finding names, from the position it is about.
        let named = selected
            .map(|i| &self.findings[i])
            .filter(|f| f.ply == ply)
            .and_then(|f| f.mv)
            .filter(|m| pos.is_legal(*m));
        let targets: Vec<_> = named.iter().map(|m| king_target(m, pos.turn())).collect();
        BoardView {
            selected: named.and_then(|m| m.from()),
            targets: &targets,
            ..BoardView::at_ply(&self.game, ply, geom, t, ascii)
        }
        .render(area, buf);
    }

    fn drills_path(chess_file: Option<&Path>) -> Option<PathBuf> {
        chess_file.map(Path::to_path_buf)
    }

    fn not_a_puzzle(&self, _i: usize) -> Option<&'static str> {
        None
    }

    /// A missed or incorrect claim of the theme "From your games"
    /// ([`crate::drills::from_games`]); another finding says why it is none.
    fn puzzle(&self, i: usize, source: Option<&str>) -> Result<NewPuzzle, FromGamesError> {
        let f = &self.findings[i];
        let finding = match f.kind {
            FindingKind::Claim(kind) => ClaimFinding {
                kind,
                ply: f.ply,
                until_ply: f.until_ply,
                side: f.side,
                mv: f.mv,
                rule: f.rule,
                text: f.text.clone(),
            },
            other => return Err(FromGamesError::NotAMistake(other.code())),
        };
        from_games::puzzle_from_finding(&self.game, &finding, source)
    }

    fn add(path: &Path, p: NewPuzzle) -> Result<Added, FromGamesError> {
        from_games::add_puzzles(path, &[p])
    }
}
