//! Exact labels from the endgame solver: solves held-out (or training) positions at a given
//! number of empties, to measure the evaluation against perfect play and to write label files.

use super::dataset::Sample;
use super::fit::Model;
use ply_othello_engine::{Mode, Solver};
use std::io::Write;

/// Up to `n` samples with `empties` empties, spread evenly over `samples` (see [`pick`]), each
/// solved exactly: the sample gets the exact score as its label and is marked exact.
pub fn solve_samples(
    samples: &[Sample],
    empties: u8,
    n: usize,
    offset: usize,
    solver: &mut Solver,
    mut progress: impl FnMut(),
) -> Vec<Sample> {
    pick(samples, empties, n, offset)
        .into_iter()
        .map(|s| {
            let r = solver.solve(&s.board, Mode::Exact);
            progress();
            Sample {
                label: r.score.clamp(-64, 64) as i8,
                exact: true,
                ..*s
            }
        })
        .collect()
}

/// The up to `n` samples with `empties` empties that [`solve_samples`] solves, in order: every
/// `step`-th one (`step` = available / `n`) from `offset % step`, so offsets 0, 1, 2 ... pick
/// disjoint sets (labelling in resumable chunks).
pub fn pick(samples: &[Sample], empties: u8, n: usize, offset: usize) -> Vec<&Sample> {
    let at: Vec<&Sample> = samples.iter().filter(|s| s.empties == empties).collect();
    let step = (at.len() / n.max(1)).max(1);
    at.into_iter()
        .skip(offset % step)
        .step_by(step)
        .take(n)
        .collect()
}

/// Agreement of the original exact labels (WTHOR's perfect-play scores) with the solver's
/// scores of the same positions: (compared, equal, mean absolute difference in discs).
pub fn label_agreement(original: &[&Sample], solved: &[Sample]) -> (usize, usize, f64) {
    let (mut n, mut equal, mut diff) = (0, 0, 0f64);
    for (o, s) in original.iter().zip(solved).filter(|(o, _)| o.exact) {
        n += 1;
        equal += usize::from(o.label == s.label);
        diff += f64::from((i32::from(o.label) - i32::from(s.label)).abs());
    }
    (n, equal, diff / n.max(1) as f64)
}

/// Mean absolute error (discs) of `w` on solved samples.
pub fn mae(w: &Model, solved: &[Sample]) -> f64 {
    let sum: f64 = solved
        .iter()
        .map(|s| f64::from((w.evaluate(&s.board) - f32::from(s.label)).abs()))
        .sum();
    sum / solved.len().max(1) as f64
}

/// Writes solved samples as a label file (see [`super::dataset::read_labels`]): the board with
/// Black = `X` from the mover's view (the side to move is written as `X`).
///
/// # Errors
/// The first error of `out`.
pub fn write_labels(out: &mut dyn Write, solved: &[Sample]) -> std::io::Result<()> {
    for s in solved {
        let mut line = String::with_capacity(72);
        for x in 0..64 {
            line.push(if s.board.player() >> x & 1 != 0 {
                'X'
            } else if s.board.opponent() >> x & 1 != 0 {
                'O'
            } else {
                '-'
            });
        }
        writeln!(out, "{line} X {}", s.label)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::read_labels;
    use ply_othello::Board;

    #[test]
    fn pick_offsets_are_disjoint() {
        let mut samples = Vec::new();
        let mut b = Board::start();
        while b.empty_count() > 20 {
            let m = b.moves();
            if m == 0 {
                break;
            }
            b.play(m.trailing_zeros() as usize);
            samples.push(Sample::new(&b, 0, false));
        }
        // 100 copies of each position, told apart by their labels
        let all: Vec<Sample> = (0..100)
            .flat_map(|i| samples.iter().map(move |s| Sample { label: i, ..*s }))
            .collect();
        let e = samples[samples.len() / 2].empties;
        let a: Vec<i8> = pick(&all, e, 10, 0).iter().map(|s| s.label).collect();
        let b: Vec<i8> = pick(&all, e, 10, 1).iter().map(|s| s.label).collect();
        assert_eq!(a.len(), 10);
        assert_eq!(b.len(), 10);
        assert!(a.iter().all(|x| !b.contains(x)), "{a:?} {b:?}");
    }

    #[test]
    fn solved_labels_round_trip_through_a_label_file() {
        // a 10-empty position from a fixed game, solved and written, reads back identical
        let mut b = Board::start();
        let mut k = 0u32;
        while b.empty_count() > 10 {
            let m = b.moves();
            if m == 0 {
                b.pass();
                continue;
            }
            let mut mm = m;
            for _ in 0..(k % m.count_ones()) {
                mm &= mm - 1;
            }
            b.play(mm.trailing_zeros() as usize);
            k = k.wrapping_mul(31).wrapping_add(7);
        }
        let mut solver = Solver::new(1, true);
        let solved = solve_samples(
            &[Sample::new(&b, 0, false)],
            b.empty_count() as u8,
            1,
            0,
            &mut solver,
            || {},
        );
        assert_eq!(solved.len(), 1);
        let scratch = ply_testkit::Scratch::new("exact");
        let path = scratch.file("labels.txt");
        let mut f = std::fs::File::create(&path).unwrap();
        write_labels(&mut f, &solved).unwrap();
        drop(f);
        let back = read_labels(&path).unwrap();
        assert_eq!(back[0].board, solved[0].board);
        assert_eq!(back[0].label, solved[0].label);
        assert_eq!(back[0].board, solved[0].board);
    }
}
