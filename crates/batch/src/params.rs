//! The parameters of a run, recorded beside its output so that a resume with other options is
//! refused instead of mixing two runs in one file.
//!
//! The record is a text file named after the output with `.params` appended (`data.txt` →
//! `data.txt.params`): comment lines starting with `#`, then one `key=value` line per
//! parameter, in the order the program gave them. Only the options that decide the games'
//! content belong there (seed, search budget, openings, ...); the number of games does not,
//! since a longer run extends a shorter one.

use crate::BatchError;
use std::fmt;
use std::path::{Path, PathBuf};

/// The options that decide the content of a run's games, as ordered `key=value` pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunParams {
    pairs: Vec<(String, String)>,
}

impl RunParams {
    /// No parameters.
    pub fn new() -> RunParams {
        RunParams::default()
    }

    /// These parameters and `key=value` (keys are option names without dashes; a value is
    /// written on one line, so line breaks in it become spaces).
    pub fn with(mut self, key: &str, value: impl fmt::Display) -> RunParams {
        let value = value.to_string().replace(['\n', '\r'], " ");
        self.pairs.push((key.to_string(), value));
        self
    }

    /// The value of `key`, if recorded.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The differences between a recorded run (`self`) and a new one, one text each:
    /// `key: recorded in the file, given now`.
    pub fn differences(&self, given: &RunParams) -> Vec<String> {
        let mut keys: Vec<&str> = self.pairs.iter().map(|(k, _)| k.as_str()).collect();
        for (k, _) in &given.pairs {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
        keys.into_iter()
            .filter_map(|k| {
                let (old, new) = (self.get(k), given.get(k));
                (old != new).then(|| {
                    format!(
                        "{k}: {} in the file, {} now",
                        old.unwrap_or("(absent)"),
                        new.unwrap_or("(absent)")
                    )
                })
            })
            .collect()
    }

    /// Reads a record's text.
    ///
    /// # Errors
    /// The 1-based number of a line that is neither a comment nor `key=value`.
    pub fn parse(text: &str) -> Result<RunParams, usize> {
        let mut params = RunParams::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (k, v) = line.split_once('=').ok_or(n + 1)?;
            if k.is_empty() || k.contains(char::is_whitespace) {
                return Err(n + 1);
            }
            params.pairs.push((k.to_string(), v.to_string()));
        }
        Ok(params)
    }

    /// The record's text, with a comment line naming the data file.
    pub fn to_text(&self, data: &Path) -> String {
        let mut text = format!(
            "# parameters of the run that wrote {}; resuming it needs the same\n",
            data.file_name().map_or_else(
                || data.display().to_string(),
                |n| n.to_string_lossy().into()
            ),
        );
        for (k, v) in &self.pairs {
            text.push_str(&format!("{k}={v}\n"));
        }
        text
    }
}

impl fmt::Display for RunParams {
    /// `key=value` pairs separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (k, v)) in self.pairs.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// Where the parameters of the run writing `out` are recorded: `out` with `.params` appended.
pub fn params_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".params");
    PathBuf::from(name)
}

/// How the output's parameter record stood when the run started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ParamsRecord {
    /// A new output: the record was written.
    #[default]
    Written,
    /// The record matched this run's parameters.
    Matched,
    /// The output existed without a record (written by an older program): this run's
    /// parameters were recorded for it, unchecked.
    Adopted,
}

/// Checks `given` against the record of `out`'s run, if there is one, without writing anything:
/// a run with other options is named as such before its data is read (a text run on a binary
/// file would otherwise be told the file is not data).
pub(crate) fn check_recorded(out: &Path, given: &RunParams) -> Result<(), BatchError> {
    let path = params_path(out);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let Ok(recorded) = RunParams::parse(&text) else {
                // named by check_or_record, after the data was read
                return Ok(());
            };
            let diffs = recorded.differences(given);
            if diffs.is_empty() {
                Ok(())
            } else {
                Err(BatchError::OtherRun {
                    path: out.to_path_buf(),
                    differences: diffs.join("; "),
                })
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(BatchError::Io { path, source }),
    }
}

/// Checks `given` against the record of `out`'s run, or writes it where there is none.
/// `has_data` says whether `out` already holds lines.
pub(crate) fn check_or_record(
    out: &Path,
    given: &RunParams,
    has_data: bool,
) -> Result<ParamsRecord, BatchError> {
    let path = params_path(out);
    let io = |source| BatchError::Io {
        path: path.clone(),
        source,
    };
    match std::fs::read_to_string(&path) {
        Ok(text) if has_data => {
            let recorded = RunParams::parse(&text).map_err(|line| BatchError::BadParams {
                path: path.clone(),
                line,
            })?;
            let diffs = recorded.differences(given);
            if diffs.is_empty() {
                Ok(ParamsRecord::Matched)
            } else {
                Err(BatchError::OtherRun {
                    path: out.to_path_buf(),
                    differences: diffs.join("; "),
                })
            }
        }
        // a record beside an empty or absent output belongs to no data: write ours
        Ok(_) => {
            std::fs::write(&path, given.to_text(out)).map_err(io)?;
            Ok(ParamsRecord::Written)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::write(&path, given.to_text(out)).map_err(io)?;
            Ok(if has_data {
                ParamsRecord::Adopted
            } else {
                ParamsRecord::Written
            })
        }
        Err(e) => Err(io(e)),
    }
}
