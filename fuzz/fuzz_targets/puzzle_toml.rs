//! Fuzz target `puzzle_toml`: see `checks::puzzle_toml` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::puzzle_toml(data));
