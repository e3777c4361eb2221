//! The `ply-chess` command-line program.
fn main() {}
