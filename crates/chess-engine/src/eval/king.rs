//! King safety: the enemy's safe checks and attacks on the king zone, weak squares around the
//! king, the king danger (the non-linear sum of those), the pawn shield, pawn shelter and
//! storm, and open files beside the king.

use super::geometry::*;
use super::layout::Term;
use super::layout::{self as at, KING_DANGER_LEN};
use super::nonlinear;
use super::pieces::Attacks;
use super::tracer::{add, Tracer};
use super::weights::WEIGHTS;
use crate::Score;
use ply_chess::{bishop_attacks, knight_attacks, rook_attacks, Bitboard, Color, Position, Role};

/// The safety of `color`'s king (the enemy's checks and weak squares count for the enemy).
pub(super) fn king_safety<T: Tracer>(
    pos: &Position,
    color: Color,
    att: &Attacks,
    t: &mut T,
    acc: &mut [Score; 2],
) {
    let (us, them) = (color.index(), 1 - color.index());
    let ksq = pos.king(color);
    let occ = pos.occupied();
    let safe = !att.all[us] & !pos.by_color(!color);
    let bishop_lines = bishop_attacks(ksq, occ);
    let rook_lines = rook_attacks(ksq, occ);
    let checks = [
        knight_attacks(ksq) & att.by_role[them][0] & safe,
        bishop_lines & att.by_role[them][1] & safe,
        rook_lines & att.by_role[them][2] & safe,
        (bishop_lines | rook_lines) & att.by_role[them][3] & safe,
    ];
    for (k, set) in checks.into_iter().enumerate() {
        if set.any() {
            add(t, acc, !color, at::SAFE_CHECKS + k, set.count() as i32);
        }
    }
    let weak = att.zone[us] & att.all[them] & !(att.pawns[us] | att.minors[us] | att.rooks[us]);
    if weak.any() {
        add(t, acc, !color, at::WEAK_KING_SQUARES, weak.count() as i32);
    }
    if att.king_attackers[them] > 0 {
        let h = att.zone_hits[them];
        let c = |set: Bitboard| set.count() as i32;
        let counts: [i32; KING_DANGER_LEN] = [
            h[0],
            h[1],
            h[2],
            h[3],
            c(checks[0]),
            c(checks[1]),
            c(checks[2]),
            c(checks[3]),
            c(weak),
            att.king_attackers[them],
            i32::from(pos.count(!color, Role::Queen) == 0),
            1,
        ];
        t.danger(color, &counts);
        let danger = nonlinear::king_danger(&counts, &WEIGHTS);
        t.value(Term::KingSafety, color, danger);
        acc[us] += danger;
    }
    pawn_shield(pos, color, t, acc);
}

/// `color`'s pawns around its king: the shield one and two squares in front of the king and its
/// neighbours, shelter and storm, and files without an own pawn beside the king when the enemy
/// has a queen.
fn pawn_shield<T: Tracer>(pos: &Position, color: Color, t: &mut T, acc: &mut [Score; 2]) {
    let ksq = pos.king(color);
    let own_pawns = pos.pieces(color, Role::Pawn);
    let f = ksq.file().index();
    let files = ADJACENT_FILES[f] | file_set(f);
    for dist in 0..2 {
        let r = match color {
            Color::White => ksq.rank().index() + dist + 1,
            Color::Black => (ksq.rank().index() as i32 - dist as i32 - 1).max(-1) as usize,
        };
        if r < 8 {
            let n = (own_pawns & Bitboard::RANK_1.north(r as u32) & files).count() as i32;
            if n > 0 {
                add(t, acc, color, at::SHIELD_PAWN + dist, n);
            }
        }
    }
    shelter_and_storm(pos, color, t, acc);
    if pos.count(!color, Role::Queen) > 0 {
        let open = (0..8)
            .filter(|&i| files.intersects(file_set(i)) && !own_pawns.intersects(file_set(i)))
            .count() as i32;
        if open > 0 {
            add(t, acc, color, at::KING_OPEN_FILE, open);
        }
    }
}

/// Pawn shelter and storm on the three files around `color`'s king (the king's file kept off
/// the edge): the nearest own and enemy pawn in front of the king on each file.
fn shelter_and_storm<T: Tracer>(pos: &Position, color: Color, t: &mut T, acc: &mut [Score; 2]) {
    let ksq = pos.king(color);
    let king_file = ksq.file().index();
    let king_rank = relative_rank(color, ksq);
    let front = match color {
        Color::White => Bitboard::FULL.north(ksq.rank().index() as u32),
        Color::Black => Bitboard::FULL.south(7 - ksq.rank().index() as u32),
    };
    let own = pos.pieces(color, Role::Pawn) & front;
    let theirs = pos.pieces(!color, Role::Pawn) & front;
    let nearest = |set: Bitboard| -> Option<usize> {
        let sq = match color {
            Color::White => set.first(),
            Color::Black => set.last(),
        }?;
        Some(relative_rank(color, sq) - king_rank)
    };
    let centre = king_file.clamp(1, 6);
    for file in centre - 1..=centre + 1 {
        let mask = file_set(file);
        let ours = nearest(own & mask);
        let their = nearest(theirs & mask);
        let our_dist = ours.unwrap_or(7);
        let their_dist = their.unwrap_or(7);
        let on_king_file = usize::from(file == king_file);
        let shelter = at::SHELTER + on_king_file * 64 + file * 8 + our_dist;
        add(t, acc, color, shelter, 1);
        let blocked = usize::from(ours.is_some() && their == Some(our_dist + 1));
        let edge = file.min(7 - file);
        add(
            t,
            acc,
            color,
            at::STORM + blocked * 32 + edge * 8 + their_dist,
            1,
        );
    }
}
