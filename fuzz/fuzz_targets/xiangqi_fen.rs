//! Fuzz target `xiangqi_fen`: see `checks::xiangqi_fen` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::xiangqi_fen(data));
