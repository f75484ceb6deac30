//! Everything the rules say about one position of a game, as `threefold
//! analyze --json` reports it (and `threefold bench rules` measures it).

use serde::Serialize;
use shakmaty::{CastlingMode, Move, Position};

use super::claim::{is_zeroing, sorted_uci};
use super::ending::EndingKind;
use super::game::{Game, reversible_key_after};

/// The rules' view of the current position of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReport {
    /// The ply (0 = start position).
    pub ply: usize,
    /// The move that led here.
    pub mv: Option<Move>,
    /// Occurrences of this position so far, this one included.
    pub repetitions: u32,
    /// Earlier plies with the same position, ascending.
    pub earlier: Vec<usize>,
    /// 9.2 (b) claim possible now.
    pub claim_threefold: bool,
    /// 9.2 (a): moves that would allow a claim.
    pub claim_threefold_moves: Vec<Move>,
    /// 9.3 (b) claim possible now.
    pub claim_fifty: bool,
    /// 9.3 (a): with the clock at 99 or more, the legal non-capture non-pawn moves.
    pub claim_fifty_moves: Vec<Move>,
    /// 9.6.1 reached.
    pub fivefold: bool,
    /// 9.6.2 reached (and not checkmate or stalemate).
    pub seventy_five: bool,
    /// The automatic ending at this position, by precedence.
    pub outcome: Option<EndingKind>,
}

/// Report on the current position of `game`, generating its legal moves once.
pub fn report_current(game: &Game) -> PlyReport {
    let pos = game.position();
    let rec = game.current();
    let ply = game.len();
    let legal = game.legal_moves();
    let has_moves = !legal.is_empty();
    let clock = pos.halfmoves();
    let mut claim_threefold_moves = Vec::new();
    let mut claim_fifty_moves = Vec::new();
    if !game.nothing_repeated() {
        for &m in legal.iter() {
            if !pos.is_irreversible(m) && game.appeared_twice(reversible_key_after(pos, rec.key, m))
            {
                claim_threefold_moves.push(m);
            }
        }
    }
    if clock >= 99 {
        claim_fifty_moves.extend(legal.iter().copied().filter(|&m| !is_zeroing(m)));
    }
    let fivefold = rec.occurrence >= 5;
    let seventy_five = clock >= 150 && has_moves;
    let outcome = if !has_moves {
        Some(if pos.is_check() {
            EndingKind::Checkmate
        } else {
            EndingKind::Stalemate
        })
    } else if pos.is_insufficient_material() {
        Some(EndingKind::InsufficientMaterial)
    } else if fivefold {
        Some(EndingKind::FivefoldRepetition)
    } else if seventy_five {
        Some(EndingKind::SeventyFiveMoves)
    } else {
        None
    };
    PlyReport {
        ply,
        mv: rec.mv,
        repetitions: rec.occurrence,
        earlier: game.earlier(ply),
        claim_threefold: rec.occurrence >= 3 && has_moves,
        claim_threefold_moves,
        claim_fifty: clock >= 100 && has_moves,
        claim_fifty_moves,
        fivefold,
        seventy_five,
        outcome,
    }
}

/// One line of `threefold analyze --json`, field for field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JsonPly {
    pub ply: usize,
    #[serde(rename = "move")]
    pub mv: Option<String>,
    pub fen: String,
    pub repetitions: u32,
    pub earlier: Vec<usize>,
    pub claim_threefold: bool,
    pub claim_threefold_moves: Vec<String>,
    pub claim_fifty: bool,
    pub claim_fifty_moves: Vec<String>,
    pub fivefold: bool,
    pub seventy_five: bool,
    pub outcome: Option<&'static str>,
}

impl JsonPly {
    /// The JSON view of a report on the current position of `game`.
    pub fn new(game: &Game, r: &PlyReport) -> JsonPly {
        JsonPly {
            ply: r.ply,
            mv: r.mv.map(|m| m.to_uci(CastlingMode::Standard).to_string()),
            fen: game.fen_at(r.ply),
            repetitions: r.repetitions,
            earlier: r.earlier.clone(),
            claim_threefold: r.claim_threefold,
            claim_threefold_moves: sorted_uci(&r.claim_threefold_moves),
            claim_fifty: r.claim_fifty,
            claim_fifty_moves: sorted_uci(&r.claim_fifty_moves),
            fivefold: r.fivefold,
            seventy_five: r.seventy_five,
            outcome: r.outcome.map(|o| o.code()),
        }
    }
}
