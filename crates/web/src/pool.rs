//! Search slots: a bounded set of [`Engines`] (engine tables), handed out one per search and
//! returned when the search ends, and [`run_job`] and [`spawn_stream`], which run a request's
//! search on a thread of its own.

use crate::error::ApiError;
use crate::limits::Config;
use crate::stream::{self, EventResponse};
use ply_chess_engine::SEARCH_STACK;
use ply_web_api::{Engines, Job, Sink, Stream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::{oneshot, OwnedSemaphorePermit, Semaphore};

/// Why the pool could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// A table could not be allocated.
    #[error("cannot allocate the search tables ({mib} MiB): {reason}")]
    Tables {
        /// The size asked for.
        mib: usize,
        /// The allocator's answer.
        reason: String,
    },
}

/// The search slots of a server.
pub struct Pool {
    permits: Arc<Semaphore>,
    workers: Mutex<Vec<Engines>>,
    wait: Duration,
    size: usize,
}

/// A search slot in use: its engines and the permit that counts it. Dropping it returns both.
pub struct Lease {
    worker: Option<Engines>,
    pool: Arc<Pool>,
    _permit: OwnedSemaphorePermit,
}

impl Lease {
    /// The worker of this slot.
    ///
    /// # Panics
    /// Never: the worker is only taken out when the lease is dropped (the `expect` states it).
    pub fn worker(&mut self) -> &mut Engines {
        self.worker
            .as_mut()
            .expect("a lease holds its worker until dropped")
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(w) = self.worker.take() {
            self.pool
                .workers
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(w);
        }
        // the permit is released after the worker is back (fields drop after this body)
    }
}

impl Pool {
    /// `config.max_searches` slots (at least 1), each with tables of `config.hash_mib` MiB.
    ///
    /// # Errors
    /// [`PoolError`] when a table cannot be allocated.
    pub fn new(config: &Config) -> Result<Pool, PoolError> {
        let size = config.max_searches.max(1);
        let mib = config.hash_mib.max(2);
        let err = |reason: String| PoolError::Tables { mib, reason };
        // each slot: its own tables, the weights and network shared with the other slots
        let mut workers = vec![Engines::try_new(mib, config.threads.max(1)).map_err(err)?];
        for _ in 1..size {
            workers.push(workers[0].try_sibling(mib).map_err(err)?);
        }
        Ok(Pool {
            permits: Arc::new(Semaphore::new(size)),
            workers: Mutex::new(workers),
            wait: config.queue_wait,
            size,
        })
    }

    /// Number of slots.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Slots free now.
    pub fn available(&self) -> usize {
        self.permits.available_permits()
    }

    /// Waits up to the configured time for a free slot.
    ///
    /// # Errors
    /// [`ApiError::Busy`] when none became free in time.
    pub async fn acquire(self: &Arc<Self>) -> Result<Lease, ApiError> {
        let permit = tokio::time::timeout(self.wait, Arc::clone(&self.permits).acquire_owned())
            .await
            .map_err(|_| ApiError::Busy)?
            .map_err(|_| ApiError::Busy)?;
        let worker = self
            .workers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
            .ok_or_else(|| ApiError::Internal("a permit without a worker".into()))?;
        Ok(Lease {
            worker: Some(worker),
            pool: Arc::clone(self),
            _permit: permit,
        })
    }
}

/// Runs `search` with the slot `lease` on a new thread (with a large stack) and waits for its
/// answer without blocking the runtime. The slot is returned when the thread ends.
///
/// # Errors
/// [`ApiError::Internal`] when the thread cannot start or dies before answering.
pub async fn run_search<R, F>(lease: Lease, search: F) -> Result<R, ApiError>
where
    R: Send + 'static,
    F: FnOnce(&mut Engines) -> R + Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    spawn_search(lease, move |w| {
        let _ = tx.send(search(w));
    })?;
    rx.await
        .map_err(|_| ApiError::Internal("the search thread died".into()))
}

/// Starts `search` with the slot `lease` on a new thread and returns at once (streamed searches
/// send their results themselves).
///
/// # Errors
/// [`ApiError::Internal`] when the thread cannot start.
pub fn spawn_search<F>(mut lease: Lease, search: F) -> Result<(), ApiError>
where
    F: FnOnce(&mut Engines) + Send + 'static,
{
    std::thread::Builder::new()
        .name("ply-search".into())
        .stack_size(SEARCH_STACK)
        .spawn(move || search(lease.worker()))
        .map(|_| ())
        .map_err(|e| ApiError::Internal(format!("cannot start a search thread: {e}")))
}

/// The answer of `job`: at once when it is ready, else after its search with a slot (waiting
/// for one as [`Pool::acquire`] does) on a thread of its own.
///
/// # Errors
/// [`ApiError::Busy`] when no slot became free in time, the search's error, or
/// [`ApiError::Internal`] when its thread cannot start or dies.
pub async fn run_job<R: Send + 'static>(pool: &Arc<Pool>, job: Job<R>) -> Result<R, ApiError> {
    match job {
        Job::Ready(r) => Ok(r),
        Job::Search(search) => {
            let lease = pool.acquire().await?;
            run_search(lease, search).await?
        }
    }
}

/// The event stream of `stream`: its events at once when it is ready, else a search started
/// with a slot (waiting for one as [`Pool::acquire`] does) on a thread of its own, stopped
/// when the client goes away.
///
/// # Errors
/// [`ApiError::Busy`] when no slot became free in time, [`ApiError::Internal`] when the thread
/// cannot start.
pub async fn spawn_stream(pool: &Arc<Pool>, events: Stream) -> Result<EventResponse, ApiError> {
    match events {
        Stream::Ready(events) => {
            let (tx, rx) = stream::channel(|| {});
            for (event, data) in &events {
                tx.progress(event, data);
            }
            Ok(stream::response(rx))
        }
        Stream::Search(search) => {
            let lease = pool.acquire().await?;
            let (tx, rx) = stream::channel(search.stop);
            let run = search.run;
            spawn_search(lease, move |w| run(w, &tx))?;
            Ok(stream::response(rx))
        }
    }
}
