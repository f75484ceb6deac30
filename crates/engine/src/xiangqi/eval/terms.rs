//! The evaluation's positional terms beyond material and tables: what a piece-square table
//! cannot see because it depends on where the other pieces stand.
//!
//! Each term is a count per side ([`counts`]); the evaluation adds `weight × (Red's count −
//! Black's count)`, the weights in [`super::params::TERMS`], so the evaluation stays linear
//! in its weights and the tuner's trace sees the same counts ([`super::trace`]).

use threefold_xiangqi::{Color, Kind, Position, Square};

/// A rook's reach: the empty points along its rank and file up to the first piece, plus that
/// piece when it is the opponent's (a rook shut in by its own pieces does little).
pub const ROOK_MOBILITY: usize = 0;
/// A horse's moves: destinations whose leg (the point next to the horse it must pass) is
/// empty and which no piece of its own side holds (a horse with blocked legs is lame).
pub const HORSE_MOBILITY: usize = 1;
/// A hollow cannon: a cannon on the file of the opponent's king with no piece between them
/// (any piece stepping between gives check; the king cannot step off the file freely
/// while the palace's other points are held).
pub const HOLLOW_CANNON: usize = 2;
/// Missing advisors times the opponent's attackers (a rook counts two, a horse or cannon
/// one): a palace without its guards matters only when there are pieces to attack it.
pub const BARE_ADVISORS: usize = 3;
/// Missing elephants times the opponent's attackers, as [`BARE_ADVISORS`].
pub const BARE_ELEPHANTS: usize = 4;
/// Two pawns across the river side by side on one rank (they guard each other's flank).
pub const PAWN_PAIR: usize = 5;
/// Number of terms.
pub const COUNT: usize = 6;

/// Every point by [`Square::index`], so that a table of indices gives a [`Square`] without a
/// bounds check.
const POINT: [Square; 90] = {
    let mut t = [match Square::new(0, 0) {
        Some(s) => s,
        None => panic!(),
    }; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = match Square::new((i % 9) as u8, (i / 9) as u8) {
            Some(s) => s,
            None => panic!(),
        };
        i += 1;
    }
    t
};

/// A horse's moves from a point: `(leg, destination)` pairs, the destination on the board,
/// the leg the point next to the horse it must pass; `len` of the eight are used.
#[derive(Clone, Copy)]
struct HorseSteps {
    steps: [(u8, u8); 8],
    len: u8,
}

/// [`HorseSteps`] by point index, built at compile time.
static HORSE: [HorseSteps; 90] = {
    // The four legs, (file, rank) deltas, each with its two destinations one step further
    // and one to each side of the line.
    const LEGS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut t = [HorseSteps {
        steps: [(0, 0); 8],
        len: 0,
    }; 90];
    let mut i = 0;
    while i < 90 {
        let (f, r) = ((i % 9) as i8, (i / 9) as i8);
        let mut l = 0;
        while l < 4 {
            let (df, dr) = LEGS[l];
            let (lf, lr) = (f + df, r + dr);
            let mut side = -1;
            while side <= 1 {
                let (tf, tr) = (lf + df + side * dr, lr + dr + side * df);
                if on_board(lf, lr) && on_board(tf, tr) {
                    let n = t[i].len as usize;
                    t[i].steps[n] = ((lr * 9 + lf) as u8, (tr * 9 + tf) as u8);
                    t[i].len += 1;
                }
                side += 2;
            }
            l += 1;
        }
        i += 1;
    }
    t
};

const fn on_board(file: i8, rank: i8) -> bool {
    file >= 0 && file < 9 && rank >= 0 && rank < 10
}

/// Whether the piece on (`file`, `rank`) belongs to the opponent of `us` (the point holds one).
#[inline(always)]
fn theirs(pos: &Position, file: u32, rank: u32, us: Color) -> bool {
    pos.piece_at(POINT[(rank * 9 + file) as usize])
        .is_some_and(|p| p.color != us)
}

/// The empty points of a line (`occ`, `len` points) on both sides of the point `at`, and the
/// nearest piece on each side: `(empty points, [lower piece, upper piece])`.
#[inline(always)]
fn line_reach(occ: u32, at: u32, len: u32) -> (u32, [Option<u32>; 2]) {
    let upper = occ >> (at + 1);
    let lower = occ & ((1 << at) - 1);
    let (up_empty, up) = if upper == 0 {
        (len - 1 - at, None)
    } else {
        let d = upper.trailing_zeros();
        (d, Some(at + 1 + d))
    };
    let (low_empty, low) = if lower == 0 {
        (at, None)
    } else {
        let q = 31 - lower.leading_zeros();
        (at - 1 - q, Some(q))
    };
    (up_empty + low_empty, [low, up])
}

fn rook_reach(pos: &Position, sq: Square, us: Color) -> i32 {
    let (f, r) = (u32::from(sq.file()), u32::from(sq.rank()));
    let (along_rank, ends) = line_reach(u32::from(pos.rank_occupancy(r as u8)), f, 9);
    let mut n = along_rank;
    for end in ends.into_iter().flatten() {
        n += u32::from(theirs(pos, end, r, us));
    }
    let (along_file, ends) = line_reach(u32::from(pos.file_occupancy(f as u8)), r, 10);
    n += along_file;
    for end in ends.into_iter().flatten() {
        n += u32::from(theirs(pos, f, end, us));
    }
    n as i32
}

fn horse_moves(pos: &Position, sq: Square, us: Color) -> i32 {
    let h = &HORSE[sq.index()];
    let mut n = 0;
    for &(leg, to) in &h.steps[..h.len as usize] {
        if pos.piece_at(POINT[leg as usize]).is_none()
            && pos
                .piece_at(POINT[to as usize])
                .is_none_or(|p| p.color != us)
        {
            n += 1;
        }
    }
    n
}

/// Whether the file between `a` and `b` (on one file) is empty.
#[inline(always)]
fn file_clear(pos: &Position, a: Square, b: Square) -> bool {
    let (lo, hi) = if a.rank() < b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    let between = (1u32 << hi) - (2u32 << lo);
    u32::from(pos.file_occupancy(a.file())) & between == 0
}

/// The material and piece-square sum ([`super::TABLE`], Red's view) and every term's count
/// for each side, in one walk over the pieces.
#[inline(always)]
pub(super) fn scan(pos: &Position) -> (i32, [[i32; COUNT]; 2]) {
    let mut table = 0;
    let mut t = [[0; COUNT]; 2];
    let mut advisors = [0; 2];
    let mut elephants = [0; 2];
    let mut attackers = [0; 2];
    let kings = [pos.king(Color::Red), pos.king(Color::Black)];
    for (sq, piece) in pos.pieces() {
        let c = piece.color as usize;
        let i = sq.index();
        table += super::TABLE[c][piece.kind as usize - 1][i];
        match piece.kind {
            Kind::Rook => {
                t[c][ROOK_MOBILITY] += rook_reach(pos, sq, piece.color);
                attackers[c] += 2;
            }
            Kind::Horse => {
                t[c][HORSE_MOBILITY] += horse_moves(pos, sq, piece.color);
                attackers[c] += 1;
            }
            Kind::Cannon => {
                attackers[c] += 1;
                let king = kings[1 - c];
                if king.file() == sq.file() && file_clear(pos, sq, king) {
                    t[c][HOLLOW_CANNON] += 1;
                }
            }
            Kind::Advisor => advisors[c] += 1,
            Kind::Elephant => elephants[c] += 1,
            Kind::Pawn => {
                if sq.file() < 8
                    && sq.across_river(piece.color)
                    && pos.piece_at(POINT[i + 1]) == Some(piece)
                {
                    t[c][PAWN_PAIR] += 1;
                }
            }
            Kind::King => {}
        }
    }
    for c in 0..2 {
        t[c][BARE_ADVISORS] = (2 - advisors[c]) * attackers[1 - c];
        t[c][BARE_ELEPHANTS] = (2 - elephants[c]) * attackers[1 - c];
    }
    (table, t)
}

/// Every term's count for each side, by colour (`Color as usize`) and term.
pub fn counts(pos: &Position) -> [[i32; COUNT]; 2] {
    scan(pos).1
}

/// The terms' value from Red's point of view with weights `w`, given their counts `t`.
#[inline(always)]
pub fn value_of(t: &[[i32; COUNT]; 2], w: &[i32; COUNT]) -> i32 {
    (0..COUNT).map(|i| w[i] * (t[0][i] - t[1][i])).sum()
}
