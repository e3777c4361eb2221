use super::*;
use ply_othello::{parse_moves, Square};
use ply_othello_engine::EngineOptions;
use ply_testkit::Scratch;

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mib: 2,
        threads: 1,
        weights: None,
    })
}

/// A scratch folder (removed when dropped) and the path of a book in it.
fn scratch(name: &str) -> (Scratch, PathBuf) {
    let dir = Scratch::new(&format!("book-job-{name}"));
    let path = dir.path().join("book.ply");
    (dir, path)
}

fn game() -> Vec<Square> {
    parse_moves("f5d6c3d3c4f4f6f3e6e7").unwrap()
}

/// Two rounds of `deviate` after a game, as the `book` command runs them.
fn grow(job: &mut BookJob, stop: &AtomicBool, on: &mut dyn FnMut(&BuildProgress)) -> bool {
    if job.pending() == 0 && job.book.is_empty() {
        let plan = job.book.game_plan(&Board::start(), &game(), 10);
        job.push(plan);
    }
    job.run(&mut engine(), stop, on).unwrap()
}

#[test]
fn plans_round_trip_and_bad_plans_are_errors() {
    let b = Board::start();
    let steps = vec![Step::Add(b), Step::Leaf(b.passed())];
    assert_eq!(plan_from_text(&plan_to_text(&steps)).unwrap(), steps);
    assert!(plan_from_text("add 0 0\n").is_err());
    let overlap = format!("{PLAN_HEADER}\nadd 1 1\n");
    assert_eq!(plan_from_text(&overlap).unwrap_err().0, 2);
    assert!(plan_from_text(&format!("{PLAN_HEADER}\nsolve 1 2\n")).is_err());
    assert!(plan_from_text(&format!("{PLAN_HEADER}\nadd zz 2\n")).is_err());
}

#[test]
fn an_interrupted_job_resumed_gives_the_same_book() {
    let (_whole_dir, whole) = scratch("whole");
    let mut job = BookJob::create(&whole, 4);
    assert!(grow(&mut job, &AtomicBool::new(false), &mut |_| {}));
    let expected = job.book.clone();
    assert!(expected.len() >= 8, "{} positions", expected.len());
    assert!(!plan_path(&whole).exists());

    let (_cut_dir, cut) = scratch("cut");
    let mut job = BookJob::create(&cut, 4);
    job.save_every = 1;
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let finished = grow(&mut job, &stop, &mut |p| {
        seen = p.steps;
        if p.steps == 4 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert!(!finished && seen == 4);
    assert!(plan_path(&cut).exists());
    // a new process: open the files and go on
    let mut job = BookJob::open(&cut).unwrap();
    assert!(job.pending() > 0);
    assert!(grow(&mut job, &AtomicBool::new(false), &mut |_| {}));
    assert_eq!(job.book, expected);
    assert_eq!(BookJob::open(&cut).unwrap().book, expected);
    assert!(!plan_path(&cut).exists());
}

#[test]
fn deviation_grows_the_book_within_its_window() {
    let (_dir, path) = scratch("deviate");
    let mut job = BookJob::create(&path, 2);
    let start = Board::start();
    job.push(job.book.deviation_plan(&start, 2, 4, 54));
    assert!(job
        .run(&mut engine(), &AtomicBool::new(false), &mut |_| {})
        .unwrap());
    assert_eq!(job.book.len(), 1);
    let mut rounds = 0;
    loop {
        let plan = job.book.deviation_plan(&start, 2, 4, 54);
        if plan.is_empty() {
            break;
        }
        job.push(plan);
        assert!(job
            .run(&mut engine(), &AtomicBool::new(false), &mut |_| {})
            .unwrap());
        rounds += 1;
        assert!(rounds < 50, "deviate does not settle");
    }
    assert!(job.book.len() > 4, "{} positions", job.book.len());
    // every position is within the depth asked, its leaf (if any) is not a book move and
    // its value is the best of its book moves
    for (board, entry) in job.book.positions() {
        assert!(board.empty_count() >= 53, "{}", board.empty_count());
        let moves = job.book.moves(&board);
        assert_eq!(moves[0].score, i32::from(entry.value));
        assert!(moves.iter().filter(|m| !m.linked).count() <= 1);
    }
    assert!(job.book.fix_plan().is_empty());
}

/// Up to three rounds of `deviate` (rel 2, abs 4, 50 empties) on `engines`: whether they finished.
fn deviate_rounds(
    job: &mut BookJob,
    engines: &mut [Engine],
    stop: &AtomicBool,
    on: &mut dyn FnMut(&BuildProgress),
) -> bool {
    for _ in 0..3 {
        let plan = job.book.deviation_plan(&Board::start(), 2, 4, 50);
        if plan.is_empty() {
            break;
        }
        job.push(plan);
        if !job.run_on(engines, stop, on).unwrap() {
            return false;
        }
    }
    true
}

/// A game and deviation rounds at level 4 run on `engines` engines, stopped after
/// `stop_after` steps if given: the job and whether it finished.
fn deviated(path: &Path, engines: usize, stop_after: Option<usize>) -> (BookJob, bool) {
    let mut job = BookJob::create(path, 4);
    job.push(job.book.game_plan(&Board::start(), &game(), 10));
    let mut pool: Vec<Engine> = (0..engines).map(|_| engine()).collect();
    let stop = AtomicBool::new(false);
    let mut on = |p: &BuildProgress| {
        if stop_after.is_some_and(|n| p.steps >= n) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let done = job.run_on(&mut pool, &stop, &mut on).unwrap()
        && deviate_rounds(&mut job, &mut pool, &stop, &mut on);
    (job, done)
}

#[test]
fn several_engines_make_the_same_book_as_one() {
    let (_one_dir, one) = scratch("one-engine");
    let (alone, done) = deviated(&one, 1, None);
    assert!(done);
    assert!(alone.book.len() >= 20, "{} positions", alone.book.len());
    for n in [2, 3] {
        let (_dir, path) = scratch(&format!("{n}-engines"));
        let (shared, done) = deviated(&path, n, None);
        assert!(done);
        assert_eq!(shared.book, alone.book, "{n} engines");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&one).unwrap(),
            "{n} engines: the files"
        );
    }
    // stopped part way on three engines, resumed on one: the same book again
    let (_cut_dir, cut) = scratch("cut-engines");
    let (part, done) = deviated(&cut, 3, Some(5));
    assert!(!done && part.pending() > 0);
    let mut job = BookJob::open(&cut).unwrap();
    let mut one_engine = [engine()];
    let go = AtomicBool::new(false);
    assert!(job.run_on(&mut one_engine, &go, &mut |_| {}).unwrap());
    assert!(deviate_rounds(&mut job, &mut one_engine, &go, &mut |_| {}));
    assert_eq!(job.book, alone.book);
}

#[test]
fn searches_round_trip_as_text_and_bad_lines_are_refused() {
    let start = Board::start();
    let results = vec![
        (
            LeafSearch {
                board: start,
                moves: start.moves(),
                level: 18,
            },
            Some((Square::F5, 2)),
        ),
        (
            LeafSearch {
                board: start,
                moves: Square::D3.bit(),
                level: 0,
            },
            None,
        ),
    ];
    let text = searches_to_text(&results);
    assert_eq!(searches_from_text(&text).unwrap(), results);
    let header = "# ply-othello book searches\n";
    let line = |rest: &str| {
        format!(
            "{header}{:016x} {:016x} {rest}\n",
            start.player(),
            start.opponent()
        )
    };
    for (bad, why) in [
        ("nonsense\n".to_string(), "first line"),
        (line("0000000000000001 18 a1 0"), "not legal"),
        (line(&format!("{:016x} 61 f5 0", start.moves())), "level"),
        (line(&format!("{:016x} 18 f5 65", start.moves())), "score"),
        (
            line(&format!("{:016x} 18 a1 0", start.moves())),
            "not among",
        ),
        (line(&format!("{:016x} 18 f5", start.moves())), "expected"),
    ] {
        let (_, reason) = searches_from_text(&bad).unwrap_err();
        assert!(reason.contains(why), "{bad}: {reason}");
    }
}
