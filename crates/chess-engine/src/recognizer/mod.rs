//! Interior-node recognizers (Ernst Heinz's interior-node recognition in DarkThought): positions
//! whose value is known from their material and a few facts are scored without searching them.
//!
//! Each side's material signature (bit 0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen) selects an
//! entry of a 64-entry table: with a lone king the strong side's signature indexes the lower 32
//! entries, otherwise `32 + (white | black)`. Because the OR merges different constellations, a
//! second table of 1024 availability flags (`[u32; 32]`: Black's signature selects the word,
//! White's the bit) says whether the chosen recognizer really handles this exact signature pair;
//! it is filled for both colour orders, since unlike the index it is not commutative. Both tables
//! are built at compile time. A recognizer returns an exact score or a bound, or `None` when the
//! concrete position is outside what it can judge.

use crate::kpk_is_win;
use crate::value::KNOWN_WIN;
use ply_chess::{Bitboard, Color, Position, Role, Square};

/// The outcome of a successful recognition, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recognition {
    /// The position is worth exactly this much.
    Exact(i32),
    /// The position is worth at least this much.
    Lower(i32),
    /// The position is worth at most this much.
    Upper(i32),
}

impl Recognition {
    /// The score carried by the recognition (the bound itself for bounds): a static estimate.
    pub const fn value(self) -> i32 {
        match self {
            Recognition::Exact(v) | Recognition::Lower(v) | Recognition::Upper(v) => v,
        }
    }

    /// The score that ends a search with window (`alpha`, `beta`): an exact value, or a bound
    /// that already falls outside the window.
    #[inline]
    pub const fn cutoff(self, alpha: i32, beta: i32) -> Option<i32> {
        match self {
            Recognition::Exact(v) => Some(v),
            Recognition::Lower(v) if v >= beta => Some(v),
            Recognition::Upper(v) if v <= alpha => Some(v),
            _ => None,
        }
    }
}

/// A recognizer function.
type Recognizer = fn(&Position) -> Option<Recognition>;

/// Signature bits (as in `Position::material_signature`).
const P: u8 = 1;
const N: u8 = 2;
const B: u8 = 4;
const R: u8 = 8;
const Q: u8 = 16;

/// Recognizer table index of a signature pair: commutative in its arguments.
#[inline(always)]
pub const fn index(white: u8, black: u8) -> usize {
    (((white != 0) & (black != 0)) as usize) * 32 + (white | black) as usize
}

/// Whether the availability flags allow a recognizer call for this exact signature pair.
#[inline(always)]
pub const fn available(white: u8, black: u8) -> bool {
    TABLES.flags[black as usize & 31] >> (white & 31) & 1 != 0
}

/// The recognizer table and the availability flags.
struct Tables {
    table: [Option<Recognizer>; 64],
    flags: [u32; 32],
}

/// Installs `f` for the signature pair (`a`, `b`) in both colour orders.
const fn install(t: &mut Tables, a: u8, b: u8, f: Recognizer) {
    t.table[index(a, b)] = Some(f);
    t.flags[b as usize] |= 1 << a;
    t.flags[a as usize] |= 1 << b;
}

/// Builds both tables.
const fn build() -> Tables {
    let mut t = Tables {
        table: [None; 64],
        flags: [0; 32],
    };
    install(&mut t, 0, 0, bare_kings);
    install(&mut t, N, 0, knights);
    install(&mut t, B, 0, bishops);
    install(&mut t, N | B, 0, bishop_knight);
    install(&mut t, P, 0, kpk);
    install(&mut t, B | P, 0, wrong_rook_pawn);
    // Any lone-king signature with a rook or queen: mating guidance.
    let mut sig = 1u8;
    while sig < 32 {
        if sig & (R | Q) != 0 {
            install(&mut t, sig, 0, kxk);
        }
        sig += 1;
    }
    install(&mut t, B, B, bishops_each);
    t
}

/// Built at compile time.
static TABLES: Tables = build();

/// Looks up and runs the recognizer for `pos`, if one is installed and available.
#[inline]
pub fn recognize(pos: &Position) -> Option<Recognition> {
    let w = pos.material_signature(Color::White);
    let b = pos.material_signature(Color::Black);
    if !available(w, b) {
        return None;
    }
    TABLES.table[index(w, b)].and_then(|f| f(pos))
}

/// The side that has material besides its king (White when both are bare).
fn strong_side(pos: &Position) -> Color {
    if pos.material_signature(Color::White) != 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// A known win for `strong`, worth at least the guidance value `v` (in the known-win band, below
/// every mate score): a lower bound for the strong side, an upper bound for the defender. Bounds
/// rather than exact scores let the search still look for the fastest mate when the window asks.
fn win(pos: &Position, strong: Color, v: i32) -> Recognition {
    if pos.side_to_move() == strong {
        Recognition::Lower(v)
    } else {
        Recognition::Upper(-v)
    }
}

/// Distance of a square from the centre: 0 in the four centre squares .. 6 in the corners.
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    (3 - f).max(f - 4) + (3 - r).max(r - 4)
}

/// Whether a square lies on the edge of the board.
fn on_edge(sq: Square) -> bool {
    let (f, r) = (sq.file().index(), sq.rank().index());
    f == 0 || f == 7 || r == 0 || r == 7
}

/// KK: dead draw.
fn bare_kings(_: &Position) -> Option<Recognition> {
    Some(Recognition::Exact(0))
}

/// KNK and KNNK: no forced mate. KNNK is only claimed while the defending king is off the edge (with
/// it on the edge the defender may have to walk into a mate).
fn knights(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    match pos.count(strong, Role::Knight) {
        1 => Some(Recognition::Exact(0)),
        2 if !on_edge(pos.king(!strong)) => Some(Recognition::Exact(0)),
        _ => None,
    }
}

/// Bishops only: all on one colour cannot mate; bishops of both colours win (KXK guidance).
fn bishops(pos: &Position) -> Option<Recognition> {
    let b = pos.by_role(Role::Bishop);
    if !b.intersects(Bitboard::LIGHT_SQUARES) || !b.intersects(Bitboard::DARK_SQUARES) {
        Some(Recognition::Exact(0))
    } else {
        kxk(pos)
    }
}

/// KBKB (and more bishops each): with every bishop on squares of one colour neither side can mate.
fn bishops_each(pos: &Position) -> Option<Recognition> {
    let b = pos.by_role(Role::Bishop);
    if !b.intersects(Bitboard::LIGHT_SQUARES) || !b.intersects(Bitboard::DARK_SQUARES) {
        Some(Recognition::Exact(0))
    } else {
        None
    }
}

/// KPK through the exact bitbase: a won position is bounded by the known-win band (growing as the
/// pawn advances so the search makes progress); anything else is an exact draw.
fn kpk(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    if pos.count(strong, Role::Pawn) != 1 {
        return None;
    }
    let flip = |sq: Square| match strong {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    let pawn = pos.pieces(strong, Role::Pawn).first()?;
    let (sk, p, wk) = (flip(pos.king(strong)), flip(pawn), flip(pos.king(!strong)));
    if kpk_is_win(sk, p, wk, pos.side_to_move() == strong) {
        let v = KNOWN_WIN + 100 + 20 * (p / 8) as i32;
        Some(win(pos, strong, v))
    } else {
        Some(Recognition::Exact(0))
    }
}

/// KBPK / KBPsK with the wrong rook pawn: every pawn on one rook file, no bishop controlling the
/// promotion corner, and the defending king on or next to that corner: a draw.
fn wrong_rook_pawn(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    let pawns = pos.pieces(strong, Role::Pawn);
    let file_a = Bitboard::FILE_A;
    let file_h = Bitboard::FILE_H;
    let corner_file = if (pawns & !file_a).is_empty() {
        0
    } else if (pawns & !file_h).is_empty() {
        7
    } else {
        return None;
    };
    let corner = match strong {
        Color::White => Square::new(56 + corner_file),
        Color::Black => Square::new(corner_file),
    };
    let corner_light = Bitboard::LIGHT_SQUARES.contains(corner);
    let bishops = pos.pieces(strong, Role::Bishop);
    let controls = if corner_light {
        bishops.intersects(Bitboard::LIGHT_SQUARES)
    } else {
        bishops.intersects(Bitboard::DARK_SQUARES)
    };
    if !controls && pos.king(!strong).distance(corner) <= 1 {
        Some(Recognition::Exact(0))
    } else {
        None
    }
}

/// KBNK: mate is forced, but only in a corner of the bishop's colour; guide the defending king there.
fn bishop_knight(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    if pos.count(strong, Role::Bishop) != 1 || pos.count(strong, Role::Knight) != 1 {
        return kxk_if_enough(pos);
    }
    let weak_king = pos.king(!strong);
    if !won_safely(pos, strong) {
        return None;
    }
    let light = pos
        .pieces(strong, Role::Bishop)
        .intersects(Bitboard::LIGHT_SQUARES);
    // a1 and h8 are dark; h1 and a8 light.
    let corners = if light {
        [Square::H1, Square::A8]
    } else {
        [Square::A1, Square::H8]
    };
    let to_corner = corners
        .iter()
        .map(|&c| weak_king.distance(c) as i32)
        .min()
        .unwrap_or(0);
    let kings = pos.king(strong).distance(weak_king) as i32;
    let v = KNOWN_WIN + 300 + 30 * (7 - to_corner) + 10 * edge_distance(weak_king) - 8 * kings;
    Some(win(pos, strong, v))
}

/// Minor pieces without a rook or queen: only claim a win with enough material (two bishops of
/// both colours, or bishop and knight plus more).
fn kxk_if_enough(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    let b = pos.pieces(strong, Role::Bishop);
    let two_colours = b.intersects(Bitboard::LIGHT_SQUARES) && b.intersects(Bitboard::DARK_SQUARES);
    let bn = b.any() && pos.count(strong, Role::Knight) >= 1;
    if two_colours || bn {
        kxk(pos)
    } else {
        None
    }
}

/// Whether a lone-king position can be claimed as won for `strong` without searching: the defender
/// has a legal move (now, or after a pass when the strong side is to move), and the defending king cannot win
/// material that matters. A piece is exposed when it is undefended and at most two squares from
/// the defending king (it may be attacked or forked next move); with a rook or queen the win must
/// survive losing every exposed rook and queen; minor pieces only are claimed with nothing exposed
/// and the strong side to move.
fn won_safely(pos: &Position, strong: Color) -> bool {
    // The defender must have a move now (if to move) or after a pass (if not): a boxed-in king
    // means mate or stalemate tricks that only a search can sort out.
    let defender = if pos.side_to_move() == strong {
        pos.null_move()
    } else {
        Some(*pos)
    };
    if defender.is_none_or(|p| p.count_legal_moves() == 0) {
        return false;
    }
    let weak_king = pos.king(!strong);
    let pieces = pos.by_color(strong) & !pos.by_role(Role::King) & !pos.by_role(Role::Pawn);
    let exposed: Bitboard = pieces
        .into_iter()
        .filter(|&sq| sq.distance(weak_king) <= 2 && pos.attackers(sq, strong).is_empty())
        .collect();
    let heavy = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    if (pieces & heavy).any() {
        (pieces & heavy & !exposed).any()
    } else {
        // Minor pieces can also be hunted down over several moves (a knight in a corner): only
        // claim with the strong side to move.
        exposed.is_empty() && pos.side_to_move() == strong
    }
}

/// KXK (a rook or queen, or enough minors, against a lone king): a known win; drive the defending
/// king to the edge and bring the attacking king close, and keep the material (promotions count).
fn kxk(pos: &Position) -> Option<Recognition> {
    let strong = strong_side(pos);
    if !won_safely(pos, strong) {
        return None;
    }
    let weak_king = pos.king(!strong);
    let material: i32 = [
        (Role::Pawn, 100),
        (Role::Knight, 300),
        (Role::Bishop, 300),
        (Role::Rook, 500),
        (Role::Queen, 900),
    ]
    .iter()
    .map(|&(r, v)| v * pos.count(strong, r) as i32)
    .sum();
    let kings = pos.king(strong).distance(weak_king) as i32;
    let v = KNOWN_WIN + material / 4 + 20 * edge_distance(weak_king) - 10 * kings;
    Some(win(pos, strong, v))
}

#[cfg(test)]
mod tests;
