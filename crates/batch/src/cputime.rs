//! CPU time, the clock that ply's measurements read: on a shared machine the wall clock also
//! counts the time other processes held the CPU, which no program can control. One home for the
//! programs (the batch commands' summaries, `ply-othello solve`), the tests (through
//! `ply_testkit`) and the benchmark examples.
//!
//! ```
//! let before = ply_batch::cputime::thread().unwrap_or_default();
//! let mut x = 0u64;
//! for i in 0..1_000_000u64 {
//!     x = std::hint::black_box(x ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
//! }
//! let after = ply_batch::cputime::thread().unwrap_or_default();
//! assert!(after >= before);
//! assert!(ply_batch::cputime::process().is_none_or(|p| p >= after - before));
//! ```

use std::time::Duration;

/// CPU time the calling thread has used so far (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`,
/// nanosecond resolution), or `None` where the platform does not say.
pub fn thread() -> Option<Duration> {
    #[cfg(unix)]
    {
        clock(libc::CLOCK_THREAD_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// CPU time the whole process (every thread, user and system) has used so far
/// (`clock_gettime(CLOCK_PROCESS_CPUTIME_ID)`), or `None` where the platform does not say.
pub fn process() -> Option<Duration> {
    #[cfg(unix)]
    {
        clock(libc::CLOCK_PROCESS_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(unix)]
fn clock(id: libc::clockid_t) -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let rc = unsafe { libc::clock_gettime(id, &mut ts) };
    if rc != 0 {
        return None;
    }
    Some(Duration::new(
        u64::try_from(ts.tv_sec).ok()?,
        u32::try_from(ts.tv_nsec).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn both_clocks_grow_with_work_and_the_process_counts_every_thread() {
        let spin = || {
            let start = thread().expect("a thread clock on Unix");
            let mut x = 0u64;
            while thread().expect("clock") - start < Duration::from_millis(30) {
                x = std::hint::black_box(x.wrapping_add(1));
            }
            x
        };
        let p0 = process().expect("a process clock on Unix");
        let t0 = thread().expect("clock");
        let other = std::thread::spawn(spin);
        spin();
        other.join().expect("the other thread");
        let (t1, p1) = (thread().expect("clock"), process().expect("clock"));
        assert!(t1 - t0 >= Duration::from_millis(30), "{:?}", t1 - t0);
        // both threads' 30 ms, whatever the scheduler did with them
        assert!(p1 - p0 >= Duration::from_millis(60), "{:?}", p1 - p0);
    }
}
