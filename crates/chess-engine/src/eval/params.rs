//! The fixed constants of the evaluation: the game-phase weights, the passed-pawn rank weights
//! (coefficients of tunable terms), the shape of the king-danger curve and the endgame scale
//! factors. The tunable weights are in [`super::weights`], named by [`super::layout`].

/// Game-phase weight per role (knight, bishop 1; rook 2; queen 4); the sum is at most 24.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Phase of the opening material (pure middlegame).
pub const MAX_PHASE: i32 = 24;

/// Advancement weight of a passed pawn by relative rank: the coefficient of its king-distance,
/// free-path and blocked weights.
pub const PASSED_RANK_WEIGHT: [i32; 8] = [0, 0, 0, 1, 3, 5, 8, 0];

/// King safety: attack units per attacking piece type (knight, bishop, rook, queen) per attacked
/// square of the king zone.
pub const KING_ATTACK_UNITS: [i32; 4] = [3, 3, 4, 6];

/// King safety: units per safe checking move available to the attacker.
pub const KING_SAFE_CHECK_UNITS: i32 = 8;

/// King safety: the penalty is `units² / KING_DANGER_DIV` in the middlegame.
pub const KING_DANGER_DIV: i32 = 4;

/// King safety: endgame share of the penalty, `units / KING_DANGER_EG_DIV`.
pub const KING_DANGER_EG_DIV: i32 = 2;

/// King safety cap (middlegame centipawns).
pub const KING_DANGER_MAX: i32 = 900;

/// Endgame scale (out of [`SCALE_NORMAL`]) with opposite-coloured bishops and no other pieces.
pub const SCALE_OCB: i32 = 32;

/// Endgame scale when the stronger side has no pawns and at most a minor piece more.
pub const SCALE_NO_PAWNS_MINOR_UP: i32 = 8;

/// Full endgame scale.
pub const SCALE_NORMAL: i32 = 64;
