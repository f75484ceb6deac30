//! The rules core: a game as a start position plus moves, and what the FIDE
//! Laws of Chess say about it: repetition of positions (9.2), the fifty-move
//! rule (9.3), incorrect claims (9.5), and the automatic endings (9.6.1
//! fivefold repetition, 9.6.2 seventy-five moves, checkmate, stalemate,
//! insufficient material).
//!
//! The modules:
//!
//! - [`game`]: a game, a start position plus moves, with every position's FIDE 9.2.3
//!   identity; [`key`]: that identity as one Zobrist key.
//! - [`claim`]: draw claims (9.2, 9.3) judged with an explanation, and 9.5's consequences of
//!   an incorrect claim; [`ending`]: the automatic endings and the draws by claim.
//! - [`analysis`]: everything the rules say about one position, as `threefold analyze`
//!   reports it; [`review`]: the rules' part of the post-game review (missed claims, claims
//!   judged again).
//! - [`euwe`]: Euwe's Thue–Morse knight sequence and the former German rule it refuted.
//! - [`notation`]: side names, move numbers and the lenient reader of typed moves;
//!   [`pgn`]: PGN reading and writing, claims kept as `[%claim ...]` comments.
//! - [`shuffle`]: shuffling games (random games rich in repetitions) for tests and benches.
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
