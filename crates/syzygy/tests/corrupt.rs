//! Damaged tables must give error values, never panics: truncated and bit-flipped copies of the real
//! tables are written to a temporary directory (searched before the intact ones) and probed with the
//! truth positions of that material. The proptest over random flips and truncations is this crate's
//! fuzz target (cargo-fuzz needs a nightly toolchain).

use std::path::{Path, PathBuf};

use ply_chess::Position;
use ply_syzygy::{ProbeError, RawPosition, Tablebase, Wdl};
use proptest::prelude::*;

/// `shared/syzygy` (tables and truth files), or `None` after a visible skip (a failure under
/// `PLY_STRICT=1`) when its `truth_meta.csv` is absent.
fn shared() -> Option<PathBuf> {
    let meta = ply_testkit::shared("syzygy/truth_meta.csv")?;
    Some(
        meta.parent()
            .expect("truth_meta.csv has a folder")
            .to_path_buf(),
    )
}

/// Truth positions whose table is `name`.
fn positions_of(shared: &Path, name: &str) -> Vec<Position> {
    let text = std::fs::read_to_string(shared.join("truth_meta.csv")).unwrap();
    let positions: Vec<Position> = text
        .lines()
        .skip(1)
        .filter(|l| l.split(';').nth(3) == Some(name))
        .map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect();
    // With no positions the damaged copies would be probed nowhere and every check would pass.
    assert!(!positions.is_empty(), "no truth positions for {name}");
    positions
}

/// A fresh directory holding only `bytes` as `file`. Probes search it before the real tables
/// (`temp:tables`, the first directory wins), so the damaged copy shadows the intact file. The
/// directory is removed when the value is dropped.
struct TempTables(ply_testkit::Scratch);

impl TempTables {
    fn new(file: &str, bytes: &[u8]) -> TempTables {
        let dir = ply_testkit::Scratch::new("syzygy-corrupt");
        std::fs::write(dir.file(file), bytes).unwrap();
        TempTables(dir)
    }

    /// Search path with the damaged copy first.
    fn path(&self, tables: &Path) -> String {
        format!("{}:{}", self.0.path().display(), tables.display())
    }
}

/// Probe every position every way; returns how many raw lookups of the damaged file failed.
fn probe_all(path: &str, positions: &[Position], dtz: bool) -> usize {
    let tb = Tablebase::open(path).unwrap();
    let mut errors = 0;
    for pos in positions {
        let _ = tb.probe_wdl(pos);
        let _ = tb.probe_dtz(pos);
        let _ = tb.root_moves(pos);
        let r = RawPosition::from(pos);
        let result = if dtz {
            tb.probe_dtz_table(&r, Wdl::Win).map(|_| ())
        } else {
            tb.probe_wdl_table(&r).map(|_| ())
        };
        if matches!(result, Err(ProbeError::BadTable { .. })) {
            errors += 1;
        }
    }
    errors
}

const SAMPLE: [&str; 8] = [
    "KQvK", "KRvKP", "KPvKP", "KBNvK", "KRRvK", "KQvKR", "KPPvK", "KNvKN",
];

#[test]
fn truncated_tables_are_errors() {
    let Some(shared) = shared() else { return };
    let tables = shared.join("tables");
    for name in SAMPLE {
        let positions = positions_of(&shared, name);
        for ext in [".rtbw", ".rtbz"] {
            let file = format!("{name}{ext}");
            let bytes = std::fs::read(tables.join(&file)).unwrap();
            for len in [
                0,
                3,
                4,
                5,
                8,
                16,
                bytes.len() / 3,
                bytes.len() / 2,
                bytes.len() - 64,
            ] {
                let len = len.min(bytes.len());
                let temp = TempTables::new(&file, &bytes[..len]);
                let errors = probe_all(&temp.path(&tables), &positions, ext == ".rtbz");
                // Every lookup of a table cut before its data ends must fail; the DTZ probe with a fixed
                // Win may also be skipped for the side the table does not store.
                if ext == ".rtbw" {
                    assert_eq!(errors, positions.len(), "{file} truncated to {len}");
                } else {
                    assert!(errors > 0, "{file} truncated to {len}");
                }
            }
        }
    }
}

#[test]
fn every_truncation_of_a_small_table_is_handled() {
    let Some(shared) = shared() else { return };
    let tables = shared.join("tables");
    let positions = positions_of(&shared, "KQvK");
    let bytes = std::fs::read(tables.join("KQvK.rtbw")).unwrap();
    for len in 0..bytes.len() {
        let temp = TempTables::new("KQvK.rtbw", &bytes[..len]);
        let tb = Tablebase::open(&temp.path(&tables)).unwrap();
        for pos in &positions {
            let result = tb.probe_wdl_table(&RawPosition::from(pos));
            // The last bytes of the file may be padding; anything shorter than the data is an error.
            if len < bytes.len() - 64 {
                assert!(
                    matches!(result, Err(ProbeError::BadTable { .. })),
                    "length {len}: {result:?}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random bit flips, byte overwrites and truncations of real tables never panic.
    #[test]
    fn damaged_tables_never_panic(
        table in 0..SAMPLE.len(),
        dtz in any::<bool>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        damage_and_probe(table, dtz, edits);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// The long fuzz run of the same target.
    #[test]
    #[ignore = "slow job (.ci/run-slow): 20,000 damaged tables, minutes"]
    fn damaged_tables_never_panic_long(
        table in 0..SAMPLE.len(),
        dtz in any::<bool>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>(), 0u8..3), 1..6),
    ) {
        damage_and_probe(table, dtz, edits);
    }
}

/// Apply random edits to one real table and probe its positions through the damaged copy.
fn damage_and_probe(table: usize, dtz: bool, edits: Vec<(prop::sample::Index, u8, u8)>) {
    let Some(shared) = shared() else { return };
    let tables = shared.join("tables");
    let name = SAMPLE[table];
    let file = format!("{name}{}", if dtz { ".rtbz" } else { ".rtbw" });
    let mut bytes = std::fs::read(tables.join(&file)).unwrap();
    for (at, value, kind) in edits {
        if bytes.is_empty() {
            break;
        }
        let i = at.index(bytes.len());
        match kind {
            0 => bytes[i] ^= 1 << (value & 7),
            1 => bytes[i] = value,
            _ => bytes.truncate(i),
        }
    }
    let positions = positions_of(&shared, name);
    let temp = TempTables::new(&file, &bytes);
    probe_all(&temp.path(&tables), &positions, dtz);
}
