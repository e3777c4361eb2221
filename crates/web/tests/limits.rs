//! The server's search bound as a client meets it: `ply serve --max-searches N` run as the real
//! binary (N searches hold N slots, the next search request waits and gets 503 `busy`, a slot
//! comes back when its client goes away, and the slot count follows N, not the default). The
//! request-body limit is tested in-process, in `api.rs`.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

mod common;

use common::Server;

impl Server {
    /// Sends one request (`Connection: close`) and returns the status and the JSON body.
    fn request(&self, method: &str, path: &str, body: &str) -> (u16, Value) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        write!(
            s,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut reply = String::new();
        s.read_to_string(&mut reply).unwrap();
        let status = reply
            .get(9..12)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status line: {reply}"));
        let (_, json) = reply.split_once("\r\n\r\n").expect("headers end");
        let json = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {reply}"));
        (status, json)
    }

    /// `GET /api/health`: the slots, all and free.
    fn slots(&self) -> (u64, u64) {
        let (status, h) = self.request("GET", "/api/health", "");
        assert_eq!(status, 200, "{h}");
        (h["slots"].as_u64().unwrap(), h["free"].as_u64().unwrap())
    }

    /// Opens a long chess analysis (an event stream that holds a search slot while it is open)
    /// and returns its connection once the server has answered 200.
    fn hold_a_slot(&self) -> TcpStream {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        write!(
            s,
            "GET /api/chess/analyse?ms=20000 HTTP/1.1\r\nHost: {}\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut reader = BufReader::new(s.try_clone().unwrap());
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        s
    }

    /// `POST /api/othello/play` of the first move at level 1: a search that needs a slot.
    fn play(&self) -> (u16, Value) {
        self.request("POST", "/api/othello/play", r#"{"level": 1}"#)
    }
}

/// Asserts a successful first move of Othello.
fn assert_played(status: u16, body: &Value) {
    assert_eq!(status, 200, "{body}");
    let mv = body["move"].as_str().unwrap_or("");
    assert!(["d3", "c4", "f5", "e6"].contains(&mv), "{body}");
}

#[test]
fn max_searches_bounds_the_searches_of_the_real_server() {
    // one slot: a held stream leaves none, the next search waits and is told busy
    let one = Server::start(&["--max-searches", "1", "--no-othello-book"]);
    assert_eq!(one.slots(), (1, 1));
    let stream = one.hold_a_slot();
    assert_eq!(one.slots(), (1, 0));
    let (status, busy) = one.play();
    assert_eq!(status, 503, "{busy}");
    assert_eq!(busy["kind"], "busy", "{busy}");
    assert!(
        busy["error"].as_str().is_some_and(|e| e.contains("busy")),
        "{busy}"
    );
    // the client goes away: its search stops and the slot serves the next request
    drop(stream);
    let start = Instant::now();
    loop {
        let (status, body) = one.play();
        if status == 200 {
            assert_played(status, &body);
            break;
        }
        assert_eq!(body["kind"], "busy", "{body}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "the slot never came back"
        );
    }
    drop(one);

    // three slots, one more than the default: two held streams still leave one for a move
    let three = Server::start(&["--max-searches", "3", "--no-othello-book"]);
    assert_eq!(three.slots(), (3, 3));
    let held = [three.hold_a_slot(), three.hold_a_slot()];
    assert_eq!(three.slots(), (3, 1));
    let (status, body) = three.play();
    assert_played(status, &body);
    drop(held);
    drop(three);

    // 0 is raised to one slot (a server that could never search would be useless)
    assert_eq!(
        Server::start(&["--max-searches", "0", "--no-othello-book"]).slots(),
        (1, 1)
    );
}
