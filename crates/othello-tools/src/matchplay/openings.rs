//! Match openings: the built-in set shipped in the repository ([`BUILTIN_OPENINGS`], made by
//! [`generate_builtin`]), distinct 8-12-move prefixes of WTHOR games (human tournament play,
//! so roughly balanced) chosen deterministically from a seed, or move lists read from a file.

use ply_batch::rng::SplitMix64;
use ply_othello::{format_moves, parse_moves, wthor, Position, Square};
use ply_othello_engine::{Engine, EngineOptions, Limits, TableError};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// The built-in openings of `ply-othello match` (`crates/othello-tools/data/openings.txt`): one
/// move list a line, written by [`generate_builtin`] (see `data/README.md` there).
pub const BUILTIN_OPENINGS: &str = include_str!("../../data/openings.txt");

/// How [`generate_builtin`] made [`BUILTIN_OPENINGS`].
pub mod builtin {
    /// Number of openings.
    pub const COUNT: usize = 100;
    /// Seed of the random moves.
    pub const SEED: u64 = 2026;
    /// Shortest and longest opening, in moves.
    pub const MOVES: (usize, usize) = (6, 10);
    /// Midgame depth of the search that scores each opening.
    pub const DEPTH: u8 = 4;
    /// An opening is kept when that search scores it within this many discs of a draw.
    pub const MAX_ABS: i32 = 2;
}

/// The text of [`BUILTIN_OPENINGS`], made again: random openings (6-10 uniformly random legal
/// moves from the start, seeded by [`builtin::SEED`], no passes, no position twice) kept when a
/// single-threaded depth-[`builtin::DEPTH`] search of ply scores them within
/// [`builtin::MAX_ABS`] discs of a draw, until [`builtin::COUNT`] are kept. Deterministic: a
/// test checks that it gives the shipped file byte for byte (a change to the search or the
/// evaluation that changes the set makes that test fail; the file is then written again with
/// `PLY_WRITE_OPENINGS=1 cargo test -p ply-othello-tools builtin_openings`).
pub fn generate_builtin() -> String {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 1,
        weights: None,
    });
    let limits = Limits {
        depth: Some(builtin::DEPTH),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(builtin::SEED);
    let mut seen = HashSet::new();
    let mut text = format!(
        "# ply-othello match: built-in openings ({} lines; see data/README.md)\n",
        builtin::COUNT
    );
    let span = (builtin::MOVES.1 - builtin::MOVES.0 + 1) as u64;
    let mut kept = 0;
    while kept < builtin::COUNT {
        let len = builtin::MOVES.0 + (rng.next() % span) as usize;
        let mut pos = Position::start();
        let mut moves = Vec::with_capacity(len);
        while moves.len() < len {
            let legal = pos.board.moves();
            if legal == 0 {
                break;
            }
            let n = u64::from(legal.count_ones());
            let mut pick = rng.next() % n;
            let mut bits = legal;
            while pick > 0 {
                bits &= bits - 1;
                pick -= 1;
            }
            let sq = Square::first(bits).expect("a legal move is left");
            pos.play(sq);
            moves.push(sq);
        }
        if moves.len() < len || pos.board.moves() == 0 || !seen.insert(pos) {
            continue;
        }
        engine.new_game();
        let score = engine.think(&pos.board, &limits, &stop, &mut |_| {}).score;
        if score.abs() <= builtin::MAX_ABS {
            text.push_str(&format_moves(&moves));
            text.push('\n');
            kept += 1;
        }
    }
    text
}

/// The built-in openings ([`BUILTIN_OPENINGS`]) as move lists.
pub fn builtin_openings() -> Vec<Vec<Square>> {
    // the shipped file is checked by a test to parse
    parse_openings(BUILTIN_OPENINGS).unwrap_or_default()
}

/// Shortest and longest opening, in moves.
pub const PREFIX_RANGE: (usize, usize) = (8, 12);

/// Plays `moves` from the start; `None` if one is illegal or is a pass.
fn replay(moves: &[Square]) -> Option<Position> {
    let mut pos = Position::start();
    for &m in moves {
        if m.is_pass() || !pos.play(m) {
            return None;
        }
    }
    Some(pos)
}

/// The position after the first `len` moves of a WTHOR record; `None` when the record is
/// shorter, has an illegal move or needs a pass among them (openings are plain move lists).
fn prefix_position(game: &[Option<Square>; 60], len: usize) -> Option<Position> {
    for (i, ply) in wthor::replay(game).enumerate() {
        let ply = ply.ok()?;
        if i == len {
            return Some(ply.position);
        }
        if ply.pass_first || ply.next.is_none() {
            return None;
        }
    }
    None
}

/// Up to `count` openings from WTHOR move lists (`None` ends a game): each game gives one
/// prefix whose length (8-12) comes from `seed`; prefixes reaching an already-seen position
/// are dropped; the pool is shuffled by `seed` and cut to `count`.
pub fn openings_from_games<'a>(
    games: impl IntoIterator<Item = &'a [Option<Square>; 60]>,
    count: usize,
    seed: u64,
) -> Vec<Vec<Square>> {
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut pool = Vec::new();
    let span = (PREFIX_RANGE.1 - PREFIX_RANGE.0 + 1) as u64;
    for g in games {
        let len = PREFIX_RANGE.0 + (rng.next() % span) as usize;
        let Some(pos) = prefix_position(g, len) else {
            continue;
        };
        if pos.board.is_game_over() || !seen.insert(pos) {
            continue;
        }
        pool.push(g[..len].iter().flatten().copied().collect());
    }
    // Fisher-Yates with the same generator, then keep the first `count`.
    for i in (1..pool.len()).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        pool.swap(i, j);
    }
    pool.truncate(count);
    pool
}

/// The first `count` openings whose position `score` (from the side to move, in discs) puts
/// within `max_abs` of a draw: human games often leave an opening lost for one side, and a
/// pair of games from such an opening is one win each whatever the engines' strength.
pub fn select_balanced(
    candidates: impl IntoIterator<Item = Vec<Square>>,
    count: usize,
    max_abs: i32,
    mut score: impl FnMut(&Position) -> i32,
) -> Vec<Vec<Square>> {
    let mut out = Vec::new();
    for moves in candidates {
        if out.len() == count {
            break;
        }
        let Some(pos) = replay(&moves) else { continue };
        if pos.board.moves() != 0 && score(&pos).abs() <= max_abs {
            out.push(moves);
        }
    }
    out
}

/// [`select_balanced`] with ply as the judge: each candidate is scored by a fresh search at
/// `level` (a 16 MiB table, cleared between openings).
///
/// # Errors
/// The table could not be allocated.
pub fn select_balanced_by_search(
    candidates: impl IntoIterator<Item = Vec<Square>>,
    count: usize,
    max_abs: i32,
    level: u8,
) -> Result<Vec<Vec<Square>>, TableError> {
    let mut judge = Engine::try_new(EngineOptions {
        hash_mib: 16,
        ..EngineOptions::default()
    })?;
    let limits = Limits {
        level: Some(level),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    Ok(select_balanced(candidates, count, max_abs, |pos| {
        judge.new_game();
        let b = pos.board;
        judge.think(&b, &limits, &stop, &mut |_| {}).score
    }))
}

/// Openings from text: one move list a line (`f5d6c3...`), `#` comments and blank lines
/// skipped. Lines that do not parse or replay legally are errors (with their line number).
///
/// # Errors
/// A message naming the bad line.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<Square>>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let moves = parse_moves(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if replay(&moves).is_none() {
            return Err(format!("line {}: illegal opening {line}", i + 1));
        }
        out.push(moves);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[Square]) -> [Option<Square>; 60] {
        let mut g = [None; 60];
        for (s, &m) in g.iter_mut().zip(moves) {
            *s = Some(m);
        }
        g
    }

    #[test]
    fn builtin_openings_regenerate_identically() {
        let made = generate_builtin();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/openings.txt");
        if std::env::var_os("PLY_WRITE_OPENINGS").is_some() {
            std::fs::write(path, &made).expect("write data/openings.txt");
        }
        assert!(
            made == BUILTIN_OPENINGS,
            "data/openings.txt differs from generate_builtin(): rewrite it with \
             PLY_WRITE_OPENINGS=1 cargo test -p ply-othello-tools builtin_openings"
        );
        let o = parse_openings(BUILTIN_OPENINGS).expect("the built-in openings parse");
        assert_eq!(o.len(), builtin::COUNT);
        assert_eq!(builtin_openings(), o);
        let mut seen = HashSet::new();
        for m in &o {
            assert!((builtin::MOVES.0..=builtin::MOVES.1).contains(&m.len()));
            assert!(seen.insert(replay(m).expect("legal")), "a position twice");
        }
        assert!(BUILTIN_OPENINGS.len() < 4096, "a few kB");
    }

    #[test]
    fn text_openings_and_errors() {
        let o = parse_openings("# c\nf5d6c3d3c4f4f6f3\n\nf5f6e6f4\n").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1], parse_moves("f5f6e6f4").unwrap());
        assert!(parse_openings("f5f5").is_err());
        assert!(parse_openings("zz").is_err());
    }

    #[test]
    fn balanced_selection_keeps_order_and_bound() {
        let cands: Vec<Vec<Square>> = ["f5d6c3d3c4f4f6f3", "f5f6e6f4e3c5c4e7", "f5d6c3d3c4f4c5b3"]
            .iter()
            .map(|t| parse_moves(t).unwrap())
            .collect();
        // a fake score: the number of black discs minus 6
        let score = |p: &Position| p.black().count_ones() as i32 - 6;
        let all = select_balanced(cands.clone(), 10, 64, score);
        assert_eq!(all, cands);
        let scores: Vec<i32> = cands.iter().map(|m| score(&replay(m).unwrap())).collect();
        let bound = scores.iter().map(|s| s.abs()).min().unwrap();
        let expected: Vec<Vec<Square>> = cands
            .iter()
            .zip(&scores)
            .filter(|(_, s)| s.abs() <= bound)
            .map(|(m, _)| m.clone())
            .collect();
        assert!(
            !expected.is_empty() && expected.len() < cands.len(),
            "{scores:?}"
        );
        assert_eq!(select_balanced(cands.clone(), 10, bound, score), expected);
        assert_eq!(select_balanced(cands, 1, 64, score).len(), 1);
    }

    #[test]
    fn wthor_prefixes_are_distinct_and_deterministic() {
        let a = parse_moves("f5d6c3d3c4f4f6f3e6e7d7c6").unwrap();
        let b = parse_moves("f5f6e6f4e3c5c4e7b5d3c6d6").unwrap();
        let games = [game(&a), game(&a), game(&b)];
        let o = openings_from_games(&games, 10, 7);
        // The two copies of game `a` give the same prefix only if their lengths agree.
        assert!(o.len() >= 2 && o.len() <= 3);
        for x in &o {
            assert!((8..=12).contains(&x.len()));
            assert!(replay(x).is_some());
        }
        assert_eq!(o, openings_from_games(&games, 10, 7));
        assert_eq!(openings_from_games(&games, 1, 7).len(), 1);
    }
}
