//! The rules core: a game as a start position plus moves, and what the FIDE
//! Laws of Chess say about it: repetition of positions (9.2), the fifty-move
//! rule (9.3), incorrect claims (9.5), and the automatic endings (9.6.1
//! fivefold repetition, 9.6.2 seventy-five moves, checkmate, stalemate,
//! insufficient material). Also Euwe's Thue–Morse knight sequence and the
//! former German rule it refuted ([`euwe`]), and PGN reading ([`pgn`]).
//!
//! Beside the rules: the strict FEN reader shared with the engine ([`fen`]), saving files
//! atomically ([`fsio`]) and text from files and command lines with its control characters
//! escaped for a terminal ([`visible`]).
//!
//! This crate depends on no other threefold crate: not the engine, not the UI.

pub mod analysis;
pub mod claim;
pub mod ending;
pub mod euwe;
pub mod fen;
pub mod fsio;
pub mod game;
pub mod key;
pub mod notation;
pub mod pgn;
pub mod review;
pub mod shuffle;
pub mod visible;

pub use claim::{Claim, Ground, Verdict};
pub use ending::{Ending, EndingKind};
pub use game::{FenError, Game, MoveSyntax, PlayError, PlyRecord, Termination};
pub use key::{key_after, position_key};
pub use notation::{MoveNumber, color_name};
