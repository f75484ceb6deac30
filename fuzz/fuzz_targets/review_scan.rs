//! Fuzz target `review_scan`: see `checks::review_scan` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::review_scan(data));
