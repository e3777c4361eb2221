//! Load: 50 concurrent clients over real loopback connections ask for moves, hints and analyses
//! for a while. Every request must be answered (200, or 503 busy), memory must stay bounded and
//! every search slot must come back. The default run lasts 3 s (`PLY_WEB_LOAD_SECS` changes
//! it); the ignored test is the 30 s version:
//! `cargo test -p ply-web --profile ci --test load -- --ignored --nocapture`.

use ply_web::{serve, AppState, Config};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const CLIENTS: usize = 50;

/// One request over a fresh connection; the status code and the whole reply.
async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(addr).await?;
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    Ok((status, text))
}

/// Resident memory of this process, KiB (0 where /proc is not there).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}

#[derive(Default)]
struct Counts {
    ok: AtomicU64,
    busy: AtomicU64,
    other: AtomicU64,
}

async fn run_load(secs: u64) {
    let config = Config {
        hash_mib: 16,
        ..Config::default()
    };
    let slots = config.max_searches;
    let state = AppState::new(config).expect("tables");
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(serve(listener, state, async {
        let _ = stop_rx.await;
    }));
    let rss_start = rss_kib();
    let peak = Arc::new(AtomicU64::new(rss_start));
    let counts = Arc::new(Counts::default());
    let deadline = Instant::now() + Duration::from_secs(secs);
    let monitor = {
        let peak = Arc::clone(&peak);
        tokio::spawn(async move {
            loop {
                peak.fetch_max(rss_kib(), Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    };
    let requests: [(&str, &str, &str); 5] = [
        (
            "POST",
            "/api/othello/play",
            r#"{"moves":"f5d6c3","level":6}"#,
        ),
        ("GET", "/api/othello/hint?moves=f5d6&level=10&ms=300", ""),
        (
            "GET",
            "/api/chess/analyse?moves=e4%20e5&multipv=2&ms=300",
            "",
        ),
        ("POST", "/api/chess/play", r#"{"moves":"e4","nodes":20000}"#),
        ("POST", "/api/chess/state", r#"{"moves":"e4 e5 Nf3"}"#),
    ];
    let mut clients = Vec::new();
    for c in 0..CLIENTS {
        let counts = Arc::clone(&counts);
        clients.push(tokio::spawn(async move {
            let mut i = c;
            while Instant::now() < deadline {
                let (method, path, body) = requests[i % requests.len()];
                i += 1;
                let answer = tokio::time::timeout(
                    Duration::from_secs(45),
                    request(addr, method, path, body),
                )
                .await;
                match answer {
                    Ok(Ok((200, reply))) => {
                        // a stream that was answered ends with its done event
                        if method == "GET" {
                            assert!(reply.contains("event: done"), "{path}: {reply}");
                        }
                        counts.ok.fetch_add(1, Ordering::Relaxed);
                    }
                    Ok(Ok((503, reply))) => {
                        assert!(reply.contains("\"kind\":\"busy\""), "{reply}");
                        counts.busy.fetch_add(1, Ordering::Relaxed);
                    }
                    other => {
                        eprintln!("{method} {path}: {other:?}");
                        counts.other.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
        }));
    }
    for c in clients {
        c.await.expect("client");
    }
    // every slot comes back, and the server still answers
    let start = Instant::now();
    loop {
        let (status, reply) = request(addr, "GET", "/api/health", "").await.unwrap();
        assert_eq!(status, 200);
        if reply.contains(&format!("\"free\":{slots}")) {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{reply}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    monitor.abort();
    let _ = stop_tx.send(());
    server.await.expect("server task").expect("server");
    let (ok, busy, other) = (
        counts.ok.load(Ordering::Relaxed),
        counts.busy.load(Ordering::Relaxed),
        counts.other.load(Ordering::Relaxed),
    );
    let grown_mib = peak.load(Ordering::Relaxed).saturating_sub(rss_start) / 1024;
    println!(
        "load: {CLIENTS} clients for {secs} s: {ok} answered, {busy} busy (503), {other} failed; \
         RSS {} MiB at start, peak +{grown_mib} MiB",
        rss_start / 1024
    );
    assert_eq!(other, 0, "requests neither answered nor refused as busy");
    assert!(ok > 0, "no request was answered");
    assert!(grown_mib < 512, "memory grew by {grown_mib} MiB");
}

fn seconds(default: u64) -> u64 {
    std::env::var("PLY_WEB_LOAD_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_briefly() {
    run_load(seconds(3)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow job (.ci/run-slow): 30 s of load, the default run has a shorter one"]
async fn fifty_clients_for_thirty_seconds() {
    run_load(seconds(30)).await;
}
