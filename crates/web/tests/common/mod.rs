//! Shared by the tests that run the `ply` binary: a server on a free loopback port.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// The `ply` binary of this build.
pub const PLY: &str = env!("CARGO_BIN_EXE_ply");

/// A `ply serve` process on a free loopback port, killed when dropped (also when a test fails).
pub struct Server {
    child: Child,
    /// The `host:port` it serves on.
    pub addr: String,
}

impl Server {
    /// Starts `ply serve --bind 127.0.0.1:0 --hash 2 args...` and reads the address it prints.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(PLY)
            .args(["serve", "--bind", "127.0.0.1:0", "--hash", "2"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("ply starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let mut server = Server {
            child,
            addr: String::new(),
        };
        let url = line
            .strip_prefix("ply: serving on http://")
            .unwrap_or_else(|| panic!("no address printed: {line:?}"));
        server.addr = url[..url.find('/').unwrap()].to_string();
        server
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
