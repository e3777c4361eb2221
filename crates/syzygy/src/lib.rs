//! Syzygy tablebase prober: exact WDL and DTZ from .rtbw/.rtbz files.
#![deny(missing_docs)]
