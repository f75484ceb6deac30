//! The search's tuning constants, in one place (as the evaluation's weights are in
//! [`crate::chess::eval::params`]). Each names the routine of [`super`] that uses it; the
//! module docs of [`super`] describe the techniques. Changing one changes the node counts of
//! `threefold bench`: measure node counts, speed and strength (games) before keeping it.

use super::ordering::HISTORY_MAX;
use crate::score::MAX_PLY;

// Iterative deepening with aspiration windows.

/// Iterations from this depth on start with a window around the previous score.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Half-width of the first window, in centipawns; doubled after each fail.
pub const ASPIRATION_WINDOW: i32 = 20;
/// Once the half-width exceeds this, the window is opened fully.
pub const ASPIRATION_MAX_WINDOW: i32 = 1000;

// Reverse futility pruning (static null move).

/// Deepest remaining depth at which a node is cut by its static evaluation.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Margin per ply of depth (one ply less when the position is improving).
pub const RFP_MARGIN: i32 = 80;

// Null-move pruning: reduction R = BASE + depth / DEPTH_DIVISOR + min((eval - beta) /
// EVAL_DIVISOR, EVAL_MAX).

/// Shallowest depth at which a null move is tried.
pub const NULL_MOVE_MIN_DEPTH: i32 = 3;
pub const NULL_MOVE_BASE_REDUCTION: i32 = 3;
pub const NULL_MOVE_DEPTH_DIVISOR: i32 = 4;
pub const NULL_MOVE_EVAL_DIVISOR: i32 = 200;
pub const NULL_MOVE_EVAL_MAX: i32 = 2;

/// Internal iterative reduction: a node without a usable table move at this depth or more
/// is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

// Shallow pruning at non-PV nodes.

/// Deepest depth for futility pruning of quiet moves.
pub const FUTILITY_MAX_DEPTH: i32 = 3;
/// Futility margin per ply of depth, in centipawns.
pub const FUTILITY_MARGIN: i32 = 120;
/// Deepest depth at which captures losing material by static exchange are skipped.
pub const SEE_PRUNING_MAX_DEPTH: i32 = 3;
/// Deepest depth for late-move pruning.
pub const LMP_MAX_DEPTH: i32 = 3;
/// Late-move pruning: quiet moves are skipped after `LMP_BASE + LMP_FACTOR * depth²` moves
/// (half as many when the position is not improving).
pub const LMP_BASE: usize = 4;
pub const LMP_FACTOR: usize = 3;

// Late-move reductions: `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR` plies.

/// Shallowest depth at which quiet moves are reduced.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Moves tried before reductions start (the first ones are searched in full).
pub const LMR_FULL_MOVES: usize = 2;
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
/// A quiet move whose history score exceeds this is reduced one ply less.
pub const LMR_GOOD_HISTORY: i32 = HISTORY_MAX / 2;

/// Check extension only in the first two thirds of the maximum ply, so extensions cannot
/// run a line out of the stack.
pub const CHECK_EXTENSION_MAX_PLY: usize = 2 * MAX_PLY / 3;

/// History bonus for a quiet move that cuts off: depth², at most this.
pub const HISTORY_BONUS_MAX: i32 = 400;

/// Quiescence delta pruning: a capture whose victim plus this margin cannot lift the stand-pat
/// score to alpha is skipped.
pub const DELTA_MARGIN: i32 = 200;

// Sparring ([`crate::sparring`]): none of these is read by the normal search.

/// A root move that serves a repetition is played instead of the best one when the search
/// scores it at most this much worse (centipawns) ([`crate::sparring::margin`]).
pub const SPARRING_MARGIN_CP: i32 = 40;
/// While winning, the margin is this share (percent) of the advantage when that is more
/// than [`SPARRING_MARGIN_CP`]: a sparring move keeps three quarters of the advantage.
pub const SPARRING_MARGIN_SHARE: i32 = 25;
/// The margin is never more than this (centipawns): a sparring move never gives up more
/// than a pawn and a half by the search, however large the advantage.
pub const SPARRING_MARGIN_MAX_CP: i32 = 150;
/// At most this many moves that serve a repetition are verified by a search, the most
/// promising first (each verification is one search of the position after the move).
pub const SPARRING_MAX_CANDIDATES: usize = 3;
/// Sparring prefers no move that makes a position stand more often than this: in chess
/// the fifth occurrence ends the game as a draw with no claim (FIDE 9.6.1), which would
/// take the claim from the player; the normal search's own choice is left as it is.
pub const SPARRING_MAX_OCCURRENCE: u32 = 4;
/// Xiangqi: the share of games (in percent, drawn from the game's seed) in which the engine
/// plays on into its own perpetual check or chase that the judge rules forbidden.
pub const SPARRING_OFFEND_PERCENT: u64 = 50;
