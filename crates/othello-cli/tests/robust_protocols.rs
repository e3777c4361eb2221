//! Bad input bytes on a protocol session's standard input: a line that is not UTF-8 is answered
//! in the protocol's error form and the session keeps reading (it used to end silently, exit 0,
//! leaving every later command unanswered).

mod common;

use common::lines;
use std::process::Output;

/// Runs `ply-othello args...` with `input` as its whole standard input; the session must end
/// successfully.
fn session(args: &[&str], input: &[u8]) -> Output {
    let out = common::ply_with_input(args, input);
    assert!(
        out.status.success(),
        "{args:?}: {:?} {}",
        out.status,
        common::stderr(&out)
    );
    out
}

#[test]
fn gtp_answers_a_non_utf8_line_with_a_failure_and_goes_on() {
    let out = session(
        &["gtp", "--hash", "1"],
        b"name\n\xff\xfe garbage\n7 play black \xc3\x28\nprotocol_version\nquit\n",
    );
    let got = lines(&out);
    assert_eq!(got[0], "= ply");
    assert_eq!(got[1], "");
    assert!(
        got[2].starts_with("? ") && got[2].contains("not UTF-8"),
        "{got:?}"
    );
    assert_eq!(got[3], "");
    // the command id of the bad line is kept in its reply
    assert!(
        got[4].starts_with("?7 ") && got[4].contains("not UTF-8"),
        "{got:?}"
    );
    assert_eq!(got[5], "");
    assert_eq!(&got[6..], ["= 2", "", "=", ""]);
}

#[test]
fn nboard_reports_a_non_utf8_line_in_the_status_bar_and_goes_on() {
    let out = session(
        &["nboard", "--hash", "1"],
        b"nboard 2\n\x80\x81\nping 3\nquit\n",
    );
    let got = lines(&out);
    assert_eq!(
        got[0],
        format!("set myname ply-{}", ply_othello_cli::VERSION)
    );
    assert!(
        common::is_version(&got[0]["set myname ply-".len()..]),
        "{got:?}"
    );
    assert!(
        got[1].starts_with("status error: ") && got[1].contains("not UTF-8"),
        "{got:?}"
    );
    assert_eq!(got[2], "pong 3");
    assert_eq!(got.len(), 3, "{got:?}");
}

#[test]
fn text_mode_reports_a_non_utf8_line_and_goes_on() {
    let out = session(&["--hash", "1"], b"f5\n\xe9t\xe9\nmoves\nquit\n");
    let got = lines(&out);
    let bad = got
        .iter()
        .position(|l| l.starts_with("error: ") && l.contains("not UTF-8"))
        .unwrap_or_else(|| panic!("no error line: {got:?}"));
    // the game is unchanged and the next command is answered
    assert_eq!(got[bad + 1], "moves: f5", "{got:?}");
}
