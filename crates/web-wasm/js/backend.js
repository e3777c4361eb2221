// How the pages reach ply in the static site: ply compiled to WebAssembly, no server. The same
// three functions as `ply serve`'s backend.js, taking the same paths ("/api/othello/play", ...):
// requests that need no search are answered on the page's thread; searches go to module
// workers (engine-worker.js), one request at a time each, so the page never waits on them.
// Closing a stream before its end ends its worker (a running search cannot be reached from
// outside its thread); the next search gets a fresh one.

// The smallest module with a SIMD instruction, `(func (result v128) v128.const 0)`: a browser
// that validates it runs the SIMD128 build (all current ones), another the build without.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,   // magic, version
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,         // type: () -> v128
  0x03, 0x02, 0x01, 0x00,                           // function 0 of that type
  0x0a, 0x16, 0x01, 0x14, 0x00, 0xfd, 0x0c,         // code: no locals, v128.const
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,   //   its 16 bytes
  0x0b,                                             // end
]);
export const FLAVOUR = WebAssembly.validate(SIMD_PROBE) ? "simd128" : "base";
const GLUE = new URL(`./pkg/${FLAVOUR}/ply_web_wasm.js`, import.meta.url).href;
const WASM = new URL(`./pkg/${FLAVOUR}/ply_web_wasm_bg.wasm`, import.meta.url);
// compiled once: the page's thread and every worker instantiate the same module
const compiled = WebAssembly.compileStreaming(fetch(WASM));
const glue = import(GLUE);
let answer = null;   // the module's `answer`, once it is instantiated on this thread
const ready = Promise.all([glue, compiled]).then(([g, module]) => {
  answer = g.answer;
  return g.default({ module_or_path: module });
});

// the requests that search (the others are answered here)
const SEARCHES = /^(othello\/(play|solve|hint|review|learn)|chess\/(play|analyse|review))$/;
// workers alive at once; a search that finds them all busy waits for one
const MAX_WORKERS = 3;

function split(path) {
  const at = path.indexOf("?");
  const p = (at < 0 ? path : path.slice(0, at)).replace(/^\/api\//, "");
  return [p, at < 0 ? "" : path.slice(at + 1)];
}

// An Error with the message of an error's JSON text (as the server's error replies).
function failure(text) {
  try {
    const e = JSON.parse(text);
    if (e && e.error) return new Error(e.error);
  } catch (e) { /* not JSON */ }
  return new Error(String(text || "the engine failed"));
}

function answered(path, input) {
  let text;
  try { text = answer(path, input); } catch (e) { throw failure(e); }
  return JSON.parse(text);
}

const idle = [], waiting = [];
let live = 0;

function spawn() {
  const w = new Worker(new URL("./engine-worker.js", import.meta.url), { type: "module" });
  live++;
  compiled.then(module => w.postMessage({ type: "init", module, glue: GLUE }));
  return w;
}

function acquire() {
  if (idle.length) return Promise.resolve(idle.pop());
  if (live < MAX_WORKERS) return Promise.resolve(spawn());
  return new Promise(resolve => waiting.push(resolve));
}

function release(w) {
  w.onmessage = w.onerror = null;
  const next = waiting.shift();
  if (next) next(w); else idle.push(w);
}

function discard(w) {
  w.onmessage = w.onerror = null;
  w.terminate();
  live--;
  const next = waiting.shift();
  if (next) next(spawn());
}

// Runs `path` with `input` in a worker; `onEvent` gets a stream's events. Resolves with the
// reply's JSON text, or rejects with the error.
function inWorker(path, input, onEvent, started) {
  return acquire().then(w => new Promise((resolve, reject) => {
    if (started && !started(w)) { release(w); resolve("null"); return; }
    w.onmessage = ev => {
      const m = ev.data;
      if (m.type === "event") { if (onEvent) onEvent(m); return; }
      release(w);
      if (m.ok) resolve(m.data); else reject(failure(m.data));
    };
    w.onerror = ev => {
      discard(w);
      reject(new Error("the engine stopped" + (ev.message ? ": " + ev.message : "")));
    };
    w.postMessage({ type: "request", path, input });
  }));
}

// POSTs `body` to `path`, as to the server: resolves with the reply, or rejects with the error.
export async function api(path, body) {
  const [p] = split(path);
  const input = JSON.stringify(body);
  if (SEARCHES.test(p)) return JSON.parse(await inWorker(p, input));
  await ready;
  return answered(p, input);
}

// GETs `path` (a query string included), as from the server.
export async function get(path) {
  const [p, q] = split(path);
  await ready;
  return answered(p, q);
}

// A stream with the EventSource calls the pages use: addEventListener(name, fn), onerror, close().
class WorkerStream {
  constructor(path) {
    this.listeners = new Map();
    this.onerror = null;
    this.worker = null;   // the worker while the search runs
    this.closed = false;
    this.ended = false;   // the last event came: the worker is done with it
    const [p, q] = split(path);
    inWorker(p, q, m => this.event(m), w => {
      if (this.closed) return false;
      this.worker = w;
      return true;
    }).then(() => { this.worker = null; }, e => {
      this.worker = null;
      if (!this.closed) this.emit("error", JSON.stringify({ error: e.message }));
    });
  }

  addEventListener(name, fn) {
    if (!this.listeners.has(name)) this.listeners.set(name, []);
    this.listeners.get(name).push(fn);
  }

  event(m) {
    if (m.last) this.ended = true;
    if (!this.closed) this.emit(m.event, m.data);
  }

  emit(name, data) {
    const ev = { type: name, data };
    for (const fn of this.listeners.get(name) || []) fn(ev);
    if (name === "error" && this.onerror) this.onerror(ev);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.worker && !this.ended) {
      const w = this.worker;
      this.worker = null;
      discard(w);
    }
  }
}

// The events of `path` (a query string included); `close()` stops the search.
export function stream(path) {
  return new WorkerStream(path);
}
