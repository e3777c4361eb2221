//! The built-in training positions: a small label file of ply's own self-play games, embedded
//! so that `ply-othello train` runs on a fresh clone with no outside data (see
//! `crates/othello-tools/data/README.md` for how it is made).

use super::dataset::{parse_labels, LabelError, Sample};
use crate::datagen::Config;
use std::path::Path;

/// The built-in label file, in `datagen`'s format.
pub const LABELS: &str = include_str!("../../data/selfplay-labels.txt");

/// Name of the built-in label file in messages.
pub const NAME: &str = "built-in self-play labels";

/// Games of the command that made [`LABELS`].
pub const GAMES: u64 = 24;

/// The command that made [`LABELS`] (run in `crates/othello-tools/data`).
pub const COMMAND: &str =
    "ply-othello datagen --games 24 --seed 33 --level 6 --exact 14 --out selfplay-labels.txt";

/// The `datagen` options of [`COMMAND`].
pub fn config() -> Config {
    Config {
        seed: 33,
        level: 6,
        exact_from: 14,
        ..Config::default()
    }
}

/// The samples of [`LABELS`].
///
/// # Errors
/// [`LabelError::Syntax`] if the embedded file were malformed (a test keeps it well-formed).
pub fn samples() -> Result<Vec<Sample>, LabelError> {
    parse_labels(LABELS, Path::new(NAME))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datagen::{self, Shard};

    #[test]
    fn the_built_in_labels_parse() {
        let samples = samples().expect("the embedded file parses");
        assert_eq!(samples.len(), LABELS.lines().count());
        assert!(samples.len() > 500);
        assert!(samples.iter().any(|s| s.exact) && samples.iter().any(|s| !s.exact));
    }

    #[test]
    fn regenerating_gives_the_same_bytes() {
        let scratch = ply_testkit::Scratch::new("othello-builtin-labels");
        let out = scratch.file("selfplay-labels.txt");
        let shard = Shard { index: 0, count: 1 };
        datagen::run(&config(), shard, GAMES, &out, |_| {}).expect("datagen runs");
        let made = std::fs::read_to_string(&out).expect("datagen wrote its file");
        assert!(
            made == LABELS,
            "`{COMMAND}` no longer gives crates/othello-tools/data/selfplay-labels.txt: \
             regenerate it (see that folder's README.md)"
        );
    }
}
