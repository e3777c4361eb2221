//! Subcommands of the `ply-chess` program, one module each; each only translates arguments into
//! library calls and prints results.

pub mod bench;
pub mod completions;
pub mod datagen;
pub mod eval;
pub mod nnue_data;
pub mod perft;
pub mod probe;
pub mod train_nnue;
pub mod tune;

/// CPU seconds used by the process so far (all threads), where the system tells.
pub(crate) fn cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `usage` points to writable memory of the size getrusage fills.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0 {
            // SAFETY: getrusage returned 0, so it filled the struct.
            let u = unsafe { usage.assume_init() };
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return Some(secs(u.ru_utime) + secs(u.ru_stime));
        }
    }
    None
}
