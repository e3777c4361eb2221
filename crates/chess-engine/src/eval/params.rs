//! The fixed constants of the evaluation: the game-phase weights, the passed-pawn rank weights
//! (coefficients of tunable terms), the shape of the king-danger curve (its inputs are tunable) and the endgame scale
//! factors. The tunable weights are in [`super::weights`], named by [`super::layout`].

/// Game-phase weight per role (knight, bishop 1; rook 2; queen 4); the sum is at most 24.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Phase of the opening material (pure middlegame).
pub const MAX_PHASE: i32 = 24;

/// Advancement weight of a passed pawn by relative rank: the coefficient of its king-distance,
/// free-path and blocked weights.
pub const PASSED_RANK_WEIGHT: [i32; 8] = [0, 0, 0, 1, 3, 5, 8, 0];

/// King danger: the middlegame penalty is `max(units, 0)² / KING_DANGER_MG_DIV`.
pub const KING_DANGER_MG_DIV: i32 = 720;

/// King danger: the endgame penalty is `max(units, 0) / KING_DANGER_EG_DIV`.
pub const KING_DANGER_EG_DIV: i32 = 20;

/// King danger: the most either half of the penalty can be (centipawns).
pub const KING_DANGER_MAX: i32 = 1200;

/// Endgame scale (out of [`SCALE_NORMAL`]) with opposite-colored bishops and no other pieces.
pub const SCALE_OCB: i32 = 32;

/// Endgame scale with opposite-colored bishops and one knight each besides.
pub const SCALE_OCB_KNIGHTS: i32 = 53;

/// Endgame scale with opposite-colored bishops and one rook each besides.
pub const SCALE_OCB_ROOKS: i32 = 48;

/// Endgame scale otherwise: `SCALE_FEW_PAWNS + SCALE_PER_PAWN × (the stronger side's pawns)`,
/// at most [`SCALE_NORMAL`].
pub const SCALE_FEW_PAWNS: i32 = 48;

/// See [`SCALE_FEW_PAWNS`].
pub const SCALE_PER_PAWN: i32 = 4;

/// Endgame scale when the stronger side has no pawns and at most a minor piece more.
pub const SCALE_NO_PAWNS_MINOR_UP: i32 = 8;

/// Full endgame scale.
pub const SCALE_NORMAL: i32 = 64;
