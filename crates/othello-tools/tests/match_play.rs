//! Match runner checks: WTHOR openings from the shared data, a short real game against
//! GRhino (skipped when it is not installed), and self-play consistency at a fixed level.

use ply_othello::wthor;
use ply_othello::{Color, Position, Square};
use ply_othello_engine::{Engine, EngineOptions, Limits};
use ply_othello_tools::matchplay::{
    openings_from_games, play_game, GameOptions, GtpClient, Termination,
};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const RHINO: &str = "/usr/games/gtp-rhino";

fn wthor_dir() -> Option<PathBuf> {
    ply_testkit::shared("othello/wthor")
}

#[test]
fn wthor_openings_are_legal_distinct_and_seeded() {
    let Some(dir) = wthor_dir() else { return };
    let files = wthor::read_dir(&dir).expect("WTHOR files read");
    let games = || {
        files
            .iter()
            .flat_map(|(_, f)| f.games.iter().map(|g| &g.moves))
    };
    let a = openings_from_games(games(), 100, 1);
    assert_eq!(a.len(), 100);
    let mut seen = std::collections::HashSet::new();
    for o in &a {
        assert!((8..=12).contains(&o.len()));
        let pos = ply_othello::play_moves(Position::start(), o).expect("legal opening");
        assert!(seen.insert(pos), "duplicate opening position");
    }
    assert_eq!(a, openings_from_games(games(), 100, 1));
    assert_ne!(a, openings_from_games(games(), 100, 2));
}

#[test]
fn short_game_against_grhino_level_1() {
    if !std::path::Path::new(RHINO).exists() {
        ply_testkit::skip(&format!("{RHINO} not installed (apt-get install grhino)"));
        return;
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 16,
        ..EngineOptions::default()
    });
    let mut rhino = GtpClient::spawn(&format!("{RHINO} --level 1 --book 0")).expect("spawn");
    let opening = ply_othello::parse_moves("f5d6c3d3c4f4f6f3").unwrap();
    let opts = GameOptions {
        ply_time: Some(Duration::from_secs(20)),
        opponent_time: Some(Duration::from_secs(60)),
        level: Some(4),
        grace: Duration::from_secs(5),
        reply_timeout: Duration::from_secs(60),
        weakness: Default::default(),
        book: None,
        book_randomness: 0,
    };
    for color in [Color::Black, Color::White] {
        let r = play_game(&mut engine, &mut rhino, &opening, color, &opts);
        assert_eq!(r.termination, Termination::Normal);
        let end = ply_othello::play_moves(Position::start(), &r.moves).expect("legal game");
        assert!(end.board.is_game_over());
        assert_eq!(&r.moves[..8], &opening[..]);
        assert!((-64..=64).contains(&r.ply_diff));
    }
}

/// Plays a whole game engine-against-itself at `level` from `opening`.
fn self_game(engine: &mut Engine, opening: &[Square], level: u8) -> Vec<Square> {
    engine.new_game();
    let mut pos = ply_othello::play_moves(Position::start(), opening).unwrap();
    let mut moves = opening.to_vec();
    let limits = Limits {
        level: Some(level),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    while !pos.board.is_game_over() {
        let out = engine.think(&pos.board, &limits, &stop, &mut |_| {});
        let sq = out.best;
        if sq.is_pass() {
            pos.pass();
        } else {
            assert!(pos.play(sq), "engine move is legal");
        }
        moves.push(sq);
    }
    moves
}

#[test]
fn self_play_is_reproducible_at_a_fixed_level() {
    let mut engine = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        weights: None,
    });
    let opening = ply_othello::parse_moves("f5f6e6f4e3c5c4e7b5").unwrap();
    let first = self_game(&mut engine, &opening, 6);
    let second = self_game(&mut engine, &opening, 6);
    assert_eq!(first, second);
    let mut fresh = Engine::new(EngineOptions {
        hash_mib: 16,
        threads: 1,
        weights: None,
    });
    assert_eq!(first, self_game(&mut fresh, &opening, 6));
}
