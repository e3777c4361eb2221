//! Match openings: distinct 8-12-move prefixes of WTHOR games (human tournament play, so
//! roughly balanced), chosen deterministically from a seed; or move lists read from a file.

use ply_othello::{parse_moves, wthor, Position, PASS};
use std::collections::HashSet;

/// Shortest and longest opening, in moves.
pub const PREFIX_RANGE: (usize, usize) = (8, 12);

/// SplitMix64 step: a small deterministic generator for the choice of openings.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays `moves` from the start; `None` if one is illegal or is a pass.
fn replay(moves: &[usize]) -> Option<Position> {
    let mut pos = Position::start();
    for &m in moves {
        if m == PASS || !pos.play(m) {
            return None;
        }
    }
    Some(pos)
}

/// The position after the first `len` moves of a WTHOR record; `None` when the record is
/// shorter, has an illegal move or needs a pass among them (openings are plain move lists).
fn prefix_position(game: &[Option<u8>; 60], len: usize) -> Option<Position> {
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
    games: impl IntoIterator<Item = &'a [Option<u8>; 60]>,
    count: usize,
    seed: u64,
) -> Vec<Vec<usize>> {
    let mut rng = seed;
    let mut seen = HashSet::new();
    let mut pool = Vec::new();
    let span = (PREFIX_RANGE.1 - PREFIX_RANGE.0 + 1) as u64;
    for g in games {
        let len = PREFIX_RANGE.0 + (splitmix(&mut rng) % span) as usize;
        let Some(pos) = prefix_position(g, len) else {
            continue;
        };
        if pos.board.is_game_over() || !seen.insert(pos) {
            continue;
        }
        pool.push(g[..len].iter().flatten().map(|&m| usize::from(m)).collect());
    }
    // Fisher-Yates with the same generator, then keep the first `count`.
    for i in (1..pool.len()).rev() {
        let j = (splitmix(&mut rng) % (i as u64 + 1)) as usize;
        pool.swap(i, j);
    }
    pool.truncate(count);
    pool
}

/// The first `count` openings whose position `score` (from the side to move, in discs) puts
/// within `max_abs` of a draw: human games often leave an opening lost for one side, and a
/// pair of games from such an opening is one win each whatever the engines' strength.
pub fn select_balanced(
    candidates: impl IntoIterator<Item = Vec<usize>>,
    count: usize,
    max_abs: i32,
    mut score: impl FnMut(&Position) -> i32,
) -> Vec<Vec<usize>> {
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

/// Openings from text: one move list a line (`f5d6c3...`), `#` comments and blank lines
/// skipped. Lines that do not parse or replay legally are errors (with their line number).
///
/// # Errors
/// A message naming the bad line.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<usize>>, String> {
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

    fn game(moves: &[usize]) -> [Option<u8>; 60] {
        let mut g = [None; 60];
        for (s, &m) in g.iter_mut().zip(moves) {
            *s = Some(m as u8);
        }
        g
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
        let cands: Vec<Vec<usize>> = ["f5d6c3d3c4f4f6f3", "f5f6e6f4e3c5c4e7", "f5d6c3d3c4f4c5b3"]
            .iter()
            .map(|t| parse_moves(t).unwrap())
            .collect();
        // a fake score: the number of black discs minus 6
        let score = |p: &Position| p.black().count_ones() as i32 - 6;
        let all = select_balanced(cands.clone(), 10, 64, score);
        assert_eq!(all, cands);
        let scores: Vec<i32> = cands.iter().map(|m| score(&replay(m).unwrap())).collect();
        let bound = scores.iter().map(|s| s.abs()).min().unwrap();
        let expected: Vec<Vec<usize>> = cands
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
