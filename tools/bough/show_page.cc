#include "show_page.h"

namespace bough::cli {

namespace {
namespace show_page_op {

std::string html_escaped(const std::string& s) {
  std::string out;
  for (char c : s) switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  return out;
}

constexpr const char* kHead = R"page(<!DOCTYPE html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<style>
html,body{margin:0;height:100%;font:12px sans-serif;overflow:hidden}
#bar{position:fixed;top:0;left:0;right:0;height:34px;display:flex;gap:8px;align-items:center;
  padding:0 10px;background:#f4f4f4;border-bottom:1px solid #ccc;z-index:2}
#search{width:280px}
#title{color:#555;overflow:hidden;white-space:nowrap;text-overflow:ellipsis}
#canvas{position:fixed;top:35px;left:0;width:100%;height:calc(100% - 35px);cursor:grab}
#details{position:fixed;top:44px;right:10px;width:400px;max-height:calc(100% - 64px);overflow:auto;
  background:#fff;border:1px solid #bbb;box-shadow:0 2px 8px #0003;padding:6px 12px;z-index:3}
#details h3{margin:4px 0;font-size:13px;word-break:break-all}
#details h4{margin:8px 0 2px;font-size:12px;color:#444}
#details td{vertical-align:top;padding:1px 8px 1px 0;word-break:break-all;font-family:monospace}
#details td:first-child{white-space:nowrap;word-break:normal}
#details button{float:right}
text{font:11px monospace;fill:#222}
.item>rect{fill:#fff;stroke:#555}
.k-op>rect{fill:#eef3fb;stroke:#4a6fa5}
.k-in>rect{fill:#e8f5e9;stroke:#4c8c4a}
.k-out>rect{fill:#eee}
.k-cap>rect{stroke:#36c;stroke-dasharray:4 3}
.sub>rect{fill:#fafafa;stroke:#888;stroke-dasharray:5 3}
.sub.open>rect{fill:#fdfdf4}
.sub:not(.open),.head{cursor:pointer}
.head>rect{fill:transparent;stroke:none}
.edge{fill:none;stroke:#999;stroke-width:1.2}
.edge.capture{stroke:#36c;stroke-dasharray:6 4;stroke-width:1.6}
.elabel{font-size:9px;fill:#777}
.elabel.capture{fill:#36c}
.item.hit>rect{stroke:#e65100;stroke-width:3}
.item.sel>rect{stroke:#d00;stroke-width:3}
</style>
<title>)page";

constexpr const char* kBody = R"page(</title></head><body>
<div id="bar"><input id="search" placeholder="search a node or value name, Enter: next"
 autocomplete="off"><span id="found"></span><button id="fit">fit</button><span id="title"></span></div>
<svg id="canvas" xmlns="http://www.w3.org/2000/svg"><defs><marker id="arrow" viewBox="0 0 10 10"
 refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto"><path d="M0,0L10,5L0,10z"
 fill="#888"/></marker></defs><g id="view"></g></svg>
<div id="details" hidden></div>
<script type="application/json" id="model">)page";

constexpr const char* kScript = R"page(</script>
<script>
"use strict";
(() => {
const M = JSON.parse(document.getElementById("model").textContent), G = M.graphs;
const NS = "http://www.w3.org/2000/svg", CH = 6.7, LINE = 15, GX = 28, GY = 44, PAD = 10, MAXCAPS = 8;
const svg = document.getElementById("canvas"), view = document.getElementById("view");
const found = document.getElementById("found"), panel = document.getElementById("details");
const opened = new Set();   // subgraphs shown open
let A = [], SB = [];        // placed: item boxes per open graph, subgraph boxes per subgraph
let hits = [], hit = -1, query = "", selected = null, whole = { w: 0, h: 0 };
let s = 1, tx = 20, ty = 20;
document.getElementById("title").textContent = document.title;

// Items of each graph by rank, in order (the layout bough worked out).
const byRank = G.map(g => {
  const rows = [];
  g.items.forEach((it, i) => (rows[it.r] = rows[it.r] || []).push(i));
  return rows.filter(r => r).map(r => r.sort((a, b) => g.items[a].o - g.items[b].o));
});
// Nesting level of each graph: its items are drawn above the boxes of the level above, its
// edges between the two (a capture edge, which enters a box, with the level below).
const level = G.map((g, gi) => { let d = 0; for (let x = gi; G[x].owner; x = G[x].owner[0]) ++d; return d; });
let layers = [];
const short = (t, n) => t.length > n ? t.slice(0, n - 1) + "\u2026" : t;
const typeText = t => t.replace(/^tensor\(([^)]*)\)/, "$1");
const width = ls => Math.max(...ls.map(l => l.length)) * CH + 2 * PAD;
const plural = (n, w) => n + " " + w + (n === 1 ? "" : "s");

function itemLines(it) {
  if (it.k === "op") return it.name ? [it.op, short(it.name, 32)] : [it.op];
  return [short(it.name || "(unnamed)", 32), typeText(it.type)];
}
function subLines(si) {
  const g = G[si], open = opened.has(si);
  const ls = [(open ? "\u25be " : "\u25b8 ") + g.attr + " \u00b7 " + plural(g.nodes, "node")];
  if (!open && g.caps.length) {
    ls.push("captures:");
    g.caps.slice(0, MAXCAPS).forEach(c => ls.push("  " + short(c[0], 28)));
    if (g.caps.length > MAXCAPS) ls.push("  +" + (g.caps.length - MAXCAPS) + " more");
  }
  return ls;
}

// Sizes and places relative to the graph's corner; an open subgraph inside its box.
function box(it) {
  const lines = itemLines(it), b = { lines, w: width(lines), h: lines.length * LINE + PAD, subs: [] };
  if (it.k !== "op" || !it.subs.length) return b;
  let x = PAD, tallest = 0;
  for (const si of it.subs) {
    const sl = subLines(si), inner = opened.has(si) ? layout(si) : null;
    let w = width(sl), h = sl.length * LINE + PAD;
    if (inner) { w = Math.max(w, inner.w + 2 * PAD); h += inner.h + PAD; }
    b.subs.push({ si, x, y: b.h, w, h, lines: sl, inner });
    x += w + PAD;
    tallest = Math.max(tallest, h);
  }
  b.w = Math.max(b.w, x);
  b.h += tallest + PAD;
  return b;
}
function layout(gi) {
  const boxes = G[gi].items.map(box), rows = byRank[gi];
  const rowW = rows.map(r => r.reduce((sum, i) => sum + boxes[i].w, 0) + GX * (r.length - 1));
  const w = Math.max(0, ...rowW);
  let y = 0;
  rows.forEach((r, k) => {
    const h = Math.max(...r.map(i => boxes[i].h));
    let x = (w - rowW[k]) / 2;
    for (const i of r) { boxes[i].x = x; boxes[i].y = y + (h - boxes[i].h) / 2; x += boxes[i].w + GX; }
    y += h + GY;
  });
  return { w, h: Math.max(0, y - GY), boxes };
}

function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}
function lines(parent, x, y, ls) {
  ls.forEach((l, k) => { el("text", { x, y: y + LINE * (k + 1) - 3 }, parent).textContent = l; });
}
// Absolute boxes of every item of the open graphs (A) and of every subgraph box (SB).
function place(gi, L, ox, oy) {
  A[gi] = [];
  L.boxes.forEach((b, i) => {
    const x = ox + b.x, y = oy + b.y;
    A[gi][i] = { x, y, w: b.w, h: b.h, lines: b.lines, subs: b.subs };
    for (const sb of b.subs) {
      const sx = x + sb.x, sy = y + sb.y;
      SB[sb.si] = { x: sx, y: sy, w: sb.w, h: sb.h, lines: sb.lines, open: !!sb.inner };
      if (sb.inner)
        place(sb.si, sb.inner, sx + (sb.w - sb.inner.w) / 2, sy + sb.lines.length * LINE + PAD);
    }
  });
}
// Only what lies within a screen of the view is drawn (a 5,000-node graph drawn whole takes
// seconds to style); panning or zooming past that draws again. Zoomed out below `DETAIL`,
// text is left out.
const DETAIL = 0.3;
let region = null;
const meets = (b, r) => b.x < r.x2 && b.x + b.w > r.x1 && b.y < r.y2 && b.y + b.h > r.y1;
// The canvas's size without asking the browser for a layout (the bar above is 35 px).
function screen() { return { w: innerWidth, h: innerHeight - 35 }; }
function viewport(margin) {
  const v = screen();
  return { x1: (-tx - margin * v.w) / s, y1: (-ty - margin * v.h) / s,
           x2: ((1 + margin) * v.w - tx) / s, y2: ((1 + margin) * v.h - ty) / s };
}
function drawItem(gi, i, b, layer, detail) {
  const it = G[gi].items[i];
  const g = el("g", { class: "item k-" + it.k, "data-g": gi, "data-i": i }, layer);
  el("rect", { x: b.x, y: b.y, width: b.w, height: b.h, rx: it.k === "op" ? 4 : 12 }, g);
  if (detail) lines(g, b.x + PAD, b.y + PAD / 2, b.lines);
  for (const sb of b.subs) {
    const box = SB[sb.si];
    const sg = el("g", { class: "sub" + (box.open ? " open" : ""), "data-sub": sb.si }, g);
    el("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 4 }, sg);
    const head = el("g", { class: "head" }, sg);
    el("rect", { x: box.x, y: box.y, width: box.w, height: LINE + PAD / 2 }, head);
    if (detail) lines(head, box.x + PAD, box.y + PAD / 2, box.lines);
  }
}
function drawEdge(gi, e, r, detail) {
  const capture = e.length > 4, f = A[gi][e[0]];
  const t = !capture ? A[gi][e[1]] : opened.has(e[4]) ? A[e[4]][e[5]] : SB[e[4]];
  const x1 = f.x + f.w / 2, y1 = f.y + f.h, x2 = t.x + t.w / 2, y2 = t.y;
  const dy = Math.max(20, Math.abs(y2 - y1) / 2), cls = capture ? " capture" : "";
  const top = Math.min(y1, y2 - dy), bottom = Math.max(y2, y1 + dy);
  if (!meets({ x: Math.min(x1, x2), y: top, w: Math.abs(x2 - x1) + 1, h: bottom - top }, r)) return;
  const layer = layers[2 * (level[gi] + capture)];
  el("path", { d: `M${x1},${y1}C${x1},${y1 + dy} ${x2},${y2 - dy} ${x2},${y2}`,
               class: "edge" + cls, "data-v": e[2], "marker-end": "url(#arrow)" }, layer);
  if (detail)
    el("text", { x: (x1 + x2) / 2 + 3, y: (y1 + y2) / 2, class: "elabel" + cls }, layer)
      .textContent = capture ? e[2] : short(typeText(e[3]), 40);
}
function draw() {
  region = viewport(1);
  region.s = s;
  const detail = s >= DETAIL;
  view.textContent = "";
  layers = [];
  for (let k = 0; k <= 2 * Math.max(...level) + 1; ++k) layers.push(el("g", {}, view));
  A.forEach((boxes, gi) => {
    if (!boxes) return;
    boxes.forEach((b, i) => { if (meets(b, region)) drawItem(gi, i, b, layers[2 * level[gi] + 1], detail); });
    for (const e of G[gi].edges) drawEdge(gi, e, region, detail);
  });
  mark();
}
// Lays out the open graphs again (a box opened or closed); draws unless told not to.
function render(drawNow = true) {
  const L = layout(0);
  whole = L;
  A = []; SB = [];
  place(0, L, 0, 0);
  region = null;
  if (drawNow) draw();
}

function covered() {
  const v = viewport(0);
  return region && v.x1 >= region.x1 && v.y1 >= region.y1 && v.x2 <= region.x2 &&
    v.y2 <= region.y2 && (s >= DETAIL) === (region.s >= DETAIL);
}
let pending = false;
function apply() {
  view.setAttribute("transform", `translate(${tx},${ty}) scale(${s})`);
  if (covered() || pending) return;
  pending = true;
  requestAnimationFrame(() => { pending = false; if (!covered()) draw(); });
}
function fit(all) {
  const v = screen();
  s = Math.min(1, (v.w - 40) / Math.max(1, whole.w));
  s = all ? Math.min(s, (v.h - 40) / Math.max(1, whole.h)) : Math.max(s, 0.75);
  tx = (v.w - whole.w * s) / 2; ty = 20;
  apply();
}
function center(gi, i) {
  const b = A[gi][i], v = screen();
  s = Math.max(s, 0.8);
  tx = v.w / 2 - (b.x + b.w / 2) * s; ty = v.h / 2 - (b.y + b.h / 2) * s;
  apply();
}
function mark() {
  for (const e of view.querySelectorAll(".hit,.sel")) e.classList.remove("hit", "sel");
  const at = (p, c) => {
    const e = p && view.querySelector(`.item[data-g="${p[0]}"][data-i="${p[1]}"]`);
    if (e) e.classList.add(c);
  };
  if (hit >= 0) at(hits[hit], "hit");
  at(selected, "sel");
}
function toggle(si) {
  if (opened.has(si)) opened.delete(si); else opened.add(si);
  render();
}
function reveal(gi) {
  for (let g = gi; G[g].owner; g = G[g].owner[0]) opened.add(g);
}

function row(table, k, v) {
  const tr = table.insertRow();
  tr.insertCell().textContent = k;
  tr.insertCell().textContent = v;
}
function section(title, pairs, typed) {
  if (!pairs.length) return;
  const h = document.createElement("h4");
  h.textContent = title;
  panel.appendChild(h);
  const t = document.createElement("table");
  pairs.forEach(p => row(t, p[0] || "(omitted)", typed ? typeText(p[1]) : p[1]));
  panel.appendChild(t);
}
function select(gi, i) {
  selected = [gi, i];
  const it = G[gi].items[i];
  panel.textContent = "";
  panel.hidden = false;
  const close = document.createElement("button");
  close.textContent = "\u00d7";
  close.onclick = () => { panel.hidden = true; selected = null; mark(); };
  panel.appendChild(close);
  const h = document.createElement("h3");
  h.textContent = it.k === "op" ? it.op + (it.name ? ' "' + it.name + '"' : "") : it.name;
  panel.appendChild(h);
  const kinds = { in: "graph input", out: "graph output", cap: "capture: read from the enclosing graph" };
  if (it.k === "op") {
    section("operator", [["domain", it.domain], ["opset", String(it.version)], ["graph", G[gi].path]]);
    section("attributes", it.attrs);
    section("constants (initializers read)", it.consts);
    section("inputs", it.ins, true);
    section("outputs", it.outs, true);
    section("subgraphs", it.subs.map(si => [G[si].attr, plural(G[si].nodes, "node") +
      (G[si].caps.length ? "; captures " + G[si].caps.map(c => c[0]).join(", ") : "")]));
  } else {
    section(kinds[it.k], [["type", it.type], ["graph", G[gi].path]]);
  }
  mark();
}

// Search: a node's name or operator, or a value's name (a node's outputs and the constants
// it reads; graph inputs, outputs and captures by their own).
const index = [];
G.forEach((g, gi) => g.items.forEach((it, i) => {
  const words = [it.name, it.op || ""];
  for (const o of it.outs || []) words.push(o[0]);
  for (const c of it.consts || []) words.push(c[0]);
  index.push([gi, i, words.join("\n").toLowerCase()]);
}));
function next() {
  if (!hits.length) { found.textContent = query ? "no match" : ""; mark(); return; }
  hit = (hit + 1) % hits.length;
  const [gi, i] = hits[hit];
  reveal(gi);
  render(false);
  center(gi, i);
  draw();
  select(gi, i);
  found.textContent = (hit + 1) + " of " + hits.length;
}
document.getElementById("search").addEventListener("keydown", ev => {
  if (ev.key !== "Enter") return;
  const q = ev.target.value.trim().toLowerCase();
  if (q !== query) {
    query = q; hit = -1;
    hits = q ? index.filter(x => x[2].includes(q)).map(x => [x[0], x[1]]) : [];
  }
  next();
});
document.getElementById("fit").onclick = () => fit(true);

svg.addEventListener("wheel", ev => {
  ev.preventDefault();
  const k = Math.exp(-ev.deltaY * 0.0015), r = svg.getBoundingClientRect();
  const px = ev.clientX - r.left, py = ev.clientY - r.top;
  tx = px - (px - tx) * k; ty = py - (py - ty) * k; s *= k;
  apply();
}, { passive: false });
let drag = null, moved = false;
svg.addEventListener("pointerdown", ev => { drag = { x: ev.clientX, y: ev.clientY, tx, ty }; moved = false; });
window.addEventListener("pointermove", ev => {
  if (!drag) return;
  const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
  if (Math.abs(dx) + Math.abs(dy) > 3) moved = true;
  if (moved) { tx = drag.tx + dx; ty = drag.ty + dy; apply(); }
});
window.addEventListener("pointerup", () => { drag = null; });
svg.addEventListener("click", ev => {
  if (moved) return;
  const sub = ev.target.closest(".sub");
  if (sub && (!sub.classList.contains("open") || ev.target.closest(".head"))) {
    toggle(Number(sub.dataset.sub));
    return;
  }
  const item = ev.target.closest(".item");
  if (item && !sub) select(Number(item.dataset.g), Number(item.dataset.i));
});

// Subgraphs open at first: --depth levels.
G.forEach((g, gi) => { if (level[gi] > 0 && level[gi] <= M.open) opened.add(gi); });
if (G.length) {
  render(false);
  fit(false);
  draw();
}
// Ready once the first frame is painted: the time the tests hold under 2 s.
requestAnimationFrame(() => setTimeout(() => {
  window.boughReadyMs = performance.now();
  document.body.dataset.ready = "1";
}));
})();
</script>
</body></html>
)page";

}  // namespace show_page_op
}  // namespace

std::string html_page(const std::string& title, const std::string& json) {
  using namespace show_page_op;
  return kHead + html_escaped(title) + kBody + json + kScript;
}

}  // namespace bough::cli
