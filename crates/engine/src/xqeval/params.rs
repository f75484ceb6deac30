//! The xiangqi evaluation's weights, in centipawns on Fairy-Stockfish's scale.
//!
//! Hand-set starting values (rook 900, horse and cannon 450, advisor and elephant 200, pawn
//! 100 at home and about 200 across the river), to be replaced by
//! `cargo run --release -p threefold-engine --example xq_tune` (see `tools/TUNING.md`,
//! "Xiangqi"), which writes this file; edit the tuner's data or settings rather than these
//! numbers.

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn.
#[rustfmt::skip]
pub const MATERIAL: [i32; 7] = [0, 200, 200, 450, 900, 450, 100];

/// Piece-square tables by kind (king .. pawn), as Red sees the board: ten rows of five, the
/// first row rank 9 (Black's back rank), files a–e (f–i mirror them).
#[rustfmt::skip]
pub const PST: [[i32; 50]; 7] = [
    // king
    [
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0, -10, -10,
        0,   0,   0,  -5,  -5,
        0,   0,   0,   5,  10,
    ],
    // advisor
    [
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,  10,
        0,   0,   0,   0,   0,
    ],
    // elephant
    [
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
       -5,   0,   0,   0,  10,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
    ],
    // horse
    [
        0,   0,   0,   0,   0,
        0,  10,  20,  20,  10,
       10,  20,  30,  30,  30,
       10,  20,  30,  30,  30,
        5,  15,  20,  20,  20,
        0,  10,  15,  15,  15,
        0,   5,  10,  10,  10,
      -10,   0,   5,   5,   0,
      -10,  -5,   0,   0, -10,
      -20, -10, -10, -10, -20,
    ],
    // rook
    [
        0,   5,   5,  10,  10,
       10,  15,  15,  20,  20,
        5,  10,  10,  15,  15,
        5,  10,  10,  15,  15,
        5,  10,  10,  15,  15,
        0,   5,   5,  10,  10,
        0,   0,   0,   5,   5,
       -5,   0,   0,   0,   0,
       -5,   0,   0,   0,   0,
      -10,  -5,  -5,   0,   0,
    ],
    // cannon
    [
        5,   5,   0,  -5, -10,
        0,   5,   0,  -5,  -5,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   5,
        0,   0,   0,   0,   5,
        0,   0,   0,   0,   5,
        0,   0,   0,   5,  10,
        0,   0,   0,   0,   5,
        0,   0,   0,   0,   0,
    ],
    // pawn
    [
       20,  30,  40,  50,  50,
       70,  90, 110, 130, 140,
       70,  90, 110, 130, 140,
       80,  90, 100, 110, 120,
       70,  80,  90, 100, 100,
        0,   0,  10,   0,  20,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
        0,   0,   0,   0,   0,
    ],
];

/// The side to move's bonus.
pub const TEMPO: i32 = 20;
