// How the pages reach ply. This is `ply serve`'s: HTTP requests to the server and its
// server-sent events. The static site (tools/site/build.sh) puts ply compiled to WebAssembly
// in this file's place (crates/web-wasm/js/backend.js), with the same three functions.

// POSTs `body` as JSON to `path`; resolves with the reply, or rejects with the server's error text.
export async function api(path, body) {
  let r;
  try {
    r = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (e) {
    throw new Error("the server cannot be reached");
  }
  return reply(r);
}

// GETs `path` (a query string included); resolves with the reply, or rejects with the error text.
export async function get(path) {
  let r;
  try { r = await fetch(path); } catch (e) { throw new Error("the server cannot be reached"); }
  return reply(r);
}

async function reply(r) {
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    throw new Error((data && data.error) || ("HTTP " + r.status));
  }
  return data;
}

// The events of `path` (a query string included): an EventSource, whose `close()` stops the
// search on the server.
export function stream(path) {
  return new EventSource(path);
}
