//! The review's thresholds and default budget.

/// A side at or beyond this many centipawns (its own view) is winning; at or below its
/// negation, losing (1.5 pawns: what most annotators mark `+-` / `-+` is more, what they
/// mark `=` is far less).
pub const WINNING_CP: i32 = 150;

/// A score within this many centipawns of zero counts as a draw (a repetition line scores
/// exactly 0 at the end of it; the engine's evaluation before it may move it a little).
pub const DRAWISH_CP: i32 = 50;

/// Nodes searched per position by default: deterministic findings, and about 0.2 s per
/// position on the shared development machine (`crates/review/README.md`, section "Speed").
pub const DEFAULT_NODES: u64 = 200_000;

/// Nodes searched per position on the trainer's review screen: the budget the review's
/// tests confirm their findings at, and a tenth of the default's time (a 60-move game: 13.1 s
/// against 137.8 s on a heavily loaded shared machine; `crates/review/README.md`, section
/// "Speed"), so the list is complete soon after the screen opens.
pub const SCREEN_NODES: u64 = 20_000;
