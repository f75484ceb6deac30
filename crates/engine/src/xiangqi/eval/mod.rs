//! The xiangqi evaluation: material and piece-square tables, fitted to Fairy-Stockfish.
//!
//! # Terms
//!
//! The score is the sum, over every piece on the board, of its kind's material value and its
//! piece-square value, Red's pieces counting plus and Black's minus, and a tempo bonus for the
//! side to move; it is returned from the side to move's point of view, in centipawns.
//!
//! - **Material**, one value per kind ([`params::MATERIAL`]); the kings' cancel (both sides
//!   always have one), so the king's is 0. [`piece_value`] returns the same numbers for move
//!   ordering, static exchange and delta pruning, so the search and the evaluation agree on
//!   what a piece is worth.
//! - **Piece-square tables**, one per kind ([`params::PST`]). A xiangqi board is symmetric
//!   left to right, so a table covers files a–e (a piece on file f–i reads the entry of its
//!   mirror file, `8 − file`), ten ranks by five files; Black's tables are Red's read from
//!   Black's side (rank `r` reads Red's rank `9 − r`). The tables carry what material alone
//!   cannot: a pawn across the river (it may then move sideways) gains 23 to 121 over its 76 at
//!   home in the fitted tables, horses and rooks like the centre and the enemy's half and
//!   dislike their own back ranks, a cannon likes the central file of its own half, a king its
//!   home point.
//! - **Tempo** ([`params::TEMPO`]): the side to move's bonus, 31 in the fit (held at 0, the
//!   fit's held-out error was 0.006295 instead of 0.006045: the data supports it).
//!
//! - **Positional terms** ([`terms`], weights [`params::TERMS`]): a rook's reach along its
//!   rank and file, a horse's moves past its legs, a hollow cannon (on the opponent king's
//!   file, nothing between), missing advisors and elephants times the opponent's attackers,
//!   pawns side by side across the river. Hand-set, kept because a match showed a gain: 200
//!   games against the evaluation without them at 1 s + 0.02 s, +42 ± 40 Elo (the engine
//!   README's table). The trace counts them as it counts the tables, so the tuner fits them
//!   with the rest; a fit of everything on 43,953 new positions (`tools/TUNING.md`,
//!   "Xiangqi", step 3) scored 0.495 against the hand-set weights in 200 games (−3 ± 44
//!   Elo) and was not kept.
//!
//! # Scale
//!
//! Centipawns as Fairy-Stockfish 11.1 reports them for xiangqi (`info score cp`), because the
//! weights are fitted to its scores: a score of this evaluation for a quiet position is meant
//! to be near Fairy-Stockfish's depth-8 search of it.
//!
//! # How the weights were fitted
//!
//! The evaluation is linear in its weights: [`trace`] records, for a position, how often each
//! weight counts (Red minus Black, the feature vector), and the score is the dot product of
//! [`WEIGHTS`] with it (a unit test keeps the two in agreement). The example
//! `crates/engine/examples/xq_tune.rs` fits the weights to quiet positions of
//! Fairy-Stockfish's self-play, each scored by a depth-8 search of Fairy-Stockfish
//! (`tools/xq_label_fsf.py`), minimising the squared difference of `sigmoid(K * eval)` and
//! `sigmoid(K * score)`, and writes [`params`]. `tools/TUNING.md` ("Xiangqi") gives the
//! commands, the data and the error before and after; the header of `params.rs` records the
//! last fit. The weights of the last fit (36,533 quiet positions of 534 games) are within
//! 106 cp of Fairy-Stockfish's depth-8 score on average on held-out games, against 159 cp for
//! the hand-set weights they replaced; the material values came out as rook 685, cannon 393,
//! horse 313, advisor 154, elephant 118 and pawn 76 (at home).
//!
//! # Speed
//!
//! The search calls [`evaluate`] at every quiescence node, so material and piece-square value
//! are folded into one table by colour, kind and point ([`TABLE`], built at compile time):
//! one lookup and one addition per piece, no allocation, in the same walk over the pieces
//! ([`Position::pieces`]) that counts the terms ([`terms`]: a horse's legs and destinations
//! from a table by point built at compile time, a rook's reach and a cannon's clear file
//! from the board's occupancy bits by rank and file). The search also keeps evaluations by
//! key ([`crate::evalcache`]). [`TABLE`] is public so that a search that makes
//! and unmakes moves can keep the sum up to date instead: a move of a piece of colour `c` and
//! kind `k` changes it by `TABLE[c][k - 1][to] − TABLE[c][k - 1][from]` (points by
//! [`Square::index`]), minus the captured piece's entry on `to`. Measured on a loaded machine
//! (two cores, several builds), one evaluation of a position of the fitting data took about
//! 140 ns.

pub mod params;
pub mod terms;

use threefold_xiangqi::{Color, Kind, Position, Square};

/// Feature indices: the offset of each group of weights in [`WEIGHTS`].
pub mod feature {
    /// Points a table covers: ten ranks by five files (a–e).
    pub const POINTS: usize = 50;
    /// Material by kind, `MATERIAL + kind as usize - 1` (king, advisor, elephant, horse, rook,
    /// cannon, pawn).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: `PST + 50 * (kind as usize - 1) + point` (see
    /// [`super::pst_point`]).
    pub const PST: usize = MATERIAL + 7;
    /// The side to move.
    pub const TEMPO: usize = PST + 7 * POINTS;
    /// The positional terms: `TERMS + term` (see [`super::terms`]).
    pub const TERMS: usize = TEMPO + 1;
    /// Number of weights.
    pub const COUNT: usize = TERMS + super::terms::COUNT;
}

/// The groups of [`WEIGHTS`]: name in [`params`], offset, length. The tuner writes
/// `params.rs` from it.
pub const GROUPS: [(&str, usize, usize); 4] = [
    ("MATERIAL", feature::MATERIAL, 7),
    ("PST", feature::PST, 7 * feature::POINTS),
    ("TEMPO", feature::TEMPO, 1),
    ("TERMS", feature::TERMS, terms::COUNT),
];

/// Every weight of [`params`] in one table, indexed by [`feature`].
pub static WEIGHTS: [i32; feature::COUNT] = flatten();

const fn flatten() -> [i32; feature::COUNT] {
    let mut w = [0; feature::COUNT];
    let mut k = 0;
    while k < 7 {
        w[feature::MATERIAL + k] = params::MATERIAL[k];
        let mut p = 0;
        while p < feature::POINTS {
            w[feature::PST + feature::POINTS * k + p] = params::PST[k][p];
            p += 1;
        }
        k += 1;
    }
    w[feature::TEMPO] = params::TEMPO;
    let mut t = 0;
    while t < terms::COUNT {
        w[feature::TERMS + t] = params::TERMS[t];
        t += 1;
    }
    w
}

/// The entry of a piece-square table for a piece of `color` on (`file`, `rank`): the tables
/// are written as Red sees the board, rank 9 first, files a–e; files f–i mirror a–d, and
/// Black reads rank `r` where Red reads `9 − r`.
#[inline(always)]
pub const fn pst_point(color: Color, file: u8, rank: u8) -> usize {
    let f = if file > 4 { 8 - file } else { file };
    let row = match color {
        Color::Red => 9 - rank,
        Color::Black => rank,
    };
    row as usize * 5 + f as usize
}

/// Material plus piece-square value, signed (Red plus, Black minus), by colour, kind - 1 and
/// point index ([`Square::index`]: rank by rank from a0).
pub static TABLE: [[[i32; 90]; 7]; 2] = build_table();

const fn build_table() -> [[[i32; 90]; 7]; 2] {
    let mut t = [[[0; 90]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let (color, sign) = if c == 0 {
            (Color::Red, 1)
        } else {
            (Color::Black, -1)
        };
        let mut k = 0;
        while k < 7 {
            let mut i = 0;
            while i < 90 {
                let (file, rank) = ((i % 9) as u8, (i / 9) as u8);
                t[c][k][i] =
                    sign * (params::MATERIAL[k] + params::PST[k][pst_point(color, file, rank)]);
                i += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The value of a king in [`piece_value`]: a king is never captured, and as the last
/// attacker of a static exchange it must count as more than anything it could win.
pub const KING_VALUE: i32 = 20_000;

/// A piece's worth for move ordering (MVV-LVA), static exchange and delta pruning: its
/// material weight in the evaluation ([`params::MATERIAL`]), [`KING_VALUE`] for the king.
#[inline(always)]
pub fn piece_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => KING_VALUE,
        _ => params::MATERIAL[kind as usize - 1],
    }
}

/// The static evaluation of `pos` from the side to move's point of view, in centipawns on
/// Fairy-Stockfish's scale (see the module documentation).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let (table, counts) = terms::scan(pos);
    let red = table + terms::value_of(&counts, &params::TERMS);
    match pos.side_to_move() {
        Color::Red => red + params::TEMPO,
        Color::Black => params::TEMPO - red,
    }
}

/// A position's evaluation as feature counts, for fitting: the score from Red's point of
/// view is `sum(count * WEIGHTS[feature])`, the tempo counted +1 when Red is to move and −1
/// when Black is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// `(feature, Red's count − Black's count)`, nonzero counts only, by feature.
    pub counts: Vec<(u16, i16)>,
    /// Red to move.
    pub red_to_move: bool,
}

impl Trace {
    /// The score these counts give with `weights` (indexed by [`feature`]), from Red's view.
    pub fn red_score(&self, weights: &[f64]) -> f64 {
        self.counts
            .iter()
            .map(|&(f, n)| f64::from(n) * weights[usize::from(f)])
            .sum()
    }
}

/// The evaluation's terms for `pos` as feature counts (see [`Trace`]).
pub fn trace(pos: &Position) -> Trace {
    let mut counts = [0i16; feature::COUNT];
    for (sq, piece) in pos.pieces() {
        let n = match piece.color {
            Color::Red => 1,
            Color::Black => -1,
        };
        let k = piece.kind as usize - 1;
        counts[feature::MATERIAL + k] += n;
        counts[feature::PST + feature::POINTS * k + point(piece.color, sq)] += n;
    }
    let t = terms::counts(pos);
    for i in 0..terms::COUNT {
        counts[feature::TERMS + i] = (t[0][i] - t[1][i]) as i16;
    }
    let red_to_move = pos.side_to_move() == Color::Red;
    counts[feature::TEMPO] = if red_to_move { 1 } else { -1 };
    Trace {
        counts: counts
            .iter()
            .enumerate()
            .filter(|(_, n)| **n != 0)
            .map(|(f, &n)| (f as u16, n))
            .collect(),
        red_to_move,
    }
}

fn point(color: Color, sq: Square) -> usize {
    pst_point(color, sq.file(), sq.rank())
}

#[cfg(test)]
mod tests;
