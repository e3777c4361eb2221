//! The `ply-othello` command-line program.
fn main() {}
