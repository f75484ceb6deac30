//! The xiangqi evaluation (material only until the fitted tables land).

use threefold_xiangqi::{Color, Kind, Position};

/// The value of a piece in centipawns (MVV-LVA, delta pruning).
pub fn piece_value(kind: Kind) -> i32 {
    match kind {
        Kind::King => 0,
        Kind::Advisor | Kind::Elephant => 200,
        Kind::Horse => 400,
        Kind::Cannon => 450,
        Kind::Rook => 900,
        Kind::Pawn => 100,
    }
}

/// The static evaluation for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let mut s = 0;
    for (sq, p) in pos.pieces() {
        let mut v = piece_value(p.kind);
        if p.kind == Kind::Pawn && sq.across_river(p.color) {
            v += 100;
        }
        s += if p.color == Color::Red { v } else { -v };
    }
    if pos.side_to_move() == Color::Red {
        s
    } else {
        -s
    }
}
