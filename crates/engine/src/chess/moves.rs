//! Facts about a move computed from attack tables, without playing it.
//!
//! The search asks two questions many times per node, and shakmaty's general answers are
//! dearer than they need to be there:
//!
//! - *Does this move give check?* Asked for every move the search does not prune by late-move
//!   pruning: futility pruning spares checks, a check is extended, and the child needs to
//!   know it is in check. Playing the move on a copy of the position and testing `is_check`
//!   costs a copy, a make and an attack scan; [`gives_check`] looks at the moved piece's
//!   attacks from its target square (direct check) and at the sliders behind its origin
//!   square (discovered check) instead, so a pruned move is never played. Castling and en
//!   passant, which move two pieces, take the slow path.
//! - *Is this packed move legal here?* Moves from the transposition table and the killer
//!   slots were found in other positions (a key collision, a sibling node). `Position::is_legal`
//!   generates all moves of that piece type to the target square; [`decode_move`] checks the
//!   move's geometry on the board and, when the side to move is not in check, that no slider
//!   reaches its king afterwards (without check, only a slider can be uncovered). In check,
//!   and for castling and en passant, it asks shakmaty.
//!
//! Both are tested against shakmaty's own answers: `gives_check` on every legal move of
//! several thousand positions, `decode_move` on every value `pack_move` can produce (about
//! 20,000) in about a thousand of them.

use shakmaty::{
    Bitboard, Chess, Color, Move, Position, Rank, Role, Square,
    attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, ray, rook_attacks},
};

use crate::tt::{packed_from, packed_promotion};

/// Does `m` (legal in `pos`) give check?
#[inline]
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        let mut child = pos.clone();
        child.play_unchecked(m);
        return child.is_check();
    };
    let b = pos.board();
    let us = pos.turn();
    let Some(king) = b.king_of(!us) else {
        return false;
    };
    let occ = (b.occupied() ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let direct = match promotion.unwrap_or(role) {
        Role::Pawn => pawn_attacks(us, to),
        Role::Knight => knight_attacks(to),
        Role::Bishop => bishop_attacks(to, occ),
        Role::Rook => rook_attacks(to, occ),
        Role::Queen => bishop_attacks(to, occ) | rook_attacks(to, occ),
        Role::King => Bitboard(0),
    };
    if direct.contains(king) {
        return true;
    }
    // Discovered check: only a piece leaving a line through the enemy king can uncover one.
    if ray(king, from).is_empty() {
        return false;
    }
    let ours = b.by_color(us) ^ Bitboard::from_square(from);
    ((rook_attacks(king, occ) & b.rooks_and_queens() & ours)
        | (bishop_attacks(king, occ) & b.bishops_and_queens() & ours))
        .any()
}

/// Turns a packed move (see [`crate::tt::pack_move`]) back into a move of `pos`, or `None`
/// when it is not legal there. `in_check` must say whether the side to move is in check.
pub fn decode_move(pos: &Chess, p: u16, in_check: bool) -> Option<Move> {
    if p == 0 {
        return None;
    }
    let from = packed_from(p);
    let to = Square::new(u32::from((p >> 6) & 63));
    let b = pos.board();
    let us = pos.turn();
    if b.color_at(from) != Some(us) {
        return None;
    }
    let role = b.role_at(from)?;
    let target = b.color_at(to);
    let promotion = packed_promotion(p);
    if role == Role::King && target == Some(us) && promotion.is_none() {
        let m = Move::Castle {
            king: from,
            rook: to,
        };
        return pos.is_legal(m).then_some(m);
    }
    if target == Some(us) {
        return None;
    }
    if role == Role::Pawn && from.file() != to.file() && target.is_none() && promotion.is_none() {
        let m = Move::EnPassant { from, to };
        return pos.is_legal(m).then_some(m);
    }
    let capture = b.role_at(to);
    let m = Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    };
    if in_check {
        return pos.is_legal(m).then_some(m);
    }
    if capture == Some(Role::King) {
        return None;
    }
    let occ = b.occupied();
    let last_rank = (!us).backrank();
    let reaches = match role {
        Role::Pawn => {
            if (to.rank() == last_rank) != promotion.is_some() {
                return None;
            }
            if capture.is_some() {
                pawn_attacks(us, from).contains(to)
            } else {
                pawn_push_ok(us, from, to, occ)
            }
        }
        _ if promotion.is_some() => return None,
        Role::Knight => knight_attacks(from).contains(to),
        Role::Bishop => bishop_attacks(from, occ).contains(to),
        Role::Rook => rook_attacks(from, occ).contains(to),
        Role::Queen => (bishop_attacks(from, occ) | rook_attacks(from, occ)).contains(to),
        Role::King => {
            return (king_attacks(from).contains(to)
                && b.attacks_to(to, !us, occ ^ Bitboard::from_square(from))
                    .is_empty())
            .then_some(m);
        }
    };
    if !reaches {
        return None;
    }
    // Not in check, a non-king move is illegal only if it uncovers a slider on its king.
    let king = b.king_of(us)?;
    let after = (occ ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
    let them = b.by_color(!us) & !Bitboard::from_square(to);
    let exposed = (rook_attacks(king, after) & b.rooks_and_queens() & them)
        | (bishop_attacks(king, after) & b.bishops_and_queens() & them);
    exposed.is_empty().then_some(m)
}

/// A single or double pawn push from `from` to `to` onto empty squares.
#[inline]
fn pawn_push_ok(us: Color, from: Square, to: Square, occ: Bitboard) -> bool {
    let (step, start) = match us {
        Color::White => (8, Rank::Second),
        Color::Black => (-8, Rank::Seventh),
    };
    let Some(one) = from.offset(step) else {
        return false;
    };
    if occ.contains(one) {
        return false;
    }
    if to == one {
        return true;
    }
    from.rank() == start && one.offset(step) == Some(to) && !occ.contains(to)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::positions;
    use crate::tt::pack_move;

    #[test]
    fn gives_check_agrees_with_playing_the_move() {
        let mut checks = 0;
        for p in positions() {
            for m in p.legal_moves() {
                let mut c = p.clone();
                c.play_unchecked(m);
                assert_eq!(gives_check(&p, m), c.is_check(), "{:?} {m:?}", p.board());
                checks += usize::from(c.is_check());
            }
        }
        assert!(checks > 1000, "{checks}");
    }

    #[test]
    fn decode_agrees_with_shakmaty_on_every_packed_value() {
        // Every value `pack_move` can produce: the flag bit, any squares, no promotion or a
        // knight..queen one.
        let canonical = (0x8000..=u16::MAX).filter(|raw| !matches!((raw >> 12) & 7, 1 | 6 | 7));
        let canonical: Vec<u16> = canonical.collect();
        let mut decoded = 0;
        for p in positions().iter().step_by(7) {
            let mut want = vec![None; 1 << 16];
            for m in p.legal_moves() {
                want[usize::from(pack_move(&m))] = Some(m);
            }
            let in_check = p.is_check();
            for &raw in &canonical {
                let got = decode_move(p, raw, in_check);
                assert_eq!(got, want[usize::from(raw)], "{:?} {raw:#x}", p.board());
                decoded += usize::from(got.is_some());
            }
        }
        assert!(decoded > 10_000, "{decoded}");
    }
}
