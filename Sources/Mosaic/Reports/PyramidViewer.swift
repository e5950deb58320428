import Foundation

/// The offline viewer written beside a tile pyramid: `board.html` (the page: its own code,
/// no library, nothing from the network) and `board.map.js` (the board's cards and
/// headers, compact). It works from `file://` and from any static host: the map is a
/// script, not a JSON fetched (browsers refuse `fetch` of a local file), and the tiles are
/// images. Pan (drag, arrows), zoom (wheel, double-click, + and -, 0 to fit), a card's
/// caption on hover, its original on click (a relative link), a search box over captions
/// and file names that flies to the card found (`board.html#find=coffee` too), and the
/// section headers as a table of contents.
public struct PyramidViewer: Sendable {
    /// The page.
    public let page: String
    /// The map script beside it.
    public let mapScript: String

    /// The viewer of the pyramid written at `destination` (`board.dzi`, or the IIIF folder
    /// `board`): `board.html` and `board.map.js` beside it.
    public init(destination: String) {
        let base = PyramidFormats.baseName(for: destination)
        page = base + ".html"
        mapScript = base + ".map.js"
    }

    /// What the page says it is: only such a page is ever replaced.
    static let generator = "mosaic viewer"

    /// Whether the file at `path` is a viewer page or map mosaic wrote (or nothing is there).
    public static func mayReplace(_ path: String) -> Bool {
        guard let status = FileNames.status(path) else { return true }
        // A FIFO or device is never opened (it could block): not a page mosaic wrote.
        guard (status.st_mode & S_IFMT) == S_IFREG else { return false }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        let head = String(decoding: handle.readData(ofLength: 1024), as: UTF8.self)
        try? handle.close()
        return head.contains("<meta name=\"generator\" content=\"\(generator)\">") || head.hasPrefix(mapPrefix)
    }

    /// How a map script begins.
    static let mapPrefix = "window.mosaicMap = {"

    /// The pyramid the viewer shows: its kind, tile grid and folder.
    public struct Pyramid: Sendable {
        /// "dzi" or "iiif".
        public var kind: String
        /// A tile's path in the folder, to fill in (`PyramidFormat.viewerTilePath`): the page
        /// reads it, and knows no format.
        public var tilePath: String
        public var tileSize: Int
        public var overlap: Int
        /// The tiles' file extension.
        public var fileExtension: String
        /// How many levels (DZI) or scale factors (IIIF).
        public var levels: Int
        /// The tiles' folder.
        public var folder: String

        public init(kind: String, tilePath: String, tileSize: Int, overlap: Int, fileExtension: String, levels: Int, folder: String) {
            self.kind = kind
            self.tilePath = tilePath
            self.tileSize = tileSize
            self.overlap = overlap
            self.fileExtension = fileExtension
            self.levels = levels
            self.folder = folder
        }
    }

    /// The page (fixed: the board is in the map script).
    public func html(title: String) -> Data {
        let mapName = WebText.percentEncoded((mapScript as NSString).lastPathComponent)
        return Data(
            Self.template.replacingOccurrences(of: "@TITLE@", with: WebText.escapeHTML(title))
                .replacingOccurrences(of: "@MAP@", with: mapName).utf8)
    }

    /// Writes the map script for `sheet` drawn as `pyramid`: cards as
    /// `[x, y, width, height, title, description, name, link]`, headers as
    /// `[x, y, width, height, text]`, streamed.
    public func writeMap(_ sheet: ContactSheet, pyramid: Pyramid, to stream: JSONStream) throws(SheetError) {
        let size = sheet.layout.pageSize(0)
        let pageFolder = OutputCheck.resolved((page as NSString).deletingLastPathComponent.isEmpty ? "." : (page as NSString).deletingLastPathComponent)
        let background = sheet.options.style.background
        try stream.write("window.mosaicMap = {")
        try stream.write("\"width\":")
        try stream.write(size.width)
        try stream.write(",\"height\":")
        try stream.write(size.height)
        try stream.write(",\"kind\":")
        try stream.write(string: pyramid.kind)
        try stream.write(",\"tilePath\":")
        try stream.write(string: pyramid.tilePath)
        try stream.write(",\"tileSize\":")
        try stream.write(pyramid.tileSize)
        try stream.write(",\"overlap\":")
        try stream.write(pyramid.overlap)
        try stream.write(",\"ext\":")
        try stream.write(string: pyramid.fileExtension)
        try stream.write(",\"levels\":")
        try stream.write(pyramid.levels)
        try stream.write(",\"folder\":")
        try stream.write(string: WebText.percentEncoded((pyramid.folder as NSString).lastPathComponent))
        try stream.write(",\"background\":")
        try stream.write(string: String(format: "rgba(%d,%d,%d,%.3f)", background.red, background.green, background.blue, Double(background.alpha) / 255))
        try stream.write(",\"title\":")
        try stream.write(string: sheet.hasTitle ? (sheet.headers.first.flatMap { $0 } ?? "") : "")
        try stream.write(",\n\"cards\":[")
        var first = true
        // Band by band (each element once, in the band where it starts): the page's list of
        // elements is never made whole. Folders are resolved once each, not once a card.
        var resolvedFolders: [String: String] = [:]
        func link(_ path: String) -> String {
            let folder = (path as NSString).deletingLastPathComponent
            let resolved = resolvedFolders[folder] ?? OutputCheck.resolved(folder.isEmpty ? "." : folder)
            resolvedFolders[folder] = resolved
            return WebText.relativeURL(from: pageFolder, to: resolved + "/" + (path as NSString).lastPathComponent)
        }
        let band = 4096
        var top = 0
        repeat {
            let elements = sheet.layout.elements(in: Rect(x: 0, y: top, width: max(1, size.width), height: band), page: 0)
            for element in elements where element.kind == .card || element.kind == .header {
                // Each element in the band where it starts (the first band takes any above).
                guard element.frame.minY < top + band, element.frame.minY >= top || top == 0 else { continue }
                try stream.write(first ? "\n[" : ",\n[")
                first = false
                try stream.write(element.frame.minX)
                try stream.write(",")
                try stream.write(element.frame.minY)
                try stream.write(",")
                try stream.write(element.frame.width)
                try stream.write(",")
                try stream.write(element.frame.height)
                if element.kind == .header {
                    try stream.write(",")
                    try stream.write(string: sheet.headers[element.section] ?? "")
                    try stream.write("]")
                    continue
                }
                guard let path = element.itemPath else { continue }
                let card = sheet.card(path)
                try stream.write(",")
                try stream.write(string: card.caption?.title ?? "")
                try stream.write(",")
                try stream.write(string: card.caption?.description ?? "")
                try stream.write(",")
                try stream.write(string: FileNames.display(card.entry.relativePath))
                try stream.write(",")
                try stream.write(string: link(card.entry.path))
                try stream.write("]")
            }
            top += band
        } while top < size.height
        try stream.write("\n]};\n")
        try stream.flush()
    }

    /// The page: styles and the viewer's code. Cards and headers share the map's `cards`
    /// array (a header has five fields, a card eight).
    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="generator" content="mosaic viewer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
html, body { margin: 0; height: 100%; overflow: hidden; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: #1f2328; }
#board { position: absolute; inset: 0; cursor: grab; touch-action: none; }
#board.dragging { cursor: grabbing; }
#board.over { cursor: pointer; }
#panel { position: absolute; top: 12px; left: 12px; width: 300px; max-height: calc(100% - 24px); display: flex; flex-direction: column; background: rgba(255,255,255,.94); border: 1px solid #d1d9e0; border-radius: 8px; box-shadow: 0 2px 12px rgba(0,0,0,.12); }
#panel h1 { margin: 10px 12px 6px; font-size: 15px; }
#search { margin: 0 12px 8px; padding: 6px 8px; font: inherit; border: 1px solid #d1d9e0; border-radius: 6px; }
#results, #toc { overflow: auto; margin: 0; padding: 0 0 8px; list-style: none; }
#results li, #toc li { padding: 3px 12px; cursor: pointer; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
#results li:hover, #toc li:hover, #results li.active { background: #eef2f6; }
#toc { border-top: 1px solid #d1d9e0; padding-top: 6px; }
#count { margin: 0 12px 6px; color: #59636e; font-size: 12px; }
#tip { position: absolute; pointer-events: none; max-width: 320px; padding: 6px 9px; background: rgba(31,35,40,.92); color: #fff; border-radius: 6px; font-size: 13px; display: none; }
#tip b { display: block; }
#tip small { color: #c9d1d9; display: block; }
#zoom { position: absolute; right: 12px; bottom: 12px; display: flex; gap: 4px; }
#zoom button { width: 34px; height: 34px; font: 18px system-ui; border: 1px solid #d1d9e0; border-radius: 6px; background: #fff; cursor: pointer; }
</style>
</head>
<body>
<canvas id="board" aria-label="The board: drag to pan, wheel to zoom, click a card to open it"></canvas>
<div id="panel">
<h1 id="title"></h1>
<input id="search" type="search" placeholder="Find a card…" aria-label="Find a card by caption or file name">
<p id="count"></p>
<ul id="results"></ul>
<ul id="toc" aria-label="Sections"></ul>
</div>
<div id="tip"></div>
<div id="zoom"><button id="in" title="Zoom in (+)">+</button><button id="out" title="Zoom out (-)">−</button><button id="fit" title="Whole board (0)">⤢</button></div>
<noscript><p>This viewer draws the board with its own script; allow JavaScript for this file.</p></noscript>
<script src="@MAP@"></script>
<script>
"use strict";
const M = window.mosaicMap;
const canvas = document.getElementById("board"), ctx = canvas.getContext("2d");
const $ = (id) => document.getElementById(id);
const T = M.tileSize, O = M.overlap, K = M.levels;
const cards = [], headers = [];
for (const e of M.cards) (e.length === 5 ? headers : cards).push(e);
// Cards in 1024 px buckets, for the card under the pointer.
const B = 1024, buckets = new Map();
cards.forEach((c, i) => {
  for (let by = Math.floor(c[1] / B); by <= Math.floor((c[1] + c[3]) / B); by++)
    for (let bx = Math.floor(c[0] / B); bx <= Math.floor((c[0] + c[2]) / B); bx++) {
      const key = bx + "," + by;
      if (!buckets.has(key)) buckets.set(key, []);
      buckets.get(key).push(i);
    }
});
function cardAt(x, y) {
  for (const i of buckets.get(Math.floor(x / B) + "," + Math.floor(y / B)) || []) {
    const c = cards[i];
    if (x >= c[0] && y >= c[1] && x < c[0] + c[2] && y < c[1] + c[3]) return i;
  }
  return -1;
}
// The view: a board point (x, y) shows at ((x - view.x) * view.s, (y - view.y) * view.s).
const view = { x: 0, y: 0, s: 1 };
let width = 0, height = 0, dirty = true, hover = -1, marked = -1, markedUntil = 0, loaded = 0, broken = 0;
function fitScale() { return Math.min(width / M.width, height / M.height) * 0.96; }
function clampScale(s) { return Math.max(Math.min(fitScale(), 1) / 2, Math.min(16, s)); }
// The whole board, beside the panel when the window is wide enough.
function fit() {
  const left = width > 900 ? 324 : 0;
  view.s = Math.min((width - left) / M.width, height / M.height) * 0.96;
  view.x = (M.width - (width - left) / view.s) / 2 - left / view.s;
  view.y = (M.height - height / view.s) / 2;
  dirty = true;
}
// The first view: the whole board, unless it is so long that the whole would be a sliver;
// then its start, as wide (or as tall, across a horizontal board) as the window.
function start() {
  const left = width > 900 ? 324 : 0, room = width - left, tall = M.height >= M.width;
  const whole = Math.min(room / M.width, height / M.height), across = tall ? room / M.width : height / M.height;
  if (whole * 4 >= across) { fit(); return; }
  view.s = Math.min(across * 0.96, 1);
  view.x = tall ? (M.width - room / view.s) / 2 - left / view.s : -left / view.s;
  view.y = tall ? -16 / view.s : (M.height - height / view.s) / 2;
  dirty = true;
}
function resize() {
  const ratio = window.devicePixelRatio || 1;
  width = window.innerWidth; height = window.innerHeight;
  canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
  canvas.style.width = width + "px"; canvas.style.height = height + "px";
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  dirty = true;
}
// Tiles: reduction k (0: full size) holds the board halved k times, rounded up.
const cache = new Map();
function levelSize(k) { const f = 2 ** k; return [Math.ceil(M.width / f), Math.ceil(M.height / f)]; }
// The tile's path is the pyramid format's (M.tilePath), its fields filled in here.
function tileURL(k, c, r) {
  const f = 2 ** k, x = c * T * f, y = r * T * f;
  const w = Math.min(T * f, M.width - x), h = Math.min(T * f, M.height - y);
  const fields = { level: K - 1 - k, column: c, row: r, x: x, y: y, width: w, height: h,
    scaledWidth: Math.ceil(w / f), scaledHeight: Math.ceil(h / f), ext: M.ext };
  return M.folder + "/" + M.tilePath.replace(/\{(\w+)\}/g, (_, name) => String(fields[name]));
}
function tile(k, c, r, request) {
  const url = tileURL(k, c, r);
  let t = cache.get(url);
  if (!t && request) {
    t = new Image();
    t.onload = () => { dirty = true; document.body.dataset.tiles = String(++loaded); };
    t.onerror = () => { document.body.dataset.broken = String(++broken); };
    t.src = url;
    cache.set(url, t);
    if (cache.size > 800) cache.delete(cache.keys().next().value);
  }
  return t && t.complete && t.naturalWidth ? t : null;
}
function drawLevel(k, request) {
  const f = 2 ** k, [lw, lh] = levelSize(k), side = T * f;
  const c0 = Math.max(0, Math.floor(view.x / side)), c1 = Math.min(Math.ceil(lw / T) - 1, Math.floor((view.x + width / view.s) / side));
  const r0 = Math.max(0, Math.floor(view.y / side)), r1 = Math.min(Math.ceil(lh / T) - 1, Math.floor((view.y + height / view.s) / side));
  let missing = 0;
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) {
    const img = tile(k, c, r, request);
    if (!img) { missing++; continue; }
    const ox = c > 0 ? O : 0, oy = r > 0 ? O : 0;
    const w = Math.min(T, lw - c * T), h = Math.min(T, lh - r * T);
    ctx.drawImage(img, ox, oy, w, h, (c * side - view.x) * view.s, (r * side - view.y) * view.s, w * f * view.s, h * f * view.s);
  }
  return missing;
}
function outline(i, colour, width) {
  const c = cards[i];
  ctx.strokeStyle = colour; ctx.lineWidth = width;
  ctx.strokeRect((c[0] - view.x) * view.s - width / 2, (c[1] - view.y) * view.s - width / 2, c[2] * view.s + width, c[3] * view.s + width);
}
function draw() {
  ctx.fillStyle = M.background; ctx.clearRect(0, 0, width, height); ctx.fillRect(0, 0, width, height);
  // The level whose pixels are at least as fine as the screen's; coarser ones under it
  // while its tiles load.
  const k = Math.max(0, Math.min(K - 1, Math.floor(Math.log2(1 / view.s) + 1e-9)));
  const coarse = Math.min(K - 1, k + 3);
  for (let j = coarse; j > k; j--) drawLevel(j, j === coarse);
  const missing = drawLevel(k, true);
  if (hover >= 0) outline(hover, "rgba(9,105,218,.9)", 2);
  if (marked >= 0 && performance.now() < markedUntil) { outline(marked, "#e11d48", 3); dirty = true; }
  document.body.dataset.view = [view.x.toFixed(1), view.y.toFixed(1), view.s.toFixed(4), k, missing].join(",");
}
function frame() {
  if (dirty) { dirty = false; draw(); }
  requestAnimationFrame(frame);
}
function zoomAt(px, py, factor) {
  const s = clampScale(view.s * factor), bx = view.x + px / view.s, by = view.y + py / view.s;
  view.x = bx - px / s; view.y = by - py / s; view.s = s; dirty = true;
}
// Flies to a board rectangle so that it fills most of the screen.
let flight = null;
function flyTo(x, y, w, h, done) {
  // Into the space beside the panel when the window is wide enough.
  const left = width > 900 ? 324 : 0, room = width - left;
  const s = clampScale(Math.min(room * 0.7 / w, height * 0.7 / h));
  const target = { x: x + w / 2 - (left + room / 2) / s, y: y + h / 2 - height / (2 * s), s };
  const start = { ...view }, began = performance.now(), ms = 450;
  cancelAnimationFrame(flight);
  const step = (now) => {
    const t = Math.min(1, (now - began) / ms), e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
    const s = Math.exp(Math.log(start.s) + (Math.log(target.s) - Math.log(start.s)) * e);
    const cx = start.x + width / (2 * start.s), cy = start.y + height / (2 * start.s);
    const tx = target.x + width / (2 * target.s), ty = target.y + height / (2 * target.s);
    view.s = s; view.x = cx + (tx - cx) * e - width / (2 * s); view.y = cy + (ty - cy) * e - height / (2 * s);
    dirty = true;
    if (t < 1) flight = requestAnimationFrame(step); else if (done) done();
  };
  flight = requestAnimationFrame(step);
}
function flyToCard(i) {
  const c = cards[i];
  marked = i; markedUntil = performance.now() + 2500;
  flyTo(c[0], c[1], c[2], c[3], () => { document.body.dataset.arrived = String(i); });
}
// A card's original, in a new tab, as a link to it would open it.
function open(i) {
  const link = cards[i][7], a = document.createElement("a");
  a.href = link; a.target = "_blank"; a.rel = "noopener";
  document.body.dataset.opened = link;
  a.click();
}
// Pointer: drag to pan, a click (no drag) opens the card under it.
let drag = null;
canvas.addEventListener("pointerdown", (e) => {
  drag = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false };
  canvas.setPointerCapture(e.pointerId);
});
canvas.addEventListener("pointermove", (e) => {
  if (drag) {
    if (Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4) { drag.moved = true; canvas.classList.add("dragging"); }
    if (drag.moved) { view.x = drag.vx - (e.clientX - drag.x) / view.s; view.y = drag.vy - (e.clientY - drag.y) / view.s; dirty = true; }
    return;
  }
  const i = cardAt(view.x + e.clientX / view.s, view.y + e.clientY / view.s);
  if (i !== hover) { hover = i; dirty = true; }
  canvas.classList.toggle("over", i >= 0);
  const tip = $("tip");
  if (i < 0) { tip.style.display = "none"; return; }
  const c = cards[i];
  tip.replaceChildren();
  if (c[4]) { const b = document.createElement("b"); b.textContent = c[4]; tip.append(b); }
  if (c[5]) tip.append(document.createTextNode(c[5]));
  const small = document.createElement("small"); small.textContent = c[6]; tip.append(small);
  tip.style.display = "block";
  tip.style.left = Math.min(e.clientX + 14, width - tip.offsetWidth - 8) + "px";
  tip.style.top = Math.min(e.clientY + 14, height - tip.offsetHeight - 8) + "px";
  document.body.dataset.hover = String(i);
});
canvas.addEventListener("pointerup", (e) => {
  const wasDrag = drag && drag.moved;
  drag = null; canvas.classList.remove("dragging");
  if (wasDrag) return;
  const i = cardAt(view.x + e.clientX / view.s, view.y + e.clientY / view.s);
  if (i >= 0) open(i);
});
canvas.addEventListener("pointerleave", () => { hover = -1; $("tip").style.display = "none"; dirty = true; });
canvas.addEventListener("wheel", (e) => { e.preventDefault(); zoomAt(e.clientX, e.clientY, Math.exp(-e.deltaY * 0.0015)); }, { passive: false });
canvas.addEventListener("dblclick", (e) => zoomAt(e.clientX, e.clientY, 2));
$("in").onclick = () => zoomAt(width / 2, height / 2, 1.6);
$("out").onclick = () => zoomAt(width / 2, height / 2, 1 / 1.6);
$("fit").onclick = fit;
window.addEventListener("keydown", (e) => {
  if (e.target === $("search")) return;
  const step = 120 / view.s;
  if (e.key === "+" || e.key === "=") zoomAt(width / 2, height / 2, 1.6);
  else if (e.key === "-") zoomAt(width / 2, height / 2, 1 / 1.6);
  else if (e.key === "0") fit();
  else if (e.key === "ArrowLeft") view.x -= step; else if (e.key === "ArrowRight") view.x += step;
  else if (e.key === "ArrowUp") view.y -= step; else if (e.key === "ArrowDown") view.y += step;
  else return;
  dirty = true;
});
// Search: captions and file names; Enter (or a click) flies to the card.
let found = [], active = 0;
function search(text) {
  const q = text.trim().toLowerCase();
  found = [];
  if (q) for (let i = 0; i < cards.length && found.length < 200; i++) {
    const c = cards[i];
    if (c[4].toLowerCase().includes(q) || c[5].toLowerCase().includes(q) || c[6].toLowerCase().includes(q)) found.push(i);
  }
  active = 0;
  const list = $("results");
  list.replaceChildren(...found.slice(0, 50).map((i, n) => {
    const li = document.createElement("li");
    li.textContent = cards[i][4] || cards[i][6];
    li.title = cards[i][6];
    if (n === 0) li.className = "active";
    li.onclick = () => flyToCard(i);
    return li;
  }));
  $("count").textContent = q ? (found.length ? `${found.length >= 200 ? "200+" : found.length} found` : "nothing found") : `${cards.length} cards`;
  document.body.dataset.found = String(found.length);
}
$("search").addEventListener("input", (e) => search(e.target.value));
$("search").addEventListener("keydown", (e) => { if (e.key === "Enter" && found.length) flyToCard(found[active]); });
// Sections: the headers, a table of contents.
// (The sheet's title heads the panel already.)
$("toc").replaceChildren(...headers.filter((h, n) => !(n === 0 && h[4] === M.title)).map((h) => {
  const li = document.createElement("li");
  li.textContent = h[4];
  li.onclick = () => flyTo(h[0], h[1], h[2], Math.max(h[3], Math.min(M.height - h[1], h[2] * height / width)));
  return li;
}));
$("title").textContent = M.title || document.title;
window.addEventListener("resize", () => { resize(); });
resize();
start();
search("");
const hash = new URLSearchParams(location.hash.slice(1));
if (hash.get("find")) { $("search").value = hash.get("find"); search(hash.get("find")); if (found.length) flyToCard(found[0]); }
window.mosaicViewer = { view, cards, cardAt, flyToCard, search };
document.body.dataset.ready = String(cards.length);
document.body.dataset.readyMs = String(Math.round(performance.now()));
requestAnimationFrame(frame);
</script>
</body>
</html>

"""#
}
