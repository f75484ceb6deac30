//! threefold: a terminal trainer about repetition of positions in chess.
//!
//! - [`rules`]: the FIDE rules core (repetition, claims, automatic endings, Euwe's sequence).
//!   It imports neither the engine nor the UI.
//! - [`engine`]: the chess engine (search, Rival-style transposition table, Zarkov-style
//!   repetition scan, UCI, bench). It depends on shakmaty and [`fen`] only.
//! - [`drills`]: puzzle files about repetition and claims, checked against the rules core,
//!   a judge for the drill screen, and per-theme progress.
//! - [`tui`]: the terminal trainer (`threefold` with no subcommand).
//! - [`fsio`]: saving files atomically; used by drills and the trainer.
//! - [`fen`]: the strict FEN reader shared by the rules core and the engine.

pub mod drills;
pub mod engine;
pub mod fen;
pub mod fsio;
pub mod rules;
pub mod tui;
