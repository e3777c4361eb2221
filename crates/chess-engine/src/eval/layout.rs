//! Where each tunable weight sits in the flat weight vector [`WEIGHTS`](super::weights::WEIGHTS).
//!
//! Every tunable term of the evaluation is one packed (middlegame, endgame) [`Score`] at a fixed
//! index; the evaluation adds `WEIGHTS[i] × count` for each feature it sees, and a
//! [`Tracer`](super::Tracer) can record the `(i, count)` pairs instead, which is all a tuner
//! needs. [`source`] writes a weight vector back as the Rust file the engine compiles.

use crate::Score;
use std::fmt::Write as _;

/// Material of pawn, knight, bishop, rook, queen.
pub const MATERIAL: usize = 0;
/// Piece-square tables: 6 roles × 64 squares from White's side (a1 = 0); Black's squares are
/// mirrored vertically.
pub const PSQT: usize = MATERIAL + 5;
/// Mobility tables of knight, bishop, rook, queen, indexed by the number of reachable squares
/// (not own pieces, not attacked by enemy pawns).
pub const MOBILITY: [usize; 4] = [
    PSQT + 6 * 64,
    PSQT + 6 * 64 + MOBILITY_LEN[0],
    PSQT + 6 * 64 + MOBILITY_LEN[0] + MOBILITY_LEN[1],
    PSQT + 6 * 64 + MOBILITY_LEN[0] + MOBILITY_LEN[1] + MOBILITY_LEN[2],
];
/// Entries of each mobility table (the most squares the piece can reach, plus one).
pub const MOBILITY_LEN: [usize; 4] = [9, 14, 15, 28];
/// Two bishops or more.
pub const BISHOP_PAIR: usize = MOBILITY[3] + MOBILITY_LEN[3];
/// Rook on a file without pawns.
pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
/// Rook on a file without own pawns but with an enemy pawn.
pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
/// An own pawn further up the same file, by file (8).
pub const DOUBLED: usize = ROOK_SEMI_OPEN_FILE + 1;
/// No own pawn on the adjacent files, by file (8).
pub const ISOLATED: usize = DOUBLED + 8;
/// Cannot be supported by an adjacent pawn and its stop square is attacked by an enemy pawn,
/// by relative rank (8).
pub const BACKWARD: usize = ISOLATED + 8;
/// Defended by a pawn or beside one, by relative square (64, a1 = 0 from the owner's side).
pub const CONNECTED: usize = BACKWARD + 8;
/// Passed pawn by relative rank (8).
pub const PASSED: usize = CONNECTED + 64;
/// Candidate passed pawn (no pawn ahead on its file, at least as many own pawns beside or
/// behind on the adjacent files as enemy pawns ahead on them), by relative rank (8).
pub const CANDIDATE: usize = PASSED + 8;
/// Passed pawn: enemy king distance to the stop square (up to 5) × the rank weight.
pub const PASSED_KING_THEM: usize = CANDIDATE + 8;
/// Passed pawn: own king distance to the stop square (up to 5) × the rank weight.
pub const PASSED_KING_US: usize = PASSED_KING_THEM + 1;
/// Passed pawn whose path to promotion is empty and not attacked (× the rank weight).
pub const PASSED_FREE_PATH: usize = PASSED_KING_US + 1;
/// Passed pawn whose stop square is occupied (× the rank weight).
pub const PASSED_BLOCKED: usize = PASSED_FREE_PATH + 1;
/// Passed pawn by [stop square empty][stop square not attacked by the enemy][relative rank]
/// (2 × 2 × 8).
pub const PASSED_STOP: usize = PASSED_BLOCKED + 1;
/// Own pawns one and two ranks in front of the king, on its file and beside it (2).
pub const SHIELD_PAWN: usize = PASSED_STOP + 32;
/// A file on or beside the king without own pawns, while the enemy has a queen.
pub const KING_OPEN_FILE: usize = SHIELD_PAWN + 2;
/// Pawn shelter, for each of the three files around the king (the king's file kept off the
/// edge): [the king's own file][file][ranks from the king to the nearest own pawn in front,
/// 7 for none] (2 × 8 × 8).
pub const SHELTER: usize = KING_OPEN_FILE + 1;
/// Pawn storm on the same three files: [the enemy pawn is blocked by an own pawn][file's
/// distance to the edge][ranks from the king to the nearest enemy pawn in front, 7 for none]
/// (2 × 4 × 8).
pub const STORM: usize = SHELTER + 128;
/// Squares of the enemy king's zone attacked, per attacking piece (knight, bishop, rook,
/// queen) (4).
pub const KING_ZONE_ATTACKS: usize = STORM + 64;
/// Safe checks available, per checking piece (knight, bishop, rook, queen) (4).
pub const SAFE_CHECKS: usize = KING_ZONE_ATTACKS + 4;
/// Squares of the enemy king's zone we attack that only its king or queen defends.
pub const WEAK_KING_SQUARES: usize = SAFE_CHECKS + 4;
/// Enemy piece (not pawn, not king) attacked by one of our pawns.
pub const THREAT_BY_PAWN: usize = WEAK_KING_SQUARES + 1;
/// Enemy rook or queen attacked by our knight or bishop.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy queen attacked by our rook.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Enemy piece (not pawn, not king) we attack and no enemy piece defends.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// Enemy knight or bishop attacked by our knight or bishop.
pub const THREAT_MINOR_BY_MINOR: usize = HANGING + 1;
/// Enemy piece (not pawn, not king) attacked by our king.
pub const THREAT_BY_KING: usize = THREAT_MINOR_BY_MINOR + 1;
/// Enemy pawn we attack that no enemy piece or pawn defends.
pub const WEAK_PAWN: usize = THREAT_BY_KING + 1;
/// Enemy piece (not pawn, not king) a safe push of one of our pawns would attack.
pub const PAWN_PUSH_THREAT: usize = WEAK_PAWN + 1;
/// Knight or bishop on an outpost (relative rank 4 to 6, no enemy pawn can ever attack it):
/// [bishop][defended by an own pawn] (2 × 2).
pub const OUTPOST: usize = PAWN_PUSH_THREAT + 1;
/// Knight or bishop with a pawn right in front of it.
pub const MINOR_BEHIND_PAWN: usize = OUTPOST + 4;
/// Bishop on a long diagonal that sees two centre squares past the pawns.
pub const BISHOP_LONG_DIAGONAL: usize = MINOR_BEHIND_PAWN + 1;
/// Own pawns on the squares of a bishop's color (per bishop and pawn).
pub const BISHOP_PAWNS: usize = BISHOP_LONG_DIAGONAL + 1;
/// Knight by the closedness of the position (0 open … 8 closed) (9).
pub const KNIGHT_CLOSEDNESS: usize = BISHOP_PAWNS + 1;
/// Rook by the closedness of the position (9).
pub const ROOK_CLOSEDNESS: usize = KNIGHT_CLOSEDNESS + 9;
/// Space: safe squares of files c to f on the own relative ranks 2 to 4 (twice behind an own
/// pawn).
pub const SPACE: usize = ROOK_CLOSEDNESS + 9;
/// Side to move.
pub const TEMPO: usize = SPACE + 1;
/// King danger, the one non-linear term: the units of danger to a king, Σ weight × count over
/// these features of the attacker ([`KING_DANGER_NAMES`]), become a penalty that grows with
/// the square of the middlegame units (see `eval::king_danger_penalty`).
pub const KING_DANGER: usize = TEMPO + 1;
/// Features of the king danger.
pub const KING_DANGER_LEN: usize = 12;
/// The king-danger features, in order: king-zone squares attacked per attacking piece
/// (knight, bishop, rook, queen), safe checks per checking piece (same order), weak king-zone
/// squares, pieces attacking the zone, the attacker has no queen, and a constant.
pub const KING_DANGER_NAMES: [&str; KING_DANGER_LEN] = [
    "zone knight",
    "zone bishop",
    "zone rook",
    "zone queen",
    "check knight",
    "check bishop",
    "check rook",
    "check queen",
    "weak squares",
    "attackers",
    "no queen",
    "constant",
];
/// Complexity, the other non-linear term: Σ weight × count over these features (endgame
/// halves only; the middlegame halves are unused) moves the endgame half of the total away from
/// 0 or toward it (see `eval::complexity`).
pub const COMPLEXITY: usize = KING_DANGER + KING_DANGER_LEN;
/// Features of the complexity.
pub const COMPLEXITY_LEN: usize = 4;
/// The complexity features, in order: pawns on the board, pawns on both wings, no pieces
/// but kings and pawns, and a constant.
pub const COMPLEXITY_NAMES: [&str; COMPLEXITY_LEN] =
    ["pawns", "both wings", "pawn ending", "constant"];
/// Number of tunable weights.
pub const COUNT: usize = COMPLEXITY + COMPLEXITY_LEN;

/// The named groups in index order: first index, entries, name, trace group.
const GROUPS: [(usize, usize, &str, Term); 45] = [
    (MATERIAL, 5, "material", Term::Material),
    (PSQT, 6 * 64, "psqt", Term::Psqt),
    (
        MOBILITY[0],
        MOBILITY_LEN[0],
        "mobility knight",
        Term::Mobility,
    ),
    (
        MOBILITY[1],
        MOBILITY_LEN[1],
        "mobility bishop",
        Term::Mobility,
    ),
    (
        MOBILITY[2],
        MOBILITY_LEN[2],
        "mobility rook",
        Term::Mobility,
    ),
    (
        MOBILITY[3],
        MOBILITY_LEN[3],
        "mobility queen",
        Term::Mobility,
    ),
    (BISHOP_PAIR, 1, "bishop pair", Term::Pieces),
    (ROOK_OPEN_FILE, 1, "rook open file", Term::Pieces),
    (ROOK_SEMI_OPEN_FILE, 1, "rook semi-open file", Term::Pieces),
    (DOUBLED, 8, "doubled", Term::Pawns),
    (ISOLATED, 8, "isolated", Term::Pawns),
    (BACKWARD, 8, "backward", Term::Pawns),
    (CONNECTED, 64, "connected", Term::Pawns),
    (PASSED, 8, "passed", Term::Pawns),
    (CANDIDATE, 8, "candidate", Term::Pawns),
    (
        PASSED_KING_THEM,
        1,
        "passed: enemy king distance",
        Term::Passed,
    ),
    (PASSED_KING_US, 1, "passed: own king distance", Term::Passed),
    (PASSED_FREE_PATH, 1, "passed: free path", Term::Passed),
    (PASSED_BLOCKED, 1, "passed: blocked", Term::Passed),
    (PASSED_STOP, 32, "passed: stop square", Term::Passed),
    (SHIELD_PAWN, 2, "shield pawn", Term::KingSafety),
    (KING_OPEN_FILE, 1, "king open file", Term::KingSafety),
    (SHELTER, 128, "shelter", Term::KingSafety),
    (STORM, 64, "storm", Term::KingSafety),
    (KING_ZONE_ATTACKS, 4, "king zone attacks", Term::KingSafety),
    (SAFE_CHECKS, 4, "safe checks", Term::KingSafety),
    (WEAK_KING_SQUARES, 1, "weak king squares", Term::KingSafety),
    (THREAT_BY_PAWN, 1, "threat by pawn", Term::Threats),
    (THREAT_BY_MINOR, 1, "threat by minor", Term::Threats),
    (THREAT_BY_ROOK, 1, "threat by rook", Term::Threats),
    (HANGING, 1, "hanging", Term::Threats),
    (
        THREAT_MINOR_BY_MINOR,
        1,
        "threat minor by minor",
        Term::Threats,
    ),
    (THREAT_BY_KING, 1, "threat by king", Term::Threats),
    (WEAK_PAWN, 1, "weak pawn", Term::Threats),
    (PAWN_PUSH_THREAT, 1, "pawn push threat", Term::Threats),
    (OUTPOST, 4, "outpost", Term::Pieces),
    (MINOR_BEHIND_PAWN, 1, "minor behind pawn", Term::Pieces),
    (
        BISHOP_LONG_DIAGONAL,
        1,
        "bishop long diagonal",
        Term::Pieces,
    ),
    (BISHOP_PAWNS, 1, "bishop pawns", Term::Pieces),
    (KNIGHT_CLOSEDNESS, 9, "knight closedness", Term::Pieces),
    (ROOK_CLOSEDNESS, 9, "rook closedness", Term::Pieces),
    (SPACE, 1, "space", Term::Pieces),
    (TEMPO, 1, "tempo", Term::Tempo),
    (
        KING_DANGER,
        KING_DANGER_LEN,
        "king danger",
        Term::KingSafety,
    ),
    (COMPLEXITY, COMPLEXITY_LEN, "complexity", Term::Complexity),
];

/// The group holding weight `index` (< [`COUNT`]).
fn group(index: usize) -> (usize, usize, &'static str, Term) {
    let mut g = GROUPS[0];
    for candidate in GROUPS {
        if candidate.0 <= index {
            g = candidate;
        }
    }
    g
}

/// The trace group (row of `ply-chess eval`) of weight `index`.
pub fn term(index: usize) -> Term {
    group(index).3
}

/// A readable name of weight `index`, e.g. `psqt knight e4` or `mobility rook [7]`.
pub fn name(index: usize) -> String {
    let (first, len, group_name, _) = group(index);
    let i = index - first;
    const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    if first == MATERIAL {
        format!("material {}", ROLES[i])
    } else if first == PSQT {
        let sq = i % 64;
        let file = (b'a' + (sq % 8) as u8) as char;
        format!("psqt {} {file}{}", ROLES[i / 64], sq / 8 + 1)
    } else if first == KING_DANGER {
        format!("king danger {}", KING_DANGER_NAMES[i])
    } else if first == COMPLEXITY {
        format!("complexity {}", COMPLEXITY_NAMES[i])
    } else if len > 1 {
        format!("{group_name} [{i}]")
    } else {
        group_name.to_string()
    }
}

/// The Rust source of `weights/generated.rs` holding `weights` (a full vector, [`COUNT`] long):
/// what a tuner writes back for the engine to compile. `header` becomes its leading comment
/// (how the weights were made).
pub fn source(weights: &[Score], header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "// {line}");
    }
    let _ = writeln!(
        out,
        "\nuse crate::Score;\n\n/// Every tunable weight, indexed as in `eval::layout`.\n\
         #[rustfmt::skip]\npub const WEIGHTS: [Score; {COUNT}] = ["
    );
    for (i, w) in weights.iter().enumerate() {
        let _ = writeln!(
            out,
            "    Score::new({}, {}), // {}",
            w.mg(),
            w.eg(),
            name(i)
        );
    }
    out.push_str("];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_vector() {
        let mut next = 0;
        for (first, len, _, _) in GROUPS {
            assert_eq!(first, next);
            next += len;
        }
        assert_eq!(next, COUNT);
    }

    #[test]
    fn names() {
        assert_eq!(name(MATERIAL + 1), "material knight");
        assert_eq!(name(PSQT + 64 + 28), "psqt knight e4");
        assert_eq!(name(MOBILITY[2] + 7), "mobility rook [7]");
        assert_eq!(name(TEMPO), "tempo");
        assert_eq!(name(KING_DANGER + 3), "king danger zone queen");
        assert_eq!(term(PASSED_BLOCKED), Term::Passed);
    }

    #[test]
    fn the_source_lists_every_weight() {
        let w = vec![Score::new(1, -2); COUNT];
        let text = source(&w, "made by a test");
        assert!(text.starts_with("// made by a test\n"));
        assert_eq!(text.matches("Score::new(1, -2)").count(), COUNT);
        assert!(text.contains(&format!("[Score; {COUNT}]")));
    }
}

#[cfg(test)]
mod generated {
    use super::*;
    use crate::eval::weights::WEIGHTS;

    /// The compiled file is exactly what [`source`] writes for its own weights (so what a tuner
    /// writes compiles the same way).
    #[test]
    fn the_compiled_file_is_the_writers_output() {
        let file = include_str!("weights.rs");
        let header: Vec<&str> = file
            .lines()
            .take_while(|l| l.starts_with("// "))
            .map(|l| &l[3..])
            .collect();
        assert_eq!(source(&WEIGHTS, &header.join("\n")), file);
    }
}

/// One named group of evaluation terms (rows of the trace table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(usize)]
pub enum Term {
    /// Piece values.
    Material,
    /// Piece-square tables.
    Psqt,
    /// Reachable squares per piece.
    Mobility,
    /// Doubled, isolated, backward, connected pawns and the base passed-pawn bonus (pawn hash).
    Pawns,
    /// Passed pawns: king distances, free path, blockade.
    Passed,
    /// Attacks on the king zone, safe checks and the pawn shield.
    KingSafety,
    /// Attacked and hanging pieces.
    Threats,
    /// Bishop pair and rooks on open or semi-open files.
    Pieces,
    /// Side-to-move bonus.
    Tempo,
    /// How much the endgame half is pushed away from a draw, or toward it, by how much play is
    /// left (pawns, pawns on both wings, a pure pawn ending); counted for the side it favours.
    Complexity,
}

impl Term {
    /// Every term, in trace order.
    pub const ALL: [Term; 10] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Threats,
        Term::Pieces,
        Term::Tempo,
        Term::Complexity,
    ];

    /// Display name.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "PSQT",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Pieces => "Pieces",
            Term::Tempo => "Tempo",
            Term::Complexity => "Complexity",
        }
    }
}
