use super::optimize::{fit_k, gradient, loss, sigmoid};
use super::*;
use ply_chess::Position;

/// Positions of random games from the start (a fixed generator).
fn positions(n: usize) -> Vec<Position> {
    let mut rng = ply_testkit::XorShift64::new(0x2545_f491_4f6c_dd1d);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len() as u64) as usize]);
            out.push(pos);
        }
    }
    out.truncate(n);
    out
}

/// Entries labelled by a teacher: the compiled weights with the knight worth `extra` more,
/// as the search score; the result is the teacher's expected score rounded to a result.
fn taught(n: usize, extra: f64) -> Vec<Entry> {
    let mut teacher = compiled_weights();
    teacher[layout::MATERIAL + 1][0] += extra;
    teacher[layout::MATERIAL + 1][1] += extra;
    positions(n)
        .iter()
        .enumerate()
        .map(|(i, pos)| {
            let probe = Entry::new(pos, 0.5, 0, i as u64);
            let score = probe.evaluate(&teacher);
            let p = sigmoid(1.0, score);
            let result = if p > 0.6 {
                1.0
            } else if p < 0.4 {
                0.0
            } else {
                0.5
            };
            Entry::new(pos, result, score.round() as i32, i as u64)
        })
        .collect()
}

#[test]
fn the_gradient_matches_finite_differences() {
    let data = taught(300, 80.0);
    let mut w = compiled_weights();
    // complexity weights that neither vanish nor always clamp
    w[layout::COMPLEXITY][1] = 4.0;
    w[layout::COMPLEXITY + 3][1] = -20.0;
    let g = gradient(&data, &w, 1.2, 0.3, 2);
    for (i, h) in [
        (layout::MATERIAL + 1, 0),
        (layout::MATERIAL + 3, 1),
        (layout::TEMPO, 0),
        (layout::PSQT + 64 + 18, 0),
        (layout::KING_DANGER + 3, 0),
        (layout::KING_DANGER + 4, 0),
        (layout::KING_DANGER + 11, 1),
        (layout::COMPLEXITY, 1),
        (layout::COMPLEXITY + 3, 1),
    ] {
        let mut plus = w.clone();
        let mut minus = w.clone();
        plus[i][h] += 0.5;
        minus[i][h] -= 0.5;
        let numeric = (loss(&data, &plus, 1.2, 0.3, 1) - loss(&data, &minus, 1.2, 0.3, 1)) / 1.0;
        let analytic = g[i][h];
        assert!(analytic != 0.0, "weight {} [{h}] unused", layout::name(i));
        assert!(
            (numeric - analytic).abs() <= 1e-3 * analytic.abs().max(1e-6),
            "weight {} [{h}]: numeric {numeric} analytic {analytic}",
            layout::name(i)
        );
    }
}

#[test]
fn tuning_moves_toward_the_teacher_and_is_deterministic() {
    let data = taught(2000, 100.0);
    let config = Config {
        epochs: 300,
        lr: 2.0,
        lambda: 0.0,
        k: Some(1.0),
        threads: 1,
        holdout_every: 5,
        report_every: 100,
        reg: 0.0,
        keep_best: false,
    };
    let mut reports = Vec::new();
    let a = tune(&config, data.clone(), |e| reports.push(*e)).unwrap();
    assert!(
        a.end.train < a.start.train * 0.5,
        "{:?} -> {:?}",
        a.start,
        a.end
    );
    assert!(a.end.holdout.unwrap() < a.start.holdout.unwrap());
    // the tuned evaluation moves toward the teacher's (the knight's extra value may be spread
    // over its material, square and closedness weights, which always appear together)
    let tuned = floats(&a.weights);
    let compiled = compiled_weights();
    let gap = |w: &[[f64; 2]]| -> f64 {
        data.iter()
            .map(|e| (e.evaluate(w) - e.score as f64).abs())
            .sum::<f64>()
            / data.len() as f64
    };
    assert!(
        gap(&tuned) < 0.5 * gap(&compiled),
        "{} vs {}",
        gap(&tuned),
        gap(&compiled)
    );
    assert_eq!(reports.first().unwrap().epoch, 0);
    assert_eq!(reports.last().unwrap().epoch, 300);
    // other thread counts give the same weights
    let b = tune(
        &Config {
            threads: 3,
            ..config
        },
        data,
        |_| {},
    )
    .unwrap();
    assert_eq!(a.weights, b.weights);
    // the weights written back hold the tuned values
    let knight = a.weights[layout::MATERIAL + 1];
    let text = layout::source(&a.weights, "test");
    assert!(text.contains(&format!(
        "Score::new({}, {}), // material knight",
        knight.mg(),
        knight.eg()
    )));
}

#[test]
fn k_is_a_minimum() {
    let data = taught(1000, 0.0);
    let w = compiled_weights();
    let k = fit_k(&data, &w, 2);
    let at = |k: f64| loss(&data, &w, k, 1.0, 2);
    assert!(at(k) <= at(k + 0.05) && at(k) <= at(k - 0.05), "k {k}");
}

#[test]
fn empty_and_bad_data_are_errors() {
    assert!(matches!(
        tune(&Config::default(), Vec::new(), |_| {}),
        Err(TuneError::Empty)
    ));
    let scratch = ply_testkit::Scratch::new("tune");
    let dir = scratch.path();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "8/8/4k3/8/2P5/8/4K3/8 w - - 0 60;150;1;7\nnonsense\n").unwrap();
    let err = load(std::slice::from_ref(&bad), 2, |_| {}).unwrap_err();
    assert!(err.to_string().contains("line 2"), "{err}");
    let missing = load(&[dir.join("missing.txt")], 1, |_| {}).unwrap_err();
    assert!(matches!(missing, TuneError::Io { .. }));
    let good = dir.join("good.txt");
    std::fs::write(&good, "8/8/4k3/8/2P5/8/4K3/8 w - - 0 60;150;1;7\n\n").unwrap();
    assert_eq!(load(&[good], 2, |_| {}).unwrap().len(), 1);
}

#[test]
fn early_stopping_and_the_pull_toward_the_start() {
    let data = taught(1500, 100.0);
    let base = Config {
        epochs: 200,
        lr: 2.0,
        lambda: 0.0,
        k: Some(1.0),
        threads: 2,
        holdout_every: 4,
        report_every: 20,
        reg: 0.0,
        keep_best: true,
    };
    let mut holdouts = Vec::new();
    let best = tune(&base, data.clone(), |e| holdouts.push(*e)).unwrap();
    // the weights kept are those of the lowest held-out loss reported
    let lowest = holdouts[..holdouts.len() - 1]
        .iter()
        .min_by(|a, b| a.holdout.partial_cmp(&b.holdout).unwrap())
        .unwrap();
    assert_eq!(best.end.epoch, lowest.epoch);
    // a strong pull keeps the weights near the start
    let pulled = tune(&Config { reg: 1.0, ..base }, data, |_| {}).unwrap();
    let moved = |o: &Outcome| -> i32 {
        o.weights
            .iter()
            .zip(WEIGHTS.iter())
            .map(|(a, b)| (a.mg() - b.mg()).abs() as i32 + (a.eg() - b.eg()).abs() as i32)
            .sum()
    };
    assert!(
        moved(&pulled) < moved(&best) / 2,
        "{} vs {}",
        moved(&pulled),
        moved(&best)
    );
}
