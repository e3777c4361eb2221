//! The workspace's progress bars on standard error, one home: [`progress_bar`] (a bar with a
//! template, or a hidden one), used by the programs' long commands, and [`RunBar`], the bar of a
//! batch run, shared by the data generators' programs.

use crate::Progress;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

/// Games done of the shard's, lines written (as `unit`), elapsed and remaining time; hidden when
/// standard error is not a terminal (a log file gets only the program's summary).
pub struct RunBar {
    bar: ProgressBar,
    unit: &'static str,
}

/// A bar of length `len` drawn with the indicatif `template` when `show`, else a hidden one
/// (callers pass whether standard error is a terminal, and their quiet or JSON options).
pub fn progress_bar(len: u64, show: bool, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

impl RunBar {
    /// A bar counting written lines as `unit` (e.g. "positions").
    pub fn new(unit: &'static str) -> RunBar {
        let bar = progress_bar(
            0,
            std::io::stderr().is_terminal(),
            "{bar:40} {pos}/{len} games, {msg} [{elapsed} < {eta}] {per_sec}",
        );
        RunBar { bar, unit }
    }

    /// Shows `p`, and prints its notice about the existing output, if any, above the bar (or
    /// on its own line when the bar is hidden).
    pub fn show(&self, p: &Progress) {
        if let Some(notice) = &p.notice {
            if self.bar.is_hidden() {
                eprintln!("{notice}");
            } else {
                self.bar.println(notice);
            }
        }
        self.bar.set_length(p.total);
        self.bar.set_position(p.done);
        self.bar.set_message(format!("{} {}", p.lines, self.unit));
    }

    /// Removes the bar (before the summary is printed).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
