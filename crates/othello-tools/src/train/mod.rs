//! Training pipeline of the pattern evaluation: samples from WTHOR games with a held-out test split,
//! per-stage least-squares fit, and the held-out error measurement.
//!
//! Layout: [`builtin`] the embedded self-play labels, [`dataset`] samples and label files, [`exact`] solver labels, [`patterns`] the
//! pattern set fitted (Edax's, or Edax's plus candidate shapes), [`fit`] per-stage fit,
//! [`mod@measure`] mean absolute errors, [`pipeline`] the whole run.

pub mod builtin;
pub mod dataset;
pub mod exact;
pub mod fit;
pub mod measure;
pub mod patterns;
pub mod pipeline;

pub use dataset::{merge_symmetric, parse_labels, read_labels, Dataset, Sample, Split};
pub use fit::{fit_all, FitConfig, Method, Model};
pub use measure::{measure, MaeRow};
pub use patterns::{PatternSet, Shape};
