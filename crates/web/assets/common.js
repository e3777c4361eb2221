// Shared helpers of the ply pages: API calls, messages, SVG drawing, the score graph, storage.

const SVGNS = "http://www.w3.org/2000/svg";

export const $ = id => document.getElementById(id);

// The requests to ply (the server's, or the WebAssembly build's in the static site).
export { api, get, stream } from "./backend.js";

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
// `extra` (optional): `cursor`, a ply to mark with a vertical line, and `marks`, dots over the
// line ({ ply, cls, title, click }) that can be clicked.
export function drawGraph(svg, values, range, plies, extra = {}) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  const W = 300, H = 100;
  svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#bbb", "stroke-width": 1 }, svg);
  const n = Math.max(plies, values.length, 2);
  const x = i => i * W / (n - 1);
  const y = v => H / 2 - Math.max(-range, Math.min(range, v)) * (H / 2 - 4) / range;
  if (extra.cursor !== undefined && extra.cursor !== null) {
    svgEl("line", { x1: x(extra.cursor), y1: 0, x2: x(extra.cursor), y2: H, class: "cursor" }, svg);
  }
  let pts = [];
  values.forEach((v, i) => {
    if (v === null || v === undefined) return;
    pts.push(x(i).toFixed(1) + "," + y(v).toFixed(1));
  });
  if (pts.length) {
    svgEl("polyline", { points: pts.join(" "), fill: "none", stroke: "#1565c0", "stroke-width": 2 }, svg);
    pts.forEach(p => { const [x, y] = p.split(","); svgEl("circle", { cx: x, cy: y, r: 2, fill: "#1565c0" }, svg); });
  }
  for (const m of extra.marks || []) {
    const v = values[m.ply];
    if (v === null || v === undefined) continue;
    const c = svgEl("circle", { cx: x(m.ply).toFixed(1), cy: y(v).toFixed(1), r: 4, class: "mark " + m.cls, "data-ply": m.ply }, svg);
    if (m.title) svgEl("title", {}, c).textContent = m.title;
    if (m.click) c.addEventListener("click", m.click);
  }
}

export function saveState(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
}

export function loadState(key) {
  try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return null; }
}

// A signed number with a real minus sign (−0.3, +1.2), `digits` decimals.
export function signed(v, digits = 0) {
  const t = Math.abs(v).toFixed(digits);
  return (Number(t) === 0 ? "" : v > 0 ? "+" : "\u2212") + t;
}

export function query(params) {
  return Object.keys(params).map(k => encodeURIComponent(k) + "=" + encodeURIComponent(params[k])).join("&");
}
