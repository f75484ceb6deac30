//! How the rules core writes chess for people: side names and move numbers,
//! as on a scoresheet ("White", "12.", "12...").

use std::fmt;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

/// "White" or "Black".
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A move number as written before a move: "12." before White's twelfth
/// move, "12..." before Black's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The full-move number (1 for the first move of each side).
    pub number: u32,
    /// The side that makes the move.
    pub side: Color,
}

impl fmt::Display for MoveNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.side {
            Color::White => write!(f, "{}.", self.number),
            Color::Black => write!(f, "{}...", self.number),
        }
    }
}

/// A move from `pos` as written on a scoresheet, with its number: "14...Ng8".
pub fn move_label(pos: &Chess, m: Move) -> String {
    let number = MoveNumber {
        number: pos.fullmoves().get(),
        side: pos.turn(),
    };
    format!("{number}{}", SanPlus::from_move(pos.clone(), m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_as_on_a_scoresheet() {
        let w = MoveNumber {
            number: 12,
            side: Color::White,
        };
        let b = MoveNumber {
            number: 12,
            side: Color::Black,
        };
        assert_eq!(format!("{w}Nf3 {b}Nf6"), "12.Nf3 12...Nf6");
        assert_eq!(color_name(Color::White), "White");
        assert_eq!(color_name(Color::Black), "Black");
    }
}
