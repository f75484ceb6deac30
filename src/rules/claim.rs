//! Draw claims by the player to move: FIDE 9.2 (threefold repetition) and 9.3
//! (fifty moves), judged with an explanation, and FIDE 9.5's consequences of
//! an incorrect claim.
//!
//! - 9.2 (b): the current position has appeared at least three times.
//! - 9.2 (a): the player writes an intended move on the scoresheet; the claim is
//!   correct when that move would make a position appear for at least the third
//!   time. Only a reversible move can do that: after an irreversible one the
//!   position is new (see [`super::game`]).
//! - 9.3 (b): the last 50 moves by each player (100 plies) had no capture and
//!   no pawn move. 9.3 (a): the intended move is neither a capture nor a pawn
//!   move and completes those 50 moves (the halfmove clock is at least 99).
//! - 9.5: a claim with an intended move obliges the player to play it, whether
//!   the claim is correct or not. Here the move is played in both cases: on a
//!   correct claim the position it makes is the one the ruling is about, and
//!   it is the last move of the record. An incorrect claim changes nothing
//!   else on the board; the arbiter adds two minutes to the opponent's time
//!   ([`time_after_incorrect_claim`]: the caller owns the clock).

use std::time::Duration;

use shakmaty::{CastlingMode, Move, Position, Role};

use super::ending::{Ending, EndingKind, join_and, list_places, times};
use super::game::{Game, PlayError};
use super::key::{key_after, reversible_key_after};

/// What the player claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// A draw in the current position (9.2 b, 9.3 b).
    Now,
    /// A draw with the intended move written down (9.2 a, 9.3 a).
    WithMove(Move),
}

/// The rule a correct claim rests on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// FIDE 9.2: threefold repetition.
    Threefold,
    /// FIDE 9.3: fifty moves without capture or pawn move.
    FiftyMoves,
}

/// The arbiter's ruling on a claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The rule a correct claim rests on (the game is then drawn); `None`
    /// for an incorrect claim.
    pub ground: Option<Ground>,
    /// Why, naming the plies involved.
    pub explanation: String,
    /// The plies the explanation refers to (e.g. the occurrences of the position).
    pub plies: Vec<usize>,
    /// The intended move, played as 9.5 requires (with `Claim::WithMove`).
    pub played: Option<Move>,
}

impl Verdict {
    /// Whether the claim was correct (the game is then drawn).
    pub fn correct(&self) -> bool {
        self.ground.is_some()
    }
}

fn has_moves(game: &Game) -> bool {
    !game.legal_moves().is_empty()
}

/// 9.2 (b): the current position has appeared at least three times (and the
/// player to move has a move; a mated or stalemated player has nothing to claim).
pub fn threefold_now(game: &Game) -> bool {
    game.current().occurrence >= 3 && has_moves(game)
}

/// 9.2 (a): the legal moves that would make a position appear for at least the
/// third time, in move-generation order.
pub fn threefold_moves(game: &Game) -> Vec<Move> {
    if game.nothing_repeated() {
        return Vec::new();
    }
    let pos = game.position();
    let key = game.current().key;
    let mut moves = Vec::new();
    for &m in game.legal_moves() {
        if !pos.is_irreversible(m) && game.appeared_twice(reversible_key_after(pos, key, m)) {
            moves.push(m);
        }
    }
    moves
}

/// 9.3 (b): at least 50 moves by each player without capture or pawn move.
pub fn fifty_now(game: &Game) -> bool {
    game.position().halfmoves() >= 100 && has_moves(game)
}

/// True for a move that resets the fifty-move count (a capture or a pawn move).
pub fn is_zeroing(m: Move) -> bool {
    m.is_capture() || m.role() == Role::Pawn
}

/// 9.3 (a): with the halfmove clock at 99 or more, the legal moves that are
/// neither captures nor pawn moves; otherwise none.
pub fn fifty_moves(game: &Game) -> Vec<Move> {
    let pos = game.position();
    if pos.halfmoves() < 99 {
        return Vec::new();
    }
    game.legal_moves()
        .iter()
        .copied()
        .filter(|&m| !is_zeroing(m))
        .collect()
}

/// Sorted UCI strings of moves (as `analyze --json` prints them).
pub fn sorted_uci(moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort_unstable();
    v
}

fn fifty_status(game: &Game) -> String {
    let clock = game.position().halfmoves();
    let full = clock / 2;
    format!(
        "{} half-moves ({} full move{}) have been played without a capture or a pawn move; a fifty-move claim needs 100 (FIDE 9.3)",
        clock,
        full,
        if full == 1 { "" } else { "s" }
    )
}

/// How often the current position stood, in words, with its places.
fn repetition_status(game: &Game) -> (String, Vec<usize>) {
    let ply = game.len();
    let mut plies = game.earlier(ply);
    plies.push(ply);
    let n = game.current().occurrence;
    let text = if n == 1 {
        "this position has not appeared before".to_string()
    } else {
        format!(
            "this position has appeared {}: {}",
            times(n),
            list_places(game, &plies)
        )
    };
    (text, plies)
}

/// Judge a claim by the player to move. A claim with an intended move plays
/// that move either way (FIDE 9.5); a correct claim ends the game drawn.
///
/// Errors only when the game is already over or the intended move is illegal;
/// then nothing changes.
pub fn judge(game: &mut Game, claim: Claim) -> Result<Verdict, PlayError> {
    if let Some(t) = game.termination() {
        return Err(PlayError::GameOver {
            text: match claim {
                Claim::Now => "draw claim".to_string(),
                Claim::WithMove(m) => m.to_uci(CastlingMode::Standard).to_string(),
            },
            ply: game.len() + 1,
            reason: t.ending.kind.to_string(),
        });
    }
    match claim {
        Claim::Now => Ok(judge_now(game)),
        Claim::WithMove(m) => judge_with_move(game, m),
    }
}

fn judge_now(game: &mut Game) -> Verdict {
    let (rep_text, plies) = repetition_status(game);
    if threefold_now(game) {
        let explanation = format!("Correct claim: {rep_text}. The game is drawn (FIDE 9.2 b).");
        game.end_by_claim(Ending {
            kind: EndingKind::ThreefoldClaim,
            explanation: explanation.clone(),
            plies: plies.clone(),
        });
        return Verdict {
            ground: Some(Ground::Threefold),
            explanation,
            plies,
            played: None,
        };
    }
    if fifty_now(game) {
        let explanation = format!("Correct claim: {}. The game is drawn.", fifty_status(game));
        game.end_by_claim(Ending {
            kind: EndingKind::FiftyMoveClaim,
            explanation: explanation.clone(),
            plies: vec![game.len()],
        });
        return Verdict {
            ground: Some(Ground::FiftyMoves),
            explanation,
            plies: vec![game.len()],
            played: None,
        };
    }
    let mut reasons = vec![rep_text];
    if game.current().occurrence < 3 {
        reasons.push("a third occurrence is needed (FIDE 9.2)".to_string());
    }
    reasons.push(fifty_status(game));
    Verdict {
        ground: None,
        explanation: format!(
            "Incorrect claim: {}. The game goes on (FIDE 9.5).",
            join_and(&reasons)
        ),
        plies,
        played: None,
    }
}

fn judge_with_move(game: &mut Game, m: Move) -> Result<Verdict, PlayError> {
    let pos = game.position().clone();
    if !game.legal_moves().contains(&m) {
        return Err(PlayError::Illegal {
            text: m.to_uci(CastlingMode::Standard).to_string(),
            ply: game.len() + 1,
            fen: game.fen_at(game.len()),
        });
    }
    let reversible = !pos.is_irreversible(m);
    let key = key_after(&pos, game.current().key, m);
    let before = if reversible {
        game.occurrences_of_key(key)
    } else {
        0
    };
    let clock_ok = pos.halfmoves() >= 100 || (pos.halfmoves() >= 99 && !is_zeroing(m));
    let fifty_ok = clock_ok && !is_zeroing(m);
    let fifty_text_before = fifty_status(game);
    let earlier_plies: Vec<usize> = match game.latest_with_key(key) {
        Some(p) if reversible => {
            let mut v = game.earlier(p);
            v.push(p);
            v
        }
        _ => Vec::new(),
    };
    let earlier_text = list_places(game, &earlier_plies);

    game.push_legal(m);
    let ply = game.len();
    let label = game.ply_label(ply);
    let mut plies = earlier_plies.clone();
    plies.push(ply);

    if before >= 2 {
        let explanation = format!(
            "Correct claim: {label} makes this position appear for the {} time (before: {earlier_text}). The game is drawn (FIDE 9.2 a).",
            ordinal(before + 1)
        );
        if !game.is_over() {
            game.end_by_claim(Ending {
                kind: EndingKind::ThreefoldClaim,
                explanation: explanation.clone(),
                plies: plies.clone(),
            });
        }
        return Ok(Verdict {
            ground: Some(Ground::Threefold),
            explanation,
            plies,
            played: Some(m),
        });
    }
    if fifty_ok {
        let explanation = format!(
            "Correct claim: with {label}, neither a capture nor a pawn move, 50 moves by each player pass without a capture or a pawn move. The game is drawn (FIDE 9.3 a)."
        );
        if !game.is_over() {
            game.end_by_claim(Ending {
                kind: EndingKind::FiftyMoveClaim,
                explanation: explanation.clone(),
                plies: vec![ply],
            });
        }
        return Ok(Verdict {
            ground: Some(Ground::FiftyMoves),
            explanation,
            plies: vec![ply],
            played: Some(m),
        });
    }
    let rep = if !reversible {
        format!(
            "{label} is irreversible (a capture, a pawn move, a loss of castling rights or a forgone en passant), so the position after it is new"
        )
    } else if before == 0 {
        format!("the position after {label} has not appeared before")
    } else {
        format!(
            "the position after {label} appeared only {} before ({earlier_text}); it would be its {} occurrence, a third is needed (FIDE 9.2 a)",
            times(before),
            ordinal(before + 1)
        )
    };
    let fifty = if is_zeroing(m) {
        format!("{label} is a capture or a pawn move, which starts the fifty-move count again")
    } else {
        fifty_text_before
    };
    Ok(Verdict {
        ground: None,
        explanation: format!(
            "Incorrect claim: {rep}; {fifty}. The intended move has been played and the game goes on (FIDE 9.5)."
        ),
        plies,
        played: Some(m),
    })
}

/// FIDE 9.5: what the arbiter adds to the opponent's remaining time when a
/// claim is found incorrect.
pub const INCORRECT_CLAIM_BONUS: Duration = Duration::from_secs(120);

/// FIDE 9.5: the opponent's remaining time after an incorrect claim, given
/// the time it had: [`INCORRECT_CLAIM_BONUS`] more. Saturates instead of
/// overflowing, so no clock setting can make it panic.
pub fn time_after_incorrect_claim(opponent_left: Duration) -> Duration {
    opponent_left.saturating_add(INCORRECT_CLAIM_BONUS)
}

/// "first", "second", "third", ...
pub fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        5 => "fifth".into(),
        n => format!("{n}th"),
    }
}
