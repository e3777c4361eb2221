//! Fuzz target `records`: the harness `ply_fuzz::chess::records` (its documentation says what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::chess::records(data));
