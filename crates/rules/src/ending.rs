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
use super::notation::color_name;

/// The kinds of ending the rules core knows. A kind that can have a winner
/// carries it, so a draw cannot name one and a win cannot lack one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndingKind {
    /// The side to move is checkmated (FIDE 5.1.1); `winner` gave the mate.
    Checkmate { winner: Color },
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
    /// `flagged`'s flag fell and the opponent wins on time (6.9).
    LostOnTime { flagged: Color },
    /// `flagged`'s flag fell, but the opponent cannot checkmate by any series
    /// of legal moves: drawn (6.9).
    FlagFallDraw { flagged: Color },
    /// The loser resigned; `winner` wins (FIDE 5.1.2).
    Resignation { winner: Color },
    /// Drawn by agreement: a draw offer accepted (FIDE 5.2.3, 9.1).
    DrawAgreed,
    /// A game read from a record that ends there with a result the rules do not rule on
    /// (resignation, agreement, adjudication, ...): the record's result stands.
    Recorded { winner: Option<Color> },
}

impl EndingKind {
    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            EndingKind::Checkmate { winner } => Some(winner),
            EndingKind::LostOnTime { flagged } => Some(!flagged),
            EndingKind::Resignation { winner } => Some(winner),
            EndingKind::Recorded { winner } => winner,
            EndingKind::DrawAgreed
            | EndingKind::Stalemate
            | EndingKind::InsufficientMaterial
            | EndingKind::FivefoldRepetition
            | EndingKind::SeventyFiveMoves
            | EndingKind::ThreefoldClaim
            | EndingKind::FiftyMoveClaim
            | EndingKind::FlagFallDraw { .. } => None,
        }
    }

    /// True for the draws by claim.
    pub fn is_claim(self) -> bool {
        matches!(
            self,
            EndingKind::ThreefoldClaim | EndingKind::FiftyMoveClaim
        )
    }

    /// True for the endings outside the rules of play, which the position itself does not
    /// make (a resignation, an agreed draw, a recorded result): play can go on from the
    /// position if the players choose to ([`Game::play_on`]).
    pub fn is_outside_play(self) -> bool {
        matches!(
            self,
            EndingKind::Resignation { .. } | EndingKind::DrawAgreed | EndingKind::Recorded { .. }
        )
    }

    /// True for the endings of a flag fall (FIDE 6.9), won or drawn.
    pub fn is_flag_fall(self) -> bool {
        matches!(
            self,
            EndingKind::LostOnTime { .. } | EndingKind::FlagFallDraw { .. }
        )
    }

    /// The short name used by `analyze --json` ("checkmate", "fivefold", ...).
    pub fn code(self) -> &'static str {
        match self {
            EndingKind::Checkmate { .. } => "checkmate",
            EndingKind::Stalemate => "stalemate",
            EndingKind::InsufficientMaterial => "insufficient",
            EndingKind::FivefoldRepetition => "fivefold",
            EndingKind::SeventyFiveMoves => "seventyfive",
            EndingKind::ThreefoldClaim => "threefold-claim",
            EndingKind::FiftyMoveClaim => "fifty-claim",
            EndingKind::LostOnTime { .. } => "time",
            EndingKind::FlagFallDraw { .. } => "time-draw",
            EndingKind::Resignation { .. } => "resignation",
            EndingKind::DrawAgreed => "agreement",
            EndingKind::Recorded { .. } => "recorded",
        }
    }
}

impl fmt::Display for EndingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndingKind::Checkmate { .. } => f.write_str("checkmate"),
            EndingKind::Stalemate => f.write_str("stalemate"),
            EndingKind::InsufficientMaterial => f.write_str("insufficient material"),
            EndingKind::FivefoldRepetition => f.write_str("fivefold repetition (FIDE 9.6.1)"),
            EndingKind::SeventyFiveMoves => f.write_str("seventy-five-move rule (FIDE 9.6.2)"),
            EndingKind::ThreefoldClaim => f.write_str("threefold repetition claimed (FIDE 9.2)"),
            EndingKind::FiftyMoveClaim => f.write_str("fifty-move rule claimed (FIDE 9.3)"),
            EndingKind::LostOnTime { flagged } => write!(
                f,
                "{}'s flag fell: {} wins on time (FIDE 6.9)",
                color_name(*flagged),
                color_name(!*flagged)
            ),
            EndingKind::FlagFallDraw { flagged } => write!(
                f,
                "{}'s flag fell, but {} cannot checkmate: drawn (FIDE 6.9)",
                color_name(*flagged),
                color_name(!*flagged)
            ),
            EndingKind::Resignation { winner } => write!(
                f,
                "{} resigned: {} wins (FIDE 5.1.2)",
                color_name(!*winner),
                color_name(*winner)
            ),
            EndingKind::DrawAgreed => f.write_str("drawn by agreement (FIDE 5.2.3, 9.1)"),
            EndingKind::Recorded { winner: Some(w) } => {
                write!(f, "{} won, as the game's record says", color_name(*w))
            }
            EndingKind::Recorded { winner: None } => {
                f.write_str("drawn, as the game's record says")
            }
        }
    }
}

/// An ending, with an explanation naming the plies involved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// What ended the game, with the winner where there is one.
    pub kind: EndingKind,
    /// A one-paragraph explanation citing the Laws and naming the plies.
    pub explanation: String,
    /// The plies the explanation refers to (e.g. every occurrence of the
    /// repeated position), ascending.
    pub plies: Vec<usize>,
}

impl Ending {
    /// The winner, or `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.kind.winner()
    }

    /// The PGN result: "1-0", "0-1" or "1/2-1/2".
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// FIDE 6.9: the ruling when `flagged`'s flag falls in the current position
/// of `game`. The opponent wins on time, unless it cannot checkmate by any
/// series of legal moves; then the game is drawn. Whether it can is judged by
/// its material alone (shakmaty's `has_insufficient_material`: a lone king, a
/// king and one minor piece, or bishops all on one colour), as most arbiters'
/// software does; positions where material would suffice but the pawn
/// structure makes mate impossible are not recognised.
pub fn flag_fall(game: &Game, flagged: Color) -> Ending {
    let kind = if game.position().has_insufficient_material(!flagged) {
        EndingKind::FlagFallDraw { flagged }
    } else {
        EndingKind::LostOnTime { flagged }
    };
    Ending {
        kind,
        explanation: format!("{kind}."),
        plies: Vec::new(),
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

/// 9.6.1: the current position has appeared at least five times.
pub fn fivefold(game: &Game) -> bool {
    game.current().occurrence >= 5
}

/// 9.6.2: at least 75 moves by each player without a capture or a pawn move,
/// and the last move did not checkmate (a position without a legal move ends
/// by checkmate or stalemate first).
pub fn seventy_five(game: &Game) -> bool {
    game.position().halfmoves() >= 150 && game.has_legal_moves()
}

/// The kind of automatic ending at the current position of `game`, if any,
/// in the Laws' precedence (see the module docs). [`automatic`] explains it.
pub fn automatic_kind(game: &Game) -> Option<EndingKind> {
    let pos = game.position();
    if !game.has_legal_moves() {
        Some(if pos.is_check() {
            EndingKind::Checkmate {
                winner: !pos.turn(),
            }
        } else {
            EndingKind::Stalemate
        })
    } else if pos.is_insufficient_material() {
        Some(EndingKind::InsufficientMaterial)
    } else if fivefold(game) {
        Some(EndingKind::FivefoldRepetition)
    } else if seventy_five(game) {
        Some(EndingKind::SeventyFiveMoves)
    } else {
        None
    }
}

/// The automatic ending at the current position of `game`, if any, with its
/// explanation.
pub fn automatic(game: &Game) -> Option<Ending> {
    let kind = automatic_kind(game)?;
    let pos = game.position();
    let ply = game.len();
    let (explanation, plies) = match kind {
        EndingKind::Checkmate { .. } => (
            format!(
                "{} is checkmated{} (FIDE 5.1.1); checkmate takes precedence over any repetition or move count.",
                color_name(pos.turn()),
                after(game, ply)
            ),
            vec![ply],
        ),
        EndingKind::Stalemate => (
            format!(
                "{} has no legal move and is not in check{}: stalemate (FIDE 5.2.1).",
                color_name(pos.turn()),
                after(game, ply)
            ),
            vec![ply],
        ),
        EndingKind::InsufficientMaterial => (
            format!(
                "Neither side has the material to checkmate{}: a dead position (FIDE 5.2.2).",
                after(game, ply)
            ),
            vec![ply],
        ),
        EndingKind::FivefoldRepetition => {
            let mut plies = game.earlier(ply);
            plies.push(ply);
            (
                format!(
                    "The same position has appeared {} ({}): the game is drawn without a claim (FIDE 9.6.1).",
                    times(game.current().occurrence),
                    list_places(game, &plies)
                ),
                plies,
            )
        }
        EndingKind::SeventyFiveMoves => {
            let clock = pos.halfmoves();
            let first = ply.saturating_sub(clock as usize);
            (
                format!(
                    "{} moves by each player without a capture or a pawn move{}: the game is drawn without a claim (FIDE 9.6.2).",
                    clock / 2,
                    since(game, first, clock)
                ),
                vec![ply],
            )
        }
        _ => unreachable!("automatic_kind returns automatic endings only"),
    };
    Some(Ending {
        kind,
        explanation,
        plies,
    })
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
