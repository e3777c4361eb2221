//! A GTP client for an external engine subprocess: one command, one reply (`= ...` or
//! `? ...` followed by a blank line), each reply awaited with a timeout so a hung engine
//! is reported instead of stalling the match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Failures talking to the external engine.
#[derive(Debug, thiserror::Error)]
pub enum GtpError {
    /// The command line is empty.
    #[error("empty engine command")]
    EmptyCommand,
    /// The engine could not be started.
    #[error("cannot start {0}: {1}")]
    Spawn(String, std::io::Error),
    /// Writing to the engine failed (it probably exited).
    #[error("engine write failed: {0}")]
    Write(std::io::Error),
    /// The engine closed its output (a crash).
    #[error("engine exited")]
    Exited,
    /// No reply within the timeout.
    #[error("engine did not answer `{0}` within {1:?}")]
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
        let stdin = child.stdin.take().ok_or(GtpError::Exited)?;
        let stdout = child.stdout.take().ok_or(GtpError::Exited)?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
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

    /// Sends one command and returns the reply text after `=` (trimmed).
    ///
    /// # Errors
    /// Write failures, a closed engine, a timeout or a `?` reply.
    pub fn send(&mut self, cmd: &str, timeout: Duration) -> Result<String, GtpError> {
        writeln!(self.stdin, "{cmd}").map_err(GtpError::Write)?;
        self.stdin.flush().map_err(GtpError::Write)?;
        let deadline = std::time::Instant::now() + timeout;
        let mut reply: Option<String> = None;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(GtpError::Timeout(cmd.to_string(), timeout))
                }
                Err(RecvTimeoutError::Disconnected) => return Err(GtpError::Exited),
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
        let dir = std::env::temp_dir().join(format!("ply-gtp-client-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let script = dir.join("engine.sh");
        // answers every command with a diagnostic line, then `= c4` (or `? no` to `bad`)
        let body = "while read -r cmd; do echo '*** SEARCH STILL RUNNING ? (0) ***'; \
                    if [ \"$cmd\" = bad ]; then printf '? no\\n\\n'; else printf '= c4\\n\\n'; fi; done\n";
        std::fs::write(&script, body).expect("script written");
        let mut engine = GtpClient::spawn(&format!("sh {}", script.display())).expect("spawn");
        let t = Duration::from_secs(10);
        assert_eq!(engine.send("genmove black", t).expect("a reply"), "c4");
        assert!(matches!(engine.send("bad", t), Err(GtpError::Refused(_, m)) if m == "no"));
        drop(engine);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
