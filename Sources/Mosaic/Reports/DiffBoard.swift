extension DiffReport {
    /// The board as a sheet: a card per changed pair (baseline | current | diff side by
    /// side, drawn in memory, captioned with the path and the figures), worst first, then
    /// cards for added and removed images. Nil when nothing changed, was added or removed.
    ///
    /// - Throws: `ImageDecodingError` when an image of a changed pair cannot be read again,
    ///   `SheetError` when the board cannot be laid out.
    public func board(typesetter: Typesetter, width: Int = 1500) throws -> ContactSheet? {
        let c = comparison
        guard !c.passes else { return nil }
        let decoder = ImageDecoder()
        var sections: [CatalogSection] = []
        var changedEntries: [CatalogEntry] = []
        for result in changedBySeverity {
            guard let basePath = result.baselinePath, let currentPath = result.currentPath, let difference = result.difference else { continue }
            let a = try decoder.decode(basePath).bitmap, b = try decoder.decode(currentPath).bitmap
            var entry = CatalogEntry(
                path: currentPath, relativePath: result.relativePath, title: result.relativePath,
                description: "baseline | current | diff: " + figures(result))
            entry.bitmap = Self.triptych([a, b, difference.diffImage], height: 360)
            changedEntries.append(entry)
        }
        if !changedEntries.isEmpty {
            sections.append(CatalogSection(header: "Changed (\(changedEntries.count))", entries: changedEntries, overrides: SectionOverrides(columns: 1)))
        }
        if !c.failed.isEmpty {
            // Placeholders naming what could not be read.
            let entries = c.failed.map { result in
                let path = result.currentPath ?? result.baselinePath ?? result.relativePath
                return CatalogEntry(
                    path: path, relativePath: result.relativePath,
                    problem: result.error.map { CardProblem(path: $0.path, error: $0) }, title: result.relativePath,
                    description: result.error?.reason ?? "cannot read")
            }
            sections.append(CatalogSection(header: "Failed (\(entries.count))", entries: entries, overrides: SectionOverrides(columns: 4)))
        }
        for (label, pairs) in [("Added", c.added), ("Removed", c.removed)] where !pairs.isEmpty {
            var entries: [CatalogEntry] = []
            for result in pairs {
                guard let path = result.currentPath ?? result.baselinePath else { continue }
                let info = try decoder.probe(path)
                entries.append(CatalogEntry(path: path, relativePath: result.relativePath, info: info, title: result.relativePath, description: label.lowercased()))
            }
            sections.append(CatalogSection(header: "\(label) (\(entries.count))", entries: entries, overrides: SectionOverrides(columns: 4)))
        }
        var options = SheetOptions()
        options.width = width
        options.title = "mosaic diff: \(c.changed.count) changed, \(c.added.count) added, \(c.removed.count) removed, \(c.unchanged.count) unchanged"
            + (c.withinTolerance.isEmpty ? "" : ", \(c.withinTolerance.count) within tolerance") + (c.failed.isEmpty ? "" : ", \(c.failed.count) failed")
        options.captionLines = 3
        return try ContactSheet(catalog: Catalog(sections: sections), options: options, typesetter: typesetter)
    }

    /// Renders the board (see `board`) as a PNG at `output`. Nil when there is nothing to show.
    public func renderBoard(to output: String, typesetter: Typesetter, width: Int = 1500) throws -> RenderSummary? {
        guard let sheet = try board(typesetter: typesetter, width: width) else { return nil }
        return try SheetRenderer(sheet: sheet).render(to: output)
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
