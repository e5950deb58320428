import Foundation
@_exported import MosaicDiff

/// Reports of a folder comparison: a board PNG, JSON, JUnit XML.
public struct DiffReport: Sendable {
    public let comparison: FolderComparison
    public let options: ComparisonOptions
    public let tolerance: DiffTolerance

    public init(comparison: FolderComparison, options: ComparisonOptions, tolerance: DiffTolerance) {
        self.comparison = comparison
        self.options = options
        self.tolerance = tolerance
    }

    /// Changed pairs, worst first (a size mismatch counts as everything differing).
    public var changedBySeverity: [PairResult] {
        comparison.changed.sorted { severity($0) > severity($1) || (severity($0) == severity($1) && $0.relativePath < $1.relativePath) }
    }

    func severity(_ result: PairResult) -> Double {
        guard let difference = result.difference else { return 0 }
        return difference.sizeMismatch != nil ? 2 : difference.fraction
    }

    /// One line per pair for people: "changed  a/b.png: 1234 px (0.52%) in 10,20 30x40".
    public func summaryLines() -> [String] {
        var lines: [String] = []
        for result in changedBySeverity { lines.append("changed    \(result.relativePath): \(figures(result))") }
        for result in comparison.added { lines.append("added      \(result.relativePath)") }
        for result in comparison.removed { lines.append("removed    \(result.relativePath)") }
        let c = comparison
        lines.append("\(c.changed.count) changed, \(c.added.count) added, \(c.removed.count) removed, \(c.unchanged.count) unchanged")
        return lines
    }

    public func figures(_ result: PairResult) -> String {
        guard let d = result.difference else { return "" }
        if let mismatch = d.sizeMismatch {
            return "size \(mismatch.baseline) -> \(mismatch.current); \(d.differingPixels) px differ in the overlap"
        }
        var text = "\(d.differingPixels) px (\(String(format: "%.3f", d.fraction * 100))%)"
        if let box = d.bounds { text += " in \(box.minX),\(box.minY) \(box.width)x\(box.height)" }
        text += ", largest delta \(String(format: "%.3f", d.largestDelta))"
        if d.antialiasedPixels > 0 { text += ", \(d.antialiasedPixels) anti-aliased" }
        return text
    }

    // MARK: JSON

    struct JSONPair: Encodable {
        var path: String
        var status: String
        var baseline: String?
        var current: String?
        var differingPixels: Int?
        var antialiasedPixels: Int?
        var fraction: Double?
        var largestDelta: Double?
        var bounds: JSONRect?
        var baselineSize: Size?
        var currentSize: Size?
    }

    /// A rectangle as the report's schema writes it: x, y, width, height.
    struct JSONRect: Encodable {
        var x, y, width, height: Int
        init(_ rect: Rect) { (x, y, width, height) = (rect.minX, rect.minY, rect.width, rect.height) }
    }

    struct JSONReport: Encodable {
        var schemaVersion = 1
        var threshold: Double
        var includeAntialiasing: Bool
        var passes: Bool
        var counts: [String: Int]
        var pairs: [JSONPair]
    }

    public func json() -> Data {
        let c = comparison
        let pairs = (changedBySeverity + c.added + c.removed + c.unchanged).map { r in
            JSONPair(
                path: r.relativePath, status: r.status.rawValue, baseline: r.baselinePath, current: r.currentPath,
                differingPixels: r.difference?.differingPixels, antialiasedPixels: r.difference?.antialiasedPixels,
                fraction: r.difference?.fraction, largestDelta: r.difference?.largestDelta, bounds: r.difference?.bounds.map(JSONRect.init),
                baselineSize: r.difference?.sizeMismatch?.baseline, currentSize: r.difference?.sizeMismatch?.current)
        }
        let report = JSONReport(
            threshold: options.threshold, includeAntialiasing: options.includeAntialiasing, passes: c.passes,
            counts: ["changed": c.changed.count, "added": c.added.count, "removed": c.removed.count, "unchanged": c.unchanged.count],
            pairs: pairs)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(report)) ?? Data()
    }

    // MARK: JUnit

    /// A JUnit XML report: one test case per pair, a failure for each changed, added or
    /// removed one.
    public func junit() -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let results = comparison.results
        let failures = results.filter { $0.status != .unchanged }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites tests=\"\(results.count)\" failures=\"\(failures)\">\n"
        xml += "  <testsuite name=\"mosaic diff\" tests=\"\(results.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for r in results {
            xml += "    <testcase classname=\"mosaic.diff\" name=\"\(escape(r.relativePath))\""
            switch r.status {
            case .unchanged: xml += "/>\n"
            case .changed:
                xml += ">\n      <failure message=\"\(escape("changed: " + figures(r)))\"/>\n    </testcase>\n"
            case .added: xml += ">\n      <failure message=\"added: no baseline\"/>\n    </testcase>\n"
            case .removed: xml += ">\n      <failure message=\"removed: no current image\"/>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    // MARK: The board

    /// Renders the board: a card per changed pair (baseline | current | diff side by side,
    /// captioned with the path and the figures), worst first, then cards for added and
    /// removed images. Nil when nothing changed, was added or removed.
    public func renderBoard(to output: String, typesetter: Typesetter, width: Int = 1500) throws -> RenderSummary? {
        let c = comparison
        guard !c.passes else { return nil }
        let scratch = NSTemporaryDirectory() + "mosaic-diff-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let decoder = ImageDecoder()
        var sections: [CatalogSection] = []
        var changedEntries: [CatalogEntry] = []
        for (n, result) in changedBySeverity.enumerated() {
            guard let basePath = result.baselinePath, let currentPath = result.currentPath, let difference = result.difference else { continue }
            let a = try decoder.decode(basePath).bitmap, b = try decoder.decode(currentPath).bitmap
            let strip = Self.triptych([a, b, difference.diffImage], height: 360)
            let path = scratch + "/changed-\(n).png"
            try strip.writePNG(to: path, hasAlpha: false)
            changedEntries.append(try entry(path, relative: result.relativePath, title: result.relativePath, description: "baseline | current | diff: " + figures(result), decoder: decoder))
        }
        if !changedEntries.isEmpty { sections.append(CatalogSection(header: "Changed (\(changedEntries.count))", entries: changedEntries, overrides: SectionOverrides(columns: 1))) }
        for (label, pairs) in [("Added", c.added), ("Removed", c.removed)] where !pairs.isEmpty {
            var entries: [CatalogEntry] = []
            for result in pairs {
                guard let path = result.currentPath ?? result.baselinePath else { continue }
                entries.append(try entry(path, relative: result.relativePath, title: result.relativePath, description: label.lowercased(), decoder: decoder))
            }
            sections.append(CatalogSection(header: "\(label) (\(entries.count))", entries: entries, overrides: SectionOverrides(columns: 4)))
        }
        var options = SheetOptions()
        options.width = width
        options.title = "mosaic diff: \(c.changed.count) changed, \(c.added.count) added, \(c.removed.count) removed, \(c.unchanged.count) unchanged"
        options.captionLines = 3
        let sheet = try ContactSheet(catalog: Catalog(sections: sections), options: options, typesetter: typesetter)
        return try SheetRenderer(sheet: sheet).render(to: output)
    }

    func entry(_ path: String, relative: String, title: String, description: String, decoder: ImageDecoder) throws -> CatalogEntry {
        let info = try decoder.probe(path)
        return CatalogEntry(path: path, relativePath: relative, info: info, failure: nil, title: title, description: description, fileSize: 0, modified: 0)
    }

    /// Each pixel repeated `factor` times across and down (nearest neighbour).
    static func zoomed(_ image: Bitmap, by factor: Int) -> Bitmap {
        var out = Bitmap(width: image.width * factor, height: image.height * factor)
        for y in 0..<out.height {
            for x in 0..<out.width { out[x, y] = image[x / factor, y / factor] }
        }
        return out
    }

    /// Images side by side at one height, 8 px apart on white.
    static func triptych(_ images: [Bitmap], height: Int) -> Bitmap {
        let scaled = images.map { image -> Bitmap in
            // Small images (icons, UI crops) are zoomed by a whole factor, pixel for pixel,
            // so the changed pixels stay visible; large ones are shrunk to the height.
            let zoom = image.height > 0 ? height / image.height : 1
            if zoom >= 2 { return Self.zoomed(image, by: zoom) }
            let h = min(height, max(1, image.height))
            let w = max(1, Int((Double(image.width) * Double(h) / Double(max(1, image.height))).rounded()))
            return image.resampled(width: w, height: h)
        }
        let gap = 8
        let width = scaled.reduce(0) { $0 + $1.width } + gap * (scaled.count - 1)
        let tallest = scaled.map(\.height).max() ?? 1
        var canvas = Canvas(bitmap: Bitmap(width: width, height: tallest, fill: .white), top: 0)
        var x = 0
        for image in scaled {
            canvas.draw(image, at: Point(x: x, y: 0), clipRect: Rect(x: x, y: 0, width: image.width, height: image.height), radius: 0)
            x += image.width + gap
        }
        return canvas.bitmap
    }
}
