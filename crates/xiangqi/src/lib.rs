//! Xiangqi (Chinese chess) and the WXF repetition judge.
//!
//! - [`board`]: the position (padded mailbox, piece slots, occupancy bits),
//!   FEN in and out, `make`/`unmake`.
//! - [`movegen`]: legal moves, check detection, perft.
//! - [`notation`]: UCCI and WXF notation, both ways; the traditional Chinese notation
//!   (炮二平五) written.
//! - [`pgn`]: games in PGN with Fairy-Stockfish's algebraic notation, both ways.
//! - [`zobrist`]: position keys.
//! - [`judge`]: the WXF repetition rulings (perpetual check, perpetual chase,
//!   idle) after Tan and Watkinson Medina, "Complete Implementation of WXF
//!   Chinese Chess Rules" (2024), each ruling explaining itself.
//! - [`arbiter`]: calling the arbiter — a player says the opponent's repetition is
//!   forbidden, or that it is a draw — answered from the judge's ruling.
//!
//! This crate depends on no other threefold crate (its benchmarks are in `threefold-lab`),
//! so any Rust program can judge a xiangqi game with it: build a [`judge::Record`] from a
//! start [`Position`], push the moves as they are played, and ask [`judge::Record::judge`]
//! for the [`judge::Ruling`] of the side to move. A ruling keeps its facts as fields (the
//! outcome, each side's level and the pieces it chased, every move with its status) and says
//! why in words ([`judge::Ruling::headline`], [`judge::Ruling::explanation`]).
//! A game judged as it is played goes into a [`judge::JudgedGame`]: the first ruling made
//! stands, as an ending does in chess, and later moves are played past it.
//!
//! # Example: a perpetual chase
//!
//! Red's cannon swings between a2 and b2, attacking the unprotected black rook each time it
//! lands; the rook escapes between a7 and b7. When the position after ply 9 stands for the
//! third time, Red has chased the same piece on every move and Black's moves were idle:
//! perpetual chase outranks idle moves, so Red loses.
//!
//! ```
//! use threefold_xiangqi::judge::{Level, Outcome, Record};
//! use threefold_xiangqi::notation::parse_move;
//! use threefold_xiangqi::{Color, Kind, Position, RuleAt};
//!
//! let start =
//!     Position::from_fen("2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w")
//!         .expect("a legal FEN");
//! let mut game = Record::new(start);
//! // Moves in UCCI (`c2a2`) or WXF (`C8=9`) notation, read against the current position.
//! for token in "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2".split_whitespace() {
//!     let m = parse_move(game.current(), token).expect("a legal move");
//!     game.push(m);
//! }
//!
//! // Rule at the third occurrence of the final position (two earlier ones), as the WXF does.
//! let ruling = game.judge(RuleAt::ThirdOccurrence);
//! // The ruling is stated for the side to move, Black: Black wins, Red loses.
//! assert_eq!(ruling.side, Color::Black);
//! assert_eq!(ruling.outcome, Outcome::Win);
//! // Red chased the black rook on every move; Black's moves were idle.
//! assert_eq!(ruling.red.level, Some(Level::Chase));
//! assert_eq!(ruling.black.level, Some(Level::Idle));
//! assert!(ruling.red.chased.iter().all(|&(_, kind)| kind == Kind::Rook));
//! assert_eq!(ruling.red.chased.len(), 1);
//!
//! println!("{}.\n{}", ruling.headline(), ruling.explanation());
//! assert_eq!(ruling.headline(), "Black wins, Red loses");
//! let last_line = ruling.explanation().lines().last().unwrap_or_default().to_string();
//! assert_eq!(last_line, "Perpetual chase outranks idle moves: Black wins, Red loses.");
//! ```

pub mod arbiter;
pub mod board;
pub mod judge;
pub mod movegen;
pub mod notation;
pub mod pgn;
pub mod zobrist;

pub use board::{
    Color, FenClock, FenError, Kind, Misplacement, Move, ParseSquareError, Piece, Position,
    START_FEN, Square, Undo,
};
pub use judge::RuleAt;
pub use movegen::{Legality, MoveList};
