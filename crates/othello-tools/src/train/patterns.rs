//! The pattern set a fit trains: the engine's 62 features ([`PatternSet::engine`]) or Edax's 46
//! alone ([`PatternSet::edax`], whose tables are `eval.dat`'s), optionally followed by candidate
//! shapes, for choosing new patterns by measurement before the engine evaluates them.
//!
//! A shape is a list of squares (first = most significant base-3 digit). Its features are its
//! distinct images under the 8 board symmetries, and indices that the shape's symmetry onto itself
//! (the engine's `self_mirror`) maps onto each other share one weight, as the engine packs its
//! kinds. Packed layout of
//! a stage: the base set's kinds as in the engine, then each candidate's classes, then the bias.

use ply_othello::symmetry::symmetry_square;
use ply_othello::Square;
use ply_othello_engine::eval::pattern::{self, Feature, Mirror, FEATURES, KINDS, N_EDAX_KINDS};

/// A candidate shape: a name and its squares.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Name used on the command line.
    pub name: &'static str,
    /// What it covers, for the help text.
    pub about: &'static str,
    /// Squares by name, first = most significant digit.
    pub squares: &'static [&'static str],
}

/// Candidate shapes beyond Edax's, after the corner shapes of Egaroucid's published pattern
/// list (the names are ours). The engine's set has `fish`, `cross`, `edgey` and `diag5x`,
/// chosen by these measurements (docs/benchmarks/othello-training.md).
pub const CANDIDATES: &[Shape] = &[
    Shape {
        name: "triangle",
        about: "corner triangle A1-D1-A4",
        squares: &["A1", "B1", "C1", "D1", "A2", "B2", "C2", "A3", "B3", "A4"],
    },
    Shape {
        name: "cross",
        about: "main diagonal A1-D4 with its two neighbouring diagonals",
        squares: &["A1", "B2", "C3", "D4", "B1", "C2", "D3", "A2", "B3", "C4"],
    },
    Shape {
        name: "narrow",
        about: "narrow triangle: five squares of both edges from the corner, and B2",
        squares: &["A1", "B1", "C1", "D1", "E1", "A2", "B2", "A3", "A4", "A5"],
    },
    Shape {
        name: "fish",
        about: "corner 2x2, the C2-D2 wing, B3-C3 and B4, D4",
        squares: &["A1", "B1", "A2", "B2", "C2", "D2", "B3", "C3", "B4", "D4"],
    },
    Shape {
        name: "edgey",
        about: "edge A1-H1 with C2 and F2",
        squares: &["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "C2", "F2"],
    },
    Shape {
        name: "diag5x",
        about: "5-square diagonal D1-H5 with the corner 2x2 G1-H2",
        squares: &["D1", "E2", "F3", "G4", "H5", "G1", "H1", "G2", "H2"],
    },
];

/// The candidate named `name`.
pub fn candidate(name: &str) -> Option<&'static Shape> {
    CANDIDATES.iter().find(|s| s.name == name)
}

/// One kind: features sharing a table.
#[derive(Clone, Debug)]
pub struct Kind {
    /// Name.
    pub name: String,
    /// The features' squares, each in digit order.
    pub features: Vec<Vec<u8>>,
    /// Symmetry class of every index (`3^len` entries).
    class: Vec<u32>,
    /// Number of classes.
    pub classes: u32,
    /// Offset of the kind's classes in a packed stage.
    pub offset: u32,
}

/// The engine's kinds (or Edax's), optionally followed by candidate shapes.
#[derive(Clone, Debug)]
pub struct PatternSet {
    kinds: Vec<Kind>,
    /// Kinds of the base set (the engine's or Edax's).
    base_kinds: usize,
}

impl Kind {
    /// The kind of a shape: its distinct images under the board symmetries, and classes that
    /// merge the indices its mirror onto itself maps onto each other.
    fn of_shape(shape: &Shape) -> Kind {
        let lead: Vec<u8> = shape
            .squares
            .iter()
            .map(|s| {
                s.parse::<Square>()
                    .expect("candidate squares are valid names")
                    .code()
            })
            .collect();
        let mask = |sq: &[u8]| sq.iter().fold(0u64, |m, &x| m | 1 << x);
        let image = |s: usize| -> Vec<u8> {
            lead.iter()
                .map(|&x| symmetry_square(usize::from(x), s) as u8)
                .collect()
        };
        let mut features: Vec<Vec<u8>> = Vec::new();
        for s in 0..8 {
            let img = image(s);
            if !features.iter().any(|f| mask(f) == mask(&img)) {
                features.push(img);
            }
        }
        // the engine's symmetry packing: the shape's mirror onto itself, an index and its image
        // share the class of the smaller one
        let n = lead.len();
        assert!(n <= 10, "a shape has at most 10 squares");
        let mut squares = [0u8; 10];
        squares[..n].copy_from_slice(&lead);
        let mirror = Mirror::Perm(pattern::self_mirror(&Feature {
            len: n as u8,
            squares,
        }));
        let size = 3usize.pow(n as u32);
        let mut class = vec![0u32; size];
        let mut classes = 0;
        for l in 0..size {
            let m = pattern::mirror_index(l as u32, n as u32, mirror) as usize;
            if m < l {
                class[l] = class[m];
            } else {
                class[l] = classes;
                classes += 1;
            }
        }
        Kind {
            name: shape.name.to_string(),
            features,
            class,
            classes,
            offset: 0,
        }
    }
}

impl PatternSet {
    /// The engine's 62 features in its packed layout.
    pub fn engine() -> PatternSet {
        PatternSet::base(KINDS.len())
    }

    /// Edax's 46 features in `eval.dat`'s packed layout.
    pub fn edax() -> PatternSet {
        PatternSet::base(N_EDAX_KINDS)
    }

    /// The engine's first `n_kinds` kinds, with their packed offsets (the engine's); the bias
    /// follows the last.
    fn base(n_kinds: usize) -> PatternSet {
        let kinds = KINDS[..n_kinds]
            .iter()
            .enumerate()
            .map(|(k, kind)| {
                let (first, count) = kind.features;
                Kind {
                    name: kind.name.to_string(),
                    features: (first..first + count)
                        .map(|i| {
                            let f = &FEATURES[usize::from(i)];
                            f.squares[..usize::from(f.len)].to_vec()
                        })
                        .collect(),
                    class: pattern::class_of_kind(k)
                        .iter()
                        .map(|&c| u32::from(c))
                        .collect(),
                    classes: kind.classes,
                    offset: kind.packed_offset,
                }
            })
            .collect();
        PatternSet {
            kinds,
            base_kinds: n_kinds,
        }
    }

    /// This set followed by `shapes`.
    pub fn with(mut self, shapes: &[&Shape]) -> PatternSet {
        for shape in shapes {
            let mut kind = Kind::of_shape(shape);
            kind.offset = self.bias() as u32;
            self.kinds.push(kind);
        }
        self
    }

    /// Whether this is Edax's set alone (its tables are then `eval.dat`'s).
    pub fn is_edax(&self) -> bool {
        self.base_kinds == N_EDAX_KINDS && self.kinds.len() == N_EDAX_KINDS
    }

    /// Whether this is the engine's set alone (its tables are then the engine's).
    pub fn is_engine(&self) -> bool {
        self.base_kinds == KINDS.len() && self.kinds.len() == KINDS.len()
    }

    /// Whether weight files can hold this set's weights (the engine's or Edax's set alone).
    pub fn is_storable(&self) -> bool {
        self.is_edax() || self.is_engine()
    }

    /// Short name of the set for file names: empty for Edax's base (the historical checkpoint
    /// names), `_full` for the engine's, then `+name` for each candidate.
    pub fn tag(&self) -> String {
        let base = if self.base_kinds == N_EDAX_KINDS {
            ""
        } else {
            "_full"
        };
        let extra: String = self
            .extra_kinds()
            .iter()
            .map(|k| format!("+{}", k.name))
            .collect();
        format!("{base}{extra}")
    }

    /// The candidate kinds added to the base set.
    pub fn extra_kinds(&self) -> &[Kind] {
        &self.kinds[self.base_kinds..]
    }

    /// The kinds.
    pub fn kinds(&self) -> &[Kind] {
        &self.kinds
    }

    /// Number of features (packed indices per position).
    pub fn n_features(&self) -> usize {
        self.kinds.iter().map(|k| k.features.len()).sum()
    }

    /// Weights of one packed stage, the bias included.
    pub fn packed_len(&self) -> usize {
        self.bias() + 1
    }

    /// Position of the bias in a packed stage (the last).
    pub fn bias(&self) -> usize {
        self.kinds
            .last()
            .map_or(0, |k| (k.offset + k.classes) as usize)
    }

    /// Appends the packed index of every feature of the position (`own` = side to move).
    pub fn indices(&self, own: u64, other: u64, out: &mut Vec<u32>) {
        for kind in &self.kinds {
            for f in &kind.features {
                out.push(kind.offset + kind.class[pattern::feature_index(f, own, other) as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_othello::symmetry;
    use ply_othello_engine::eval::pattern::{
        EDAX_PACKED_LEN, N_EDAX_FEATURES, N_FEATURES, PACKED_LEN,
    };

    fn random_boards(n: usize) -> Vec<(u64, u64)> {
        let mut rng = ply_testkit::XorShift64::new(0x1234_5678_9abc_def1);
        (0..n)
            .map(|_| {
                let (a, b) = (rng.next(), rng.next());
                (a & !b, b & !a)
            })
            .collect()
    }

    #[test]
    fn base_sets_are_the_engines_packing() {
        let (engine, edax) = (PatternSet::engine(), PatternSet::edax());
        assert!(engine.is_engine() && !engine.is_edax());
        assert!(edax.is_edax() && !edax.is_engine());
        assert_eq!(engine.bias(), pattern::PACKED_BIAS);
        assert_eq!(edax.bias(), EDAX_PACKED_LEN - 1);
        assert_eq!(
            (engine.n_features(), engine.packed_len()),
            (N_FEATURES, PACKED_LEN)
        );
        assert_eq!(
            (edax.n_features(), edax.packed_len()),
            (N_EDAX_FEATURES, EDAX_PACKED_LEN)
        );
        for (own, other) in random_boards(2000) {
            let mut idx = Vec::new();
            engine.indices(own, other, &mut idx);
            let packed = pattern::packed_indices(&pattern::compute(own, other));
            assert_eq!(idx, packed.to_vec());
            idx.clear();
            edax.indices(own, other, &mut idx);
            assert_eq!(idx, packed[..N_EDAX_FEATURES].to_vec());
        }
    }

    #[test]
    fn engine_extra_kinds_are_the_measured_candidates() {
        // the engine's extra kinds pack like the candidate shapes they came from
        let names = ["fish", "cross", "edgey", "diag5x"];
        let shapes: Vec<&Shape> = names.iter().map(|n| candidate(n).unwrap()).collect();
        let from_shapes = PatternSet::edax().with(&shapes);
        let engine = PatternSet::engine();
        for (a, b) in from_shapes
            .extra_kinds()
            .iter()
            .zip(&engine.kinds()[N_EDAX_KINDS..])
        {
            assert_eq!(a.classes, b.classes, "{}", a.name);
            let mut fa = a.features.clone();
            let mut fb = b.features.clone();
            for f in fa.iter_mut().chain(fb.iter_mut()) {
                f.sort_unstable();
            }
            fa.sort();
            fb.sort();
            assert_eq!(fa, fb, "{}: same squares", a.name);
        }
    }

    #[test]
    fn extra_kinds_are_symmetric_and_packed_after_edax() {
        let shapes: Vec<&Shape> = CANDIDATES.iter().collect();
        let set = PatternSet::edax().with(&shapes);
        assert!(!set.is_edax() && !set.is_engine());
        for k in set.extra_kinds() {
            // every candidate is symmetric about a diagonal or an axis: 4 images, half the classes
            assert_eq!(k.features.len(), 4, "{}", k.name);
            let n = k.features[0].len() as u32;
            assert!(
                k.classes > 3u32.pow(n) / 2 && k.classes < 3u32.pow(n),
                "{}",
                k.name
            );
            assert!(k.offset >= (EDAX_PACKED_LEN - 1) as u32);
        }
        assert_eq!(set.n_features(), N_EDAX_FEATURES + 4 * CANDIDATES.len());
        // the sum of any per-class weights is the same on the 8 images of a board
        let weights: Vec<u64> = (0..set.packed_len() as u64)
            .map(|j| symmetry::symmetry(ply_batch::rng::splitmix(j), 5) >> 40)
            .collect();
        for (own, other) in random_boards(300) {
            let sum = |own, other| {
                let mut idx = Vec::new();
                set.indices(own, other, &mut idx);
                assert!(idx.iter().all(|&i| (i as usize) < set.bias()));
                idx.iter().map(|&i| weights[i as usize]).sum::<u64>()
            };
            let s0 = sum(own, other);
            for s in 1..8 {
                assert_eq!(
                    s0,
                    sum(symmetry::symmetry(own, s), symmetry::symmetry(other, s))
                );
            }
        }
    }
}
