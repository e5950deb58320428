import Foundation

/// `mosaic diff --html report.html`: a static page, one file, its diff images in
/// `report_files/` beside it; baseline and current images linked where they are (relative
/// links, as reg-cli does), not copied, so a report of 10,000 screenshots weighs its diff
/// images and a few hundred bytes a pair.
///
/// The page lists problems first (changed worst first, failed, added, removed), then pairs
/// within the tolerance; unchanged pairs are counted, not listed. Rows are built from the
/// page's JSON a hundred at a time as the reader scrolls and images load lazily, so the page
/// opens as fast with 10,000 pairs as with 10. Its state (filter, search, view) lives in the
/// address's fragment (`#filter=failed&q=login&view=slider`), so a link shows what its
/// sender saw.
public struct DiffHTMLReport: Sendable {
    /// Where the page goes.
    public let path: String

    /// The baseline and current as the command named them, for the approving command the
    /// page offers (`mosaic diff BASE CUR --accept-only ...`); when nil, the folders the
    /// pairs lie in.
    public var inputs: (baseline: String, current: String)?

    /// A report to be written at `path` (a `.html` file).
    public init(path: String, inputs: (baseline: String, current: String)? = nil) {
        self.path = path
        self.inputs = inputs
    }

    /// The folder beside the page that holds the diff images: `report_files` for
    /// `report.html`.
    public var folder: String {
        (path as NSString).deletingPathExtension + "_files"
    }

    /// The file in `folder` that marks it as written by mosaic (a folder without it is
    /// never replaced).
    static let marker = ".mosaic-diff-report"

    // MARK: Writing

    /// Before any work: the folder is either absent or one mosaic wrote, and holds none of
    /// the images compared.
    ///
    /// - Throws: `SheetError.wouldReplaceAForeignFile` for a folder of someone else's,
    ///   `.outputIsAnInput` when an image compared lies inside it.
    public func check(reading inputs: [String]) throws(SheetError) {
        var reading = OutputCheck()
        reading.read(inputs)
        try StagedFolder.check(folder, marker: Self.marker, reading: reading)
    }

    /// A fresh hidden folder beside `folder` for the run's diff images, renamed into place
    /// by `commit`.
    ///
    /// - Throws: `SheetError.output(.cannotCreate)` with the system's reason.
    public func makeStagingFolder() throws(SheetError) -> StagedFolder {
        try StagedFolder(destination: folder, marker: Self.marker)
    }

    /// Writes the page for `report` (whose diff images are in `staging`) and moves the
    /// images' folder into place, replacing the previous run's: the folder first, then the
    /// page, each by a rename, so a reader never sees a page without its images.
    ///
    /// - Throws: `SheetError.output` when a file cannot be written or renamed.
    public func commit(_ report: DiffReport, staging: StagedFolder) throws(SheetError) {
        let pending = try PendingFile(Data(html(report).utf8), at: path)
        try staging.commit()
        try pending.commit()
    }

    // MARK: The page

    /// One listed pair, as the page's script reads it.
    struct Row: Encodable {
        /// Relative path, status, figures.
        var p: String
        var s: String
        var f: String?
        /// Links, relative to the page: baseline, current, diff image.
        var b: String?
        var c: String?
        var d: String?
        /// The changed pixels' box and the compared size, for the outlines and the inset.
        var box: [Int]?
        var size: [Int]?
        /// The changed regions' boxes, largest first: one outline each, the largest magnified.
        var rg: [[Int]]?
        /// Why a failed pair could not be read.
        var e: String?
        /// A pair the reviewer may approve (changed, added, removed): its name as one shell
        /// word (`ShellText.quoted`), and its exact bytes in base64 when not UTF-8 (for the
        /// downloadable `--accept-from` list).
        var q: String?
        var n: String?
    }

    struct Page: Encodable {
        var title: String
        var passes: Bool
        var counts: [String: Int]
        var baseline: String
        var current: String
        var settings: String
        /// The approving command's start: `mosaic diff 'BASE' 'CUR'`.
        var command: String
        var pairs: [Row]
    }

    /// The page's HTML for `report`, its diff images linked as they will be once their
    /// folder is in place.
    func html(_ report: DiffReport) -> String {
        let c = report.comparison
        let listed = report.changedBySeverity + c.failed + c.added + c.removed + c.withinTolerance
        let pageFolder = OutputCheck.resolved((path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
        let folderName = (folder as NSString).lastPathComponent
        func link(_ file: String?) -> String? {
            file.map { WebText.relativeURL(from: pageFolder, to: OutputCheck.resolved($0)) }
        }
        let rows = listed.map { r -> Row in
            var row = Row(p: FileNames.display(r.relativePath), s: r.status.rawValue)
            row.b = link(r.baselinePath)
            row.c = link(r.currentPath)
            if let diff = r.diffImagePath {
                row.d = WebText.percentEncoded(folderName) + "/" + WebText.percentEncoded((diff as NSString).lastPathComponent)
            }
            if let d = r.difference {
                row.f = report.figures(r)
                // Two sizes: each image at its own shape, no box (everything differs).
                if d.sizeMismatch == nil {
                    row.box = d.bounds.map { [$0.minX, $0.minY, $0.width, $0.height] }
                    row.size = [d.size.width, d.size.height]
                    if !d.regions.isEmpty { row.rg = d.regions.map { [$0.bounds.minX, $0.bounds.minY, $0.bounds.width, $0.bounds.height] } }
                }
            }
            row.e = r.error?.description
            if [.changed, .added, .removed].contains(r.status) {
                row.q = ShellText.quoted(r.relativePath)
                row.n = ReportedName(r.relativePath).sourceBytes
            }
            return row
        }
        var settings = "threshold \(report.options.threshold)"
        if report.options.includeAntialiasing { settings += ", anti-aliased pixels counted" }
        if let fraction = report.tolerance.maximumFraction {
            settings += ", tolerance \(fraction * 100)% of pixels"
        } else if report.tolerance.maximumPixels > 0 {
            settings += ", tolerance \(report.tolerance.maximumPixels) px"
        }
        if !report.options.ignoreRegions.isEmpty { settings += ", \(report.options.ignoreRegions.count) region(s) ignored" }
        if report.options.metric == .ssim { settings += ", passing at SSIM \(report.tolerance.minimumSSIM) or more (the pair's and each region's)" }
        let counts = [
            "changed": c.changed.count, "added": c.added.count, "removed": c.removed.count, "unchanged": c.unchanged.count,
            "withinTolerance": c.withinTolerance.count, "failed": c.failed.count,
        ]
        let baselineRoot = c.results.first?.baselinePath.map { Self.root(of: $0, relative: c.results.first?.relativePath) } ?? ""
        let currentRoot = c.results.first?.currentPath.map { Self.root(of: $0, relative: c.results.first?.relativePath) } ?? ""
        let (baselineArgument, currentArgument) = inputs ?? (baselineRoot, currentRoot)
        let page = Page(
            title: report.summaryLines().last ?? "", passes: c.passes, counts: counts,
            baseline: FileNames.display(baselineRoot), current: FileNames.display(currentRoot), settings: settings,
            command: "mosaic diff " + ShellText.quoted(baselineArgument) + " " + ShellText.quoted(currentArgument), pairs: rows)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Inside <script>, "<" may start "</script>" or "<!--": written as \u003c, which
        // JSON reads back as "<".
        let json = (try? encoder.encode(page)).map { String(decoding: $0, as: UTF8.self) } ?? "{\"pairs\":[]}"
        let data = json.replacingOccurrences(of: "<", with: "\\u003c")
        let title = WebText.escapeHTML("mosaic diff: " + (c.passes ? "passed" : "failed"))
        return Self.template
            .replacingOccurrences(of: "@TITLE@", with: title)
            .replacingOccurrences(of: "@DATA@", with: data)
    }

    /// The folder a pair's file lies in, less its relative path: the folder compared.
    static func root(of file: String, relative: String?) -> String {
        guard let relative, file.hasSuffix("/" + relative) else { return file }
        return String(file.dropLast(relative.count + 1))
    }

    /// The page: styles, the data, and the script that lists it. No network, no library.
    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="mosaic diff">
<title>@TITLE@</title>
<style>
:root { --fail: #e11d48; --ok: #15803d; --warn: #b45309; --ink: #1f2328; --mute: #59636e; --line: #d1d9e0; --card: #fff; --bg: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif; color: var(--ink); background: var(--bg); }
header { padding: 20px 24px 12px; background: var(--card); border-bottom: 1px solid var(--line); }
h1 { margin: 0 0 4px; font-size: 22px; }
h1 .verdict { display: inline-block; margin-left: 8px; padding: 1px 10px; border-radius: 12px; font-size: 14px; color: #fff; vertical-align: 3px; }
.verdict.pass { background: var(--ok); } .verdict.fail { background: var(--fail); }
.meta { margin: 0; color: var(--mute); word-break: break-all; }
nav { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; padding: 10px 24px; background: var(--card); border-bottom: 1px solid var(--line); }
nav button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 14px; background: var(--card); cursor: pointer; }
nav button[aria-pressed="true"] { background: var(--ink); border-color: var(--ink); color: #fff; }
nav button:disabled { opacity: .45; cursor: default; }
nav input[type=search] { font: inherit; padding: 4px 8px; min-width: 220px; border: 1px solid var(--line); border-radius: 6px; }
nav .views { margin-left: auto; display: flex; gap: 4px; }
#status { padding: 8px 24px; color: var(--mute); }
main { padding: 0 24px 24px; }
article { margin: 0 0 16px; padding: 12px 16px; background: var(--card); border: 1px solid var(--line); border-radius: 8px; border-left: 4px solid var(--mute); }
article.changed, article.failed, article.added, article.removed { border-left-color: var(--fail); }
article.withinTolerance { border-left-color: var(--warn); }
article h2 { margin: 0; font-size: 15px; word-break: break-all; }
article h2 a { color: inherit; text-decoration: none; }
.badge { display: inline-block; margin-right: 8px; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: var(--fail); vertical-align: 1px; }
.withinTolerance .badge { background: var(--warn); }
.figures { margin: 2px 0 8px; color: var(--mute); font-variant-numeric: tabular-nums; }
.error { color: var(--fail); }
.panes { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
figure { margin: 0; }
figcaption { color: var(--mute); font-size: 12px; }
.frame { position: relative; height: 260px; max-width: 100%; background: repeating-conic-gradient(#eee 0% 25%, #fff 0% 50%) 0 0 / 16px 16px; border: 1px solid var(--line); cursor: zoom-in; }
.frame img { display: block; height: 100%; width: 100%; object-fit: contain; }
.frame .top { position: absolute; inset: 0; }
.box { position: absolute; min-width: 14px; min-height: 14px; border: 2px solid var(--fail); transform: translate(-2px, -2px); pointer-events: none; }
.zoom { width: 192px; height: 192px; border: 1px solid var(--line); background-repeat: no-repeat; image-rendering: pixelated; position: relative; overflow: hidden; }
.zoom .box { min-width: 0; min-height: 0; }
.slider input { position: absolute; left: 0; right: 0; bottom: 4px; width: 100%; z-index: 1; }
.frame.toggle { cursor: pointer; }
#more { height: 1px; }
noscript p { padding: 24px; }
.approve-tick { margin-left: 10px; font-size: 13px; font-weight: normal; color: var(--mute); white-space: nowrap; cursor: pointer; }
#approve { position: sticky; bottom: 0; z-index: 2; padding: 10px 24px; background: var(--card); border-top: 1px solid var(--line); box-shadow: 0 -2px 8px rgba(0, 0, 0, .08); }
#approve[hidden] { display: none; }
#approve pre { margin: 6px 0; padding: 8px 10px; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; word-break: break-all; max-height: 9em; overflow: auto; }
#approve .actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
#approve button, #approve a.button { font: inherit; padding: 3px 10px; border: 1px solid var(--line); border-radius: 6px; background: var(--card); color: inherit; text-decoration: none; cursor: pointer; }
#approve .meta { word-break: break-all; }
</style>
</head>
<body>
<header>
<h1>mosaic diff <span class="verdict" id="verdict"></span></h1>
<p class="meta" id="summary"></p>
<p class="meta" id="roots"></p>
</header>
<nav aria-label="Filter">
<div id="filters"></div>
<input type="search" id="search" placeholder="Find a file…" aria-label="Find a file">
<div class="views" role="group" aria-label="View">
<button data-view="side">Side by side</button><button data-view="slider">Slider</button><button data-view="toggle">Toggle</button>
</div>
</nav>
<div id="status"></div>
<main id="list"></main>
<div id="more"></div>
<section id="approve" aria-label="Approve" hidden>
<strong id="approve-count"></strong> To make their current images the baselines, run this where the report was made (a page cannot write files):
<pre><code id="accept-command"></code></pre>
<div class="actions"><button type="button" id="copy-command">Copy the command</button> <a class="button" id="accept-list" download="accept.txt">Download the list</a> <span class="meta" id="accept-list-hint"></span> <button type="button" id="untick">Clear</button></div>
</section>
<noscript><p>This report is built by its own script from the data in the page; allow JavaScript for this file. The same figures are in <code>mosaic diff --json</code>.</p></noscript>
<script type="application/json" id="data">@DATA@</script>
<script>
"use strict";
const data = JSON.parse(document.getElementById("data").textContent);
const BATCH = 100, PANE = 260;
const problems = new Set(["changed", "failed", "added", "removed"]);
const filters = [["problems", "Problems"], ["changed", "Changed"], ["failed", "Failed"], ["added", "Added"], ["removed", "Removed"], ["withinTolerance", "Within tolerance"], ["all", "All listed"]];
const state = { filter: "problems", q: "", view: "side" };
let shown = [], next = 0;
const $ = (id) => document.getElementById(id);
// Images loaded and failed so far, on <body> for whoever watches (the tests do).
let loaded = 0, broken = 0;
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  if (tag === "img") {
    node.addEventListener("load", () => { document.body.dataset.loaded = String(++loaded); });
    node.addEventListener("error", () => { document.body.dataset.broken = String(++broken); });
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}
function count(status) {
  if (status === "problems") return ["changed", "failed", "added", "removed"].reduce((n, s) => n + (data.counts[s] || 0), 0);
  if (status === "all") return data.pairs.length;
  return data.counts[status] || 0;
}
function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  state.filter = filters.some(([k]) => k === h.get("filter")) ? h.get("filter") : (count("problems") ? "problems" : "all");
  state.q = h.get("q") || "";
  state.view = ["side", "slider", "toggle"].includes(h.get("view")) ? h.get("view") : "side";
}
function writeHash() {
  const h = new URLSearchParams();
  h.set("filter", state.filter);
  if (state.q) h.set("q", state.q);
  if (state.view !== "side") h.set("view", state.view);
  history.replaceState(null, "", "#" + h.toString());
}
function matches(p) {
  if (state.filter === "problems" && !problems.has(p.s)) return false;
  if (state.filter !== "problems" && state.filter !== "all" && p.s !== state.filter) return false;
  return !state.q || p.p.toLowerCase().includes(state.q.toLowerCase());
}
// One outline per changed region (a report without regions: the one box).
function regions(p) { return p.rg || (p.box ? [p.box] : []); }
function box(p) {
  if (!p.size) return [];
  const [W, H] = p.size;
  return regions(p).map(([x, y, w, h]) =>
    el("div", { class: "box", style: `left:${100 * x / W}%;top:${100 * y / H}%;width:${100 * w / W}%;height:${100 * h / H}%` }));
}
function frame(p, src, label, extra) {
  const ratio = p.size ? `aspect-ratio:${p.size[0]}/${p.size[1]};` : "";
  const f = el("div", { class: "frame " + (extra || ""), style: ratio });
  f.append(el("img", { src: src, loading: "lazy", decoding: "async", alt: label + ": " + p.p }));
  return f;
}
function pane(p, src, label, outline) {
  const f = frame(p, src, label);
  if (outline) f.append(...box(p));
  f.addEventListener("click", () => window.open(src, "_blank"));
  return el("figure", {}, f, el("figcaption", { text: label }));
}
// A change too small to see at the panes' scale: the area around it, magnified with
// square pixels, for each side; for each of the three largest regions.
function insets(p) {
  if (!p.size || !p.b || !p.c) return [];
  return regions(p).slice(0, 3).flatMap((r, n) => inset(p, r, regions(p).length > 1 ? ` (region ${n + 1})` : ""));
}
function inset(p, [x, y, w, h], suffix) {
  const [W, H] = p.size;
  const scale = Math.min(PANE / H, 1);
  if (Math.min(w, h) * scale >= 24) return [];
  const side = Math.min(96, Math.max(32, 2 * Math.max(w, h))), zoom = Math.max(2, Math.min(16, Math.floor(192 / side)));
  const rx = Math.round(x + w / 2 - side / 2), ry = Math.round(y + h / 2 - side / 2);
  return [["baseline, magnified" + suffix, p.b], ["current, magnified" + suffix, p.c]].map(([label, src]) => {
    const z = el("div", { class: "zoom", role: "img", "aria-label": label });
    z.style.backgroundImage = `url("${src}")`;
    z.style.backgroundSize = `${W * zoom}px ${H * zoom}px`;
    z.style.backgroundPosition = `${-rx * zoom}px ${-ry * zoom}px`;
    z.style.width = z.style.height = `${side * zoom}px`;
    z.append(el("div", { class: "box", style: `left:${(x - rx) * zoom}px;top:${(y - ry) * zoom}px;width:${w * zoom + 4}px;height:${h * zoom + 4}px` }));
    return el("figure", {}, z, el("figcaption", { text: label }));
  });
}
function compare(p) {
  if (state.view === "slider") {
    const f = frame(p, p.b, "baseline", "slider");
    const top = el("img", { class: "top", src: p.c, loading: "lazy", alt: "current: " + p.p, style: "clip-path: inset(0 0 0 50%)" });
    const range = el("input", { type: "range", min: "0", max: "100", value: "50", "aria-label": "baseline | current" });
    range.addEventListener("input", () => { top.style.clipPath = `inset(0 0 0 ${range.value}%)`; });
    f.append(top, range);
    f.append(...box(p));
    return [el("figure", {}, f, el("figcaption", { text: "baseline | current (drag)" }))];
  }
  if (state.view === "toggle") {
    const f = frame(p, p.b, "baseline", "toggle");
    const img = f.querySelector("img"), caption = el("figcaption", { text: "baseline (click: current)" });
    let current = false;
    f.addEventListener("click", () => {
      current = !current;
      img.src = current ? p.c : p.b;
      caption.textContent = current ? "current (click: baseline)" : "baseline (click: current)";
    });
    f.append(...box(p));
    return [el("figure", {}, f, caption)];
  }
  return [pane(p, p.b, "baseline", true), pane(p, p.c, "current", true)];
}
// Approving: the ticked pairs (by index in data.pairs) and the command that approves them,
// each name a shell word made by mosaic (p.q); the list for --accept-from as the names'
// bytes (p.n when they are not UTF-8), one a line.
data.pairs.forEach((p, i) => { p.i = i; });
const ticked = new Set();
let listURL = null;
function nameBytes(p) { return p.n ? Uint8Array.from(atob(p.n), (c) => c.charCodeAt(0)) : new TextEncoder().encode(p.p); }
function updateApproval() {
  const chosen = data.pairs.filter((p) => ticked.has(p.i));
  document.body.dataset.ticked = String(chosen.length);
  $("approve").hidden = chosen.length === 0;
  if (!chosen.length) return;
  const removed = chosen.some((p) => p.s === "removed") ? " --accept-removed" : "";
  $("approve-count").textContent = chosen.length === 1 ? "1 pair ticked." : `${chosen.length} pairs ticked.`;
  $("accept-command").textContent = data.command + chosen.map((p) => " --accept-only " + p.q).join("") + removed;
  const listed = chosen.map(nameBytes).filter((b) => !b.includes(10));
  const parts = [];
  for (const b of listed) parts.push(b, new Uint8Array([10]));
  if (listURL) URL.revokeObjectURL(listURL);
  listURL = URL.createObjectURL(new Blob(parts, { type: "text/plain" }));
  $("accept-list").href = listURL;
  const left = chosen.length - listed.length;
  $("accept-list-hint").textContent = `for ${data.command} --accept-from accept.txt${removed}` + (left ? ` (${left} with a line break in the name left out: use the command)` : "");
}
function tick(p) {
  const box = el("input", { type: "checkbox", class: "approve", "data-pair": String(p.i) });
  box.checked = ticked.has(p.i);
  box.addEventListener("change", () => { if (box.checked) ticked.add(p.i); else ticked.delete(p.i); updateApproval(); });
  return el("label", { class: "approve-tick", title: "Add to the command that makes the current image the baseline" }, box, " approve");
}
function row(p, index) {
  const a = el("article", { class: p.s, id: "pair-" + index, "data-status": p.s });
  const title = el("h2", {}, el("span", { class: "badge", text: p.s === "withinTolerance" ? "within tolerance" : p.s }), el("span", { text: p.p }));
  if (p.q) title.append(tick(p));
  a.append(title);
  if (p.f) a.append(el("p", { class: "figures", text: p.f }));
  if (p.e) a.append(el("p", { class: "error", text: p.e }));
  const panes = el("div", { class: "panes" });
  if ((p.s === "changed" || p.s === "withinTolerance") && p.b && p.c) {
    panes.append(...compare(p));
    if (p.d) panes.append(pane(p, p.d, "diff", true));
    panes.append(...insets(p));
  } else if (p.s === "added" && p.c) {
    panes.append(pane({ p: p.p }, p.c, "current (no baseline)"));
  } else if (p.s === "removed" && p.b) {
    panes.append(pane({ p: p.p }, p.b, "baseline (no current image)"));
  } else if (p.s === "failed") {
    for (const [label, src] of [["baseline", p.b], ["current", p.c]]) if (src) panes.append(el("a", { href: src, text: label + " file" }), " ");
  }
  a.append(panes);
  return a;
}
function more() {
  const end = Math.min(shown.length, next + BATCH), fragment = document.createDocumentFragment();
  for (; next < end; next++) fragment.append(row(shown[next], next));
  $("list").append(fragment);
  $("status").textContent = shown.length ? `Showing ${next} of ${shown.length}` + (next < shown.length ? " (scroll for more)" : "") : "Nothing to show here.";
  document.body.dataset.rendered = String(next);
}
function render() {
  shown = data.pairs.filter(matches);
  next = 0;
  $("list").textContent = "";
  for (const b of document.querySelectorAll("#filters button")) b.setAttribute("aria-pressed", String(b.dataset.filter === state.filter));
  for (const b of document.querySelectorAll(".views button")) b.setAttribute("aria-pressed", String(b.dataset.view === state.view));
  $("search").value = state.q;
  more();
  writeHash();
}
$("verdict").textContent = data.passes ? "passed" : "failed";
$("verdict").className = "verdict " + (data.passes ? "pass" : "fail");
$("summary").textContent = data.title + ". " + data.settings + (data.counts.unchanged ? `; unchanged pairs (${data.counts.unchanged}) are counted, not listed.` : ".");
$("roots").textContent = "baseline: " + data.baseline + "  ·  current: " + data.current;
for (const [key, label] of filters) {
  const b = el("button", { "data-filter": key, text: `${label} (${count(key)})` });
  if (!count(key) && key !== "all") b.disabled = true;
  b.addEventListener("click", () => { state.filter = key; render(); });
  $("filters").append(b, " ");
}
for (const b of document.querySelectorAll(".views button")) b.addEventListener("click", () => { state.view = b.dataset.view; render(); });
let typing;
$("search").addEventListener("input", () => { clearTimeout(typing); typing = setTimeout(() => { state.q = $("search").value; render(); }, 150); });
window.addEventListener("hashchange", () => { readHash(); render(); });
// The sentinel under the list: when it comes near, the next rows; observed afresh after
// each batch, so that a batch too short to push it away is followed by another.
const observer = new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting) && next < shown.length) { more(); observer.unobserve($("more")); observer.observe($("more")); }
}, { rootMargin: "800px" });
observer.observe($("more"));
$("copy-command").addEventListener("click", async () => {
  const code = $("accept-command");
  try {
    await navigator.clipboard.writeText(code.textContent);
    $("copy-command").textContent = "Copied";
  } catch {
    // No clipboard for this page: the command selected, for the reader's own copy.
    const range = document.createRange();
    range.selectNodeContents(code);
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $("copy-command").textContent = document.execCommand("copy") ? "Copied" : "Selected: copy it";
  }
  setTimeout(() => { $("copy-command").textContent = "Copy the command"; }, 2000);
});
$("untick").addEventListener("click", () => {
  ticked.clear();
  for (const b of document.querySelectorAll("input.approve")) b.checked = false;
  updateApproval();
});
readHash();
render();
document.body.dataset.ready = String(Math.round(performance.now()));
</script>
</body>
</html>

"""#
}
