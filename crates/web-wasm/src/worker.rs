//! A worker's engines and what it does with a request: answers it, runs its job, or runs its
//! stream to a sink. The browser's bindings call this; native tests do too.

use crate::route::{error_json, route, Context, Routed};
use ply_web_api::{ApiError, Engines, Sink};
use serde_json::Value;

/// A worker: both engines (one thread each, tables of a given size) and the context.
pub struct Worker {
    engines: Engines,
    ctx: Context,
}

impl Worker {
    /// A worker whose engines have tables of `hash_mib` MiB each.
    ///
    /// # Errors
    /// The tables cannot be allocated.
    pub fn new(hash_mib: usize) -> Result<Worker, ApiError> {
        let mib = hash_mib.max(1);
        let engines = Engines::try_new(mib, 1)
            .map_err(|e| ApiError::Internal(format!("cannot allocate {mib} MiB: {e}")))?;
        Ok(Worker {
            engines,
            ctx: Context::new(),
        })
    }

    /// The reply to `path` with `input`: answered, or after its search; for a streamed
    /// request, every event goes to `sink` and the reply is `null`.
    ///
    /// # Errors
    /// The request's error as the page reads it ([`error_json`]), before any event is sent.
    pub fn request(&mut self, path: &str, input: &str, sink: &dyn Sink) -> Result<Value, Value> {
        match route(&self.ctx, path, input).map_err(|e| error_json(&e))? {
            Routed::Answer(v) => Ok(v),
            Routed::Job(job) => job.run(&mut self.engines).map_err(|e| error_json(&e)),
            Routed::Stream(stream) => {
                stream.run(&mut self.engines, sink);
                Ok(Value::Null)
            }
        }
    }
}

/// The reply to a request that needs no engine (a game checked, a record loaded, the health),
/// for the page's own thread.
///
/// # Errors
/// The request's error as the page reads it, or a 400 for a request that needs a search.
pub fn answer(ctx: &Context, path: &str, input: &str) -> Result<Value, Value> {
    match route(ctx, path, input).map_err(|e| error_json(&e))? {
        Routed::Answer(v) => Ok(v),
        Routed::Job(_) | Routed::Stream(_) => Err(error_json(&ApiError::BadRequest(format!(
            "{path} searches: ask a worker"
        )))),
    }
}
