//! Static evaluation: a tapered (middle game / end game) evaluation with tuned weights.
//!
//! Every term is a pair `(mg, eg)`; the two sums are blended by the game phase
//! (knight = bishop = 1, rook = 2, queen = 4, 24 at the start):
//! `score = (mg * phase + eg * (24 - phase)) / 24`.
//!
//! Terms (white minus black, returned from the side to move's view, in centipawns):
//! - material and piece-square tables for every piece, middle and end game;
//! - mobility: by the number of squares each knight, bishop, rook and queen attacks that are
//!   neither occupied by own pieces nor attacked by enemy pawns;
//! - pawn structure: doubled and isolated pawns, passed pawns by rank;
//! - bishop pair; rooks on open and half-open files;
//! - threats: enemy pieces (not pawns) attacked by a pawn;
//! - king safety: pawn shelter in front of a king on its first two ranks, and the enemy piece
//!   attacks on the king zone (by attack units, a table, so several attackers can hurt more
//!   than the sum of each);
//! - a small tempo bonus for the side to move;
//! - a drawish-material scale: without pawns, a side up by less than a rook cannot win much.
//!
//! # Weights as data
//!
//! The weights live in [`params`], one flat table [`WEIGHTS`] indexed by [`feature`]. The
//! evaluation is written once, generic over [`Terms`]: [`evaluate_with`] sums the weights of the
//! features it meets, [`trace`] records how often each feature occurs instead. The evaluation is
//! linear in the weights for a given position (apart from the drawish scale, recorded in the
//! trace), which is what the tuner (`examples/tune_eval.rs`) needs to fit them to labelled
//! positions by gradient descent ("Texel tuning").

pub mod params;

use crate::evalcache::EvalSlots;
use shakmaty::{
    Bitboard, Board, Chess, Color, Position, Role, Square,
    attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks},
};

/// A `(middle game, end game)` weight.
pub type S = (i32, i32);

/// Feature indices: the offset of each group of weights in [`WEIGHTS`].
pub mod feature {
    /// Material by role (pawn..queen).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: `PST + 64 * role + visual square` (rank 8 first, White's view).
    pub const PST: usize = MATERIAL + 5;
    /// Knight mobility by safe squares (0..=8).
    pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
    /// Bishop mobility (0..=13).
    pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
    /// Rook mobility (0..=14).
    pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
    /// Queen mobility (0..=27).
    pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
    /// Passed pawn by relative rank.
    pub const PASSED: usize = MOBILITY_QUEEN + 28;
    /// Doubled pawn.
    pub const DOUBLED: usize = PASSED + 8;
    /// Isolated pawn.
    pub const ISOLATED: usize = DOUBLED + 1;
    /// Bishop pair.
    pub const BISHOP_PAIR: usize = ISOLATED + 1;
    /// Rook on an open file.
    pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
    /// Rook on a half-open file.
    pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
    /// King shelter by shield pawns (0..=3).
    pub const SHELTER: usize = ROOK_HALF_OPEN + 1;
    /// King-zone attacks by attack units (0..=40).
    pub const KING_ATTACK: usize = SHELTER + 4;
    /// An enemy knight, bishop, rook or queen attacked by a pawn, by its role.
    pub const PAWN_THREAT: usize = KING_ATTACK + 41;
    /// Number of weights.
    pub const COUNT: usize = PAWN_THREAT + 4;
}

/// Every weight of [`params`] in one table, indexed by [`feature`].
pub static WEIGHTS: [S; feature::COUNT] = flatten();

const fn flatten() -> [S; feature::COUNT] {
    let mut w = [(0, 0); feature::COUNT];
    let mut i = 0;
    while i < 5 {
        w[feature::MATERIAL + i] = params::MATERIAL[i];
        i += 1;
    }
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            w[feature::PST + 64 * r + sq] = params::PST[r][sq];
            sq += 1;
        }
        r += 1;
    }
    copy(&mut w, feature::MOBILITY_KNIGHT, &params::MOBILITY_KNIGHT);
    copy(&mut w, feature::MOBILITY_BISHOP, &params::MOBILITY_BISHOP);
    copy(&mut w, feature::MOBILITY_ROOK, &params::MOBILITY_ROOK);
    copy(&mut w, feature::MOBILITY_QUEEN, &params::MOBILITY_QUEEN);
    copy(&mut w, feature::PASSED, &params::PASSED);
    w[feature::DOUBLED] = params::DOUBLED;
    w[feature::ISOLATED] = params::ISOLATED;
    w[feature::BISHOP_PAIR] = params::BISHOP_PAIR;
    w[feature::ROOK_OPEN] = params::ROOK_OPEN;
    w[feature::ROOK_HALF_OPEN] = params::ROOK_HALF_OPEN;
    copy(&mut w, feature::SHELTER, &params::SHELTER);
    copy(&mut w, feature::KING_ATTACK, &params::KING_ATTACK);
    copy(&mut w, feature::PAWN_THREAT, &params::PAWN_THREAT);
    w
}

const fn copy(w: &mut [S; feature::COUNT], at: usize, src: &[S]) {
    let mut i = 0;
    while i < src.len() {
        w[at + i] = src[i];
        i += 1;
    }
}

/// The groups of [`WEIGHTS`]: name in [`params`], offset, length. The tuner writes
/// `params.rs` from it.
pub const GROUPS: [(&str, usize, usize); 16] = [
    ("MATERIAL", feature::MATERIAL, 5),
    ("PST", feature::PST, 6 * 64),
    ("MOBILITY_KNIGHT", feature::MOBILITY_KNIGHT, 9),
    ("MOBILITY_BISHOP", feature::MOBILITY_BISHOP, 14),
    ("MOBILITY_ROOK", feature::MOBILITY_ROOK, 15),
    ("MOBILITY_QUEEN", feature::MOBILITY_QUEEN, 28),
    ("PASSED", feature::PASSED, 8),
    ("DOUBLED", feature::DOUBLED, 1),
    ("ISOLATED", feature::ISOLATED, 1),
    ("BISHOP_PAIR", feature::BISHOP_PAIR, 1),
    ("ROOK_OPEN", feature::ROOK_OPEN, 1),
    ("ROOK_HALF_OPEN", feature::ROOK_HALF_OPEN, 1),
    ("SHELTER", feature::SHELTER, 4),
    ("KING_ATTACK", feature::KING_ATTACK, 41),
    ("PAWN_THREAT", feature::PAWN_THREAT, 4),
    ("", feature::COUNT, 0),
];

/// Plain piece values used for move ordering and SEE.
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// SEE / MVV-LVA value of a role.
#[inline(always)]
pub fn see_value(r: Role) -> i32 {
    SEE_VALUE[r as usize]
}

/// Where the evaluation puts what it finds: `n` occurrences of feature `f` (an index into
/// [`WEIGHTS`]) for side `color` (0 = White, 1 = Black).
pub trait Terms {
    fn add(&mut self, color: usize, f: usize, n: i32);
}

/// Sums the weights: the evaluation proper.
#[derive(Default)]
struct Sum {
    mg: [i32; 2],
    eg: [i32; 2],
}

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, color: usize, f: usize, n: i32) {
        let (m, e) = WEIGHTS[f];
        self.mg[color] += m * n;
        self.eg[color] += e * n;
    }
}

/// A position's evaluation as feature counts, for tuning: the score is
/// `(mg * phase + eg * (24 - phase)) / 24` from White's view, with
/// `mg = sum of count * weight.0`, `eg = eg_scale * sum of count * weight.1`, plus the tempo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// `(feature, white count - black count)`, nonzero counts only.
    pub counts: Vec<(u16, i16)>,
    /// Game phase, 0..=24.
    pub phase: i32,
    /// 1, or 1/8 when the drawish-material scale applies.
    pub eg_scale: f64,
    /// White to move.
    pub white_to_move: bool,
}

/// Records counts per feature (white minus black).
struct Counter {
    counts: Vec<i32>,
}

impl Terms for Counter {
    fn add(&mut self, color: usize, f: usize, n: i32) {
        self.counts[f] += if color == 0 { n } else { -n };
    }
}

/// Precomputed masks.
struct Masks {
    /// Squares in front of a pawn on its own and the adjacent files, by colour and square.
    passed: [[u64; 64]; 2],
    file: [u64; 8],
    adjacent_files: [u64; 8],
}

const fn build_masks() -> Masks {
    let mut t = Masks {
        passed: [[0; 64]; 2],
        file: [0; 8],
        adjacent_files: [0; 8],
    };
    let mut f = 0;
    while f < 8 {
        t.file[f] = 0x0101_0101_0101_0101u64 << f;
        f += 1;
    }
    let mut f = 0;
    while f < 8 {
        let mut m = 0;
        if f > 0 {
            m |= t.file[f - 1];
        }
        if f < 7 {
            m |= t.file[f + 1];
        }
        t.adjacent_files[f] = m;
        f += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let span = t.file[file] | t.adjacent_files[file];
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
        t.passed[0][sq] = span & above;
        t.passed[1][sq] = span & below;
        sq += 1;
    }
    t
}

static M: Masks = build_masks();

/// Index of a role among pawn..king (0..6).
#[inline(always)]
fn ri(r: Role) -> usize {
    r as usize - 1
}

/// The square as its own side sees the board in [`params::PST`] (rank 8 first for White).
#[inline(always)]
fn visual(c: usize, sq: Square) -> usize {
    if c == 0 {
        sq as usize ^ 56
    } else {
        sq as usize
    }
}

/// King-zone attack units by role index.
const ATTACK_UNITS: [i32; 6] = [0, 2, 2, 3, 5, 0];

/// Pawn-structure terms (pawn material and squares, isolated, doubled, passed). They depend
/// on the pawns only, so the evaluation caches their sum ([`PawnCache`]).
#[inline(always)]
fn pawn_terms<T: Terms>(pawns: [Bitboard; 2], t: &mut T) {
    for c in 0..2 {
        let them = 1 - c;
        t.add(c, feature::MATERIAL, pawns[c].count() as i32);
        for sq in pawns[c] {
            t.add(c, feature::PST + visual(c, sq), 1);
            let file = sq as usize & 7;
            if pawns[c].0 & M.adjacent_files[file] == 0 {
                t.add(c, feature::ISOLATED, 1);
            }
            if M.passed[c][sq as usize] & pawns[them].0 == 0 {
                // Only the front pawn of doubled pawns counts as passed.
                let front = M.file[file] & M.passed[c][sq as usize];
                if front & pawns[c].0 == 0 {
                    let rel = if c == 0 {
                        sq as usize >> 3
                    } else {
                        7 - (sq as usize >> 3)
                    };
                    t.add(c, feature::PASSED + rel, 1);
                }
            }
        }
        for f in 0..8 {
            let n = (pawns[c].0 & M.file[f]).count_ones() as i32;
            if n > 1 {
                t.add(c, feature::DOUBLED, n - 1);
            }
        }
    }
}

/// Everything but the pawn structure.
#[inline(always)]
fn piece_terms<T: Terms>(b: &Board, pawns: [Bitboard; 2], t: &mut T) {
    let occ = b.occupied();
    let pawn_att = [
        pawn_span(pawns[0], Color::White),
        pawn_span(pawns[1], Color::Black),
    ];
    let kings = [b.king_of(Color::White), b.king_of(Color::Black)];
    let zones = [
        kings[0].map_or(Bitboard(0), |k| king_attacks(k).with(k)),
        kings[1].map_or(Bitboard(0), |k| king_attacks(k).with(k)),
    ];
    let mut king_attack = [0i32; 2];
    for (c, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let us = b.by_color(color);
        let them = 1 - c;
        let safe = !us & !pawn_att[them];
        let threatened = pawn_att[c] & b.by_color(!color);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let r = ri(role);
            let hit = b.by_role(role) & threatened;
            if hit.any() {
                t.add(c, feature::PAWN_THREAT + r - 1, hit.count() as i32);
            }
            let pieces = b.by_role(role) & us;
            if pieces.is_empty() {
                continue;
            }
            t.add(c, feature::MATERIAL + r, pieces.count() as i32);
            for sq in pieces {
                t.add(c, feature::PST + 64 * r + visual(c, sq), 1);
                let (att, mobility) = match role {
                    Role::Knight => (knight_attacks(sq), feature::MOBILITY_KNIGHT),
                    Role::Bishop => (bishop_attacks(sq, occ), feature::MOBILITY_BISHOP),
                    Role::Rook => (rook_attacks(sq, occ), feature::MOBILITY_ROOK),
                    _ => (queen_attacks(sq, occ), feature::MOBILITY_QUEEN),
                };
                t.add(c, mobility + (att & safe).count(), 1);
                king_attack[c] += (att & zones[them]).count() as i32 * ATTACK_UNITS[r];
                if role == Role::Rook {
                    let fm = M.file[sq as usize & 7];
                    if fm & pawns[c].0 == 0 {
                        if fm & pawns[them].0 == 0 {
                            t.add(c, feature::ROOK_OPEN, 1);
                        } else {
                            t.add(c, feature::ROOK_HALF_OPEN, 1);
                        }
                    }
                }
            }
        }
        if (b.bishops() & us).more_than_one() {
            t.add(c, feature::BISHOP_PAIR, 1);
        }
        if let Some(k) = kings[c] {
            t.add(c, feature::PST + 64 * 5 + visual(c, k), 1);
            // Pawn shelter: own pawns on the three files around the king, one or two ranks in
            // front, while the king sits on its first two ranks.
            let rel_rank = if c == 0 {
                k.rank() as i32
            } else {
                7 - k.rank() as i32
            };
            if rel_rank <= 1 {
                let file = k as usize & 7;
                let files = M.file[file] | M.adjacent_files[file];
                let front = M.passed[c][k as usize] & files;
                let shield = (front & pawns[c].0 & near_ranks(k, color)).count_ones() as usize;
                t.add(c, feature::SHELTER + shield.min(3), 1);
            }
        }
    }
    for (c, units) in king_attack.into_iter().enumerate() {
        t.add(c, feature::KING_ATTACK + units.min(40) as usize, 1);
    }
}

/// The drawish-material test: the side ahead in the end game (`eg` from White's view) has no
/// pawns and is up by less than a rook.
#[inline(always)]
fn drawish(b: &Board, pawns: [Bitboard; 2], eg: i32) -> bool {
    let strong = if eg > 0 { 0 } else { 1 };
    if pawns[strong].any() {
        return false;
    }
    let mat = |c: usize| {
        let us = if c == 0 { b.white() } else { b.black() };
        (b.knights() & us).count() as i32 * 3
            + (b.bishops() & us).count() as i32 * 3
            + (b.rooks() & us).count() as i32 * 5
            + (b.queens() & us).count() as i32 * 9
    };
    mat(strong) - mat(1 - strong) < 4
}

/// The evaluation's terms for `pos` as feature counts (see [`Trace`]).
pub fn trace(pos: &Chess) -> Trace {
    let b = pos.board();
    let pawns = [b.pawns() & b.white(), b.pawns() & b.black()];
    let mut counter = Counter {
        counts: vec![0; feature::COUNT],
    };
    pawn_terms(pawns, &mut counter);
    piece_terms(b, pawns, &mut counter);
    let eg: i32 = counter
        .counts
        .iter()
        .zip(WEIGHTS.iter())
        .map(|(&n, w)| n * w.1)
        .sum();
    let counts = counter
        .counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n != 0)
        .map(|(f, &n)| (f as u16, n as i16))
        .collect();
    Trace {
        counts,
        phase: phase(pos),
        eg_scale: if drawish(b, pawns, eg) { 0.125 } else { 1.0 },
        white_to_move: pos.turn() == Color::White,
    }
}

/// Evaluates `pos` from the side to move's point of view, in centipawns (a one-entry pawn
/// cache: for a single evaluation).
pub fn evaluate(pos: &Chess) -> i32 {
    evaluate_with(pos, &mut PawnCache::with_bits(0))
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
    let pawns = [b.pawns() & b.white(), b.pawns() & b.black()];
    let mut sum = Sum::default();
    piece_terms(b, pawns, &mut sum);
    let (pmg, peg) = cache.get(pawns);
    let mg = sum.mg[0] - sum.mg[1] + pmg;
    let mut eg = sum.eg[0] - sum.eg[1] + peg;
    if drawish(b, pawns, eg) {
        eg /= 8;
    }
    let ph = phase(pos);
    let score = (mg * ph + eg * (24 - ph)) / 24;
    let score = if pos.turn() == Color::White {
        score
    } else {
        -score
    };
    score + params::TEMPO
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

/// Squares attacked by the pawns of `color`.
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

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    mg: i32,
    eg: i32,
}

/// A direct-mapped cache of the pawn-structure terms keyed by the two pawn bitboards (pawn
/// structures repeat across the tree far more than positions do).
pub struct PawnCache {
    entries: Vec<PawnEntry>,
    /// Index = bits 40.. of the mixed hash, masked.
    mask: usize,
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

impl PawnCache {
    /// An empty cache of 2^14 entries (384 KB).
    pub fn new() -> PawnCache {
        PawnCache::with_bits(14)
    }

    /// An empty cache of `2^bits` entries (`bits` at most 24).
    pub fn with_bits(bits: u32) -> PawnCache {
        // An empty entry (no pawns at all) holds the true value of a pawnless board: 0.
        PawnCache {
            entries: vec![PawnEntry::default(); 1 << bits.min(24)],
            mask: (1 << bits.min(24)) - 1,
        }
    }

    /// The pawn terms, white minus black, `(mg, eg)`.
    #[inline(always)]
    fn get(&mut self, pawns: [Bitboard; 2]) -> (i32, i32) {
        let (w, b) = (pawns[0].0, pawns[1].0);
        let h =
            (w.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ b.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)) >> 40;
        let e = &mut self.entries[h as usize & self.mask];
        if e.white == w && e.black == b {
            return (e.mg, e.eg);
        }
        let mut sum = Sum::default();
        pawn_terms(pawns, &mut sum);
        let (mg, eg) = (sum.mg[0] - sum.mg[1], sum.eg[0] - sum.eg[1]);
        *e = PawnEntry {
            white: w,
            black: b,
            mg,
            eg,
        };
        (mg, eg)
    }
}

/// A cache of whole evaluations ([`EvalSlots`], keyed by the position's Zobrist key), with
/// the pawn-structure cache behind it. The engine keeps one across searches (an evaluation
/// does not change from one move to the next).
pub struct EvalCache {
    slots: EvalSlots,
    pawns: PawnCache,
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty cache (256 KB, and 384 KB of pawn structures).
    pub fn new() -> EvalCache {
        EvalCache {
            slots: EvalSlots::new(),
            pawns: PawnCache::new(),
        }
    }

    /// The evaluation of `pos` (whose key is `key`), from the cache or computed and stored.
    #[inline]
    pub fn evaluate(&mut self, pos: &Chess, key: u64) -> i32 {
        let pawns = &mut self.pawns;
        self.slots
            .get_or_evaluate(key, || evaluate_with(pos, pawns))
    }
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
        assert_eq!(evaluate(&p), params::TEMPO);
    }

    #[test]
    fn symmetric_positions_mirror() {
        let a = pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let b = pos("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn material_counts() {
        // One extra piece on d3 (pawn) or d2: queen > rook > pawn > nothing, for the side
        // that has it, and as much against the other side. (A lone knight cannot mate: the
        // drawish scale puts it below the pawn.)
        let evals: Vec<i32> = ["8", "3P4", "3N4", "3R4", "3Q4"]
            .iter()
            .map(|d| {
                let (third, second) = if d.contains('P') {
                    (*d, "8")
                } else {
                    ("8", *d)
                };
                evaluate(&pos(&format!("4k3/8/8/8/8/{third}/{second}/4K3 w - - 0 1")))
            })
            .collect();
        let (none, pawn, knight, rook, queen) = (evals[0], evals[1], evals[2], evals[3], evals[4]);
        assert!(none < pawn && pawn < rook && rook < queen, "{evals:?}");
        assert!(none < knight && knight < pawn, "{evals:?}");
        assert!(queen > 500, "{evals:?}");
        let down = pos("4k3/8/8/8/8/8/3Q4/4K3 b - - 0 1");
        assert_eq!(evaluate(&down), 2 * params::TEMPO - queen);
    }

    #[test]
    fn passed_pawn_masks() {
        // White pawn on e4: d5-f8 span.
        let m = M.passed[0][Square::E4 as usize];
        assert!(m & (1 << Square::D5 as u64) != 0);
        assert!(m & (1 << Square::F8 as u64) != 0);
        assert!(m & (1 << Square::E4 as u64) == 0);
        assert!(m & (1 << Square::E3 as u64) == 0);
        let m = M.passed[1][Square::E5 as usize];
        assert!(m & (1 << Square::D4 as u64) != 0);
        assert!(m & (1 << Square::E6 as u64) == 0);
    }

    #[test]
    fn cached_evaluations_are_the_evaluations() {
        let mut cache = EvalCache::new();
        let root = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
        for round in 0..2 {
            for m in root.legal_moves() {
                let mut c = root.clone();
                c.play_unchecked(m);
                let key = threefold_rules::key::position_key(&c);
                assert_eq!(cache.evaluate(&c, key), evaluate(&c), "round {round} {m:?}");
            }
        }
    }

    #[test]
    fn groups_cover_every_weight_once() {
        let mut next = 0;
        for (name, at, len) in GROUPS {
            assert_eq!(at, next, "{name}");
            next += len;
        }
        assert_eq!(next, feature::COUNT);
    }

    /// The trace and the weights give back the evaluation (up to rounding), so the tuner fits
    /// exactly what the search uses.
    #[test]
    fn trace_reproduces_the_evaluation() {
        let mut checked = 0;
        let mut drawish_seen = false;
        // The bench positions, and pawnless ones where the drawish scale applies.
        let drawish = [
            "8/8/4k3/8/2n5/8/3BK3/8 w - - 0 1",
            "8/5k2/8/3r4/8/2B5/4R3/4K3 b - - 0 1",
        ];
        for fen in include_str!("../../../../../assets/bench.fens")
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .chain(drawish)
        {
            let root = pos(fen);
            let mut positions = vec![root.clone()];
            for m in root.legal_moves() {
                let mut c = root.clone();
                c.play_unchecked(m);
                positions.push(c);
            }
            for p in positions {
                let t = trace(&p);
                let (mut mg, mut eg) = (0i64, 0i64);
                for &(f, n) in &t.counts {
                    mg += i64::from(n) * i64::from(WEIGHTS[usize::from(f)].0);
                    eg += i64::from(n) * i64::from(WEIGHTS[usize::from(f)].1);
                }
                let eg = eg as f64 * t.eg_scale;
                let white = (mg as f64 * f64::from(t.phase) + eg * f64::from(24 - t.phase)) / 24.0;
                let stm = if t.white_to_move { white } else { -white };
                let want = f64::from(evaluate(&p) - params::TEMPO);
                // Two integer divisions (the drawish /8, the taper's /24) may each round.
                assert!((stm - want).abs() <= 2.0, "{fen}: {stm} vs {want}");
                drawish_seen |= t.eg_scale < 1.0;
                checked += 1;
            }
        }
        assert!(checked > 500);
        assert!(drawish_seen);
    }
}
