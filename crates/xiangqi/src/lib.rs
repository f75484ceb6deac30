//! Xiangqi (Chinese chess) and the WXF repetition judge.
//!
//! - [`board`]: the position (padded mailbox, piece slots, occupancy bits),
//!   FEN in and out, `make`/`unmake`.
//! - [`movegen`]: legal moves, check detection, perft.
//! - [`notation`]: UCCI and WXF notation, both ways.
//! - [`zobrist`]: position keys.
//! - [`judge`]: the WXF repetition rulings (perpetual check, perpetual chase,
//!   idle) after Tan and Watkinson Medina, "Complete Implementation of WXF
//!   Chinese Chess Rules" (2024), each ruling explaining itself.
//!
//! This crate depends on no other threefold crate (its benchmarks are in `threefold-lab`).

pub mod board;
pub mod judge;
pub mod movegen;
pub mod notation;
pub mod zobrist;

pub use board::{
    Color, FenError, Kind, Misplacement, Move, ParseSquareError, Piece, Position, START_FEN,
    Square, Undo,
};
pub use movegen::MoveList;
