//! The guides stay true to `ply --help`. Every `ply` command line that README.md or a guide in
//! `docs/` shows (most are in docs/web.md) may name only subcommands and options the program
//! has, and every subcommand (`serve`) must be shown somewhere. The checker is
//! `ply_testkit::guide`.

#[test]
fn guides_name_only_subcommands_and_options_that_exist() {
    let report = ply_testkit::guide::check("ply", env!("CARGO_BIN_EXE_ply"));
    println!("ply: {report:?}");
    assert!(report.invocations > 0 && report.options > 0 && report.subcommands > 0);
}
