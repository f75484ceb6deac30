//! The xiangqi evaluation's weights, in centipawns on Fairy-Stockfish's scale.
//!
//! Written by `cargo run --release -p threefold-engine --example xq_tune -- LABELLED --epochs
//! 1500 --rate 2 --ridge 1e-9 --write crates/engine/src/xqeval/params.rs` (see
//! `tools/TUNING.md`, "Xiangqi"); edit the tuner's data or settings rather than these
//! numbers. Last fit: 36685 positions, K 0.003044; held-out error 0.008230 (146.8 cp) before,
//! 0.004907 (109.1 cp) after.

/// Material by kind: king, advisor, elephant, horse, rook, cannon, pawn (at home: what a pawn
/// gains across the river is in its table).
#[rustfmt::skip]
pub const MATERIAL: [i32; 7] = [0, 154, 117, 311, 682, 388, 74];

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
         0,   0,   0, -46, -37,
         0,   0,   0, -21, -11,
         0,   0,   0,  -6,  23,
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
         0,   0,   0,  -4,   0,
         0,   0,   0,   0,  16,
         0,   0,   0, -12,   0,
    ],
    // elephant
    [
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0, -13,   0,   0,
         0,   0,   0,   0,   0,
       -14,   0,   0,   0,  17,
         0,   0,   0,   0,   0,
         0,   0,  -2,   0,   0,
    ],
    // horse
    [
       -12, -26,   4, -29, -22,
        -6,  34,  37,  29,  17,
         8,  -2,  43,  24,  33,
       -24,  15,  19,  49,  34,
        -5,  14,  10,  42,  30,
       -13,   0,  30,  33,  36,
        -8,  20,   7,   4,  28,
       -25, -19,   0,  14,   9,
       -38, -51, -21, -22, -29,
       -23, -56, -14, -31,   2,
    ],
    // rook
    [
        14,  20,  10,  46,  42,
        28,  38,  37,  30,  15,
        20,  20,  19,  78,  52,
        17,  24,  35,  45,  24,
        -1,  17,  31,  31,  21,
        -8,  20,  16,  22,  31,
       -14,   8,  -2,  30,  19,
       -42, -14,  -6,  12,   2,
       -48, -31, -45,   0, -18,
       -63, -15, -36,   8,  12,
    ],
    // cannon
    [
        10,   1,  -7,   8, -15,
       -24,   5,  -6, -10, -12,
        -9,  11, -13,  -8, -31,
        -8,  -6,  -5,  -9,   7,
        -7, -13, -12, -18,  25,
         0,   7,   7,   7,  46,
         0, -24, -21,  -2,  14,
        -2,  -7,  -2,  12,  22,
       -27, -13, -15, -15,  35,
       -23, -33, -15, -16, -12,
    ],
    // pawn
    [
        47,  40,  35,  33,  53,
        61,  51,  84, 118,  85,
        38,  62,  89,  87, 118,
        24,  51,  66,  84,  89,
        28,  51,  46,  73,  80,
        -4,   0,  10,   0,  33,
       -20,   0, -21,   0,  40,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
         0,   0,   0,   0,   0,
    ],
];

/// The side to move's bonus.
pub const TEMPO: i32 = 30;
