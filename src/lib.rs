//! threefold: a terminal trainer about repetition of positions in chess and xiangqi.
//!
//! The application: the trainer ([`tui`]) and, in the binary, the command line. The layers
//! below it are crates of their own, re-exported here under their old names:
//!
//! - [`rules`] (`threefold-rules`): the FIDE rules core (repetition, claims, automatic
//!   endings, Euwe's sequence, PGN), with the strict FEN reader ([`fen`]), atomic file writes
//!   ([`fsio`]) and escaping for the terminal ([`visible`]). It uses no other threefold crate.
//! - [`engine`] (`threefold-engine`): the engine for chess and xiangqi (one search,
//!   Rival-style transposition table, the chess repetition detectors, the WXF judge in the
//!   xiangqi search, UCI). It uses the rules core's position key ([`rules::key`]), so the
//!   engine and the arbiter see the same repetitions.
//! - [`drills`] (`threefold-drills`): chess draw-claim puzzles checked against the rules
//!   core, xiangqi ruling puzzles answered by the WXF judge, and per-theme progress on a
//!   Leitner schedule. Uses the rules core and the xiangqi crate.
//! - [`review`] (`threefold-review`): post-game review of chess games (missed and incorrect
//!   claims, from [`rules::review`], and with the engine the ones that mattered) and of
//!   xiangqi games through the WXF judge; whole databases on every core.
//! - [`xiangqi`] (`threefold-xiangqi`): xiangqi's board, moves, notation, PGN and the WXF
//!   repetition judge; it uses no other threefold crate.
//! - [`lab`] (`threefold-lab`): measurements (the search benchmark, the repetition suite,
//!   hash-table pollution, the xiangqi perft, judge and search benches, the review
//!   benchmark), out of the engine's core.
//! - [`tui`]: the terminal trainer (`threefold` with no subcommand).
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
//! println!("{}", now.explanation());
//! assert!(!now.correct());
//! assert!(!game.is_over());
//!
//! let ng8 = game.parse_san("Ng8")?;
//! let verdict = claim::judge(&mut game, Claim::WithMove(ng8), Clocks::On)?;
//! println!("{}", verdict.explanation());
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
//!   quoted on that page: Zarkov's list of keys ([`engine::search::keys`]).
//! - Chris Moreton, documentation of the Rival chess engine, "Transposition/Refutation
//!   Tables": <https://www.redhotpawn.com/rival/programming/transref.php> ([`engine::tt`]).
//! - H.G. Muller, on hash-table pollution by repetition draws and a "shadow score", Winboard
//!   forum: <http://www.open-aurec.com/wbforum/viewtopic.php?f=4&t=3863> ([`engine`]).
//! - Daniel Tan and Neftali Watkinson Medina, "Complete Implementation of WXF Chinese Chess
//!   Rules", 2024, <https://arxiv.org/abs/2412.17334> (xiangqi's repetition rulings,
//!   [`xiangqi::judge`]).

pub use threefold_drills as drills;
pub use threefold_engine as engine;
pub use threefold_lab as lab;
pub use threefold_review as review;
pub use threefold_rules as rules;
pub use threefold_rules::{fen, fsio, visible};
pub use threefold_xiangqi as xiangqi;

pub mod tui;
