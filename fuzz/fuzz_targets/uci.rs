//! Fuzz target `uci`: the harness `ply_fuzz::chess::uci` (its documentation says what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::chess::uci(data));
