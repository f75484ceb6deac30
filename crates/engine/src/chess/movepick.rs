//! Move ordering and static exchange evaluation.
//!
//! A full-width node hands out its moves in stages ([`MovePicker`]), generating each group
//! only when the previous ones did not cut off:
//! 1. the transposition-table move (decoded and checked for legality, no generation at all);
//! 2. captures, en passant and queen promotions ([`gen_captures`]), most valuable victim
//!    first, then least valuable attacker (MVV-LVA). A capture of a piece worth less than the
//!    capturer is checked by static exchange evaluation ([`see`]) when its turn comes; a
//!    losing one is put aside for stage 5;
//! 3. the two killer moves of the ply (quiet moves that cut off at a sibling), if legal here;
//! 4. the other moves: quiet moves by the history heuristic (butterfly table,
//!    side × from × to), under-promotions last. The search may skip this stage and the killers
//!    at once (late-move pruning);
//! 5. the losing captures, in the order they were found.
//!
//! In check every evasion is generated at once and ordered in one list: TT move, winning
//! captures, killers, history, losing captures. Moves are picked by selection sort
//! ([`ScoredMoves`]): a cutoff on an early move costs no full sort.

use arrayvec::ArrayVec;
use shakmaty::{
    Bitboard, Chess, Color, Move, MoveList, Position, Role, Square,
    attacks::{
        aligned, between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks,
        queen_attacks, rook_attacks,
    },
};

use super::eval::see_value;
use super::moves::decode_move;
use crate::search::ordering::KILLER_SCORE;
use crate::tt::{pack_move, same_move};

/// Butterfly history table: `[side][from][to]`.
pub type HistoryTable = [[[i32; 64]; 64]; 2];

// Ordering scores of evasions (one list, all kinds of moves). Sort keys hold the score in the
// high 24 bits of an i32, so every score stays within +-2^23.
const EVADE_GOOD_CAPTURE: i32 = 4_000_000;
const EVADE_BAD_CAPTURE: i32 = -4_000_000;
/// Under-promotions: after every other move of their list.
const UNDERPROMOTION: i32 = -5_000_000;

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

/// Does `m` belong to the capture stage (what [`gen_captures`] plus en passant produce)?
#[inline(always)]
fn in_capture_stage(m: &Move) -> bool {
    match *m {
        Move::EnPassant { .. } => true,
        Move::Normal {
            capture, promotion, ..
        } => match promotion {
            None => capture.is_some(),
            Some(p) => p == Role::Queen,
        },
        Move::Castle { .. } | Move::Put { .. } => false,
    }
}

/// MVV-LVA key of a capture or queen promotion (a promotion counts as winning the material it
/// adds): the victim's value, then the attacker's role from pawn (best) to king.
#[inline(always)]
pub fn mvv_lva(m: &Move) -> i32 {
    (m.capture().map_or(0, see_value) + promotion_gain(m)) * 8 - m.role() as i32
}

/// Material a promotion adds (0 for other moves).
#[inline(always)]
fn promotion_gain(m: &Move) -> i32 {
    m.promotion()
        .map_or(0, |r| see_value(r) - see_value(Role::Pawn))
}

/// Does the capture `m` lose material by static exchange? Only captures of a piece worth
/// less than the capturer can, so only they pay for the exchange evaluation.
#[inline]
pub fn loses_material(pos: &Chess, m: &Move) -> bool {
    m.capture()
        .is_some_and(|victim| see_value(victim) < see_value(m.role()) && see(pos, m) < 0)
}

/// A list of moves with their ordering scores, handed out best first: the first three by
/// selection (a cutoff usually comes early), then the rest sorted once.
pub struct ScoredMoves {
    moves: MoveList,
    /// Sort keys: the score in the high 24 bits, the move's index in the low 8 (so sorting
    /// keys sorts moves). Scores stay within +-2^23.
    keys: ArrayVec<i32, 256>,
    next: usize,
    /// Number of leading keys already in order.
    sorted: usize,
}

impl Default for ScoredMoves {
    fn default() -> ScoredMoves {
        ScoredMoves::new()
    }
}

impl ScoredMoves {
    /// An empty list.
    #[inline]
    pub fn new() -> ScoredMoves {
        ScoredMoves {
            moves: MoveList::new(),
            keys: ArrayVec::new(),
            next: 0,
            sorted: 0,
        }
    }

    /// Replaces the list with the moves `generate` writes into the (cleared) move list, scored
    /// by `score`. The moves are generated in place: a list is a few kilobytes, and copying
    /// it at every node cost about 5% of the search's time.
    #[inline]
    pub fn fill(&mut self, generate: impl FnOnce(&mut MoveList), score: impl Fn(&Move) -> i32) {
        self.moves.clear();
        generate(&mut self.moves);
        self.keys.clear();
        for (i, m) in self.moves.iter().enumerate() {
            self.keys.push((score(m) << 8) | i as i32);
        }
        self.next = 0;
        self.sorted = 0;
    }

    /// No moves at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best remaining move and its score.
    #[inline]
    pub fn next_best(&mut self) -> Option<(Move, i32)> {
        let n = self.keys.len();
        let i = self.next;
        if i >= n {
            return None;
        }
        if i >= self.sorted {
            if i < 3 {
                let keys = &mut self.keys[..];
                let mut best = i;
                for j in i + 1..n {
                    if keys[j] > keys[best] {
                        best = j;
                    }
                }
                keys.swap(i, best);
                self.sorted = i + 1;
            } else {
                self.keys[i..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = n;
            }
        }
        self.next += 1;
        let k = self.keys[i];
        Some((self.moves[(k & 255) as usize], k >> 8))
    }
}

/// The stages of a [`MovePicker`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Tt,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    Done,
}

/// A move handed out by the [`MovePicker`] (the search's [`Picked`](crate::search::ordering::Picked)).
pub type Picked = crate::search::ordering::Picked<Move>;

/// Hands out the moves of a full-width node in stages (see the module docs).
pub struct MovePicker<'a> {
    pos: &'a Chess,
    stage: Stage,
    tt: Option<Move>,
    killers: [u16; 2],
    /// Killers handed out in stage 3 (skipped in stage 4).
    killers_played: [u16; 2],
    list: ScoredMoves,
    bad: ArrayVec<Move, 32>,
    bad_next: usize,
    skip_quiets: bool,
}

impl<'a> MovePicker<'a> {
    /// A picker for the moves of `pos`, with its (legal) TT move and the ply's killers.
    pub fn new(pos: &'a Chess, tt: Option<Move>, killers: [u16; 2]) -> MovePicker<'a> {
        MovePicker {
            pos,
            stage: Stage::Tt,
            tt,
            killers,
            killers_played: [0; 2],
            list: ScoredMoves::new(),
            bad: ArrayVec::new(),
            bad_next: 0,
            skip_quiets: false,
        }
    }

    /// From now on, no more quiet moves (killers included): late-move pruning.
    pub fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when every move has been handed out.
    pub fn next(&mut self, history: &HistoryTable) -> Option<Picked> {
        let pos = self.pos;
        loop {
            match self.stage {
                Stage::Tt => {
                    self.stage = if pos.is_check() {
                        Stage::GenEvasions
                    } else {
                        Stage::GenCaptures
                    };
                    if let Some(m) = self.tt {
                        return Some(Picked {
                            m,
                            score: i32::MAX,
                            losing: false,
                        });
                    }
                }
                Stage::GenCaptures => {
                    self.list.fill(
                        |moves| {
                            gen_captures(pos, moves);
                            if pos.maybe_ep_square().is_some() {
                                moves.extend(pos.en_passant_moves());
                            }
                        },
                        mvv_lva,
                    );
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    let Some((m, score)) = self.list.next_best() else {
                        self.stage = Stage::Killer1;
                        continue;
                    };
                    if Some(m) == self.tt {
                        continue;
                    }
                    if !self.bad.is_full() && loses_material(pos, &m) {
                        self.bad.push(m);
                        continue;
                    }
                    return Some(Picked {
                        m,
                        score,
                        losing: false,
                    });
                }
                Stage::Killer1 | Stage::Killer2 => {
                    let k = if self.stage == Stage::Killer1 { 0 } else { 1 };
                    self.stage = if k == 0 {
                        Stage::Killer2
                    } else {
                        Stage::GenQuiets
                    };
                    if self.skip_quiets {
                        continue;
                    }
                    let p = self.killers[k];
                    if p == 0
                        || (k == 1 && p == self.killers[0])
                        || self.tt.is_some_and(|t| same_move(p, &t))
                    {
                        continue;
                    }
                    if let Some(m) = decode_move(pos, p, false)
                        && !is_noisy(&m)
                    {
                        self.killers_played[k] = p;
                        return Some(Picked {
                            m,
                            score: KILLER_SCORE,
                            losing: false,
                        });
                    }
                }
                Stage::GenQuiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let s = side(pos.turn());
                    self.list.fill(
                        |moves| {
                            *moves = pos.legal_moves();
                            moves.retain(|m| !in_capture_stage(m));
                        },
                        |m| {
                            if m.is_promotion() {
                                UNDERPROMOTION
                            } else {
                                let from = m.from().map_or(0, |f| f as usize);
                                history[s][from][m.to() as usize]
                            }
                        },
                    );
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.skip_quiets {
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let Some((m, score)) = self.list.next_best() else {
                        self.stage = Stage::BadCaptures;
                        continue;
                    };
                    if Some(m) == self.tt {
                        continue;
                    }
                    let p = pack_move(&m);
                    if p == self.killers_played[0] || p == self.killers_played[1] {
                        continue;
                    }
                    return Some(Picked {
                        m,
                        score,
                        losing: false,
                    });
                }
                Stage::BadCaptures => {
                    let Some(&m) = self.bad.get(self.bad_next) else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    self.bad_next += 1;
                    return Some(Picked {
                        m,
                        score: 0,
                        losing: true,
                    });
                }
                Stage::GenEvasions => {
                    let s = side(pos.turn());
                    let killers = self.killers;
                    self.list.fill(
                        |moves| *moves = pos.legal_moves(),
                        |m| evasion_score(pos, m, killers, &history[s]),
                    );
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    let Some((m, score)) = self.list.next_best() else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    if Some(m) == self.tt {
                        continue;
                    }
                    return Some(Picked {
                        m,
                        score,
                        losing: false,
                    });
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Ordering score of an evasion: winning and equal captures and queen promotions by MVV-LVA,
/// killers, quiet moves by history, losing captures, under-promotions.
fn evasion_score(pos: &Chess, m: &Move, killers: [u16; 2], history: &[[i32; 64]; 64]) -> i32 {
    if m.is_capture() {
        let base = if loses_material(pos, m) {
            EVADE_BAD_CAPTURE
        } else {
            EVADE_GOOD_CAPTURE
        };
        return base + mvv_lva(m);
    }
    match m.promotion() {
        Some(Role::Queen) => EVADE_GOOD_CAPTURE + mvv_lva(m),
        Some(_) => UNDERPROMOTION,
        None => {
            let pm = pack_move(m);
            if pm == killers[0] || pm == killers[1] {
                KILLER_SCORE
            } else {
                let from = m.from().map_or(0, |f| f as usize);
                history[from][m.to() as usize]
            }
        }
    }
}

/// Legal captures and queen promotions of a position whose side to move is **not in check**
/// (the picker's capture stage and the quiescence search), without generating quiet moves.
/// En passant captures are left out.
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
    let last_rank = Bitboard::from_rank((!us).backrank());
    let mut push = |role: Role, from: Square, targets: Bitboard, promotion: Option<Role>| {
        let is_pinned = pinned.contains(from);
        for to in targets {
            if is_pinned && !aligned(king, from, to) {
                continue;
            }
            out.push(Move::Normal {
                role,
                from,
                capture: b.role_at(to),
                to,
                promotion,
            });
        }
    };
    // Pawns: captures (promoting to a queen on the last rank) and quiet queen promotions.
    let forward: i32 = match us {
        Color::White => 8,
        Color::Black => -8,
    };
    for from in b.pawns() & our {
        let targets = pawn_attacks(us, from) & their;
        let push_to = from
            .offset(forward)
            .map_or(Bitboard(0), Bitboard::from_square);
        let promotions = (targets | (push_to & !occ)) & last_rank;
        if promotions.any() {
            push(Role::Pawn, from, promotions, Some(Role::Queen));
        } else if targets.any() {
            push(Role::Pawn, from, targets, None);
        }
    }
    for from in b.knights() & our {
        push(Role::Knight, from, knight_attacks(from) & their, None);
    }
    for from in b.bishops() & our {
        push(Role::Bishop, from, bishop_attacks(from, occ) & their, None);
    }
    for from in b.rooks() & our {
        push(Role::Rook, from, rook_attacks(from, occ) & their, None);
    }
    for from in b.queens() & our {
        push(Role::Queen, from, queen_attacks(from, occ) & their, None);
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
/// square, each side free to stop; a promotion counts the material it adds. En passant and
/// castling count as 0.
pub fn see(pos: &Chess, m: &Move) -> i32 {
    let (from, to) = match *m {
        Move::Normal { from, to, .. } => (from, to),
        Move::EnPassant { .. } => return 0,
        _ => return 0,
    };
    let board = pos.board();
    let mut gain = [0i32; 32];
    let mut d = 0;
    gain[0] = m.capture().map_or(0, see_value) + promotion_gain(m);
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

    /// Every legal move exactly once, whatever the TT move and killers (legal or not, quiet
    /// or not); with late-move pruning, every capture and queen promotion still, and no quiet
    /// move after the skip (under-promotions go with the quiet moves).
    #[test]
    fn picker_hands_out_every_legal_move_once() {
        let history: HistoryTable = [[[0; 64]; 64]; 2];
        let mut seed = 5;
        let positions = crate::test_positions::positions();
        for (n, p) in positions.iter().enumerate().step_by(5) {
            let legal = p.legal_moves();
            if legal.is_empty() {
                continue;
            }
            let mut any = |list: &MoveList| {
                let r = crate::tt::splitmix64(&mut seed) as usize;
                list.get(r % list.len().max(1)).copied()
            };
            // Killers from this position, or from another one (mostly illegal here).
            let other = positions[(n * 7 + 3) % positions.len()].legal_moves();
            let tt = if n % 3 == 0 { None } else { any(&legal) };
            let killers = [
                any(&legal).map_or(0, |m| pack_move(&m)),
                any(&other).map_or(0, |m| pack_move(&m)),
            ];
            let mut picker = MovePicker::new(p, tt, killers);
            let mut got = Vec::new();
            while let Some(x) = picker.next(&history) {
                got.push(x.m);
            }
            let key = |m: &Move| format!("{m:?}");
            let mut want: Vec<Move> = legal.iter().copied().collect();
            want.sort_by_key(key);
            got.sort_by_key(key);
            assert_eq!(got, want, "{:?} tt {tt:?} killers {killers:x?}", p.board());

            // Late-move pruning after the third move.
            let mut picker = MovePicker::new(p, tt, killers);
            let mut got = Vec::new();
            while let Some(x) = picker.next(&history) {
                if got.len() == 2 {
                    picker.skip_quiets();
                }
                got.push(x.m);
            }
            let mut unique = got.clone();
            unique.sort_by_key(key);
            unique.dedup();
            assert_eq!(unique.len(), got.len(), "a move twice: {got:?}");
            for (i, m) in got.iter().enumerate() {
                assert!(legal.contains(m), "{m:?} is not legal");
                assert!(
                    i < 3 || is_noisy(m) || p.is_check(),
                    "quiet {m:?} after the skip"
                );
            }
            for m in legal.iter().filter(|m| in_capture_stage(m) || p.is_check()) {
                assert!(got.contains(m), "{m:?} skipped: {got:?}");
            }
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
