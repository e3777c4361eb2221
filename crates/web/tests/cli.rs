//! The `ply` binary: `ply serve --bind 127.0.0.1:0` prints its address and serves the pages;
//! an address it cannot bind and a bad option end it with an error; `--version` is the workspace's
//! version string.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Command;

mod common;

use common::{Server, PLY};

fn get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    reply
}

#[test]
fn serve_prints_its_address_and_serves_the_pages() {
    let server = Server::start(&[]);
    let addr = server.addr.as_str();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let page = get(addr, "/othello");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("<svg id=\"board\""));
    assert!(get(addr, "/../Cargo.toml").starts_with("HTTP/1.1 404"));
    // the Othello book shipped with ply, which has no file to learn into
    let book = health(addr)["othello_book"].clone();
    assert_eq!(book["learnable"], false, "{book}");
    assert!(
        book["positions"].as_u64().is_some_and(|n| n >= 1000),
        "{book}"
    );
    let plain = Server::start(&["--no-othello-book"]);
    assert!(health(&plain.addr)["othello_book"].is_null());
}

/// `GET /api/health`'s JSON.
fn health(addr: &str) -> serde_json::Value {
    let reply = get(addr, "/api/health");
    let json = &reply[reply.find("\r\n\r\n").expect("a body") + 4..];
    serde_json::from_str(json).expect("JSON")
}

#[test]
fn bad_addresses_and_options_are_errors() {
    let out = Command::new(PLY)
        .args(["serve", "--bind", "not an address"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("ply: cannot listen on"), "{err}");
    let out = Command::new(PLY)
        .args(["serve", "--threads", "many"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_bad_syzygy_directory_is_an_error_at_startup() {
    let scratch = ply_testkit::Scratch::new("web-no-tables");
    let empty = scratch.path();
    let empty_arg = empty.to_string_lossy().into_owned();
    for (dir, want) in [
        ("/nonexistent/ply-syzygy", "does not exist"),
        (empty_arg.as_str(), "no Syzygy table"),
        ("", "no Syzygy table"),
    ] {
        let out = Command::new(PLY)
            .args(["serve", "--bind", "127.0.0.1:0", "--syzygy", dir])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{dir}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("ply: ") && err.contains(want),
            "{dir}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_bad_othello_book_is_an_error_at_startup_naming_the_file() {
    let scratch = ply_testkit::Scratch::new("web-bad-book");
    let garbage = scratch.file("garbage.ply");
    std::fs::write(&garbage, b"PLYOBOOK\x01\x00\x00\x00 not a book").unwrap();
    let binary = scratch.file("binary.dat");
    std::fs::write(&binary, [0xffu8, 0xfe, 0x00, 0x80]).unwrap();
    let missing = scratch.path().join("missing.ply");
    for (file, want) in [
        (&garbage, "book"),
        (&binary, "not a ply or Edax book"),
        (&missing, "No such file"),
    ] {
        let out = Command::new(PLY)
            .args(["serve", "--bind", "127.0.0.1:0", "--othello-book"])
            .arg(file)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", file.display());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("ply: cannot read the Othello book ")
                && err.contains(&file.display().to_string())
                && err.contains(want),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn serve_with_an_othello_book_plays_from_it() {
    use ply_othello::{Board, Square};
    use ply_othello_engine::book::{Book, Entry};
    let scratch = ply_testkit::Scratch::new("web-book");
    let file = scratch.file("book.ply");
    let start = Board::start();
    let after_f5 = start.next(Square::F5.index(), start.flips(Square::F5.index()));
    let mut book = Book::new(1);
    book.insert(&after_f5, Entry::new(2, 1, Some((Square::F6, 2))));
    std::fs::write(&file, book.to_bytes()).unwrap();
    let server = Server::start(&["--othello-book", file.to_str().unwrap()]);
    let h = health(&server.addr);
    assert_eq!(
        h["othello_book"],
        serde_json::json!({"positions": 1, "level": 1, "learnable": true}),
        "{h}"
    );
    let body = r#"{"moves":"f5","level":2}"#;
    let mut s = TcpStream::connect(&server.addr).expect("connect");
    write!(
        s,
        "POST /api/othello/play HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.addr,
        body.len()
    )
    .unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(
        reply.contains(r#""move":"f6""#) && reply.contains(r#""book":true"#),
        "{reply}"
    );
}

/// `ply --version` gives the same version string as `ply-chess` and `ply-othello`: the package
/// version, with `+<short commit>` when built from a git checkout.
#[test]
fn version_is_the_package_version_and_maybe_the_commit() {
    let out = Command::new(PLY)
        .arg("--version")
        .output()
        .expect("ply runs");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text
        .trim()
        .strip_prefix("ply ")
        .expect("starts with the name");
    let (base, commit) = match version.split_once('+') {
        Some((b, c)) => (b, Some(c)),
        None => (version, None),
    };
    assert_eq!(base, env!("CARGO_PKG_VERSION"));
    if let Some(c) = commit {
        assert!(
            c.len() >= 4 && c.chars().all(|ch| ch.is_ascii_hexdigit()),
            "{version}"
        );
    }
}
