//! Fuzz target `book`: the harness `ply_fuzz::chess::book` (its documentation says what it checks).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::chess::book(data));
