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

/// The four steps of a rook or a horse's leg: (file, rank) deltas.
const STEPS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

#[inline(always)]
fn at(sq: Square, df: i8, dr: i8) -> Option<Square> {
    let f = sq.file() as i8 + df;
    let r = sq.rank() as i8 + dr;
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Square::new(f as u8, r as u8)
    } else {
        None
    }
}

fn rook_reach(pos: &Position, sq: Square, us: Color) -> i32 {
    let mut n = 0;
    for (df, dr) in STEPS {
        let mut cur = sq;
        while let Some(next) = at(cur, df, dr) {
            match pos.piece_at(next) {
                None => n += 1,
                Some(p) => {
                    n += i32::from(p.color != us);
                    break;
                }
            }
            cur = next;
        }
    }
    n
}

fn horse_moves(pos: &Position, sq: Square, us: Color) -> i32 {
    let mut n = 0;
    for (df, dr) in STEPS {
        let Some(leg) = at(sq, df, dr) else { continue };
        if pos.piece_at(leg).is_some() {
            continue;
        }
        // Two destinations beyond the leg, one to each side of the line.
        let (sf, sr) = (dr, df);
        for side in [1, -1] {
            if let Some(to) = at(leg, df + side * sf, dr + side * sr)
                && pos.piece_at(to).is_none_or(|p| p.color != us)
            {
                n += 1;
            }
        }
    }
    n
}

/// Whether the file between `a` and `b` (on one file) is empty.
fn file_clear(pos: &Position, a: Square, b: Square) -> bool {
    let (lo, hi) = if a.rank() < b.rank() {
        (a.rank(), b.rank())
    } else {
        (b.rank(), a.rank())
    };
    (lo + 1..hi).all(|r| Square::new(a.file(), r).is_some_and(|s| pos.piece_at(s).is_none()))
}

/// Every term's count for each side, by colour (`Color as usize`) and term.
pub fn counts(pos: &Position) -> [[i32; COUNT]; 2] {
    let mut t = [[0; COUNT]; 2];
    let mut advisors = [0; 2];
    let mut elephants = [0; 2];
    let mut attackers = [0; 2];
    let kings = [pos.king(Color::Red), pos.king(Color::Black)];
    for (sq, piece) in pos.pieces() {
        let c = piece.color as usize;
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
                if sq.across_river(piece.color)
                    && at(sq, 1, 0).is_some_and(|n| pos.piece_at(n) == Some(piece))
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
    t
}

/// The terms' value from Red's point of view with weights `w`.
#[inline]
pub fn red_value(pos: &Position, w: &[i32; COUNT]) -> i32 {
    let t = counts(pos);
    (0..COUNT).map(|i| w[i] * (t[0][i] - t[1][i])).sum()
}
