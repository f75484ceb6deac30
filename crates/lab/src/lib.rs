//! threefold's measurements, kept out of the search's core: the search benchmark
//! (`threefold bench`, [`bench`]), the repetition suite ([`suite`]), hash-table pollution by
//! repetition draws ([`pollution`]) and the xiangqi judge's cost ([`xiangqi`]).
//!
//! It uses the engine, the rules core and the xiangqi crate; nothing uses it but the
//! application's `bench` commands and the tests.

pub mod bench;
pub mod pollution;
pub mod suite;
pub mod xiangqi;
