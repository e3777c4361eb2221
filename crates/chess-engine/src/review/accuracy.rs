//! Accuracy and average centipawn loss per side (lichess's accuracy formula).

use super::MoveReview;
#[cfg(doc)]
use ply_chess::Color;

/// The accuracy (0 to 100) of a move that drops the mover's winning chances by `drop` percent
/// (Win% before minus Win% after): 100 for no drop, otherwise
/// `103.1668 · exp(-0.0435442 · drop) - 3.1669`, plus 1, clamped to 0..100 (lichess's curve,
/// fitted to its players' games, with its bonus of one point).
pub fn move_accuracy(drop: f64) -> f64 {
    if drop <= 0.0 {
        return 100.0;
    }
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411 + 1.0)
        .clamp(0.0, 100.0)
}

/// One side's game accuracy from its moves' accuracies and their weights: the mean of the
/// weighted mean and the harmonic mean (each accuracy taken as at least 1 there, so that one
/// move of 0 does not make the whole game 0); `None` without moves.
pub fn accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let weight: f64 = moves.iter().map(|&(_, w)| w).sum();
    let weighted = moves.iter().map(|&(a, w)| a * w).sum::<f64>() / weight;
    let harmonic = moves.len() as f64 / moves.iter().map(|&(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// The standard deviation of `xs`.
fn std_dev(xs: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt()
}

/// Each move's weight: the volatility of White's winning chances around it, the standard
/// deviation of `white_win` (percent, one value a position: before each move, then the final
/// one) over a window of a tenth of the game (2 to 8 positions), clamped to 0.5..12. The first
/// moves share the first window. Quiet stretches count less, sharp ones more.
fn weights(white_win: &[f64], moves: usize) -> Vec<f64> {
    let size = (moves / 10).clamp(2, 8).min(white_win.len());
    let first = &white_win[..size];
    let mut windows: Vec<&[f64]> = vec![first; size.saturating_sub(2)];
    windows.extend(white_win.windows(size));
    windows
        .iter()
        .take(moves)
        .map(|w| std_dev(w).clamp(0.5, 12.0))
        .collect()
}

/// Accuracy and average centipawn loss of each side, indexed by [`Color::index`].
pub(super) fn per_side(
    moves: &[MoveReview],
    white_win: &[f64],
) -> ([Option<f64>; 2], [Option<f64>; 2]) {
    let w = weights(white_win, moves.len());
    let mut acc = [Vec::new(), Vec::new()];
    let mut cp = [Vec::new(), Vec::new()];
    for (m, &weight) in moves.iter().zip(&w) {
        let side = m.mover().index();
        acc[side].push((move_accuracy(100.0 * m.loss), weight));
        cp[side].push(f64::from(m.cp_loss));
    }
    let acpl = |v: &Vec<f64>| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    (
        [accuracy(&acc[0]), accuracy(&acc[1])],
        [acpl(&cp[0]), acpl(&cp[1])],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_s() {
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(-3.0), 100.0);
        // just below 100 for a tiny drop (the bonus point caps it)
        assert!((move_accuracy(0.1) - 100.0).abs() < 0.5);
        // a 10-point drop: 103.1668 e^-0.435 - 2.1669
        assert!(
            (move_accuracy(10.0) - 64.6).abs() < 0.1,
            "{}",
            move_accuracy(10.0)
        );
        assert_eq!(move_accuracy(100.0), 0.0);
        let mut last = 100.0;
        for d in 1..100 {
            let a = move_accuracy(f64::from(d));
            assert!(a <= last);
            last = a;
        }
    }

    #[test]
    fn game_accuracy_is_between_the_moves() {
        assert_eq!(accuracy(&[]), None);
        assert_eq!(accuracy(&[(100.0, 1.0), (100.0, 3.0)]), Some(100.0));
        let a = accuracy(&[(100.0, 1.0), (50.0, 1.0)]).unwrap();
        // weighted 75, harmonic 66.7
        assert!((a - 70.83).abs() < 0.01, "{a}");
        // a move of 0 drags the game down without zeroing it
        let z = accuracy(&[(100.0, 1.0), (0.0, 1.0)]).unwrap();
        assert!(z > 25.0 && z < 50.0, "{z}");
    }

    #[test]
    fn weights_follow_the_volatility() {
        // 30 moves: windows of 3 positions
        let mut win = vec![50.0; 31];
        win[20] = 90.0;
        let w = weights(&win, 30);
        assert_eq!(w.len(), 30);
        assert_eq!(w[0], 0.5);
        assert!(w[19] > 12.0 - 1e-9 && w[21] > 12.0 - 1e-9);
        assert_eq!(w[18], 0.5);
        assert_eq!(w[25], 0.5);
        // a one-move game
        assert_eq!(weights(&[50.0, 40.0], 1), vec![5.0]);
    }
}
