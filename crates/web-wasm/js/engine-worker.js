// A module worker running ply's engines (WebAssembly): it takes one request at a time, in the
// order they come, and answers each with a `reply` message; a stream's events come before its
// reply as `event` messages. The first message brings the compiled module.
//
//   to the worker:   { type: "init", module, glue }  then  { type: "request", path, input }
//   from the worker: { type: "event", event, data, last }  and  { type: "reply", ok, data }
// (`glue`: the URL of the module's wasm-bindgen script, the one backend.js chose.)

// each engine's tables, MiB (as `ply serve`'s default)
const HASH_MIB = 16;

let engines = null, failure = null, busy = false;
const queue = [];

// installed before anything is awaited: messages that come while the module loads wait here
self.onmessage = ev => { queue.push(ev.data); drain(); };
self.plyEvent = (event, data, last) => postMessage({ type: "event", event, data, last });

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const m = queue.shift();
    if (m.type === "init") {
      try {
        const g = await import(m.glue);
        await g.default({ module_or_path: m.module });
        engines = new g.PlyWorker(HASH_MIB);
      } catch (e) {
        failure = JSON.stringify({ error: "the engines cannot start: " + String(e), kind: "internal", status: 500 });
      }
      continue;
    }
    if (!engines) { postMessage({ type: "reply", ok: false, data: failure || "{}" }); continue; }
    try {
      postMessage({ type: "reply", ok: true, data: engines.request(m.path, m.input) });
    } catch (e) {
      postMessage({ type: "reply", ok: false, data: String(e) });
    }
  }
  busy = false;
}
