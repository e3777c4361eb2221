//! Build script: the programs' version string `PLY_VERSION` (see `ply_buildinfo`).

fn main() {
    ply_buildinfo::emit_version();
}
