//! threefold's measurements, kept out of the search's core: the search benchmark
//! (`threefold bench`, [`bench`](mod@bench)), the repetition suite ([`suite`]), the repetition
//! detector's audit and Rookie's hit counts ([`audit`]), hash-table pollution by repetition
//! draws ([`pollution`]), the generated PGN databases of the review benchmark ([`pgn_gen`])
//! the sparring measurement ([`sparring`]: how often a claimable repetition arises against
//! the sparring engine) and the xiangqi benches: perft, the judge's cost, the search
//! with the judge on and off beside Fairy-Stockfish ([`xiangqi`]).
//!
//! The audit and the pollution count watch the search from outside: each is a
//! [`threefold_engine::probe::Probe`], handed to
//! [`Engine::search`](threefold_engine::Engine::search). The engine's search is
//! generic over its probe and calls it only behind the probe's constant `ACTIVE`, so these
//! measurements are compiled into the search here, for their own probe types, and the search
//! a game uses (probe `()`) carries none of them. A probe only watches: the node counts of a
//! watched search are the plain search's.
//!
//! It uses the engine, the rules core and the xiangqi crate; nothing uses it but the
//! application's `bench` commands and the tests.

pub mod audit;
pub mod bench;
pub mod pgn_gen;
pub mod pollution;
pub mod sparring;
pub mod suite;
pub mod xiangqi;
