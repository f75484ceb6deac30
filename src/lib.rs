//! threefold: a terminal trainer about repetition of positions in chess.
//!
//! - [`rules`]: the FIDE rules core (repetition, claims, automatic endings, Euwe's sequence).
//!   It imports neither the engine nor the UI.
//! - [`tui`]: the terminal trainer (`threefold` with no subcommand).

pub mod rules;
pub mod tui;
