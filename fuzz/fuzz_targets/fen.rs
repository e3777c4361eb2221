//! Fuzz target `fen`: the harness `ply_fuzz::chess::fen` (its documentation says what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::chess::fen(data));
