//! Fuzz target `config_toml`: see `checks::config_toml` (fuzz/checks.rs) for what is checked.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::config_toml(data));
