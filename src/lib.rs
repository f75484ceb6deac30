//! threefold: a terminal trainer about repetition of positions in chess.
//!
//! - [`rules`]: the FIDE rules core (repetition, claims, automatic endings, Euwe's sequence).
//!   It imports neither the engine nor the UI.
//! - [`engine`]: the chess engine (search, Rival-style transposition table, Zarkov-style
//!   repetition scan, UCI, bench). It depends on shakmaty and on the rules core's position
//!   key ([`rules::key`]), so the engine and the arbiter see the same repetitions.
//! - [`drills`]: puzzle files about repetition and claims, checked against the rules core,
//!   a judge for the drill screen, and per-theme progress.
//! - [`tui`]: the terminal trainer (`threefold` with no subcommand).
//! - [`review`]: post-game review: missed and incorrect claims (from [`rules::review`]) and,
//!   with the engine, the claims and repetitions that mattered. Above the rules and the engine.
//! - [`xiangqi`]: xiangqi's board, moves and the WXF repetition judge; it imports nothing
//!   above it.
//! - [`fsio`]: saving files atomically; used by drills and the trainer.
//! - [`fen`]: the strict FEN reader shared by the rules core and the engine.
//! - [`visible`]: text from files and command lines with its control characters escaped, for
//!   every place that shows such text on a terminal.
//!
//! # Example: a threefold repetition claimed
//!
//! Both knights go out and come back twice. Before Black's last move the position after
//! 4.Ng1 has appeared twice, so a claim now is incorrect (FIDE 9.2 b needs a third
//! occurrence) and changes nothing; a claim with the intended move 4...Ng8, which makes the
//! start position appear for the third time, is correct (9.2 a) and draws the game.
//!
//! ```
//! use threefold::rules::{Claim, Game, Ground, claim};
//! use threefold::rules::claim::Clocks;
//!
//! let mut game = Game::new();
//! for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
//!     game.play_san(san)?;
//! }
//! assert_eq!(game.current().occurrence, 2);
//!
//! let now = claim::judge(&mut game, Claim::Now, Clocks::On)?;
//! println!("{}", now.explanation);
//! assert!(!now.correct());
//! assert!(!game.is_over());
//!
//! let ng8 = game.parse_san("Ng8")?;
//! let verdict = claim::judge(&mut game, Claim::WithMove(ng8), Clocks::On)?;
//! println!("{}", verdict.explanation);
//! assert_eq!(verdict.ground, Some(Ground::Threefold));
//! assert_eq!(verdict.plies, [0, 4, 8]); // the start position, after 2...Ng8 and 4...Ng8
//! assert_eq!(game.termination().unwrap().ending.result(), "1/2-1/2");
//! # Ok::<(), threefold::rules::PlayError>(())
//! ```
//!
//! # Sources
//!
//! - "Repetitions", the chessprogramming wiki: <https://www.chessprogramming.org/Repetitions>
//!   (FIDE 9.2, draw scores in a search, Euwe's sequence and the former German rule).
//! - John Stanback, "Draw by Repetition Code", rec.games.chess.computer, 31 December 1996,
//!   quoted on that page: Zarkov's list of keys ([`engine::history`]).
//! - Chris Moreton, documentation of the Rival chess engine, "Transposition/Refutation
//!   Tables": <https://www.redhotpawn.com/rival/programming/transref.php> ([`engine::tt`]).
//! - H.G. Muller, on hash-table pollution by repetition draws and a "shadow score", Winboard
//!   forum: <http://www.open-aurec.com/wbforum/viewtopic.php?f=4&t=3863> ([`engine`]).
//! - Daniel Tan and Neftali Watkinson Medina, "Complete Implementation of WXF Chinese Chess
//!   Rules", 2024, <https://arxiv.org/abs/2412.17334> (xiangqi's repetition rulings,
//!   [`xiangqi::judge`]).

pub mod drills;
pub mod engine;
pub mod fen;
pub mod fsio;
pub mod review;
pub mod rules;
pub mod tui;
pub mod visible;
pub mod xiangqi;
