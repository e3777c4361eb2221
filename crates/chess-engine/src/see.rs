//! Static exchange evaluation (CPW "Static Exchange Evaluation"): does a move win at least a
//! threshold once every capture on its destination square has been played out, least valuable
//! attacker first? Sliders behind the exchanging pieces (x-rays) join as the square clears.

use ply_chess::{bishop_attacks, rook_attacks, Bitboard, Color, Magic, Move, Position, Role};

/// Exchange values per role (the king's is large so that it only captures last).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The material a move wins on its own square before any recapture (promotion gain included).
#[inline]
pub fn capture_gain(m: Move) -> i32 {
    let captured = if m.is_en_passant() {
        SEE_VALUE[0]
    } else {
        m.captured().map_or(0, |r| SEE_VALUE[r.index()])
    };
    captured
        + m.promotion()
            .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[0])
}

/// Whether `m` (legal in `pos`) wins at least `threshold` centipawns in the exchange it starts.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() || m.is_en_passant() || m.promotion().is_some() {
        return capture_gain(m) >= threshold;
    }
    let from = m.from();
    let to = m.to();
    let mut swap = capture_gain(m) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[m.role().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    let mut attackers = pos.attackers_with(to, Color::White, occ, Magic)
        | pos.attackers_with(to, Color::Black, occ, Magic);
    let diagonal = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let straight = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut stm = pos.side_to_move();
    let mut result = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let ours = attackers & pos.by_color(stm);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let mut least = None;
        for role in Role::ALL {
            let bb = ours & pos.by_role(role);
            if let Some(sq) = bb.first() {
                least = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = least else { break };
        if role == Role::King {
            // The king may only take last: if the other side still attacks, the capture is illegal.
            return if (attackers & pos.by_color(!stm)).any() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[role.index()] - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & straight;
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(fen: &str, uci: &str) -> (Position, Move) {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        (pos, m)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes undefended knight.
        let (p, m) = mv("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5");
        assert!(see_ge(&p, m, 320) && !see_ge(&p, m, 321));
        // Queen takes a pawn defended by a pawn: loses queen for pawn.
        let (p, m) = mv("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5");
        assert!(!see_ge(&p, m, 0));
        assert!(see_ge(&p, m, 100 - 950));
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): wins a rook
        // minus nothing = +500 - 500 + 500.
        let (p, m) = mv("3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1", "d2d7");
        assert!(see_ge(&p, m, 0));
        assert!(!see_ge(&p, m, 1));
        // Quiet move to an attacked square loses the piece.
        let (p, m) = mv("4k3/4p3/8/8/2N5/8/8/4K3 w - - 0 1", "c4d6");
        assert!(!see_ge(&p, m, 0) && see_ge(&p, m, -320));
    }
}
