//! The handcrafted evaluation: every term is a packed (middlegame, endgame) [`Score`] (seed 000),
//! summed for White minus Black and blended by game phase once, in [`Score::taper_scaled`].
//!
//! Terms: material, piece-square tables, mobility, pawn structure (cached in a [`PawnTable`]),
//! passed pawns, king safety, threats, bishop pair, rooks on open files, tempo, and an endgame
//! scale factor for drawish material. Weights live in [`params`]. The evaluation is generic over a
//! [`Tracer`] so the same code produces the `ply-chess eval` per-term table at no cost to search.

pub mod params;

use crate::Score;
use params::*;
use ply_chess::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks,
    Bitboard, Color, Position, Role, Square,
};

/// One named group of evaluation terms (rows of the trace table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
}

impl Term {
    /// Every term, in trace order.
    pub const ALL: [Term; 9] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Threats,
        Term::Pieces,
        Term::Tempo,
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
        }
    }
}

/// Receives each term's packed value per colour while evaluating.
pub trait Tracer {
    /// Records `s` for `color` under `term` (values are from `color`'s point of view).
    fn add(&mut self, term: Term, color: Color, s: Score);
}

/// The tracer used by the search: records nothing and compiles away.
pub struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: Term, _: Color, _: Score) {}
}

/// A full breakdown of one evaluation (for `ply-chess eval`).
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// Per term (in [`Term::ALL`] order) and colour (White, Black): the packed value for that side.
    pub terms: [[Score; 2]; 9],
    /// Game phase, `0..=MAX_PHASE` (`MAX_PHASE` = full middlegame).
    pub phase: i32,
    /// Endgame scale factor in 64ths (`params::SCALE_NORMAL` = 64 leaves the endgame half as is).
    pub scale: i32,
    /// Sum of all terms, White minus Black.
    pub total: Score,
    /// Final value in centipawns from White's point of view.
    pub white_value: i32,
}

impl Tracer for Trace {
    fn add(&mut self, term: Term, color: Color, s: Score) {
        let t = Term::ALL.iter().position(|&x| x == term).unwrap_or(0);
        self.terms[t][color.index()] += s;
    }
}

/// A cached pawn-structure evaluation (the part depending on pawns only).
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    /// Pawn-structure score per colour, from that colour's point of view.
    score: [Score; 2],
    /// Passed pawns of both colours.
    passed: u64,
}

/// A per-thread cache of pawn-structure evaluations keyed by [`Position::pawn_key`].
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

/// Entries in a pawn table (a power of two; 16,384 × 32 bytes = 512 KiB).
const PAWN_TABLE_SIZE: usize = 1 << 14;

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        // The key of an empty entry (0) never matches a real pawn key except the pawnless one, whose
        // cached value (zero) is also correct.
        PawnTable {
            entries: vec![PawnEntry::default(); PAWN_TABLE_SIZE],
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(PawnEntry::default());
    }

    /// The pawn-structure entry of `pos`, computed on a miss.
    #[inline]
    fn probe(&mut self, pos: &Position) -> PawnEntry {
        let key = pos.pawn_key();
        let slot = &mut self.entries[(key as usize) & (PAWN_TABLE_SIZE - 1)];
        if slot.key != key {
            *slot = pawn_structure(pos);
        }
        *slot
    }
}

// ----- geometry tables -----

/// Squares strictly in front of `sq` on its file, per colour.
const fn forward_file() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let mut s = sq + 8;
        while s < 64 {
            t[0][sq] |= 1 << s;
            s += 8;
        }
        let mut s = sq as i32 - 8;
        while s >= 0 {
            t[1][sq] |= 1 << s;
            s -= 8;
        }
        sq += 1;
    }
    t
}
static FORWARD_FILE: [[u64; 64]; 2] = forward_file();

/// The files beside file `f`.
const fn adjacent_files() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= FILE_A << (f - 1);
        }
        if f < 7 {
            t[f] |= FILE_A << (f + 1);
        }
        f += 1;
    }
    t
}
const FILE_A: u64 = 0x0101_0101_0101_0101;
static ADJACENT_FILES: [u64; 8] = adjacent_files();

/// Squares in front of `sq` on its own and the adjacent files, per colour: a pawn is passed when
/// no enemy pawn stands there.
const fn passed_span() -> [[u64; 64]; 2] {
    let ff = forward_file();
    let mut t = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < 64 {
            let f = sq % 8;
            let mut span = ff[c][sq];
            if f > 0 {
                span |= ff[c][sq - 1];
            }
            if f < 7 {
                span |= ff[c][sq + 1];
            }
            t[c][sq] = span;
            sq += 1;
        }
        c += 1;
    }
    t
}
static PASSED_SPAN: [[u64; 64]; 2] = passed_span();

/// Rank of `sq` seen from `color` (0 = own back rank).
#[inline(always)]
fn relative_rank(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.rank().index(),
        Color::Black => 7 - sq.rank().index(),
    }
}

/// All squares attacked by the pawns of `color`.
#[inline(always)]
fn pawn_attack_set(color: Color, pawns: u64) -> u64 {
    let not_a = !FILE_A;
    let not_h = !(FILE_A << 7);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

/// The square in front of `sq` for `color`.
#[inline(always)]
fn push_square(color: Color, sq: Square) -> Square {
    match color {
        Color::White => Square::new(sq as u8 + 8),
        Color::Black => Square::new(sq as u8 - 8),
    }
}

/// Evaluates the pawn structure from scratch (the pawn-hash payload).
fn pawn_structure(pos: &Position) -> PawnEntry {
    let mut e = PawnEntry {
        key: pos.pawn_key(),
        ..PawnEntry::default()
    };
    for color in Color::ALL {
        let own = pos.pieces(color, Role::Pawn).0;
        let theirs = pos.pieces(!color, Role::Pawn).0;
        let their_attacks = pawn_attack_set(!color, theirs);
        let mut score = Score::ZERO;
        for sq in Bitboard(own) {
            let i = sq.index();
            let f = sq.file().index();
            let r = relative_rank(color, sq);
            let adjacent = ADJACENT_FILES[f];
            if FORWARD_FILE[color.index()][i] & own != 0 {
                score += DOUBLED;
            }
            let supported = pawn_attacks(!color, sq).0 & own != 0;
            let phalanx = (Bitboard::from_square(sq).east().0 | Bitboard::from_square(sq).west().0)
                & own
                != 0;
            if adjacent & own == 0 {
                score += ISOLATED;
            } else if supported || phalanx {
                score += CONNECTED[r];
            } else {
                // Backward: every adjacent own pawn is ahead, and the stop square is contested.
                let behind_or_level =
                    PASSED_SPAN[(!color).index()][push_square(color, sq).index()] & adjacent;
                let stop = push_square(color, sq);
                if own & behind_or_level == 0 && their_attacks & (1 << stop.index()) != 0 {
                    score += BACKWARD;
                }
            }
            if PASSED_SPAN[color.index()][i] & theirs == 0
                && FORWARD_FILE[color.index()][i] & own == 0
            {
                e.passed |= 1 << i;
                score += PASSED[r];
            }
        }
        e.score[color.index()] = score;
    }
    e
}

/// Per-colour attack maps gathered while scoring pieces.
#[derive(Default)]
struct Attacks {
    /// Squares attacked by each colour (any piece, pawns and king included).
    all: [u64; 2],
    /// Squares attacked by each colour's pawns.
    pawns: [u64; 2],
    /// Squares attacked by each colour's knights and bishops.
    minors: [u64; 2],
    /// Squares attacked by each colour's rooks.
    rooks: [u64; 2],
    /// Per colour, per role (knight..queen): squares attacked by that role.
    by_role: [[u64; 4]; 2],
    /// King-attack units each colour has gathered against the enemy king, and attacker count.
    king_units: [i32; 2],
    /// Pieces of each colour attacking the enemy king zone.
    king_attackers: [i32; 2],
}

/// Static evaluation in centipawns from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position, pawns: &mut PawnTable) -> i32 {
    let v = evaluate_with(pos, pawns, &mut NoTrace);
    match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    }
}

/// Evaluates with a fresh pawn table and returns the full per-term breakdown.
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace::default();
    t.white_value = evaluate_with(pos, &mut PawnTable::new(), &mut t);
    t.total = t.terms.iter().map(|[w, b]| *w - *b).sum();
    t.phase = phase(pos);
    t.scale = endgame_scale(pos, t.total);
    t
}

/// The game phase of `pos` (`MAX_PHASE` with all pieces, 0 with pawns and kings only).
pub fn phase(pos: &Position) -> i32 {
    let mut p = 0;
    for color in Color::ALL {
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            p += PHASE_WEIGHT[role.index()] * pos.count(color, role) as i32;
        }
    }
    p.min(MAX_PHASE)
}

/// The evaluation proper: White's point of view, every term reported to `t`.
pub fn evaluate_with<T: Tracer>(pos: &Position, pawns: &mut PawnTable, t: &mut T) -> i32 {
    let mut total = Score::ZERO;
    let side = |t: &mut T, term: Term, color: Color, s: Score, total: &mut Score| {
        t.add(term, color, s);
        match color {
            Color::White => *total += s,
            Color::Black => *total -= s,
        }
    };

    let occ = pos.occupied();
    let mut at = Attacks::default();
    let mut zones = [0u64; 2];
    for color in Color::ALL {
        let p = pos.pieces(color, Role::Pawn).0;
        at.pawns[color.index()] = pawn_attack_set(color, p);
        let k = pos.king(color);
        zones[color.index()] = king_attacks(k).0 | (1 << k.index());
        at.all[color.index()] = at.pawns[color.index()] | king_attacks(k).0;
    }

    // Material, piece-square tables, mobility, rooks on files, king attack units.
    for color in Color::ALL {
        let us = color.index();
        let own = pos.by_color(color).0;
        let own_pawns = pos.pieces(color, Role::Pawn).0;
        let their_pawns = pos.pieces(!color, Role::Pawn).0;
        let mobility_area = !own & !at.pawns[1 - us];
        let enemy_zone = zones[1 - us];
        let mut material = Score::ZERO;
        let mut psqt = Score::ZERO;
        let mut mobility = Score::ZERO;
        let mut pieces = Score::ZERO;
        for role in Role::ALL {
            let bb = pos.pieces(color, role);
            material += MATERIAL[role.index()] * bb.count() as i32;
            for sq in bb {
                let rel = match color {
                    Color::White => sq.index(),
                    Color::Black => sq.index() ^ 56,
                };
                psqt += PST[role.index()][rel];
                let attacks = match role {
                    Role::Pawn | Role::King => continue,
                    Role::Knight => knight_attacks(sq).0,
                    Role::Bishop => bishop_attacks(sq, occ).0,
                    Role::Rook => rook_attacks(sq, occ).0,
                    Role::Queen => queen_attacks(sq, occ).0,
                };
                let ri = role.index() - 1;
                at.by_role[us][ri] |= attacks;
                at.all[us] |= attacks;
                mobility += MOBILITY[ri]
                    * ((attacks & mobility_area).count_ones() as i32 - MOBILITY_BASE[ri]);
                let zone_hits = (attacks & enemy_zone).count_ones() as i32;
                if zone_hits > 0 {
                    at.king_units[us] += KING_ATTACK_UNITS[ri] * zone_hits;
                    at.king_attackers[us] += 1;
                }
                if role == Role::Rook {
                    let file = FILE_A << sq.file().index();
                    if file & own_pawns == 0 {
                        pieces += if file & their_pawns == 0 {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        };
                    }
                }
            }
        }
        at.minors[us] = at.by_role[us][0] | at.by_role[us][1];
        at.rooks[us] = at.by_role[us][2];
        if pos.count(color, Role::Bishop) >= 2 {
            pieces += BISHOP_PAIR;
        }
        side(t, Term::Material, color, material, &mut total);
        side(t, Term::Psqt, color, psqt, &mut total);
        side(t, Term::Mobility, color, mobility, &mut total);
        side(t, Term::Pieces, color, pieces, &mut total);
    }

    // Pawn structure (cached) and passed pawns (depend on pieces, not cached).
    let entry = pawns.probe(pos);
    for color in Color::ALL {
        let us = color.index();
        side(t, Term::Pawns, color, entry.score[us], &mut total);
        let mut passed = Score::ZERO;
        let own_king = pos.king(color);
        let their_king = pos.king(!color);
        for sq in Bitboard(entry.passed & pos.pieces(color, Role::Pawn).0) {
            let r = relative_rank(color, sq);
            let w = PASSED_RANK_WEIGHT[r];
            if w == 0 {
                continue;
            }
            let stop = push_square(color, sq);
            passed += PASSED_KING_THEM * (their_king.distance(stop).min(5) as i32 * w);
            passed += PASSED_KING_US * (own_king.distance(stop).min(5) as i32 * w);
            if occ.contains(stop) {
                passed += PASSED_BLOCKED * w;
            } else if FORWARD_FILE[us][sq.index()] & (occ.0 | at.all[1 - us]) == 0 {
                passed += PASSED_FREE_PATH * w;
            }
        }
        side(t, Term::Passed, color, passed, &mut total);
    }

    // King safety: attack units of the enemy, safe checks, pawn shield.
    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        let ksq = pos.king(color);
        let mut units = at.king_units[them];
        let safe = !at.all[us] & !pos.by_color(!color).0;
        let knight_checks = knight_attacks(ksq).0 & at.by_role[them][0] & safe;
        let bishop_lines = bishop_attacks(ksq, occ).0;
        let rook_lines = rook_attacks(ksq, occ).0;
        let slider_checks = (bishop_lines & (at.by_role[them][1] | at.by_role[them][3])
            | rook_lines & (at.by_role[them][2] | at.by_role[them][3]))
            & safe;
        units += KING_SAFE_CHECK_UNITS
            * (knight_checks.count_ones() as i32 + slider_checks.count_ones().min(3) as i32);
        if at.king_attackers[them] < 2 || pos.count(!color, Role::Queen) == 0 {
            units /= 2;
        }
        let mut ks = Score::ZERO;
        if units > 0 {
            let mg = (units * units / KING_DANGER_DIV).min(KING_DANGER_MAX);
            ks -= Score::new(mg as i16, (units / KING_DANGER_EG_DIV) as i16);
        }
        // Shield: own pawns one and two squares in front of the king and its neighbours.
        let own_pawns = pos.pieces(color, Role::Pawn).0;
        let f = ksq.file().index();
        let files = ADJACENT_FILES[f] | FILE_A << f;
        for (dist, bonus) in SHIELD_PAWN.iter().enumerate() {
            let r = match color {
                Color::White => ksq.rank().index() + dist + 1,
                Color::Black => (ksq.rank().index() as i32 - dist as i32 - 1).max(-1) as usize,
            };
            if r < 8 {
                let rank = 0xffu64 << (r * 8);
                ks += *bonus * (own_pawns & rank & files).count_ones() as i32;
            }
        }
        if pos.count(!color, Role::Queen) > 0 {
            for file_i in 0..8 {
                let file = FILE_A << file_i;
                if files & file != 0 && own_pawns & file == 0 {
                    ks += KING_OPEN_FILE;
                }
            }
        }
        side(t, Term::KingSafety, color, ks, &mut total);
    }

    // Threats.
    for color in Color::ALL {
        let us = color.index();
        let them = 1 - us;
        let their_pieces = pos.by_color(!color).0 & !pos.by_role(Role::Pawn).0;
        let their_pieces = their_pieces & !pos.by_role(Role::King).0;
        let their_rq =
            pos.by_color(!color).0 & (pos.by_role(Role::Rook).0 | pos.by_role(Role::Queen).0);
        let their_q = pos.pieces(!color, Role::Queen).0;
        let mut th = Score::ZERO;
        th += THREAT_BY_PAWN * (at.pawns[us] & their_pieces).count_ones() as i32;
        th += THREAT_BY_MINOR * (at.minors[us] & their_rq).count_ones() as i32;
        th += THREAT_BY_ROOK * (at.rooks[us] & their_q).count_ones() as i32;
        th += HANGING * (at.all[us] & their_pieces & !at.all[them]).count_ones() as i32;
        side(t, Term::Threats, color, th, &mut total);
    }

    side(t, Term::Tempo, pos.side_to_move(), TEMPO, &mut total);

    // The one place where the packed total becomes a single number.
    total.taper_scaled(
        phase(pos),
        MAX_PHASE,
        endgame_scale(pos, total),
        SCALE_NORMAL,
    )
}

/// Endgame scale factor (out of `SCALE_NORMAL`) for material that wins less often than it looks.
fn endgame_scale(pos: &Position, total: Score) -> i32 {
    let strong = if total.eg() >= 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let non_pawn = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| MATERIAL[r.index()].eg() as i32 * pos.count(c, r) as i32)
            .sum()
    };
    if pos.count(strong, Role::Pawn) == 0
        && non_pawn(strong) - non_pawn(weak) <= MATERIAL[Role::Bishop.index()].eg() as i32
    {
        return SCALE_NO_PAWNS_MINOR_UP;
    }
    let only_bishops = |c: Color| {
        pos.count(c, Role::Bishop) == 1
            && pos.count(c, Role::Knight) + pos.count(c, Role::Rook) + pos.count(c, Role::Queen)
                == 0
    };
    if only_bishops(Color::White) && only_bishops(Color::Black) {
        let b = pos.by_role(Role::Bishop);
        if b.intersects(Bitboard::LIGHT_SQUARES) && b.intersects(Bitboard::DARK_SQUARES) {
            return SCALE_OCB;
        }
    }
    SCALE_NORMAL
}

#[cfg(test)]
mod tests;
