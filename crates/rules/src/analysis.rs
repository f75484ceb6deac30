//! Everything the rules say about one position of a game, as `threefold
//! analyze --json` reports it (and `threefold bench rules` measures it).

use serde::Serialize;
use shakmaty::{CastlingMode, Move};

use super::claim::{self, sorted_uci};
use super::ending::{self, EndingKind};
use super::game::Game;

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

/// Report on the current position of `game`: a projection of what
/// [`claim`] and [`ending`] rule, so the fields
/// `analyze --json` prints (and the python-chess reference test compares) come
/// from the functions the trainer and the drills call.
pub fn report_current(game: &Game) -> PlyReport {
    let rec = game.current();
    let ply = game.len();
    PlyReport {
        ply,
        mv: rec.mv,
        repetitions: rec.occurrence,
        earlier: game.earlier(ply),
        claim_threefold: claim::threefold_now(game),
        claim_threefold_moves: claim::threefold_moves(game),
        claim_fifty: claim::fifty_now(game),
        claim_fifty_moves: claim::fifty_moves(game),
        fivefold: ending::fivefold(game),
        seventy_five: ending::seventy_five(game),
        outcome: ending::automatic_kind(game),
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

/// The legal moves of the side to move that reach a position of the current reversible
/// stretch (since the last irreversible move, or the start): the question the engine's
/// upcoming-repetition detector answers with cuckoo tables, answered here by trying every
/// move.
pub fn moves_back_into_stretch(game: &Game) -> Vec<Move> {
    moves_back_into_stretch_at(game, game.len())
}

/// [`moves_back_into_stretch`] at ply `ply` of `game` (the plies after it play no part).
pub fn moves_back_into_stretch_at(game: &Game, ply: usize) -> Vec<Move> {
    let records = game.records();
    let mut first = ply;
    while first > 0 && !records[first].irreversible {
        first -= 1;
    }
    let pos = game.position_at(ply);
    let key = records[ply].key;
    shakmaty::Position::legal_moves(pos)
        .into_iter()
        .filter(|&m| {
            let k = crate::key::key_after(pos, key, m);
            // Same side to move after the move: an odd number of plies back.
            (first..ply)
                .rev()
                .skip(2)
                .step_by(2)
                .any(|j| records[j].key == k)
        })
        .collect()
}
