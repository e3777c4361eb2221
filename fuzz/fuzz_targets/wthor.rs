//! Fuzz target `wthor`: the harness `ply_fuzz::othello::wthor` (its documentation says what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::othello::wthor(data));
