//! The position key: one 64-bit Zobrist key per position, equal for two
//! positions exactly when FIDE 9.2.3 calls them the same.
//!
//! The key is shakmaty's [`Zobrist64`] hash with [`EnPassantMode::Legal`]: the
//! same player has the move, pieces of the same kind and colour stand on the
//! same squares, the castling rights are the same, and the same *legal* en
//! passant capture is possible (a pseudo-legal en passant whose capturer is
//! pinned does not make a position different). Two different positions
//! sharing a key is possible in principle and ignored, as every chess program
//! does.
//!
//! The rules core ([`super::game::Game`]) and the engine (its transposition
//! table and its repetition scan) both key positions with these functions, so
//! a repetition the arbiter counts is the one the engine sees.
//!
//! # Updating a key without hashing the position again
//!
//! A move that does not touch castling rights, is not a double pawn push and
//! is not played where an en passant capture could be legal changes the key
//! by its piece leaving one square and arriving on another (promoted, for a
//! promotion), by the captured piece leaving, and by the side to move: a few
//! XORs, as Zobrist (1970) designed the scheme for. Every other move has the
//! resulting position hashed in full. The reversible moves that repetitions
//! are made of always take the short way.

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{Chess, Color, EnPassantMode, Move, Position, Role, Square};

/// The key (FIDE 9.2.3 identity) of a position.
#[inline]
pub fn position_key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key after the legal move `m`, given the key of `pos`, when a few XORs
/// give it (see the module docs); `None` when the resulting position must be
/// hashed ([`position_key`]). For callers that play the move anyway and want
/// the key before (the engine prefetches the child's table slot with it).
#[inline]
pub fn incremental_key_after(pos: &Chess, key: u64, m: Move) -> Option<u64> {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        // Castling changes rights; en passant removes a pawn elsewhere.
        return None;
    };
    let rights = pos.castles().castling_rights();
    if (role == Role::Pawn && from.distance(to) == 2)
        || rights.contains(from)
        || rights.contains(to)
        || (role == Role::King && pos.castles().has_color(pos.turn()))
        || pos.pseudo_legal_ep_square().is_some()
    {
        return None;
    }
    let us = pos.turn();
    let k = piece_moved(key, us, role, from, promotion.unwrap_or(role), to);
    Some(match capture {
        Some(captured) => k ^ Zobrist64::zobrist_for_piece(to, captured.of(!us)).0,
        None => k,
    })
}

/// [`key_after`] for a move known to be reversible (`!pos.is_irreversible(m)`:
/// no capture, no pawn move, castling rights untouched, no legal en passant
/// before it): only the moving piece changes square, and the other side is to
/// move. Three XORs, for the claim checks, which key every reversible move of
/// a position where something has repeated.
#[inline(always)]
pub fn reversible_key_after(pos: &Chess, key: u64, m: Move) -> u64 {
    debug_assert!(!pos.is_irreversible(m));
    let from = m.from().expect("a reversible move has an origin square");
    piece_moved(key, pos.turn(), m.role(), from, m.role(), m.to())
}

/// `key` with `role` of side `us` gone from `from`, `arriving` (the same role,
/// or the promoted one) on `to`, and the other side to move.
#[inline(always)]
fn piece_moved(key: u64, us: Color, role: Role, from: Square, arriving: Role, to: Square) -> u64 {
    key ^ Zobrist64::zobrist_for_white_turn().0
        ^ Zobrist64::zobrist_for_piece(from, role.of(us)).0
        ^ Zobrist64::zobrist_for_piece(to, arriving.of(us)).0
}

/// The key of the position after the legal move `m`, given the key of `pos`.
pub fn key_after(pos: &Chess, key: u64, m: Move) -> u64 {
    incremental_key_after(pos, key, m).unwrap_or_else(|| play_keyed(&mut pos.clone(), key, m))
}

/// Plays the legal move `m` on `pos`, whose key is `key`, and returns the new key.
#[inline]
pub fn play_keyed(pos: &mut Chess, key: u64, m: Move) -> u64 {
    let incremental = incremental_key_after(pos, key, m);
    pos.play_unchecked(m);
    incremental.unwrap_or_else(|| position_key(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    fn pos(fen: &str) -> Chess {
        Game::from_fen(fen).unwrap().start().clone()
    }

    /// Every legal move of a set of positions chosen for their special cases:
    /// the key after it, updated, equals the resulting position's hash.
    #[test]
    fn incremental_key_equals_the_full_hash() {
        let fens = [
            // Castling both ways, rook and king moves with and without rights.
            "r3k2r/pppbqppp/2np1n2/4p3/4P3/2NP1N2/PPPBQPPP/R3K2R w KQkq - 2 8",
            // Captures on a rook's corner (rights lost by capture), promotions.
            "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
            "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
            // Legal en passant, and pinned (pseudo-legal only) en passant.
            "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2",
            "1n2k3/8/8/8/3Pp3/8/8/1N2R1K1 b - d3 0 1",
            // Kings without castling rights; a quiet endgame.
            "8/5pk1/6p1/8/3R4/6P1/5PK1/r7 w - - 40 60",
        ];
        let (mut short, mut long) = (0, 0);
        for fen in fens {
            let p = pos(fen);
            let key = position_key(&p);
            for &m in p.legal_moves().iter() {
                let mut next = p.clone();
                next.play_unchecked(m);
                let full = position_key(&next);
                match incremental_key_after(&p, key, m) {
                    Some(k) => {
                        assert_eq!(k, full, "{fen}: {m:?}");
                        short += 1;
                    }
                    None => long += 1,
                }
                assert_eq!(key_after(&p, key, m), full, "{fen}: {m:?}");
                if !p.is_irreversible(m) {
                    assert_eq!(reversible_key_after(&p, key, m), full, "{fen}: {m:?}");
                }
            }
        }
        assert!(short > 50 && long > 50, "{short} short, {long} long");
    }

    /// A pinned pawn's en passant is not legal: the key ignores it, so the
    /// position after a double push equals the one after the same pieces
    /// arrive otherwise (FIDE 9.2.3).
    #[test]
    fn pinned_en_passant_is_not_part_of_the_key() {
        let pinned = pos("1n2k3/8/8/8/3Pp3/8/8/1N2R1K1 b - d3 0 1");
        let plain = pos("1n2k3/8/8/8/3Pp3/8/8/1N2R1K1 b - - 0 1");
        assert_eq!(position_key(&pinned), position_key(&plain));
        let legal = pos("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 2");
        let plain = pos("4k3/8/8/3Pp3/8/8/8/4K3 w - - 0 2");
        assert_ne!(position_key(&legal), position_key(&plain));
        assert!(legal.legal_moves().iter().any(|m| m.to() == Square::E6));
    }
}
