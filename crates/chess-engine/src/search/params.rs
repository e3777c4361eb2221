//! The search's tunable constants in one place: margins, depth limits and reduction amounts of
//! each pruning rule, the aspiration window and the time-management factors. Scores are in
//! centipawns, depths in plies. Changing any of them changes the search (state the new
//! `Bench:`); a tuning run (SPSA) edits this file.

/// Aspiration windows start from this depth (shallower iterations search the full window).
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Half-width of the first aspiration window around the previous iteration's score.
pub const ASPIRATION_DELTA: i32 = 18;
/// After each failed aspiration search the half-width grows by half of itself plus this.
pub const ASPIRATION_GROWTH: i32 = 5;

/// Reverse futility pruning: deepest remaining depth where it applies.
pub const RFP_MAX_DEPTH: i32 = 7;
/// Reverse futility pruning: the static evaluation must beat beta by this much per ply of depth
/// (one ply less when improving).
pub const RFP_MARGIN: i32 = 95;

/// Null move pruning: shallowest depth where it is tried.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move reduction: `NMP_BASE + depth / NMP_DEPTH_DIV + min((eval - beta) / NMP_EVAL_DIV,
/// NMP_EVAL_MAX)`.
pub const NMP_BASE: i32 = 3;
/// See [`NMP_BASE`].
pub const NMP_DEPTH_DIV: i32 = 4;
/// See [`NMP_BASE`].
pub const NMP_EVAL_DIV: i32 = 200;
/// See [`NMP_BASE`].
pub const NMP_EVAL_MAX: i32 = 3;

/// The evaluation's tempo bonus in centipawns, as used to derive a null-move child's static
/// evaluation from its parent's (`-parent + 2 * tempo`).
pub const NULL_MOVE_TEMPO: i32 = 8;

/// Internal iterative reduction: PV nodes without a table move at this depth or deeper search
/// one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 6;

/// Late move pruning: deepest depth where it applies.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Late move pruning: quiet moves searched before the rest are skipped is
/// `(LMP_BASE + depth²) / 2`, or twice that when improving.
pub const LMP_BASE: i32 = 3;

/// Futility pruning of quiet moves: deepest depth where it applies.
pub const FUTILITY_MAX_DEPTH: i32 = 7;
/// Futility margin: `FUTILITY_BASE + FUTILITY_PER_DEPTH * depth` above the static evaluation.
pub const FUTILITY_BASE: i32 = 100;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// SEE pruning: deepest depth where it applies.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 6;
/// SEE pruning of quiet moves: a move losing more than this per ply of depth is skipped.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// SEE pruning of captures: a capture losing more than this times depth² is skipped.
pub const SEE_CAPTURE_MARGIN: i32 = 25;

/// Singular extensions: shallowest depth where the table move is tested.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the table entry may be at most this much shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extensions: the other moves are searched against `table score - this * depth`.
pub const SE_MARGIN_PER_DEPTH: i32 = 2;

/// Late move reductions: shallowest depth where they apply.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late move reductions: the table holds `(LMR_BASE_Q8 + ln(depth) ln(moves) * LMR_SCALE_Q8 /
/// ln(2)² / 256) / 256`, a constant and a product of logarithms in 8.8 fixed point.
pub const LMR_BASE_Q8: u64 = 192;
/// See [`LMR_BASE_Q8`] (`ln(a) ln(b) / 2.25 = log2(a) log2(b) * 0.2135`, and `0.2135 ≈ 55/256`).
pub const LMR_SCALE_Q8: u64 = 55;
/// Late move reductions: one ply less per this much quiet plus continuation history.
pub const LMR_HISTORY_DIV: i32 = 8192;

/// Late move reductions: the history term is clamped to this many plies either way.
pub const LMR_HISTORY_MAX: i32 = 2;

/// Continuation-history pruning: deepest depth where a quiet move with a poor continuation
/// history is skipped, without and with improving.
pub const CMH_PRUNE_DEPTH: [i32; 2] = [3, 2];
/// Continuation-history pruning: the limit for the history after the previous move.
pub const CMH_PRUNE_LIMIT: [i32; 2] = [0, -1000];
/// Continuation-history pruning: the limit for the history after the move before it.
pub const FMH_PRUNE_LIMIT: [i32; 2] = [-2000, -4000];

/// Quiescence delta pruning: a capture is skipped when even its full gain plus this margin
/// stays below alpha.
pub const QS_DELTA_MARGIN: i32 = 200;

/// Share of the soft time budget after which no new iteration starts, before the stability,
/// node-share and score-drop factors.
pub const TIME_SHARE: f64 = 0.9;
/// Time factor by the number of iterations the best move has stayed the same (0, 1, 2, 3, 4+).
pub const TIME_STABILITY: [f64; 5] = [1.2, 1.0, 0.85, 0.75, 0.65];
/// Time factor by the share of root nodes spent on the best move: `TIME_EFFORT_BASE - share`,
/// clamped to `TIME_EFFORT_MIN..=TIME_EFFORT_MAX`.
pub const TIME_EFFORT_BASE: f64 = 1.6;
/// See [`TIME_EFFORT_BASE`].
pub const TIME_EFFORT_MIN: f64 = 0.6;
/// See [`TIME_EFFORT_BASE`].
pub const TIME_EFFORT_MAX: f64 = 1.4;
/// Time factor after a score drop: `1 + min(drop, TIME_DROP_CAP) / TIME_DROP_DIV`.
pub const TIME_DROP_CAP: i32 = 80;
/// See [`TIME_DROP_CAP`].
pub const TIME_DROP_DIV: f64 = 100.0;
