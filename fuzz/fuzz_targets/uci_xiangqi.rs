//! Fuzz target `uci_xiangqi`: see `checks::uci_xiangqi` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::uci_xiangqi(data));
