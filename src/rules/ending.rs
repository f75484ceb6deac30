//! How games end: the automatic endings (checkmate, stalemate, insufficient
//! material, FIDE 9.6.1 fivefold repetition, 9.6.2 seventy-five moves) and the
//! draws by claim (9.2, 9.3).
//!
//! Precedence of the automatic endings, as the Laws give it: checkmate ends the
//! game first (9.6.2: "if the last move resulted in checkmate, that shall take
//! precedence"; a mated or stalemated position has no move left, so no
//! repetition or move count can arise after it), then stalemate, then a dead
//! position by insufficient material, then fivefold repetition, then the
//! seventy-five-move rule.

use std::fmt;

use shakmaty::{Color, Position};

use super::game::Game;

/// The kinds of ending the rules core knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind {
    /// The side to move is checkmated (FIDE 5.1.1).
    Checkmate,
    /// The side to move has no legal move and is not in check (5.2.1).
    Stalemate,
    /// Neither side can checkmate by any series of legal moves (5.2.2), judged
    /// by material: kings with at most one minor piece, or bishops on one colour.
    InsufficientMaterial,
    /// The same position has appeared five times (9.6.1).
    FivefoldRepetition,
    /// Seventy-five moves by each side without a capture or pawn move (9.6.2).
    SeventyFiveMoves,
    /// Drawn upon a correct threefold-repetition claim (9.2).
    ThreefoldClaim,
    /// Drawn upon a correct fifty-move claim (9.3).
    FiftyMoveClaim,
    /// Ended for a reason outside the board: resignation, flag fall, agreement.
    External,
}

impl EndingKind {
    /// True for the draws by claim.
    pub fn is_claim(self) -> bool {
        matches!(
            self,
            EndingKind::ThreefoldClaim | EndingKind::FiftyMoveClaim
        )
    }

    /// The short name used by `analyze --json` ("checkmate", "fivefold", ...).
    pub fn code(self) -> &'static str {
        match self {
            EndingKind::Checkmate => "checkmate",
            EndingKind::Stalemate => "stalemate",
            EndingKind::InsufficientMaterial => "insufficient",
            EndingKind::FivefoldRepetition => "fivefold",
            EndingKind::SeventyFiveMoves => "seventyfive",
            EndingKind::ThreefoldClaim => "threefold-claim",
            EndingKind::FiftyMoveClaim => "fifty-claim",
            EndingKind::External => "external",
        }
    }
}

impl fmt::Display for EndingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndingKind::Checkmate => "checkmate",
            EndingKind::Stalemate => "stalemate",
            EndingKind::InsufficientMaterial => "insufficient material",
            EndingKind::FivefoldRepetition => "fivefold repetition (FIDE 9.6.1)",
            EndingKind::SeventyFiveMoves => "seventy-five-move rule (FIDE 9.6.2)",
            EndingKind::ThreefoldClaim => "threefold repetition claimed (FIDE 9.2)",
            EndingKind::FiftyMoveClaim => "fifty-move rule claimed (FIDE 9.3)",
            EndingKind::External => "ended outside the board",
        })
    }
}

/// An ending, with the result and an explanation naming the plies involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub kind: EndingKind,
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// A one-paragraph explanation citing the Laws and naming the plies.
    pub explanation: String,
    /// The plies the explanation refers to (e.g. every occurrence of the
    /// repeated position), ascending.
    pub plies: Vec<usize>,
}

impl Ending {
    /// The PGN result: "1-0", "0-1" or "1/2-1/2".
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// An ending decided outside the rules core (resignation, time, agreement).
    pub fn external(winner: Option<Color>, explanation: impl Into<String>) -> Ending {
        Ending {
            kind: EndingKind::External,
            winner,
            explanation: explanation.into(),
            plies: Vec::new(),
        }
    }
}

/// A list of places: "the start position, after 2...Nb8 and after 4...Nb8".
pub fn list_places(game: &Game, plies: &[usize]) -> String {
    let labels: Vec<String> = plies.iter().map(|&p| game.place_label(p)).collect();
    join_and(&labels)
}

/// "a", "a and b", "a, b and c".
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

/// "once", "twice", "three times", ...
pub fn times(n: u32) -> String {
    match n {
        1 => "once".to_string(),
        2 => "twice".to_string(),
        3 => "three times".to_string(),
        4 => "four times".to_string(),
        5 => "five times".to_string(),
        n => format!("{n} times"),
    }
}

/// The automatic ending at the current position of `game`, if any.
pub fn automatic(game: &Game) -> Option<Ending> {
    let pos = game.position();
    let ply = game.len();
    let legal = game.legal_moves();
    if legal.is_empty() {
        return Some(if pos.is_check() {
            let winner = !pos.turn();
            Ending {
                kind: EndingKind::Checkmate,
                winner: Some(winner),
                explanation: format!(
                    "{} is checkmated{} (FIDE 5.1.1); checkmate takes precedence over any repetition or move count.",
                    side_name(pos.turn()),
                    after(game, ply)
                ),
                plies: vec![ply],
            }
        } else {
            Ending {
                kind: EndingKind::Stalemate,
                winner: None,
                explanation: format!(
                    "{} has no legal move and is not in check{}: stalemate (FIDE 5.2.1).",
                    side_name(pos.turn()),
                    after(game, ply)
                ),
                plies: vec![ply],
            }
        });
    }
    if pos.is_insufficient_material() {
        return Some(Ending {
            kind: EndingKind::InsufficientMaterial,
            winner: None,
            explanation: format!(
                "Neither side has the material to checkmate{}: a dead position (FIDE 5.2.2).",
                after(game, ply)
            ),
            plies: vec![ply],
        });
    }
    let rec = game.current();
    if rec.occurrence >= 5 {
        let mut plies = game.earlier(ply);
        plies.push(ply);
        return Some(Ending {
            kind: EndingKind::FivefoldRepetition,
            winner: None,
            explanation: format!(
                "The same position has appeared {} ({}): the game is drawn without a claim (FIDE 9.6.1).",
                times(rec.occurrence),
                list_places(game, &plies)
            ),
            plies,
        });
    }
    let clock = pos.halfmoves();
    if clock >= 150 {
        let first = ply.saturating_sub(clock as usize);
        return Some(Ending {
            kind: EndingKind::SeventyFiveMoves,
            winner: None,
            explanation: format!(
                "{} moves by each player without a capture or a pawn move{}: the game is drawn without a claim (FIDE 9.6.2).",
                clock / 2,
                since(game, first, clock)
            ),
            plies: vec![ply],
        });
    }
    None
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn after(game: &Game, ply: usize) -> String {
    if ply == 0 {
        " in the start position".to_string()
    } else {
        format!(" after {}", game.ply_label(ply))
    }
}

/// " since 34.Rxd4" when the last capture or pawn move is in the game, else
/// a note that the count started before the game's start position.
pub(crate) fn since(game: &Game, first: usize, clock: u32) -> String {
    if clock as usize <= game.len() && first >= 1 {
        format!(
            " (the last capture or pawn move was {})",
            game.ply_label(first)
        )
    } else {
        " (the count began before this game's start position)".to_string()
    }
}
