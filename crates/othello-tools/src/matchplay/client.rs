//! A GTP client for an external engine subprocess: one command, one reply (`= ...` or
//! `? ...` followed by a blank line), each reply awaited with a timeout so a hung engine
//! is reported instead of stalling the match.

use ply_othello::{color_name, Color, Square};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Longest line read from the engine at once, in bytes.
const MAX_LINE: u64 = 1 << 16;

/// Time allowed to an engine for a command other than `genmove`.
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// A move as GTP writes it: the square's name, `pass` for a pass.
pub fn move_word(sq: Square) -> &'static str {
    if sq.is_pass() {
        "pass"
    } else {
        sq.name()
    }
}

/// Failures talking to the external engine.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    /// The command line is empty.
    #[error("empty engine command")]
    EmptyCommand,
    /// The engine could not be started.
    #[error("cannot start {0}: {1}")]
    Spawn(String, std::io::Error),
    /// Writing to the engine failed for another reason than its exit.
    #[error("cannot send `{0}` to the engine: {1}")]
    Write(String, std::io::Error),
    /// The engine exited or closed its output before answering the command; the text says how
    /// it ended when that is known (`exit status: 1`).
    #[error("engine exited before answering `{0}`{1}")]
    Exited(String, String),
    /// No reply within the timeout.
    #[error("engine did not answer `{0}` within {secs} s", secs = .1.as_secs_f64())]
    Timeout(String, Duration),
    /// The engine answered with `? message`.
    #[error("engine refused `{0}`: {1}")]
    Refused(String, String),
}

/// A running GTP engine.
pub struct GtpClient {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl GtpClient {
    /// Starts `command` (program and arguments split on whitespace).
    ///
    /// # Errors
    /// [`GtpError::EmptyCommand`] or [`GtpError::Spawn`].
    pub fn spawn(command: &str) -> Result<GtpClient, GtpError> {
        let mut parts = command.split_whitespace();
        let program = parts.next().ok_or(GtpError::EmptyCommand)?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| GtpError::Spawn(command.to_string(), e))?;
        let no_pipe = || GtpError::Exited(String::new(), " (no pipe to it)".into());
        let stdin = child.stdin.take().ok_or_else(no_pipe)?;
        let stdout = child.stdout.take().ok_or_else(no_pipe)?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // a longer line arrives in pieces (memory stays bounded); text that is not
                // UTF-8 is decoded with replacement characters rather than taken for an exit
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
                let line = String::from_utf8_lossy(&buf);
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(GtpClient {
            child,
            stdin,
            lines,
        })
    }

    /// How the engine ended, for a message: `" (exit status: 1)"`, or empty while it runs or
    /// when that cannot be told.
    fn how_it_ended(&mut self) -> String {
        // its output closed or a write failed: the process is exiting, give it a moment
        for _ in 0..50 {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!(" ({status})"),
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => break,
            }
        }
        String::new()
    }

    /// The error for a write that failed: a broken pipe means the engine is gone.
    fn write_error(&mut self, cmd: &str, e: std::io::Error) -> GtpError {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            GtpError::Exited(cmd.to_string(), self.how_it_ended())
        } else {
            GtpError::Write(cmd.to_string(), e)
        }
    }

    /// Tells the engine that `side` played `mv` (`play <colour> <move>`). A refused pass counts
    /// as told: some engines take a pass implicitly and refuse it explicitly.
    ///
    /// # Errors
    /// As [`send`](Self::send), except a `?` reply to a pass.
    pub fn play(&mut self, side: Color, mv: Square, timeout: Duration) -> Result<(), GtpError> {
        let cmd = format!("play {} {}", color_name(side), move_word(mv));
        match self.send(&cmd, timeout) {
            Ok(_) => Ok(()),
            Err(GtpError::Refused(..)) if mv.is_pass() => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// Sends one command and returns the reply text after `=` (trimmed). The reply must be
    /// complete within `timeout`, however many other lines the engine prints meanwhile.
    ///
    /// A process that writes to an engine which has exited gets `SIGPIPE`, which kills it
    /// unless ignored: a caller that lets a user name the engine ignores it (then the write
    /// fails and this returns [`GtpError::Exited`]).
    ///
    /// # Errors
    /// Write failures, an engine that exited, a timeout or a `?` reply.
    pub fn send(&mut self, cmd: &str, timeout: Duration) -> Result<String, GtpError> {
        let written = writeln!(self.stdin, "{cmd}").and_then(|()| self.stdin.flush());
        if let Err(e) = written {
            return Err(self.write_error(cmd, e));
        }
        let deadline = std::time::Instant::now() + timeout;
        let mut reply: Option<String> = None;
        loop {
            let now = std::time::Instant::now();
            // checked here too: an engine that floods lines never lets `recv_timeout` time out
            if now >= deadline {
                return Err(GtpError::Timeout(cmd.to_string(), timeout));
            }
            let line = match self.lines.recv_timeout(deadline - now) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(GtpError::Timeout(cmd.to_string(), timeout))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(GtpError::Exited(cmd.to_string(), self.how_it_ended()))
                }
            };
            let line = line.trim().to_string();
            match (&mut reply, line.is_empty()) {
                (None, true) => continue,
                (Some(r), true) => {
                    let r = std::mem::take(r);
                    return match r.strip_prefix('?') {
                        Some(msg) => Err(GtpError::Refused(cmd.to_string(), msg.trim().into())),
                        None => Ok(r.strip_prefix('=').unwrap_or(&r).trim().to_string()),
                    };
                }
                // a response starts with `=` or `?`; diagnostics some engines print on their
                // standard output before it (Edax: "*** SEARCH STILL RUNNING ? ***") are not
                // part of it
                (None, false) if !line.starts_with(['=', '?']) => continue,
                (None, false) => reply = Some(line),
                (Some(r), false) => {
                    r.push('\n');
                    r.push_str(&line);
                }
            }
        }
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        std::thread::sleep(Duration::from_millis(20));
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn lines_before_a_response_are_not_part_of_it() {
        let scratch = ply_testkit::Scratch::new("gtp-client");
        let script = scratch.file("engine.sh");
        // answers every command with a diagnostic line, then `= c4` (or `? no` to `bad`)
        let body = "while read -r cmd; do echo '*** SEARCH STILL RUNNING ? (0) ***'; \
                    if [ \"$cmd\" = bad ]; then printf '? no\\n\\n'; else printf '= c4\\n\\n'; fi; done\n";
        std::fs::write(&script, body).expect("script written");
        let mut engine = GtpClient::spawn(&format!("sh {}", script.display())).expect("spawn");
        let t = Duration::from_secs(10);
        assert_eq!(engine.send("genmove black", t).expect("a reply"), "c4");
        assert!(matches!(engine.send("bad", t), Err(GtpError::Refused(_, m)) if m == "no"));
        drop(engine);
    }

    #[test]
    fn a_reply_after_bytes_that_are_not_utf8_is_read() {
        let scratch = ply_testkit::Scratch::new("gtp-latin1");
        let script = scratch.file("engine.sh");
        let body = "while read -r cmd; do printf 'r\\351sum\\351\\n= d3\\n\\n'; done\n";
        std::fs::write(&script, body).expect("script written");
        let mut engine = GtpClient::spawn(&format!("sh {}", script.display())).expect("spawn");
        let r = engine.send("genmove black", Duration::from_secs(10));
        assert_eq!(r.ok().as_deref(), Some("d3"));
        drop(engine);
    }

    #[test]
    fn an_engine_that_floods_lines_times_out() {
        let mut engine = GtpClient::spawn("yes").expect("spawn yes");
        let t0 = std::time::Instant::now();
        let r = engine.send("genmove black", Duration::from_millis(300));
        assert!(matches!(r, Err(GtpError::Timeout(..))), "{r:?}");
        assert!(t0.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn an_engine_that_exits_is_reported_with_its_status() {
        let mut engine = GtpClient::spawn("false").expect("spawn false");
        let r = engine.send("boardsize 8", Duration::from_secs(10));
        match r {
            Err(GtpError::Exited(cmd, how)) => {
                assert_eq!(cmd, "boardsize 8");
                assert!(how.contains('1'), "{how}");
            }
            other => panic!("{other:?}"),
        }
    }
}
