//! Fuzz target `xiangqi_pgn`: see `checks::xiangqi_pgn` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::xiangqi_pgn(data));
