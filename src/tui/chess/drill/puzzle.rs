//! One puzzle on the drill screen: the answer being built (an option, moves,
//! plies), the ply shown, and once answered the ruling. Moves are held as
//! shakmaty [`Move`]s of the puzzle's [`Game`]; SAN is written only when
//! drawing.

use shakmaty::Move;

use crate::drills::{Answer, ClaimRule, EndingRule, Feedback, Pick, Puzzle, Question};
use crate::rules::Game;

/// The kind of answer widget a question gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Widget {
    /// Buttons (claim rules, endings, yes/no).
    Choice,
    /// A set of moves, typed (or made on the board).
    Moves,
    /// Plies chosen in the move list; the count is their number.
    Plies,
}

/// The ruling on an answer, as the screen shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ruling {
    pub feedback: Feedback,
    /// The answer given (described when drawn).
    pub given: Answer,
    /// The first line of the ruling shown (it scrolls at small sizes).
    pub scroll: usize,
}

/// One puzzle on screen.
#[derive(Clone, Debug)]
pub struct PuzzleState {
    pub pick: Pick,
    pub puzzle: Puzzle,
    /// The highlighted option (choice questions).
    pub option: usize,
    /// The moves given so far (claim-moves questions).
    pub moves: Vec<Move>,
    /// The plies chosen (count questions), ascending.
    pub chosen: Vec<usize>,
    /// The ply under the cursor in the move list; its board is shown.
    pub cursor: usize,
    /// A piece picked up on the board (claim-moves questions).
    pub selected: Option<shakmaty::Square>,
    /// The ruling, once answered.
    pub ruling: Option<Ruling>,
}

impl PuzzleState {
    pub fn new(pick: Pick, puzzle: Puzzle) -> PuzzleState {
        let cursor = puzzle.game().len();
        PuzzleState {
            pick,
            puzzle,
            option: 0,
            moves: Vec::new(),
            chosen: Vec::new(),
            cursor,
            selected: None,
            ruling: None,
        }
    }

    /// The puzzle's game.
    pub fn game(&self) -> &Game {
        self.puzzle.game()
    }

    /// Whether the answer has been given (and the ruling is shown).
    pub fn answered(&self) -> bool {
        self.ruling.is_some()
    }

    pub fn widget(&self) -> Widget {
        match self.puzzle.question {
            Question::ClaimMoves => Widget::Moves,
            Question::Count { .. } => Widget::Plies,
            _ => Widget::Choice,
        }
    }

    /// The options of a choice question: (label, answer).
    pub fn options(&self) -> Vec<(&'static str, Answer)> {
        let claim = |r: ClaimRule, l| (l, Answer::Claim(r));
        let end = |r: EndingRule, l| (l, Answer::Ending(r));
        match self.puzzle.question {
            Question::Claim | Question::Intended { .. } => vec![
                claim(ClaimRule::None, "none"),
                claim(ClaimRule::Threefold, "threefold (9.2)"),
                claim(ClaimRule::Fifty, "fifty (9.3)"),
                claim(ClaimRule::Both, "both"),
            ],
            Question::Same { .. } => vec![
                ("yes, the same", Answer::Same(true)),
                ("no, different", Answer::Same(false)),
            ],
            Question::Ending => vec![
                end(EndingRule::NotOver, "not over"),
                end(EndingRule::Checkmate, "checkmate"),
                end(EndingRule::Stalemate, "stalemate"),
                end(EndingRule::Insufficient, "insufficient"),
                end(EndingRule::Fivefold, "fivefold (9.6.1)"),
                end(EndingRule::SeventyFive, "75 moves (9.6.2)"),
            ],
            _ => Vec::new(),
        }
    }

    /// The answer the widget holds now (moves or plies), for submitting.
    pub fn pending(&self) -> Option<Answer> {
        match self.widget() {
            Widget::Choice => self.options().get(self.option).map(|o| o.1.clone()),
            Widget::Moves => Some(Answer::moves(self.moves.clone())),
            Widget::Plies => Some(Answer::count(self.chosen.clone())),
        }
    }

    /// Choose or unchoose a ply (count questions).
    pub fn toggle(&mut self, ply: usize) {
        match self.chosen.binary_search(&ply) {
            Ok(i) => {
                self.chosen.remove(i);
            }
            Err(i) => self.chosen.insert(i, ply),
        }
    }

    /// Add a move to the set given (claim-moves questions); false if already there.
    pub fn add_move(&mut self, m: Move) -> bool {
        if self.moves.contains(&m) {
            return false;
        }
        self.moves.push(m);
        true
    }

    /// The plies the ruling names (marked in the move list), none before it.
    pub fn highlighted(&self) -> &[usize] {
        match &self.ruling {
            Some(r) => &r.feedback.plies_to_highlight,
            None => &[],
        }
    }
}
