//! The drill types: a puzzle, its question and its answer, a theme (one file).

use std::fmt;
use std::path::{Path, PathBuf};

use shakmaty::san::San;
use shakmaty::{CastlingMode, Move, Position};

use threefold_rules::{Game, color_name};

/// Where something was written: a file and a 1-based line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: PathBuf,
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file.display(), self.line)
    }
}

/// Where a puzzle's game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The standard start position.
    Standard,
    /// A position given as FEN.
    Fen(String),
}

/// A reference to one position of the puzzle's game, as written in the file
/// ("start", "4...Ng8", "12.Qh5+") and resolved to a ply (0 = start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyRef {
    pub text: String,
    pub ply: usize,
}

/// The kinds of question a puzzle can ask (the `ask` key of a puzzle file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// `ask = "claim"`: can the player to move claim a draw now, and by which
    /// rule? (9.2 b, 9.3 b)
    Claim,
    /// `ask = "intended"` with `move = "Nf3"`: the player writes this move on
    /// the scoresheet and claims; is the claim correct, and by which rule?
    /// (9.2 a, 9.3 a, 9.5) The move is legal in the puzzle's last position.
    Intended { mv: Move },
    /// `ask = "claim-moves"`: which moves let the player to move claim a draw by
    /// 9.2 a? (the full set)
    ClaimMoves,
    /// `ask = "count"`, optional `at = "4...Ng8"` (default: the current
    /// position): how many times has this position occurred in the game, and
    /// where?
    Count { at: Option<PlyRef> },
    /// `ask = "same"` with `first` and `second`: is the position after the
    /// first the same (FIDE 9.2.3) as after the second?
    Same { first: PlyRef, second: PlyRef },
    /// `ask = "ending"`: is the game over, and by which rule?
    Ending,
}

impl Question {
    /// The `ask` code of this kind of question.
    pub fn code(&self) -> &'static str {
        match self {
            Question::Claim => "claim",
            Question::Intended { .. } => "intended",
            Question::ClaimMoves => "claim-moves",
            Question::Count { .. } => "count",
            Question::Same { .. } => "same",
            Question::Ending => "ending",
        }
    }

    /// The `ask` codes, for error messages.
    pub const CODES: &'static [&'static str] = &[
        "claim",
        "intended",
        "claim-moves",
        "count",
        "same",
        "ending",
    ];
}

/// The rule a draw claim rests on, or none (answers to `claim` and `intended`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimRule {
    /// No correct claim.
    None,
    /// Threefold repetition (9.2).
    Threefold,
    /// Fifty moves (9.3).
    Fifty,
    /// Both 9.2 and 9.3 would be correct.
    Both,
}

impl ClaimRule {
    /// Read "none", "threefold", "fifty", "both" (and a few aliases).
    pub fn parse(s: &str) -> Option<ClaimRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "no" => Some(ClaimRule::None),
            "threefold" | "9.2" | "9.2a" | "9.2b" | "9.2 a" | "9.2 b" => Some(ClaimRule::Threefold),
            "fifty" | "fifty-move" | "fifty-moves" | "50" | "9.3" | "9.3a" | "9.3b" | "9.3 a"
            | "9.3 b" => Some(ClaimRule::Fifty),
            "both" => Some(ClaimRule::Both),
            _ => None,
        }
    }

    /// The canonical code as written in puzzle files.
    pub fn code(self) -> &'static str {
        match self {
            ClaimRule::None => "none",
            ClaimRule::Threefold => "threefold",
            ClaimRule::Fifty => "fifty",
            ClaimRule::Both => "both",
        }
    }
}

impl fmt::Display for ClaimRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClaimRule::None => "none (no correct claim)",
            ClaimRule::Threefold => "threefold (FIDE 9.2)",
            ClaimRule::Fifty => "fifty (FIDE 9.3)",
            ClaimRule::Both => "both (FIDE 9.2 and 9.3)",
        })
    }
}

/// Whether and how the game has ended (answers to `ending`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingRule {
    /// The game goes on.
    NotOver,
    Checkmate,
    Stalemate,
    Insufficient,
    /// 9.6.1.
    Fivefold,
    /// 9.6.2.
    SeventyFive,
}

impl EndingRule {
    /// Read "no", "checkmate", "stalemate", "insufficient", "fivefold", "seventy-five".
    pub fn parse(s: &str) -> Option<EndingRule> {
        match s.trim().to_ascii_lowercase().as_str() {
            "no" | "none" | "not-over" => Some(EndingRule::NotOver),
            "checkmate" | "mate" => Some(EndingRule::Checkmate),
            "stalemate" => Some(EndingRule::Stalemate),
            "insufficient" | "insufficient-material" => Some(EndingRule::Insufficient),
            "fivefold" | "9.6.1" => Some(EndingRule::Fivefold),
            "seventy-five" | "seventyfive" | "75" | "9.6.2" => Some(EndingRule::SeventyFive),
            _ => None,
        }
    }

    /// The canonical code as written in puzzle files.
    pub fn code(self) -> &'static str {
        match self {
            EndingRule::NotOver => "no",
            EndingRule::Checkmate => "checkmate",
            EndingRule::Stalemate => "stalemate",
            EndingRule::Insufficient => "insufficient",
            EndingRule::Fivefold => "fivefold",
            EndingRule::SeventyFive => "seventy-five",
        }
    }
}

impl fmt::Display for EndingRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndingRule::NotOver => "no (the game goes on)",
            EndingRule::Checkmate => "checkmate",
            EndingRule::Stalemate => "stalemate",
            EndingRule::Insufficient => "insufficient material",
            EndingRule::Fivefold => "fivefold repetition (FIDE 9.6.1)",
            EndingRule::SeventyFive => "seventy-five moves (FIDE 9.6.2)",
        })
    }
}

/// An answer to a puzzle: the one written in the file, the one computed by the
/// rules core, or the player's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// For `claim` and `intended`.
    Claim(ClaimRule),
    /// For `claim-moves`: the set of moves, sorted by UCI, no duplicates.
    Moves(Vec<Move>),
    /// For `count`: at which plies; the count is their number.
    Count(PlySet),
    /// For `same`.
    Same(bool),
    /// For `ending`.
    Ending(EndingRule),
}

impl Answer {
    /// A set of moves as an answer: sorted by UCI, duplicates removed.
    pub fn moves(mut moves: Vec<Move>) -> Answer {
        moves.sort_by_key(uci);
        moves.dedup_by_key(|m| uci(m));
        Answer::Moves(moves)
    }

    /// A count answer: the places, in any order (duplicates count once).
    pub fn count(plies: Vec<usize>) -> Answer {
        Answer::Count(PlySet::new(plies))
    }

    /// The answer in words, with moves in SAN and plies as scoresheet labels
    /// of `game` (the puzzle's game).
    pub fn describe(&self, game: &Game) -> String {
        match self {
            Answer::Claim(r) => r.to_string(),
            Answer::Moves(ms) if ms.is_empty() => "no move".to_string(),
            Answer::Moves(ms) => {
                let pos = game.position();
                let v: Vec<String> = ms
                    .iter()
                    .map(|m| San::from_move(pos, *m).to_string())
                    .collect();
                format!("{{{}}}", v.join(", "))
            }
            Answer::Count(plies) => {
                let count = plies.count();
                let places: Vec<String> = plies
                    .as_slice()
                    .iter()
                    .map(|&p| {
                        if p <= game.len() {
                            short_label(game, p)
                        } else {
                            format!("ply {p}")
                        }
                    })
                    .collect();
                format!("{count} time{}: [{}]", plural(count), places.join(", "))
            }
            Answer::Same(true) => "yes (the same position)".to_string(),
            Answer::Same(false) => "no (not the same position)".to_string(),
            Answer::Ending(e) => e.to_string(),
        }
    }
}

/// The places of a count answer: plies, ascending, each once. Its count is its
/// length, so the two cannot disagree.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlySet(Vec<usize>);

impl PlySet {
    /// The set of `plies` (sorted, duplicates dropped).
    pub fn new(mut plies: Vec<usize>) -> PlySet {
        plies.sort_unstable();
        plies.dedup();
        PlySet(plies)
    }

    /// How many places.
    pub fn count(&self) -> usize {
        self.0.len()
    }

    /// The plies, ascending.
    pub fn as_slice(&self) -> &[usize] {
        &self.0
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(crate) fn uci(m: &Move) -> String {
    m.to_uci(CastlingMode::Standard).to_string()
}

/// "start" or the ply's scoresheet label without check marks ("4...Ng8"),
/// the form puzzle files use.
pub fn short_label(game: &Game, ply: usize) -> String {
    if ply == 0 {
        "start".to_string()
    } else {
        normalize_label(&game.ply_label(ply))
    }
}

/// A ply label without spaces, check or mate marks, or annotation glyphs.
pub fn normalize_label(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix("after ").unwrap_or(s);
    s.chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '+' | '#' | '!' | '?'))
        .collect()
}

/// One drill puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Unique over all puzzle files.
    pub id: String,
    pub title: String,
    /// The theme (file stem) it belongs to.
    pub theme: String,
    /// The game so far: the start position and the puzzle's moves, read and
    /// played once by the loader ([`Puzzle::game`]). Boxed: a game holds room for a list of
    /// 270 legal moves (1.4 KB), and a file may hold 100,000 puzzles in one vector.
    pub(super) game: Box<Game>,
    /// The motif ([`crate::motif`]), computed once by the loader.
    pub(crate) motif: String,
    pub question: Question,
    /// Optional wording of the question; [`Puzzle::prompt`] supplies a default.
    pub prompt_text: Option<String>,
    /// The answer as stated in the file.
    pub answer: Answer,
    /// The author's short explanation (citing the FIDE article).
    pub explanation: String,
    pub tags: Vec<String>,
    /// 1 (easy) to 5 (hard).
    pub difficulty: u8,
    /// Where a real game comes from (players, event, year; what the source reports).
    pub source: Option<String>,
    /// Where the puzzle starts in its file.
    pub origin: Origin,
    /// Where the `answer` key is in its file.
    pub answer_origin: Origin,
}

impl Puzzle {
    /// The puzzle's game: the start position plus its moves, as the rules core
    /// played them when the puzzle was loaded.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The puzzle's motif ([`crate::motif::chess`]): its start and moves up to the first
    /// repetition, whatever it asks.
    pub fn motif(&self) -> &str {
        &self.motif
    }

    /// A move of the puzzle's last position in SAN (without check marks, as
    /// puzzle files write moves).
    pub fn san(&self, mv: Move) -> String {
        San::from_move(self.game.position(), mv).to_string()
    }

    /// The question in words: the file's `prompt` if given, else a standard
    /// wording for the kind of question.
    pub fn prompt(&self) -> String {
        if let Some(p) = &self.prompt_text {
            return p.clone();
        }
        let side = color_name(self.game.position().turn());
        match &self.question {
            Question::Claim => format!(
                "{side} to move. Can {side} claim a draw now, and by which rule? (none / threefold / fifty / both)"
            ),
            Question::Intended { mv } => format!(
                "{side} writes {} on the scoresheet and claims a draw. Is the claim correct, and by which rule? (none / threefold / fifty / both)",
                self.san(*mv)
            ),
            Question::ClaimMoves => format!(
                "{side} to move. Which moves let {side} claim a draw by threefold repetition (FIDE 9.2 a)? Give all of them, or none."
            ),
            Question::Count { at } => match at {
                Some(r) => format!(
                    "How many times has the position after {} occurred in this game, and where?",
                    r.text
                ),
                None => "How many times has the current position occurred, and where?".to_string(),
            },
            Question::Same { first, second } => format!(
                "Is the position {} the same as the position {} (FIDE 9.2.3)?",
                place(first),
                place(second)
            ),
            Question::Ending => "Is this game over, and by which rule?".to_string(),
        }
    }
}

fn place(r: &PlyRef) -> String {
    if r.ply == 0 {
        "at the start".to_string()
    } else {
        format!("after {}", r.text)
    }
}

/// One puzzle file: a theme and its puzzles.
#[derive(Clone, Debug)]
pub struct Theme {
    /// The file stem ("basics" for `puzzles/basics.toml`); the progress key.
    pub id: String,
    /// Display name (`name` in the file).
    pub name: String,
    pub description: String,
    pub file: PathBuf,
    pub puzzles: Vec<Puzzle>,
}

/// Something wrong in a puzzle file: "file:line: what is wrong".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub file: PathBuf,
    /// 1-based; `None` when the problem is with the whole file (unreadable).
    pub line: Option<usize>,
    pub message: String,
}

impl Problem {
    pub fn at(file: &Path, line: usize, message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_path_buf(),
            line: Some(line),
            message: message.into(),
        }
    }

    pub fn file(file: &Path, message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_path_buf(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.file.display(), l, self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// Everything loaded from a puzzle directory: the themes that loaded (each
/// with the puzzles that loaded) and the problems found on the way.
#[derive(Clone, Debug, Default)]
pub struct Collection {
    /// The chess themes (what the chess drill screen shows).
    pub themes: Vec<Theme>,
    /// The xiangqi themes (files with `game = "xiangqi"`), kept apart so the chess
    /// screen never sees them ([`super::xiangqi`]).
    pub xiangqi: Vec<super::xiangqi::XiangqiTheme>,
    /// The scenarios of both games (files of `[[scenario]]` tables, [`super::scenario`]).
    pub scenarios: Vec<super::scenario::Scenario>,
    pub problems: Vec<Problem>,
}

impl Collection {
    /// All puzzles, theme by theme, in file order.
    pub fn puzzles(&self) -> impl Iterator<Item = &Puzzle> {
        self.themes.iter().flat_map(|t| t.puzzles.iter())
    }

    /// The puzzle with this id.
    pub fn puzzle(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles().find(|p| p.id == id)
    }

    /// The theme with this id.
    pub fn theme(&self, id: &str) -> Option<&Theme> {
        self.themes.iter().find(|t| t.id == id)
    }

    /// All xiangqi puzzles, theme by theme, in file order.
    pub fn xiangqi_puzzles(&self) -> impl Iterator<Item = &super::xiangqi::XiangqiPuzzle> {
        self.xiangqi.iter().flat_map(|t| t.puzzles.iter())
    }

    /// The xiangqi puzzle with this id.
    pub fn xiangqi_puzzle(&self, id: &str) -> Option<&super::xiangqi::XiangqiPuzzle> {
        self.xiangqi_puzzles().find(|p| p.id == id)
    }
}
