//! What the two game screens (`chess`, `xiangqi`) share, written once: the questions
//! asked before the game in progress is lost or a file is replaced, in the same words and
//! with the same keys (the key table's `Question` context), and the answer to "no" when
//! saving over a file; and what quitting asks of a game screen ([`KeptGame`]), so the App
//! keeps both games, or asks before losing one, by one code path. A leaf: it imports
//! neither game's screen.

pub mod clocks;
pub mod drill_score;
pub mod files;
pub mod history;
pub mod kept;
pub mod players;
pub mod review;
pub mod scenario;
pub mod seat;

use std::path::PathBuf;

use super::config::KeepError;
use super::prompt::InputKind;
use super::screen::Requests;
use super::widgets::Marks;

/// What a game screen may show of what the player is to find out alone (repetition marks,
/// counts, statuses, the judge's panel, the engine's score): in blind mode, nothing until the
/// game is over.
pub fn marks(blind: bool, over: bool) -> Marks {
    if blind && !over {
        Marks::Hidden
    } else {
        Marks::Shown
    }
}

/// A question both game screens ask before something is lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// Abandon the game in progress for a new one?
    NewGame,
    /// Abandon the game in progress to start from a FEN position?
    AbandonForFen,
    /// Abandon the game in progress to load a game from a PGN file?
    AbandonForPgn,
    /// Abandon the game in progress to play a scenario from a real game?
    AbandonForScenario,
    /// Saving: replace this file?
    Overwrite(PathBuf),
    /// A game in progress was kept by the last run: resume it? (or replace it with the game
    /// given on the command line?)
    Kept(kept::Offer),
}

pub use super::keys::Answers;

/// The answers of a question that abandons the game in progress: no and Esc both keep it.
pub const ABANDON: Answers = Answers {
    yes: "abandon the game",
    no: "keep playing",
    later: "keep playing",
};

impl Question {
    /// What each key does, in this question's words.
    pub fn answers(&self) -> Answers {
        match self {
            Question::NewGame
            | Question::AbandonForFen
            | Question::AbandonForPgn
            | Question::AbandonForScenario => ABANDON,
            Question::Overwrite(_) => Answers {
                yes: "overwrite",
                no: "another name",
                later: "do not save",
            },
            Question::Kept(offer) => offer.answers(),
        }
    }

    /// The question in words.
    pub fn text(&self) -> String {
        match self {
            Question::NewGame => "Abandon the game in progress and start a new one?".to_string(),
            Question::AbandonForFen => {
                "Abandon the game in progress to start from a FEN position?".to_string()
            }
            Question::AbandonForPgn => {
                "Abandon the game in progress to load a game from a PGN file?".to_string()
            }
            Question::AbandonForScenario => {
                "Abandon the game in progress to play a scenario from a real game?".to_string()
            }
            Question::Overwrite(p) => format!("{} exists: overwrite?", p.display()),
            Question::Kept(offer) => offer.text(),
        }
    }
}

/// What follows a refused FEN's reason while the prompt holds the FEN again to be corrected;
/// a FEN given on the command line has no prompt below it, and its message stops before.
pub const CORRECT_BELOW: &str = " (correct it below)";

/// A typed FEN refused, in both games: the reason in the same words, and the FEN back on
/// the prompt to be corrected.
pub fn refuse_fen(out: &mut Requests, kind: InputKind, text: &str, reason: impl std::fmt::Display) {
    out.error(format!("Invalid FEN: {reason}{CORRECT_BELOW}"));
    out.type_line(kind, text);
}

/// No to abandoning the game in progress (for a new game, a FEN, a file, a scenario), in
/// both games: it goes on, and the player is told so.
pub fn goes_on(out: &mut Requests) {
    out.info("The game in progress goes on.");
}

/// What quitting asks of a game screen: whether a game is under way, whether it has a place
/// to be kept between runs, keeping it there, where it was saved, and the save prompt.
pub trait KeptGame {
    /// A game begun and not over: what quitting must keep, or ask before losing.
    fn game_in_progress(&self) -> bool;
    /// Whether there is a place to keep the game between runs (none: no data directory).
    fn can_keep(&self) -> bool;
    /// Keep the game in progress in its place.
    fn keep_game(&mut self) -> Result<(), KeepError>;
    /// The file the game was last saved to, if it still holds the game as it is.
    fn saved_file(&self) -> Option<PathBuf>;
    /// The prompt for a file name to save the game in.
    fn ask_file_name(&mut self, out: &mut Requests);
    /// A game played to its end (moves played, over): nothing keeps it for the next start.
    fn game_finished(&self) -> bool;
    /// A finished game no file holds: quitting asks before losing it.
    fn finished_unsaved(&self) -> bool {
        self.game_finished() && self.saved_file().is_none()
    }
}
