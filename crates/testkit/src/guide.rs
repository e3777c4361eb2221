//! The guides against the programs: every command line that README.md or a guide in `docs/`
//! writes in code (a code span or a fenced block) and that runs one of the workspace's programs
//! may name only subcommands and options that the program's own `--help` lists, and every
//! subcommand the program has must be shown by at least one guide.
//!
//! Each program's crate has a test (`tests/guide.rs`) that calls [`check`] with the program's
//! name and its binary (`env!("CARGO_BIN_EXE_<name>")`). A command line is found where the
//! program's name (or a path ending in it, `target/release/ply-chess`) starts a command, or
//! follows `cargo run --bin NAME --` or `-p NAME --`; its words run up to the end of the line (a
//! fenced block's lines ending in `\` are joined), a shell separator (`|`, `&&`, `;`, `>`) or a
//! `#` comment. The first words that are subcommands of the program lead to the help text that
//! the rest are checked against: every `--option` among them (also inside a synopsis's brackets,
//! `[--json]`) must be one that help text defines. Quoted words are values, never checked, and
//! the program named after another program's option (`--binary target/release/ply-chess`) or
//! inside an assignment (`cmd=target/release/ply-chess`) is that program's business.
//!
//! ```
//! let line = r#"cargo run --release --bin ply-chess -- perft --depth 6 # the main job"#;
//! let found = ply_testkit::guide::invocations(line, "ply-chess");
//! assert_eq!(found, vec![vec!["perft".to_string(), "--depth".into(), "6".into()]]);
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The word a quoted shell word stands for: a value, never a subcommand or an option.
const QUOTED: &str = "\"…\"";

/// The repository root: the folder holding README.md and `docs/`.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The guides: README.md and every `docs/*.md` (not the files in folders below `docs/`, such
/// as the benchmark notes of `docs/benchmarks/`), sorted by name.
///
/// # Panics
/// When README.md or `docs/` cannot be read: the guides are part of the repository.
pub fn guide_files() -> Vec<PathBuf> {
    let root = repo_root();
    let readme = root.join("README.md");
    assert!(readme.is_file(), "{} is missing", readme.display());
    let docs = root.join("docs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&docs)
        .unwrap_or_else(|e| panic!("{}: {e}", docs.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files.insert(0, readme);
    files
}

/// The code of a Markdown text with the number of the line each piece starts on: every line of
/// a fenced block (lines ending in `\` joined with the next) and every code span (a span that
/// goes on over a line break is one piece). A fenced block that is a terminal transcript (some
/// line starts with `$ `) gives only its `$ ` lines, without the prompt: the rest is output.
pub fn code_pieces(markdown: &str) -> Vec<(usize, String)> {
    let mut pieces = Vec::new();
    let mut prose: Vec<(usize, &str)> = Vec::new();
    let mut fence: Option<String> = None;
    let mut pending: Option<(usize, String)> = None;
    let mut block: Vec<(usize, String)> = Vec::new();
    for (i, line) in markdown.lines().enumerate() {
        let number = i + 1;
        let trimmed = line.trim_start();
        if let Some(marker) = &fence {
            if trimmed.starts_with(marker.as_str()) && trimmed.trim_end() == marker.as_str() {
                fence = None;
                block.extend(pending.take());
                pieces.extend(transcript_commands(std::mem::take(&mut block)));
                continue;
            }
            let pieces = &mut block;
            let (start, mut text) = pending.take().unwrap_or((number, String::new()));
            match line.trim_end().strip_suffix('\\') {
                Some(head) => {
                    text.push_str(head);
                    text.push(' ');
                    pending = Some((start, text));
                }
                None => {
                    text.push_str(line);
                    pieces.push((start, text));
                }
            }
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            pieces.extend(spans(&prose));
            prose.clear();
            let c = trimmed.chars().next().unwrap_or('`');
            fence = Some(trimmed.chars().take_while(|&x| x == c).collect());
        } else {
            prose.push((number, line));
        }
    }
    block.extend(pending);
    pieces.extend(transcript_commands(block));
    pieces.extend(spans(&prose));
    pieces
}

/// The lines of a fenced block as code: all of them, or for a terminal transcript (a line
/// starting with `$ `) only the commands after the prompts.
fn transcript_commands(block: Vec<(usize, String)>) -> Vec<(usize, String)> {
    if !block.iter().any(|(_, l)| l.trim_start().starts_with("$ ")) {
        return block;
    }
    block
        .into_iter()
        .filter_map(|(n, l)| {
            l.trim_start()
                .strip_prefix("$ ")
                .map(|c| (n, c.to_string()))
        })
        .collect()
}

/// The code spans of consecutive prose lines (a run of N backticks up to the next run of
/// exactly N), line breaks inside a span read as spaces.
fn spans(lines: &[(usize, &str)]) -> Vec<(usize, String)> {
    let mut chars: Vec<(usize, char)> = Vec::new();
    for &(number, line) in lines {
        chars.extend(line.chars().map(|c| (number, c)));
        chars.push((number, '\n'));
    }
    let run_at = |i: usize| chars[i..].iter().take_while(|&&(_, c)| c == '`').count();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].1 != '`' {
            i += 1;
            continue;
        }
        let open = run_at(i);
        let start = i + open;
        let mut j = start;
        let mut close = None;
        while j < chars.len() {
            if chars[j].1 == '`' {
                let n = run_at(j);
                if n == open {
                    close = Some(j);
                    break;
                }
                j += n;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                let text: String = chars[start..end]
                    .iter()
                    .map(|&(_, c)| if c == '\n' { ' ' } else { c })
                    .collect();
                out.push((chars[i].0, text.trim().to_string()));
                i = end + open;
            }
            None => i = start,
        }
    }
    out
}

/// The words of a shell line: split at white space outside quotes; a word with a quoted part is
/// a value and becomes `"…"`; a backslash keeps the next character in the word (`\|`).
pub fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut word, mut quoted, mut in_word) = (String::new(), false, false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                (quoted, in_word) = (true, true);
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                }
            }
            '\\' => {
                word.push(c);
                word.extend(chars.next());
                in_word = true;
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(if quoted { QUOTED.to_string() } else { word });
                }
                (word, quoted, in_word) = (String::new(), false, false);
            }
            c => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(if quoted { QUOTED.to_string() } else { word });
    }
    out
}

/// Whether a word ends the command it follows: a shell separator, a redirection or a comment.
fn ends_command(word: &str) -> bool {
    matches!(word, "|" | "||" | "&&" | "&" | ";" | "<" | ")")
        || word.starts_with('>')
        || word.starts_with("2>")
        || word.starts_with('#')
}

/// The argument lists of every run of `program` on one line of code (see the module docs for
/// what counts as a run).
pub fn invocations(line: &str, program: &str) -> Vec<Vec<String>> {
    let words = words(line);
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let named = w == program
            || (w.ends_with(&format!("/{program}")) && !w.contains('=') && w != QUOTED);
        if !named {
            continue;
        }
        let start = match i.checked_sub(1).map(|p| words[p].as_str()) {
            // cargo run --bin NAME -- ARGS (without `--`, cargo's own options follow)
            Some("--bin" | "-p" | "--package") => {
                if words.get(i + 1).map(String::as_str) == Some("--") {
                    i + 2
                } else {
                    out.push(Vec::new());
                    continue;
                }
            }
            // the value of another program's option: not run here
            Some(p) if p.starts_with('-') => continue,
            _ => i + 1,
        };
        let args = words[start.min(words.len())..]
            .iter()
            .take_while(|w| !ends_command(w))
            .cloned()
            .collect();
        out.push(args);
    }
    out
}

/// The long options (`--name`, without the dashes) a word names: at its start or after an
/// opening bracket or parenthesis (`[--json]`, `(--fen`); `--` alone names none.
fn named_options(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in word.split(['[', '(', ']', ')', ',']) {
        out.extend(option_name(part));
    }
    out
}

/// The option a text starting with `--name` names (letters, digits and hyphens), without the
/// dashes; `None` for any other text and for `--` alone.
fn option_name(text: &str) -> Option<String> {
    let name: String = text
        .strip_prefix("--")?
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    (!name.is_empty()).then_some(name)
}

/// Whether a word can be a subcommand: lower-case letters, digits and inner hyphens.
fn is_command_word(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_lowercase())
        && word
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The subcommands a clap help text lists under `Commands:` (without `help`).
pub fn help_commands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("      "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|c| c != "help")
        .collect()
}

/// The long options a clap help text defines (the lines that start with `-x, --name` or
/// `--name`), without the dashes.
pub fn help_options(help: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in help.lines() {
        let t = line.trim_start();
        if !t.starts_with('-') {
            continue;
        }
        for w in t.split_whitespace().take(2) {
            out.extend(option_name(w.trim_end_matches(',')));
        }
    }
    out
}

/// What [`check`] checked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Report {
    /// Command lines of the guides that run the program.
    pub invocations: usize,
    /// Options named by them (each occurrence counted).
    pub options: usize,
    /// Distinct options checked, per subcommand.
    pub distinct_options: usize,
    /// The program's subcommands (nested ones included) that the guides were required to show.
    pub subcommands: usize,
}

/// Checks every run of `program` that the guides write against `binary`'s help texts (see the
/// module docs) and returns what it checked.
///
/// # Panics
/// With the list of every failure, each with its file and line: a subcommand or option the
/// program does not have, a subcommand of the program no guide shows, a help text that cannot
/// be had; also when the guides run the program nowhere or name none of its options, so that the
/// check cannot pass having checked nothing.
pub fn check(program: &str, binary: &str) -> Report {
    let root = repo_root();
    let mut runs = Vec::new();
    for file in guide_files() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file
            .strip_prefix(&root)
            .unwrap_or(&file)
            .display()
            .to_string();
        for (line, code) in code_pieces(&text) {
            for args in invocations(&code, program) {
                runs.push((format!("{name}:{line}"), args));
            }
        }
    }
    assert!(!runs.is_empty(), "no guide runs {program}");

    let mut helps: BTreeMap<Vec<String>, Result<String, String>> = BTreeMap::new();
    let mut help = |path: &[String]| -> Result<String, String> {
        helps
            .entry(path.to_vec())
            .or_insert_with(|| help_text(Path::new(binary), path))
            .clone()
    };
    let mut failures = Vec::new();
    let mut shown: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut checked: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
    let mut report = Report {
        invocations: runs.len(),
        ..Report::default()
    };
    'runs: for (place, args) in &runs {
        let mut path: Vec<String> = Vec::new();
        let mut next = 0;
        let text = loop {
            let text = match help(&path) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{place}: {e}"));
                    continue 'runs;
                }
            };
            let commands = help_commands(&text);
            match args.get(next) {
                Some(w) if !commands.is_empty() && is_command_word(w) => {
                    if !commands.contains(w) {
                        failures.push(format!(
                            "{place}: `{}` has no subcommand `{w}` (it has: {})",
                            command_name(program, &path),
                            commands.join(", ")
                        ));
                        continue 'runs;
                    }
                    path.push(w.clone());
                    shown.insert(path.clone());
                    next += 1;
                }
                _ => break text,
            }
        };
        let known = help_options(&text);
        for w in args[next..].iter().take_while(|w| *w != "--") {
            for name in named_options(w) {
                report.options += 1;
                checked.insert((path.clone(), name.clone()));
                if !known.contains(&name) {
                    failures.push(format!(
                        "{place}: `{}` has no option --{name}",
                        command_name(program, &path)
                    ));
                }
            }
        }
    }
    report.distinct_options = checked.len();

    // Every subcommand, nested ones too, is shown by some guide.
    let mut todo = vec![Vec::<String>::new()];
    while let Some(path) = todo.pop() {
        let Ok(text) = help(&path) else { continue };
        for c in help_commands(&text) {
            let mut sub = path.clone();
            sub.push(c);
            report.subcommands += 1;
            if shown.contains(&sub) {
                todo.push(sub);
            } else {
                failures.push(format!(
                    "no guide shows `{}` (README.md, docs/*.md)",
                    command_name(program, &sub)
                ));
            }
        }
    }

    assert!(
        failures.is_empty(),
        "the guides and `{program} --help` disagree:\n{}",
        failures.join("\n")
    );
    assert!(
        report.options > 0,
        "the guides name no option of {program}: nothing was checked"
    );
    report
}

/// `program sub sub...`, as a guide writes it.
fn command_name(program: &str, path: &[String]) -> String {
    std::iter::once(program)
        .chain(path.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `binary path... --help`, which must succeed.
fn help_text(binary: &Path, path: &[String]) -> Result<String, String> {
    let out = Command::new(binary)
        .args(path)
        .arg("--help")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`{} {} --help` failed ({}): {}",
            binary.display(),
            path.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn code_comes_from_spans_and_fenced_blocks() {
        let md = concat!(
            "Run `ply-chess perft\n",
            "--depth 6` now.\n",
            "\n",
            "```sh\n",
            "ply-chess bench \\\n",
            "    --json\n",
            "echo done\n",
            "```\n",
            "`a`"
        );
        assert_eq!(
            code_pieces(md),
            vec![
                (1, "ply-chess perft --depth 6".to_string()),
                (5, "ply-chess bench      --json".to_string()),
                (7, "echo done".to_string()),
                (9, "a".to_string()),
            ]
        );
        assert_eq!(
            code_pieces("``a ` b`` and `c`"),
            vec![(1, "a ` b".into()), (1, "c".into())]
        );
    }

    #[test]
    fn a_transcript_gives_only_its_commands() {
        let md = "```text\n$ ply-othello review game.ggf\n ply side move\n   1 X f5\n```\n";
        assert_eq!(
            code_pieces(md),
            vec![(2, "ply-othello review game.ggf".to_string())]
        );
    }

    #[test]
    fn words_keep_quoted_values_apart() {
        assert_eq!(
            words(r#"match --opponent "ply-othello gtp --level 3" --eval-file '<empty>' a\|b"#),
            strings(&[
                "match",
                "--opponent",
                QUOTED,
                "--eval-file",
                QUOTED,
                r"a\|b"
            ])
        );
    }

    #[test]
    fn runs_of_a_program_and_what_is_not_one() {
        let runs = |line: &str| invocations(line, "ply-chess");
        assert_eq!(
            runs("ply-chess completions bash > out # x"),
            vec![strings(&["completions", "bash"])]
        );
        assert_eq!(
            runs("cargo run --release --bin ply-chess -- bench --json"),
            vec![strings(&["bench", "--json"])]
        );
        assert_eq!(
            runs("cargo build --bin ply-chess --release"),
            vec![Vec::<String>::new()]
        );
        assert_eq!(
            runs("target/release/ply-chess eval | head"),
            vec![strings(&["eval"])]
        );
        assert!(runs("run.py --binary target/release/ply-chess --shards 4").is_empty());
        assert!(runs("fastchess -engine cmd=target/release/ply-chess name=ply").is_empty());
        assert!(runs("cargo test -p ply-chess-cli --test guide").is_empty());
        assert!(invocations(r#"--opponent "ply-othello gtp""#, "ply-othello").is_empty());
    }

    #[test]
    fn options_in_synopses_and_in_help_texts() {
        assert_eq!(named_options("[--json]"), strings(&["json"]));
        assert_eq!(named_options("(--fen"), strings(&["fen"]));
        assert!(named_options("--").is_empty() && named_options("a--b").is_empty());
        let help = concat!(
            "Usage: x [OPTIONS]\n",
            "\n",
            "Commands:\n",
            "  perft  Count\n",
            "          more\n",
            "  help   Print\n",
            "\n",
            "Options:\n",
            "      --depth <N>  Depth (see --other)\n",
            "  -h, --help  Print help\n"
        );
        assert_eq!(help_commands(help), strings(&["perft"]));
        assert_eq!(
            help_options(help).into_iter().collect::<Vec<_>>(),
            strings(&["depth", "help"])
        );
    }
}
