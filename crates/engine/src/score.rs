//! Search values and the scores reported from them.
//!
//! A search value is an `i32` from the side to move's point of view: centipawns, or a mate.
//! Being mated at ply `p` from the root is worth `-(MATE - p)`, giving mate at ply `p` is worth
//! `MATE - p`, so nearer mates score further from zero. Every value at or beyond
//! [`MATE_BOUND`] in magnitude is a mate: a search never goes deeper than [`MAX_PLY`], so a
//! mate's distance never takes it below the bound, and evaluations stay well inside it.
//! [`INF`] is larger than any value.
//!
//! The transposition table stores mates relative to the stored node instead of the root
//! ([`value_to_tt`], [`value_from_tt`]): the same position reached at another ply then reads
//! back the right distance. [`Score`] is a value as UCI and the trainer report it.

/// The deepest ply a search reaches.
pub const MAX_PLY: usize = 128;
/// The deepest iteration the search runs (quiescence and extensions need the last plies).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 4;
/// The value of giving mate at the root (mate at ply `p` is `MATE - p`).
pub const MATE: i32 = 32000;
/// Values at or beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 * 2;
/// Larger than any value.
pub const INF: i32 = 32001;

/// Converts a root-relative mate value to node-relative (`ply` from the root) for storage.
pub fn value_to_tt(v: i32, ply: u32) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Converts a stored node-relative mate value back to root-relative (`ply` from the root).
pub fn value_from_tt(v: i32, ply: u32) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in n moves (negative: being mated), UCI convention.
    Mate(i32),
}

impl Score {
    /// Converts a search value.
    pub fn from_value(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }

    /// The same score from the other side's point of view.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(m) => Score::Mate(-m),
        }
    }

    /// The score from White's point of view, given the side to move it was
    /// computed for (as lichess shows scores: positive is good for White).
    pub fn for_white(self, side_to_move: shakmaty::Color) -> Score {
        match side_to_move {
            shakmaty::Color::White => self,
            shakmaty::Color::Black => self.negate(),
        }
    }

    /// Centipawns, with mates as ±100000 (nearer mates further from zero).
    pub fn cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

/// "+0.35", "-1.20", "#3", "#-2": as a chess player reads it.
impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "{:+.2}", f64::from(*c) / 100.0),
            Score::Mate(m) => write!(f, "#{m}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_values_become_mate_scores() {
        assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_value(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_value(-MATE), Score::Mate(0));
        assert_eq!(Score::from_value(35), Score::Cp(35));
        assert_eq!(Score::from_value(MATE_BOUND - 1), Score::Cp(MATE_BOUND - 1));
    }

    #[test]
    fn table_values_are_node_relative_mates() {
        // Mate in 3 plies from a node at ply 5: 8 plies from the root.
        let root = MATE - 8;
        let stored = value_to_tt(root, 5);
        assert_eq!(stored, MATE - 3);
        // Read back at ply 2 (a transposition nearer the root).
        assert_eq!(value_from_tt(stored, 2), MATE - 5);
        assert_eq!(value_from_tt(value_to_tt(-root, 5), 5), -root);
        assert_eq!(value_to_tt(123, 40), 123);
        // The deepest mate stays a mate.
        assert!(MATE - MAX_PLY as i32 >= MATE_BOUND);
    }
}
