//! Move ordering and static exchange evaluation.
//!
//! Order at a full-width node:
//! 1. the transposition-table move;
//! 2. winning and equal captures (SEE >= 0), most valuable victim first, then least valuable
//!    attacker (MVV-LVA); queen promotions with them;
//! 3. the two killer moves of the ply;
//! 4. quiet moves by the history heuristic (butterfly table, side × from × to);
//! 5. losing captures (SEE < 0), by MVV-LVA.
//!
//! Moves are scored once and picked by a partial selection sort, so a cutoff on the first
//! move costs no full sort.

use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Position, Role};

use super::eval::see_value;
use super::tt::same_move;

const TT_MOVE: i32 = 30_000_000;
const GOOD_CAPTURE: i32 = 20_000_000;
const KILLER_1: i32 = 18_000_000;
const KILLER_2: i32 = 17_000_000;
const BAD_CAPTURE: i32 = -20_000_000;

/// Butterfly history table: `[side][from][to]`.
pub type HistoryTable = [[[i32; 64]; 64]; 2];

/// Maximum magnitude of a history score.
pub const HISTORY_MAX: i32 = 16384;

/// Side index for the history table.
#[inline(always)]
pub fn side(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Is `m` a capture or a promotion (a "noisy" move)?
#[inline(always)]
pub fn is_noisy(m: &Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// MVV-LVA key of a capture.
#[inline(always)]
fn mvv_lva(m: &Move) -> i32 {
    let victim = m.capture().map_or(0, see_value);
    victim * 16 - see_value(m.role()) / 16
}

/// Scores all legal moves of a full-width node into `scores[..moves.len()]`.
pub fn score_moves(
    pos: &Chess,
    moves: &MoveList,
    scores: &mut [i32],
    tt_move: u16,
    killers: [u16; 2],
    history: &HistoryTable,
) {
    let s = side(pos.turn());
    for (m, score) in moves.iter().zip(scores.iter_mut()) {
        *score = if same_move(tt_move, m) {
            TT_MOVE
        } else if m.is_capture() {
            let victim = m.capture().map_or(0, see_value);
            if victim >= see_value(m.role()) || see(pos, m) >= 0 {
                GOOD_CAPTURE + mvv_lva(m)
            } else {
                BAD_CAPTURE + mvv_lva(m)
            }
        } else if m.promotion() == Some(Role::Queen) {
            GOOD_CAPTURE - 1
        } else if m.is_promotion() {
            BAD_CAPTURE - 1
        } else if same_move(killers[0], m) {
            KILLER_1
        } else if same_move(killers[1], m) {
            KILLER_2
        } else {
            let from = m.from().map_or(0, |f| f as usize);
            history[s][from][m.to() as usize]
        };
    }
}

/// Scores the moves of a quiescence node (captures and promotions; all evasions when in
/// check): TT move, then MVV-LVA.
pub fn score_captures(moves: &MoveList, scores: &mut [i32], tt_move: u16) {
    for (m, score) in moves.iter().zip(scores.iter_mut()) {
        *score = if same_move(tt_move, m) {
            TT_MOVE
        } else if m.is_capture() {
            GOOD_CAPTURE + mvv_lva(m)
        } else if m.promotion() == Some(Role::Queen) {
            GOOD_CAPTURE - 1
        } else {
            0
        };
    }
}

/// Selection step: moves the best-scored move of `i..` to `i` and returns it with its score.
#[inline]
pub fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> (Move, i32) {
    let n = moves.len();
    let mut best = i;
    let mut best_score = scores[i];
    for (j, &sc) in scores.iter().enumerate().take(n).skip(i + 1) {
        if sc > best_score {
            best = j;
            best_score = sc;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    (moves[i], best_score)
}

/// Static exchange evaluation of a capture (or any move) on its target square, in centipawns
/// from the mover's view: the material balance of the best sequence of recaptures on that
/// square, each side free to stop. En passant and castling count as 0 / pawn.
pub fn see(pos: &Chess, m: &Move) -> i32 {
    let (from, to) = match *m {
        Move::Normal { from, to, .. } => (from, to),
        Move::EnPassant { .. } => return 0,
        _ => return 0,
    };
    let board = pos.board();
    let mut gain = [0i32; 32];
    let mut d = 0;
    gain[0] = m.capture().map_or(0, see_value);
    let mut occ = board.occupied() ^ Bitboard::from_square(from);
    let mut attacker_value = see_value(m.promotion().unwrap_or(m.role()));
    let mut color = !pos.turn();
    loop {
        let attackers = board.attacks_to(to, color, occ) & occ;
        if attackers.is_empty() {
            break;
        }
        let mut found = None;
        for role in Role::ALL {
            let bb = attackers & board.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((sq, role));
                break;
            }
        }
        let Some((sq, role)) = found else { break };
        if role == Role::King
            && (board.attacks_to(to, !color, occ ^ Bitboard::from_square(sq)) & occ).any()
        {
            // The king cannot capture into a defended square.
            break;
        }
        d += 1;
        gain[d] = attacker_value - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d >= 30 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        attacker_value = see_value(role);
        color = !color;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Square, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    fn find(p: &Chess, from: Square, to: Square) -> Move {
        *p.legal_moves()
            .iter()
            .find(|m| m.from() == Some(from) && m.to() == to)
            .unwrap()
    }

    #[test]
    fn see_values() {
        // Pawn takes defended knight: +320 - 100 = +220.
        let p = pos("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1");
        assert_eq!(see(&p, &find(&p, Square::D4, Square::E5)), 220);
        // Queen takes pawn defended by pawn: -850.
        let p = pos("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1");
        assert_eq!(see(&p, &find(&p, Square::D2, Square::D5)), 100 - 950);
        // Rook takes undefended pawn.
        let p = pos("4k3/8/8/3p4/8/8/3R4/4K3 w - - 0 1");
        assert_eq!(see(&p, &find(&p, Square::D2, Square::D5)), 100);
        // X-ray: rooks doubled behind each other.
        let p = pos("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1");
        assert_eq!(see(&p, &find(&p, Square::D2, Square::D5)), 100 - 500);
    }
}
