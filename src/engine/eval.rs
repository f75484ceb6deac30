//! Static evaluation: a tapered (middle game / end game) evaluation.
//!
//! Every term is a pair `(mg, eg)`; the two sums are blended by the game phase
//! (knight = bishop = 1, rook = 2, queen = 4, 24 at the start):
//! `score = (mg * phase + eg * (24 - phase)) / 24`.
//!
//! Terms (white minus black, returned from the side to move's view, in centipawns):
//! - material, per phase;
//! - piece-square tables for every piece, middle and end game (the tables here are this
//!   project's own, written for readability: centralisation for minor pieces, advancement for
//!   pawns, the seventh rank for rooks, a sheltered corner for the king in the middle game and
//!   the centre in the end game);
//! - mobility: squares attacked by each knight, bishop, rook and queen that are neither occupied
//!   by own pieces nor attacked by enemy pawns, relative to a typical count;
//! - pawn structure: doubled and isolated pawns, passed pawns by rank (more in the end game);
//! - bishop pair; rooks on open and half-open files;
//! - king safety (middle game): pawn shelter in front of a castled king, and the number of
//!   enemy piece attacks on the king zone (squared, so several attackers hurt more);
//! - a small tempo bonus for the side to move;
//! - a drawish-material scale: without pawns, a side up by less than a rook cannot win much.

use shakmaty::{
    Bitboard, Chess, Color, Position, Role, Square,
    attacks::{
        bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    },
};

/// Material values `(mg, eg)` by role index (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [(i32, i32); 6] = [
    (85, 105),
    (325, 305),
    (340, 320),
    (470, 530),
    (960, 980),
    (0, 0),
];

/// Plain piece values used for move ordering and SEE.
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// SEE / MVV-LVA value of a role.
#[inline(always)]
pub fn see_value(r: Role) -> i32 {
    SEE_VALUE[r as usize]
}

// Piece-square tables, written as the board is seen by White: first row = rank 8.
#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     60,  60,  60,  65,  65,  60,  60,  60,
     20,  25,  30,  40,  40,  30,  25,  20,
      5,  10,  15,  30,  30,  15,  10,   5,
      0,   0,  10,  25,  25,   5,   0,  -5,
      0,   5,   5,  10,  10,  -5,   5,   0,
      0,   5,   5, -15, -15,  10,  10,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
    110, 110, 105, 100, 100, 105, 110, 110,
     60,  60,  55,  50,  50,  55,  60,  60,
     30,  30,  25,  20,  20,  25,  30,  30,
     15,  15,  10,  10,  10,  10,  15,  15,
      5,   5,   5,   5,   5,   5,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];
#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -40, -30, -30, -30, -30, -40, -60,
    -40, -20,   0,  10,  10,   0, -20, -40,
    -30,   5,  15,  20,  20,  15,   5, -30,
    -30,   5,  20,  25,  25,  20,   5, -30,
    -30,   0,  15,  20,  20,  15,   0, -30,
    -30,   5,  12,  15,  15,  12,   5, -30,
    -40, -20,   0,   5,   5,   0, -20, -40,
    -60, -25, -30, -30, -30, -30, -25, -60,
];
#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -50, -35, -25, -25, -25, -25, -35, -50,
    -35, -15,   0,   5,   5,   0, -15, -35,
    -25,   0,  10,  15,  15,  10,   0, -25,
    -25,   5,  15,  20,  20,  15,   5, -25,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -25,   0,  10,  15,  15,  10,   0, -25,
    -35, -15,   0,   0,   0,   0, -15, -35,
    -50, -35, -25, -25, -25, -25, -35, -50,
];
#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,  10,  10,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,  10,  10,  10,  10,  10, -10,
    -10,  10,   0,   5,   5,   0,  10, -10,
    -20, -10, -15, -10, -10, -15, -10, -20,
];
#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
     -8,   0,   5,   5,   5,   5,   0,  -8,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -8,   0,   5,   5,   5,   5,   0,  -8,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];
#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,  10,  10,  10,  10,  10,  10,   5,
     20,  25,  25,  25,  25,  25,  25,  20,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
     -5,  -5,   0,   5,   5,   5,  -5,  -5,
];
#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
     10,  10,  10,  10,  10,  10,  10,  10,
     15,  15,  15,  15,  15,  15,  15,  15,
      5,   5,   5,   5,   5,   5,   5,   5,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
     -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
     -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
     -5,  -5,   0,   0,   0,   0,  -5,  -5,
];
#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,  -5,   0,   0,   0,   0,  -5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   5,   5,   5,   5,   5,   0, -10,
    -10,   0,   5,   0,   0,   0,   0, -10,
    -20, -10, -10,   0,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -10,   5,  10,  15,  15,  10,   5, -10,
     -5,   5,  15,  20,  20,  15,   5,  -5,
     -5,   5,  15,  20,  20,  15,   5,  -5,
    -10,   5,  10,  15,  15,  10,   5, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
    -20, -10, -10,  -5,  -5, -10, -10, -20,
];
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -60, -60, -70, -70, -60, -60, -60,
    -50, -50, -50, -60, -60, -50, -50, -50,
    -40, -45, -45, -55, -55, -45, -45, -40,
    -35, -40, -40, -50, -50, -40, -40, -35,
    -25, -30, -30, -40, -40, -30, -30, -25,
    -15, -20, -20, -25, -25, -20, -20, -15,
      5,   5, -10, -20, -20, -10,   5,   5,
     20,  30,  10, -10,   0,  -5,  30,  20,
];
#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10,   0,   5,   5,   0, -10, -30,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -25,   5,  20,  30,  30,  20,   5, -25,
    -25,   5,  20,  30,  30,  20,   5, -25,
    -25,   0,  15,  20,  20,  15,   0, -25,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
];

/// `PST[color][role][square]` as `(mg, eg)` including material, square index as shakmaty's
/// (a1 = 0).
struct Tables {
    pst: [[[(i32, i32); 64]; 6]; 2],
    passed_mask: [[u64; 64]; 2],
    file_mask: [u64; 8],
    adjacent_files: [u64; 8],
}

const fn build() -> Tables {
    let mg = [
        &PAWN_MG, &KNIGHT_MG, &BISHOP_MG, &ROOK_MG, &QUEEN_MG, &KING_MG,
    ];
    let eg = [
        &PAWN_EG, &KNIGHT_EG, &BISHOP_EG, &ROOK_EG, &QUEEN_EG, &KING_EG,
    ];
    let mut t = Tables {
        pst: [[[(0, 0); 64]; 6]; 2],
        passed_mask: [[0; 64]; 2],
        file_mask: [0; 8],
        adjacent_files: [0; 8],
    };
    let mut f = 0;
    while f < 8 {
        t.file_mask[f] = 0x0101_0101_0101_0101u64 << f;
        f += 1;
    }
    let mut f = 0;
    while f < 8 {
        let mut m = 0;
        if f > 0 {
            m |= t.file_mask[f - 1];
        }
        if f < 7 {
            m |= t.file_mask[f + 1];
        }
        t.adjacent_files[f] = m;
        f += 1;
    }
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            // White: visual index of square sq is sq ^ 56; black mirrors vertically.
            let w = sq ^ 56;
            let b = sq;
            t.pst[0][r] = {
                let mut a = t.pst[0][r];
                a[sq] = (MATERIAL[r].0 + mg[r][w], MATERIAL[r].1 + eg[r][w]);
                a
            };
            t.pst[1][r] = {
                let mut a = t.pst[1][r];
                a[sq] = (MATERIAL[r].0 + mg[r][b], MATERIAL[r].1 + eg[r][b]);
                a
            };
            sq += 1;
        }
        r += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let span = t.file_mask[file] | t.adjacent_files[file];
        // White: ranks above; black: ranks below.
        let above = if rank == 7 {
            0
        } else {
            !0u64 << ((rank + 1) * 8)
        };
        let below = if rank == 0 {
            0
        } else {
            !0u64 >> ((8 - rank) * 8)
        };
        t.passed_mask[0][sq] = span & above;
        t.passed_mask[1][sq] = span & below;
        sq += 1;
    }
    t
}

static T: Tables = build();

#[inline(always)]
fn ci(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[inline(always)]
fn ri(r: Role) -> usize {
    r as usize - 1
}

/// Passed pawn bonus by relative rank (0..7), `(mg, eg)`.
const PASSED: [(i32, i32); 8] = [
    (0, 0),
    (0, 5),
    (5, 10),
    (10, 20),
    (20, 40),
    (35, 70),
    (55, 110),
    (0, 0),
];
const DOUBLED: (i32, i32) = (-10, -20);
const ISOLATED: (i32, i32) = (-10, -15);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN: (i32, i32) = (25, 10);
const ROOK_HALF_OPEN: (i32, i32) = (12, 5);
const TEMPO: i32 = 12;
/// Mobility weight per square and the typical count subtracted, by role index.
const MOBILITY: [(i32, i32, i32); 6] = [
    (0, 0, 0),
    (4, 4, 4),
    (5, 5, 6),
    (2, 4, 6),
    (1, 2, 12),
    (0, 0, 0),
];
/// King-zone attack weight by attacker role index.
const KING_ATTACK: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Pawn-structure terms (pawn material and squares, isolated, doubled, passed), white minus
/// black, `(mg, eg)`. They depend on the pawns only, so they are cached by [`PawnCache`].
fn pawn_terms(pawns: [Bitboard; 2]) -> (i32, i32) {
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    for c in 0..2 {
        let them_c = 1 - c;
        let pst = &T.pst[c];
        for sq in pawns[c] {
            let (m, e) = pst[0][sq as usize];
            mg[c] += m;
            eg[c] += e;
            let file = sq.file() as usize;
            if (pawns[c].0 & T.adjacent_files[file]) == 0 {
                mg[c] += ISOLATED.0;
                eg[c] += ISOLATED.1;
            }
            if (T.passed_mask[c][sq as usize] & pawns[them_c].0) == 0 {
                let rel = if c == 0 {
                    sq.rank() as usize
                } else {
                    7 - sq.rank() as usize
                };
                // Only the front pawn of doubled pawns counts as passed.
                let front = T.file_mask[file] & T.passed_mask[c][sq as usize];
                if front & pawns[c].0 == 0 {
                    mg[c] += PASSED[rel].0;
                    eg[c] += PASSED[rel].1;
                }
            }
        }
        for f in 0..8 {
            let n = (pawns[c].0 & T.file_mask[f]).count_ones() as i32;
            if n > 1 {
                mg[c] += DOUBLED.0 * (n - 1);
                eg[c] += DOUBLED.1 * (n - 1);
            }
        }
    }
    (mg[0] - mg[1], eg[0] - eg[1])
}

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    mg: i32,
    eg: i32,
}

/// A direct-mapped cache of [`pawn_terms`] keyed by the two pawn bitboards (pawn structures
/// repeat across the tree far more than positions do).
pub struct PawnCache {
    entries: Vec<PawnEntry>,
}

const PAWN_CACHE_SIZE: usize = 1 << 14; // index = top 14 bits of the mixed hash

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    /// An empty cache (384 KB).
    pub fn new() -> PawnCache {
        // An empty entry (no pawns at all) holds the true value of a pawnless board: 0.
        PawnCache {
            entries: vec![PawnEntry::default(); PAWN_CACHE_SIZE],
        }
    }

    #[inline]
    fn get(&mut self, pawns: [Bitboard; 2]) -> (i32, i32) {
        let (w, b) = (pawns[0].0, pawns[1].0);
        let h =
            (w.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)) >> 50;
        let e = &mut self.entries[h as usize];
        if e.white == w && e.black == b {
            return (e.mg, e.eg);
        }
        let (mg, eg) = pawn_terms(pawns);
        *e = PawnEntry {
            white: w,
            black: b,
            mg,
            eg,
        };
        (mg, eg)
    }
}

/// A direct-mapped cache of whole evaluations, keyed by the position's Zobrist key.
///
/// The quiescence search evaluates every node for its stand-pat score, and the same positions
/// come back across the iterations of iterative deepening and through transpositions. Each
/// slot is one `u64`: the key's high 48 bits and the evaluation in the low 16 bits; the slot
/// index is the key's low bits. A false hit needs 48 key bits to agree.
///
/// ```text
///  bit 63                              16 15              0
///      +----------------------------------+----------------+
///      |       key bits 63..16            |  eval (i16)    |
///      +----------------------------------+----------------+
/// ```
pub struct EvalCache {
    slots: Vec<u64>,
}

const EVAL_CACHE_BITS: u32 = 15;

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache (256 KB).
    pub fn new() -> EvalCache {
        // An empty slot holds key bits that match only a key of all ones there.
        EvalCache {
            slots: vec![u64::MAX; 1 << EVAL_CACHE_BITS],
        }
    }

    /// The evaluation of `pos` (whose key is `key`), from the cache or computed and stored.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, key: u64, pawns: &mut PawnCache) -> i32 {
        let slot = &mut self.slots[(key & ((1 << EVAL_CACHE_BITS) - 1)) as usize];
        if (*slot ^ key) >> 16 == 0 {
            return i32::from(*slot as u16 as i16);
        }
        let v = evaluate_with(pos, pawns).clamp(i32::from(i16::MIN), i32::from(i16::MAX));
        *slot = (key & !0xffff) | u64::from(v as i16 as u16);
        v
    }
}

/// Game phase: 0 (bare kings and pawns) ..= 24 (all pieces).
#[inline]
pub fn phase(pos: &Chess) -> i32 {
    let b = pos.board();
    let p = (b.knights().count() + b.bishops().count()) as i32
        + 2 * b.rooks().count() as i32
        + 4 * b.queens().count() as i32;
    p.min(24)
}

/// Evaluates `pos` from the side to move's point of view, in centipawns (no cache).
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &mut PawnCache::new())
}

/// Evaluates `pos` from the side to move's point of view, in centipawns.
///
/// The evaluation counts many bits (mobility, king attacks). The portable x86-64 baseline has
/// no `popcnt` instruction, so on x86-64 the body is compiled a second time with it enabled,
/// and that copy is used when the CPU has it (nearly every x86-64 CPU since 2008).
pub fn evaluate_with(pos: &Chess, cache: &mut PawnCache) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU supports `popcnt`, the only feature the callee enables.
        return unsafe { evaluate_popcnt(pos, cache) };
    }
    evaluate_body(pos, cache)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Chess, cache: &mut PawnCache) -> i32 {
    evaluate_body(pos, cache)
}

#[inline(always)]
fn evaluate_body(pos: &Chess, cache: &mut PawnCache) -> i32 {
    let b = pos.board();
    let occ = b.occupied();
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut king_attack = [0i32; 2];
    let pawns = [b.pawns() & b.white(), b.pawns() & b.black()];
    let pawn_att = [
        pawn_span(pawns[0], Color::White),
        pawn_span(pawns[1], Color::Black),
    ];
    let kings = [b.king_of(Color::White), b.king_of(Color::Black)];
    let zones = [
        kings[0].map_or(Bitboard(0), |k| king_attacks(k).with(k)),
        kings[1].map_or(Bitboard(0), |k| king_attacks(k).with(k)),
    ];

    for color in [Color::White, Color::Black] {
        let c = ci(color);
        let us = b.by_color(color);
        let them_c = 1 - c;
        let safe = !us & !pawn_att[them_c];
        let pst = &T.pst[c];
        // Pieces.
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let r = ri(role);
            for sq in b.by_role(role) & us {
                let (m, e) = pst[r][sq as usize];
                mg[c] += m;
                eg[c] += e;
                let att = match role {
                    Role::Knight => knight_attacks(sq),
                    Role::Bishop => bishop_attacks(sq, occ),
                    Role::Rook => rook_attacks(sq, occ),
                    _ => queen_attacks(sq, occ),
                };
                let mob = (att & safe).count() as i32 - MOBILITY[r].2;
                mg[c] += mob * MOBILITY[r].0;
                eg[c] += mob * MOBILITY[r].1;
                let za = (att & zones[them_c]).count() as i32;
                if za > 0 {
                    king_attack[c] += za * KING_ATTACK[r];
                }
                if role == Role::Rook {
                    let fm = T.file_mask[sq.file() as usize];
                    if fm & pawns[c].0 == 0 {
                        if fm & pawns[them_c].0 == 0 {
                            mg[c] += ROOK_OPEN.0;
                            eg[c] += ROOK_OPEN.1;
                        } else {
                            mg[c] += ROOK_HALF_OPEN.0;
                            eg[c] += ROOK_HALF_OPEN.1;
                        }
                    }
                }
            }
        }
        if (b.bishops() & us).count() >= 2 {
            mg[c] += BISHOP_PAIR.0;
            eg[c] += BISHOP_PAIR.1;
        }
        // King.
        if let Some(k) = kings[c] {
            let (m, e) = pst[5][k as usize];
            mg[c] += m;
            eg[c] += e;
            // Pawn shelter: own pawns on the three files around the king, one or two ranks in
            // front, while the king sits on its first two ranks.
            let rel_rank = if c == 0 {
                k.rank() as i32
            } else {
                7 - k.rank() as i32
            };
            if rel_rank <= 1 {
                let file = k.file() as usize;
                let files = T.file_mask[file] | T.adjacent_files[file];
                let front = T.passed_mask[c][k as usize] & files;
                let shield = (front & pawns[c].0 & near_ranks(k, color)).count_ones() as i32;
                mg[c] += 12 * shield.min(3) - 15;
            }
        }
    }
    // King attacks: quadratic in the attack units, middle game only.
    for c in 0..2 {
        let u = king_attack[c].min(40);
        mg[c] += u * u / 3;
    }

    let ph = phase(pos);
    let (pmg, peg) = cache.get(pawns);
    let mg_s = mg[0] - mg[1] + pmg;
    let mut eg_s = eg[0] - eg[1] + peg;
    // Drawish material: the stronger side has no pawns and is up less than a rook.
    let strong = if eg_s > 0 { 0 } else { 1 };
    if pawns[strong].0 == 0 {
        let mat = |c: usize| {
            let us = if c == 0 { b.white() } else { b.black() };
            (b.knights() & us).count() as i32 * 3
                + (b.bishops() & us).count() as i32 * 3
                + (b.rooks() & us).count() as i32 * 5
                + (b.queens() & us).count() as i32 * 9
        };
        if mat(strong) - mat(1 - strong) < 4 {
            eg_s /= 8;
        }
    }
    let score = (mg_s * ph + eg_s * (24 - ph)) / 24;
    let score = if pos.turn() == Color::White {
        score
    } else {
        -score
    };
    score + TEMPO
}

#[inline(always)]
fn near_ranks(k: Square, color: Color) -> u64 {
    let r = k.rank() as i32;
    let (r1, r2) = if color == Color::White {
        (r + 1, r + 2)
    } else {
        (r - 1, r - 2)
    };
    let mut m = 0u64;
    for rr in [r1, r2] {
        if (0..8).contains(&rr) {
            m |= 0xffu64 << (rr * 8);
        }
    }
    m
}

#[inline(always)]
fn pawn_span(pawns: Bitboard, color: Color) -> Bitboard {
    let p = pawns.0;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    match color {
        Color::White => Bitboard(((p & not_a) << 7) | ((p & not_h) << 9)),
        Color::Black => Bitboard(((p & not_a) >> 9) | ((p & not_h) >> 7)),
    }
}

/// Attacks of one pawn (re-exported for SEE).
#[inline(always)]
pub fn pawn_attack(color: Color, sq: Square) -> Bitboard {
    pawn_attacks(color, sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, fen::Fen};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    #[test]
    fn start_position_is_balanced() {
        let p = Chess::default();
        assert_eq!(evaluate(&p), TEMPO);
    }

    #[test]
    fn symmetric_positions_mirror() {
        let a = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn material_counts() {
        let up_queen = pos("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1");
        assert!(evaluate(&up_queen) > 800);
        let down = pos("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1");
        assert!(evaluate(&down) < -800);
    }

    #[test]
    fn passed_pawn_masks() {
        // White pawn on e4: d5-f8 span.
        let m = T.passed_mask[0][Square::E4 as usize];
        assert!(m & (1 << Square::D5 as u64) != 0);
        assert!(m & (1 << Square::F8 as u64) != 0);
        assert!(m & (1 << Square::E4 as u64) == 0);
        assert!(m & (1 << Square::E3 as u64) == 0);
        let m = T.passed_mask[1][Square::E5 as usize];
        assert!(m & (1 << Square::D4 as u64) != 0);
        assert!(m & (1 << Square::E6 as u64) == 0);
    }
}
