//! The guides stay true to `ply-fuzz --help`. Every `ply-fuzz` command line that README.md or a
//! guide in `docs/` shows (docs/development.md, "Fuzzing") may name only subcommands and options
//! the program has, and every subcommand (`seeds`, `run`, `list`) must be shown somewhere. The
//! checker is `ply_testkit::guide`.

#[test]
fn guides_name_only_subcommands_and_options_that_exist() {
    let report = ply_testkit::guide::check("ply-fuzz", env!("CARGO_BIN_EXE_ply-fuzz"));
    println!("ply-fuzz: {report:?}");
    assert!(report.invocations > 0 && report.options > 0 && report.subcommands > 0);
}
