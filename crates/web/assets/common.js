// Shared helpers of the ply pages: API calls, messages, SVG drawing, the score graph, storage.

const SVGNS = "http://www.w3.org/2000/svg";

export const $ = id => document.getElementById(id);

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
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  if (!r.ok) {
    throw new Error((data && data.error) || ("HTTP " + r.status));
  }
  return data;
}

// Shows a message under the board (errors in red); an empty text clears it.
export function say(text, isError) {
  const m = $("message");
  m.textContent = text || "";
  m.classList.toggle("error", !!isError);
}

export function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Draws `values` (one per ply, null where unknown) as a line on the graph `svg`, within ±range.
export function drawGraph(svg, values, range, plies) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const W = 300, H = 100;
  svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#bbb", "stroke-width": 1 }, svg);
  const n = Math.max(plies, values.length, 2);
  let pts = [];
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    const c = Math.max(-range, Math.min(range, v));
    pts.push((i * W / (n - 1)).toFixed(1) + "," + (H / 2 - c * (H / 2 - 4) / range).toFixed(1));
  });
  if (pts.length) {
    svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "#1565c0", "stroke-width": 2 }, svg);
    pts.forEach(p => { const [x, y] = p.split(","); svgEl("circle", { cx: x, cy: y, r: 2, fill: "#1565c0" }, svg); });
  }
}

export function saveState(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
}

export function loadState(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}

export function query(params) {
  return Object.keys(params).map(k => encodeURIComponent(k) + "=" + encodeURIComponent(params[k])).join("&");
}
