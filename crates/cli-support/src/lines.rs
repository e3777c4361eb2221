//! The input lines of a protocol session, read as bytes: a line that is not UTF-8 is handed on
//! as an error (for the session to report in its own error form) instead of ending the input,
//! which is what `BufRead::lines` does with it. Both programs' protocol sessions (UCI, GTP,
//! NBoard, the text modes) and their fuzz targets read with the same [`ByteLines`].
//!
//! ```
//! use ply_cli_support::ByteLines;
//! let input: &[u8] = b"name\r\n\xff\xfe\nquit";
//! let lines: Vec<_> = ByteLines::new(input).collect();
//! assert_eq!(lines[0].as_deref(), Ok("name"));
//! assert!(lines[1].is_err());
//! assert_eq!(lines[2].as_deref(), Ok("quit"));
//! ```

use std::io::BufRead;
use thiserror::Error;

/// An input line that is not UTF-8 text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("input line is not UTF-8 (invalid byte {byte:#04x} at byte {at} of {len}); line ignored")]
pub struct NotUtf8 {
    /// Offset of the first invalid byte.
    pub at: usize,
    /// The invalid byte.
    pub byte: u8,
    /// Length of the line in bytes (without its line end).
    pub len: usize,
    /// The line decoded with replacement characters, for a session that wants its first word
    /// (a GTP command id).
    pub lossy: String,
}

/// The lines of a reader, without their `\n` or `\r\n`: `Ok` for text, `Err` for a line that
/// is not UTF-8. The iteration ends at the end of input or at a read error.
pub struct ByteLines<R> {
    reader: R,
    buf: Vec<u8>,
    error: Option<std::io::Error>,
}

impl<R: BufRead> ByteLines<R> {
    /// Lines of `reader`.
    pub fn new(reader: R) -> ByteLines<R> {
        ByteLines {
            reader,
            buf: Vec::new(),
            error: None,
        }
    }

    /// The read error that ended the lines, if one did (taken: a second call gives `None`). The
    /// end of the input is not an error.
    pub fn take_error(&mut self) -> Option<std::io::Error> {
        self.error.take()
    }
}

/// Decodes one line (without its line end).
pub fn decode(bytes: &[u8]) -> Result<String, NotUtf8> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Ok(text.to_string()),
        Err(e) => {
            let at = e.valid_up_to();
            Err(NotUtf8 {
                at,
                byte: bytes[at],
                len: bytes.len(),
                lossy: String::from_utf8_lossy(bytes).into_owned(),
            })
        }
    }
}

impl<R: BufRead> Iterator for ByteLines<R> {
    type Item = Result<String, NotUtf8>;

    fn next(&mut self) -> Option<Self::Item> {
        self.buf.clear();
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) => None,
            Err(e) => {
                self.error = Some(e);
                None
            }
            Ok(_) => {
                let mut line = self.buf.as_slice();
                if let Some(l) = line.strip_suffix(b"\n") {
                    line = l;
                }
                if let Some(l) = line.strip_suffix(b"\r") {
                    line = l;
                }
                Some(decode(line))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_do_not_end_the_input() {
        let input: &[u8] = b"a\n\xc3\x28 b\r\n\nlast";
        let got: Vec<_> = ByteLines::new(input).collect();
        assert_eq!(got.len(), 4);
        assert_eq!(got[0].as_deref(), Ok("a"));
        let bad = got[1].clone().unwrap_err();
        assert_eq!((bad.at, bad.byte, bad.len), (0, 0xc3, 4));
        assert!(bad.to_string().contains("not UTF-8"), "{bad}");
        assert_eq!(got[2].as_deref(), Ok(""));
        assert_eq!(got[3].as_deref(), Ok("last"));
    }

    #[test]
    fn a_read_error_ends_the_lines_and_is_kept() {
        struct Broken;
        impl std::io::Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("gone"))
            }
        }
        let mut lines = ByteLines::new(std::io::BufReader::new(Broken));
        assert!(lines.next().is_none());
        assert_eq!(
            lines.take_error().map(|e| e.to_string()).as_deref(),
            Some("gone")
        );
        assert!(lines.take_error().is_none());
        let mut fine = ByteLines::new(&b"a"[..]);
        assert_eq!(fine.by_ref().count(), 1);
        assert!(fine.take_error().is_none(), "the end of input is no error");
    }

    #[test]
    fn a_crlf_line_and_an_empty_input() {
        let got: Vec<_> = ByteLines::new(&b"x\r\n"[..]).collect();
        assert_eq!(got, vec![Ok("x".to_string())]);
        assert_eq!(ByteLines::new(&b""[..]).count(), 0);
    }
}
