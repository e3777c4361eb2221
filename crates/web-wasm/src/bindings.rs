//! The exports the page's scripts call (through `wasm-bindgen`'s glue): [`answer`] on the page's
//! thread, [`PlyWorker`] in a module worker. Replies and errors are JSON texts; a stream's
//! events go to the worker's global `plyEvent(name, data)` as they come.

use crate::route::Context;
use crate::worker::Worker;
use ply_web_api::Sink;
use serde_json::Value;
use std::sync::OnceLock;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The worker's event handler: one event of a stream (name, JSON text, whether it is the
    /// stream's last).
    #[wasm_bindgen(js_name = plyEvent)]
    fn ply_event(event: &str, data: &str, last: bool);
}

/// Panics reach the console with their message (else they show as `unreachable`).
#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// Events go to `plyEvent` at once; the receiver never goes away while the search runs (the
/// worker is busy with it: a stream is stopped by ending the worker).
struct EventSink;

impl Sink for EventSink {
    fn progress(&self, event: &str, data: &Value) -> bool {
        ply_event(event, &data.to_string(), false);
        true
    }

    fn last(&self, event: &str, data: &Value) {
        ply_event(event, &data.to_string(), true);
    }

    fn is_closed(&self) -> bool {
        false
    }
}

fn text(v: Value) -> JsValue {
    JsValue::from_str(&v.to_string())
}

/// The reply (JSON text) to `path` with `input`, for a request that needs no engine.
///
/// # Errors
/// The error's JSON text (`error`, `kind`, `status`).
#[wasm_bindgen]
pub fn answer(path: &str, input: &str) -> Result<String, JsValue> {
    static CONTEXT: OnceLock<Context> = OnceLock::new();
    let ctx = CONTEXT.get_or_init(Context::new);
    crate::worker::answer(ctx, path, input)
        .map(|v| v.to_string())
        .map_err(text)
}

/// A worker's engines.
#[wasm_bindgen]
pub struct PlyWorker(Worker);

#[wasm_bindgen]
impl PlyWorker {
    /// Engines with tables of `hash_mib` MiB each.
    ///
    /// # Errors
    /// The error's JSON text when the tables cannot be allocated.
    #[wasm_bindgen(constructor)]
    pub fn new(hash_mib: usize) -> Result<PlyWorker, JsValue> {
        Worker::new(hash_mib)
            .map(PlyWorker)
            .map_err(|e| text(crate::route::error_json(&e)))
    }

    /// The reply (JSON text) to `path` with `input`; a stream's events go to `plyEvent`, and
    /// its reply is `null`.
    ///
    /// # Errors
    /// The error's JSON text, before any event.
    pub fn request(&mut self, path: &str, input: &str) -> Result<String, JsValue> {
        self.0
            .request(path, input, &EventSink)
            .map(|v| v.to_string())
            .map_err(text)
    }
}

/// The benchmark of `game` (`othello` or `chess`) as its command line runs it: JSON text with
/// `nodes`, `ms`, `nps`; `null` for another name.
#[wasm_bindgen]
pub fn bench(game: &str) -> String {
    match game {
        "othello" => crate::bench::othello().to_string(),
        "chess" => crate::bench::chess().to_string(),
        _ => "null".into(),
    }
}
