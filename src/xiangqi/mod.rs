//! Xiangqi (Chinese chess) and the WXF repetition judge.
//!
//! - [`board`]: the position (padded mailbox, piece slots, occupancy bits),
//!   FEN in and out, `make`/`unmake`.
//! - [`movegen`]: legal moves, check detection, perft.
//! - [`notation`]: UCCI and WXF notation, both ways.
//! - [`zobrist`]: position keys.
//!
//! This module imports nothing from the rest of threefold.

pub mod board;
pub mod movegen;
pub mod notation;
pub mod zobrist;

pub use board::{Color, FenError, Kind, Move, Piece, Position, START_FEN, Square, Undo};
pub use movegen::MoveList;
