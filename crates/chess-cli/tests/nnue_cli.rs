//! `ply-chess nnue-data convert` and `ply-chess train-nnue` from the command line: datagen text
//! to packed records to a network file, the same bytes twice, an exact resume; bad input is an
//! error, not a panic. The training options each change what is written as they say:
//! `--checkpoint` (where the checkpoint goes, and a resume from it is the uninterrupted run),
//! `--save-every-epoch` (each epoch's network), `--weight-decay` (the weights shrink by the
//! factor AdamW's decoupled decay gives) and `--mirror` (the position or its mirror image).

use std::path::Path;
use std::process::{Command, Output};

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply-chess"))
}

fn run(args: &[&str], paths: &[(&str, &Path)]) -> Output {
    let mut c = ply();
    c.args(args);
    for (flag, p) in paths {
        c.arg(flag).arg(p);
    }
    c.output().unwrap()
}

const TRAIN: [&str; 13] = [
    "train-nnue",
    "--hidden",
    "16",
    "--buckets",
    "2",
    "--batch",
    "64",
    "--threads",
    "2",
    "--val-fraction",
    "0.2",
    "--epochs",
    "2",
];

#[test]
fn convert_then_train_writes_a_network_file() {
    let scratch = ply_testkit::Scratch::new("nnue-cli");
    let dir = scratch.path();
    let text = dir.join("data.txt");
    let _ = std::fs::remove_file(&text);
    let out = run(
        // at most 10 positions a game: the held-in ones fit one batch of 64 (see the resume)
        &[
            "datagen",
            "--games",
            "8",
            "--nodes",
            "300",
            "--per-game",
            "10",
        ],
        &[("--out", &text)],
    );
    assert!(out.status.success());
    let bin = dir.join("data.bin");
    let out = run(
        &["nnue-data", "convert"],
        &[("--in", &text), ("--out", &bin)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&text).unwrap().lines().count() as u64;
    assert_eq!(std::fs::metadata(&bin).unwrap().len(), 32 * lines);

    let net = dir.join("a.nnue");
    let out = run(&TRAIN, &[("--data", &bin), ("--out", &net)]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("epoch 2/2: train loss"), "{stderr}");
    assert!(stderr.contains("quantised vs float"), "{stderr}");
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(
        bytes.len(),
        32 + 2 * (768 * 16 + 16 + 2 * 16 * 2) + 4 * 2 + 8
    );
    assert_eq!(&bytes[..8], b"PLYNNUE2");

    // same seed and threads: same bytes; one epoch then a resume to two: the same again (one
    // batch an epoch, so the learning-rate schedule of --epochs 1 and 2 agree on it)
    let again = dir.join("b.nnue");
    assert!(run(&TRAIN, &[("--data", &bin), ("--out", &again)])
        .status
        .success());
    assert_eq!(std::fs::read(&again).unwrap(), bytes);
    let mut first = TRAIN;
    first[12] = "1";
    let part = dir.join("c.nnue");
    assert!(run(&first, &[("--data", &bin), ("--out", &part)])
        .status
        .success());
    let ckpt = dir.join("c.nnue.ckpt");
    let out = run(
        &TRAIN,
        &[("--data", &bin), ("--out", &part), ("--resume", &ckpt)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&part).unwrap(), bytes);

    // bad data and bad options
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, [0xffu8; 40]).unwrap();
    let out = run(&TRAIN, &[("--data", &bad), ("--out", &net)]);
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        &["train-nnue", "--hidden", "17"],
        &[("--data", &bin), ("--out", &net)],
    );
    assert_eq!(out.status.code(), Some(1));
    let out = run(
        &["train-nnue", "--lambda", "2"],
        &[("--data", &bin), ("--out", &net)],
    );
    assert_eq!(out.status.code(), Some(2));
    let out = run(
        &["nnue-data", "convert"],
        &[("--in", &bin), ("--out", &bad)],
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A tiny packed data file in `scratch`: 8 games, at most 8 positions each, so that the
/// training positions fit one batch of 64 (the learning-rate schedule then treats the first
/// epochs of a longer run as it treats a shorter run: see the tests below).
fn tiny_data(scratch: &ply_testkit::Scratch) -> std::path::PathBuf {
    let bin = scratch.file("data.bin");
    let out = run(
        &[
            "datagen",
            "--games",
            "8",
            "--nodes",
            "300",
            "--per-game",
            "8",
            "--format",
            "bin",
        ],
        &[("--out", &bin)],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let len = std::fs::metadata(&bin).unwrap().len();
    assert!(len > 0 && len <= 64 * 32, "{len} bytes");
    bin
}

/// `train-nnue` with the options of [`TRAIN`] (but `epochs`, and `--val-fraction` when `extra`
/// gives it), `extra` options, the data and the output; asserts success and returns standard
/// error.
fn train(epochs: &str, extra: &[&str], data: &Path, out: &Path) -> String {
    let mut args = TRAIN.to_vec();
    args[12] = epochs;
    if extra.contains(&"--val-fraction") {
        args.drain(9..11);
    }
    args.extend(extra);
    let o = run(&args, &[("--data", data), ("--out", out)]);
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "{stderr}");
    stderr
}

/// The epochs a checkpoint file has done (after its magic, width and buckets).
fn checkpoint_epochs(bytes: &[u8]) -> u32 {
    assert_eq!(&bytes[..8], b"PLYNNCK1");
    u32::from_le_bytes(bytes[16..20].try_into().unwrap())
}

#[test]
fn checkpoint_goes_where_asked_and_resumes_exactly() {
    let scratch = ply_testkit::Scratch::new("nnue-ckpt");
    let data = tiny_data(&scratch);
    let dir = scratch.path();
    // the uninterrupted two epochs, checkpoint beside the output by default
    let whole = dir.join("whole.nnue");
    train("2", &[], &data, &whole);
    let whole_ckpt = std::fs::read(dir.join("whole.nnue.ckpt")).unwrap();
    assert_eq!(checkpoint_epochs(&whole_ckpt), 2);

    // one epoch with --checkpoint: written there, not beside the output
    let sub = dir.join("ck");
    std::fs::create_dir(&sub).unwrap();
    let (first, second) = (sub.join("first.ck"), sub.join("second.ck"));
    let part = dir.join("part.nnue");
    let first_arg = first.to_str().unwrap();
    train("1", &["--checkpoint", first_arg], &data, &part);
    assert!(!dir.join("part.nnue.ckpt").exists());
    let after_one = std::fs::read(&first).unwrap();
    assert_eq!(checkpoint_epochs(&after_one), 1);
    assert_ne!(
        std::fs::read(&part).unwrap(),
        std::fs::read(&whole).unwrap()
    );

    // the second epoch from it, into another checkpoint: the network and the checkpoint of
    // the uninterrupted run, and the first checkpoint left as it was
    let resumed = dir.join("resumed.nnue");
    let stderr = train(
        "2",
        &[
            "--resume",
            first_arg,
            "--checkpoint",
            second.to_str().unwrap(),
        ],
        &data,
        &resumed,
    );
    assert!(stderr.contains("after epoch 1"), "{stderr}");
    assert!(!stderr.contains("epoch 1/2"), "one epoch only: {stderr}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&whole).unwrap()
    );
    assert_eq!(std::fs::read(&second).unwrap(), whole_ckpt);
    assert_eq!(std::fs::read(&first).unwrap(), after_one);
}

#[test]
fn save_every_epoch_writes_each_epochs_network() {
    let scratch = ply_testkit::Scratch::new("nnue-epochs");
    let data = tiny_data(&scratch);
    let dir = scratch.path();
    let net = dir.join("net.nnue");
    let stderr = train("3", &["--save-every-epoch"], &data, &net);
    // one batch an epoch (what makes the shorter runs below comparable)
    let positions: u64 = stderr
        .lines()
        .find(|l| l.starts_with("epoch 1/3"))
        .and_then(|l| l.split(", ").find(|p| p.contains(" positions in ")))
        .and_then(|p| p.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!((1..=64).contains(&positions), "{stderr}");
    let epoch = |n: u32| dir.join(format!("net.nnue.epoch{n}"));
    let nets: Vec<Vec<u8>> = (1..=3).map(|n| std::fs::read(epoch(n)).unwrap()).collect();
    assert!(!epoch(0).exists() && !epoch(4).exists());
    assert_ne!(nets[0], nets[1]);
    assert_ne!(nets[1], nets[2]);
    assert_ne!(nets[0], nets[2]);
    assert_eq!(
        nets[2],
        std::fs::read(&net).unwrap(),
        "the last is the output"
    );
    // epoch N's file is the network of a run of N epochs, which writes no epoch files
    for n in 1..=2u32 {
        let short = dir.join(format!("short{n}.nnue"));
        train(&n.to_string(), &[], &data, &short);
        assert_eq!(
            std::fs::read(&short).unwrap(),
            nets[n as usize - 1],
            "epoch {n}"
        );
        assert!(!dir.join(format!("short{n}.nnue.epoch1")).exists());
    }
}

/// The sum of the magnitudes of a network file's 16-bit parameters (feature weights and
/// biases, output weights), `hidden` 16 and 2 buckets as in [`TRAIN`].
fn l1(net: &[u8]) -> u64 {
    let params = 768 * 16 + 16 + 2 * 16 * 2;
    net[32..32 + 2 * params]
        .chunks_exact(2)
        .map(|b| u64::from(i16::from_le_bytes([b[0], b[1]]).unsigned_abs()))
        .sum()
}

#[test]
fn weight_decay_shrinks_the_weights() {
    let scratch = ply_testkit::Scratch::new("nnue-decay");
    let data = tiny_data(&scratch);
    let dir = scratch.path();
    let mut sums = Vec::new();
    for decay in ["0", "100"] {
        let net = dir.join(format!("decay{decay}.nnue"));
        train("3", &["--weight-decay", decay], &data, &net);
        sums.push(l1(&std::fs::read(&net).unwrap()));
    }
    // decoupled decay takes lr x decay = 0.001 x 100 = a tenth off every weight a step, beside
    // Adam's own small steps: after three steps about 0.9^3 = 0.729 of the weights is left
    assert!(sums[0] > 0, "{sums:?}");
    let left = sums[1] as f64 / sums[0] as f64;
    assert!(
        (0.70..0.76).contains(&left),
        "decayed {} vs {}",
        sums[1],
        sums[0]
    );
    // and the value is checked: a negative decay is refused
    let o = run(
        &["train-nnue", "--weight-decay", "-1"],
        &[("--data", &data), ("--out", &dir.join("x.nnue"))],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// A FEN with its files mirrored (a <-> h): each rank's squares reversed. The positions used
/// here have no castling rights or en-passant square, which would need mirroring too.
fn mirror_fen(fen: &str) -> String {
    let (board, rest) = fen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {rest}", ranks.join("/"))
}

#[test]
fn mirror_trains_on_the_mirrored_position_or_on_the_position() {
    // One position: a run of one epoch with --mirror trains either on it or on its mirror
    // image, on a coin toss of the seed. Trained with the same seed on the position and, apart,
    // on its mirror image, both with --mirror, the two networks are therefore those of the two
    // runs without it, both in their own order (not mirrored) or swapped (mirrored). Over a few
    // seeds both happen.
    let scratch = ply_testkit::Scratch::new("nnue-mirror");
    let dir = scratch.path();
    let fen = "4k3/pp3p2/2n5/3q4/8/2N2B2/PPP5/1K1R4 w - - 0 1";
    let mirrored = mirror_fen(fen);
    assert_eq!(mirrored, "3k4/2p3pp/5n2/4q3/8/2B2N2/5PPP/4R1K1 w - - 0 1");
    let mut data = Vec::new();
    for (name, fen) in [("plain", fen), ("image", mirrored.as_str())] {
        let text = dir.join(format!("{name}.txt"));
        std::fs::write(&text, format!("{fen};35;0.5;0\n")).unwrap();
        let bin = dir.join(format!("{name}.bin"));
        let o = run(
            &["nnue-data", "convert"],
            &[("--in", &text), ("--out", &bin)],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        data.push(bin);
    }
    let mut swapped = Vec::new();
    for seed in 1..=8 {
        // [position, image] x [without, with --mirror]
        let mut nets = [[Vec::new(), Vec::new()], [Vec::new(), Vec::new()]];
        for (d, bin) in data.iter().enumerate() {
            for mirror in [false, true] {
                let net = dir.join(format!("{d}-{mirror}.nnue"));
                let seed = seed.to_string();
                let mut extra = vec!["--val-fraction", "0", "--lr", "0.05", "--seed", &seed];
                if mirror {
                    extra.push("--mirror");
                }
                let stderr = train("1", &extra, bin, &net);
                assert_eq!(stderr.contains("mirrored positions"), mirror, "{stderr}");
                nets[d][usize::from(mirror)] = std::fs::read(&net).unwrap();
            }
        }
        let [[plain, plain_m], [image, image_m]] = &nets;
        assert_ne!(
            plain, image,
            "seed {seed}: the two positions train different networks"
        );
        if plain_m == image && image_m == plain {
            swapped.push(true);
        } else {
            assert!(plain_m == plain && image_m == image, "seed {seed}");
            swapped.push(false);
        }
    }
    assert!(
        swapped.contains(&true) && swapped.contains(&false),
        "{swapped:?}"
    );
}

#[test]
fn init_starts_from_a_networks_weights_and_shape() {
    let scratch = ply_testkit::Scratch::new("nnue-init");
    let data = tiny_data(&scratch);
    let dir = scratch.path();
    let first = dir.join("first.nnue");
    train("2", &[], &data, &first);
    // no --hidden or --buckets: the shape is the file's; a step too small to move any rounded
    // weight writes the starting network again, byte for byte
    let again = dir.join("again.nnue");
    let o = run(
        &[
            "train-nnue",
            "--epochs",
            "1",
            "--threads",
            "1",
            "--lr",
            "1e-12",
            "--weight-decay",
            "0",
        ],
        &[("--init", &first), ("--data", &data), ("--out", &again)],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("starting from the network"), "{stderr}");
    assert!(
        stderr.contains("(768 -> 16) x 2 -> 1, 2 buckets"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&first).unwrap()
    );
    // an ordinary learning rate moves it
    let tuned = dir.join("tuned.nnue");
    let o = run(
        &["train-nnue", "--epochs", "2", "--threads", "1"],
        &[("--init", &first), ("--data", &data), ("--out", &tuned)],
    );
    assert!(o.status.success());
    assert_ne!(
        std::fs::read(&tuned).unwrap(),
        std::fs::read(&first).unwrap()
    );
    // a shape other than the network's, a file that is not a network, a missing file
    let o = run(
        &["train-nnue", "--init", "<embedded>", "--hidden", "16"],
        &[("--data", &data), ("--out", &tuned)],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--hidden 256"), "{stderr}");
    for bad in [data.clone(), dir.join("missing.nnue")] {
        let o = run(
            &["train-nnue"],
            &[("--init", &bad), ("--data", &data), ("--out", &tuned)],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(bad.to_str().unwrap()), "{stderr}");
    }
}
