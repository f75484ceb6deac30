//! threefold: a terminal trainer about repetition of positions in chess.
//!
//! - [`rules`]: the FIDE rules core (repetition, claims, automatic endings, Euwe's sequence).
//!   It imports neither the engine nor the UI.
//! - [`engine`]: the chess engine (search, Rival-style transposition table, Zarkov-style
//!   repetition scan, UCI, bench). It depends on shakmaty only.

pub mod engine;
pub mod rules;
