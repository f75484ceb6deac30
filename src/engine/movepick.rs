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

use shakmaty::{
    Bitboard, Chess, Color, Move, MoveList, Position, Rank, Role,
    attacks::{
        aligned, between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks,
        queen_attacks, rook_attacks,
    },
};

use super::eval::see_value;
use super::tt::{pack_move, same_move};

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

/// Sort key of move `i` with ordering score `score`: the score in the high bits, the index of
/// the move in its list in the low 8 bits (so sorting keys sorts moves, no swapping of moves).
#[inline(always)]
fn key(score: i32, i: usize) -> i64 {
    ((score as i64) << 8) | i as i64
}

/// Scores all legal moves of a full-width node into `keys[..moves.len()]`.
pub fn score_moves(
    pos: &Chess,
    moves: &MoveList,
    keys: &mut [i64],
    tt_move: u16,
    killers: [u16; 2],
    history: &HistoryTable,
) {
    let s = side(pos.turn());
    for (i, m) in moves.iter().enumerate() {
        let pm = pack_move(m);
        let score = if pm == tt_move {
            TT_MOVE
        } else if let Some(victim) = m.capture() {
            let victim = see_value(victim);
            if victim >= see_value(m.role()) || see(pos, m) >= 0 {
                GOOD_CAPTURE + victim * 16 - see_value(m.role()) / 16
            } else {
                BAD_CAPTURE + victim * 16 - see_value(m.role()) / 16
            }
        } else if let Some(p) = m.promotion() {
            if p == Role::Queen {
                GOOD_CAPTURE - 1
            } else {
                BAD_CAPTURE - 1
            }
        } else if pm == killers[0] {
            KILLER_1
        } else if pm == killers[1] {
            KILLER_2
        } else {
            history[s][(pm & 63) as usize][((pm >> 6) & 63) as usize]
        };
        keys[i] = key(score, i);
    }
}

/// Scores the moves of a quiescence node (captures and promotions; all evasions when in
/// check): TT move, then MVV-LVA.
pub fn score_captures(moves: &MoveList, keys: &mut [i64], tt_move: u16) {
    for (i, m) in moves.iter().enumerate() {
        let score = if same_move(tt_move, m) {
            TT_MOVE
        } else if m.is_capture() {
            GOOD_CAPTURE + mvv_lva(m)
        } else if m.promotion() == Some(Role::Queen) {
            GOOD_CAPTURE - 1
        } else {
            0
        };
        keys[i] = key(score, i);
    }
}

/// Picks the `i`-th move to search among `n` scored keys: returns its index in the move list and
/// its ordering score. The first three are found by selection (a cutoff often comes early);
/// at the fourth the rest is sorted once.
#[inline]
pub fn pick(keys: &mut [i64], n: usize, i: usize) -> (usize, i32) {
    if i < 3 {
        let mut best = i;
        for j in i + 1..n {
            if keys[j] > keys[best] {
                best = j;
            }
        }
        keys.swap(i, best);
    } else if i == 3 {
        // Insertion sort, descending: the lists are short and often nearly sorted.
        for j in 4..n {
            let k = keys[j];
            let mut h = j;
            while h > 3 && keys[h - 1] < k {
                keys[h] = keys[h - 1];
                h -= 1;
            }
            keys[h] = k;
        }
    }
    let k = keys[i];
    ((k & 255) as usize, (k >> 8) as i32)
}

/// Legal captures and queen promotions of a position whose side to move is **not in check**
/// (quiescence search), without generating quiet moves. En passant captures are left out.
///
/// Legality without check: a non-king move is legal unless the piece is pinned to its king and
/// leaves the pin line; a king capture is legal unless the target is attacked once the king
/// has left its square.
pub fn gen_captures(pos: &Chess, out: &mut MoveList) {
    let b = pos.board();
    let us = pos.turn();
    let our = b.by_color(us);
    let their = b.by_color(!us);
    let occ = b.occupied();
    let Some(king) = b.king_of(us) else { return };
    let snipers = ((rook_attacks(king, Bitboard(0)) & b.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & b.bishops_and_queens()))
        & their;
    let mut pinned = Bitboard(0);
    for s in snipers {
        let blockers = between(king, s) & occ;
        if !blockers.more_than_one() && (blockers & our).any() {
            pinned |= blockers;
        }
    }
    let last_rank = match us {
        Color::White => Bitboard::from_rank(Rank::Eighth),
        Color::Black => Bitboard::from_rank(Rank::First),
    };
    for from in our & !b.kings() {
        let Some(role) = b.role_at(from) else {
            continue;
        };
        let targets = match role {
            Role::Pawn => pawn_attacks(us, from) & their,
            Role::Knight => knight_attacks(from) & their,
            Role::Bishop => bishop_attacks(from, occ) & their,
            Role::Rook => rook_attacks(from, occ) & their,
            _ => queen_attacks(from, occ) & their,
        };
        let is_pinned = pinned.contains(from);
        for to in targets {
            if is_pinned && !aligned(king, from, to) {
                continue;
            }
            let promotion = if role == Role::Pawn && last_rank.contains(to) {
                Some(Role::Queen)
            } else {
                None
            };
            out.push(Move::Normal {
                role,
                from,
                capture: b.role_at(to),
                to,
                promotion,
            });
        }
        if role == Role::Pawn {
            // Quiet queen promotion.
            let to_idx = match us {
                Color::White => from as i32 + 8,
                Color::Black => from as i32 - 8,
            };
            if (0..64).contains(&to_idx) {
                let to = shakmaty::Square::new(to_idx as u32);
                if last_rank.contains(to)
                    && !occ.contains(to)
                    && (!is_pinned || aligned(king, from, to))
                {
                    out.push(Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: Some(Role::Queen),
                    });
                }
            }
        }
    }
    let without_king = occ ^ Bitboard::from_square(king);
    for to in king_attacks(king) & their {
        if b.attacks_to(to, !us, without_king).is_empty() {
            out.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: b.role_at(to),
                to,
                promotion: None,
            });
        }
    }
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
    fn capture_generator_matches_legal_moves() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/8/1b6/8/3N4/4K2r w - - 0 1",
            "4k3/4r3/8/8/8/8/4Q3/4K3 w - - 0 1",
            "2r3k1/1P6/8/8/8/8/8/K7 w - - 0 1",
        ];
        for fen in fens {
            let p = pos(fen);
            if p.is_check() {
                continue;
            }
            let mut want: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|m| {
                    (m.is_capture()
                        && !m.is_en_passant()
                        && m.promotion().is_none_or(|r| r == Role::Queen))
                        || m.promotion() == Some(Role::Queen)
                })
                .collect();
            let mut got = MoveList::new();
            gen_captures(&p, &mut got);
            let mut got: Vec<Move> = got.into_iter().collect();
            let key = |m: &Move| format!("{m:?}");
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got, want, "{fen}");
        }
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
