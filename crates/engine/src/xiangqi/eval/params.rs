//! The xiangqi evaluation's weights, in centipawns on Fairy-Stockfish's scale.
//!
//! Written by `cargo run --release -p threefold-engine --example xq_tune -- LABELLED --epochs
//! 1500 --rate 2 --ridge 1e-9 --rounds 5 --write crates/engine/src/xiangqi/eval/params.rs` (see
//! `tools/TUNING.md`, "Xiangqi"); edit the tuner's data or settings rather than these
//! numbers. Last fit: 36533 positions, K 0.003080; held-out error 0.011331 (158.6 cp) before,
//! 0.006045 (105.6 cp) after.

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn (at home: what a pawn
/// gains across the river is in its table).
#[rustfmt::skip]
pub const MATERIAL: [i32; 7] = [0, 154, 118, 313, 685, 393, 76];

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
         0,   0,   0, -43, -40,
         0,   0,   0, -24, -12,
         0,   0,   0,  -5,  24,
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
         0,   0,   0,  -2,   0,
         0,   0,   0,   0,  17,
         0,   0,   0, -14,   0,
    ],
    // elephant
    [
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0, -12,   0,   0,
         0,   0,   0,   0,   0,
       -14,   0,   0,   0,  18,
         0,   0,   0,   0,   0,
         0,   0,  -3,   0,   0,
    ],
    // horse
    [
       -10, -25,   6,   7, -22,
        -6,  35,  33,  35,  18,
        10,  15,  47,  25,  37,
       -32,  15,  17,  54,  36,
       -10,  14,  10,  49,  31,
       -11,   1,  31,  32,  33,
       -17,   9,   8,   8,  29,
       -28,  -8,  -1,  17,   0,
       -52, -50, -21, -22, -26,
       -13, -57, -15, -33,   3,
    ],
    // rook
    [
        11,  19,   3,  42,  41,
        28,  38,  32,  33,  10,
        19,  19,  20,  76,  47,
        17,  22,  36,  48,  27,
        -2,  16,  26,  32,  20,
        -6,  21,  18,  24,  28,
       -16,  10,   0,  33,  18,
       -45, -11,  -7,  15,  -7,
       -47, -28, -42,   0, -38,
       -63, -15, -35,   7,  11,
    ],
    // cannon
    [
        10,   4, -10,  11, -15,
       -14,   6,  -6, -12, -13,
        -6,  13, -10,  -7, -19,
       -11,  -6,  -5,  -7,   6,
        -7,  -8,  -8, -18,  33,
        -5,   7,   6,   8,  46,
        -2, -25, -25,  -2,  16,
        -5,  -7,  -1,   9,  22,
       -29, -15, -15, -12,  32,
       -25, -41, -17, -18,  -7,
    ],
    // pawn
    [
        51,  40,  36,  35,  52,
        51,  57,  90, 114,  80,
        34,  58,  86,  87, 121,
        23,  43,  70,  83,  90,
        27,  53,  43,  71,  81,
        -2,   0,  11,   0,  30,
       -19,   0, -21,   0,  36,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
    ],
];

/// The side to move's bonus.
pub const TEMPO: i32 = 31;

/// The positional terms' weights (see `super::terms`): rook reach, horse moves, hollow
/// cannon, missing advisors and missing elephants times the opponent's attackers, pawns side
/// by side across the river. Hand-set and measured by matches (crates/engine/README.md), not
/// fitted yet.
#[rustfmt::skip]
pub const TERMS: [i32; 6] = [3, 5, 30, -6, -4, 15];
