extension DiffReport {
    /// The board as a sheet: a card per changed pair (baseline | current | diff side by
    /// side, drawn in memory, captioned with the path and the figures), worst first, then
    /// cards for added and removed images. Nil when nothing changed, was added or removed.
    ///
    /// - Throws: `ImageDecodingError` when an image of a changed pair cannot be read again,
    ///   `OutputError` when the board cannot be laid out.
    /// With `maxHeight`, the board is cut into pages no taller (a card is never cut).
    public func board(typesetter: Typesetter, width: Int = 1500, maxHeight: Int? = nil) throws -> ContactSheet? {
        let c = comparison
        guard !c.passes else { return nil }
        let decoder = ImageDecoder()
        var sections: [CatalogSection] = []
        var changedEntries: [CatalogEntry] = []
        for result in changedBySeverity {
            guard let basePath = result.baselinePath, let currentPath = result.currentPath, let difference = result.difference else { continue }
            var entry = CatalogEntry(
                path: currentPath, relativePath: result.relativePath, title: result.relativePath,
                description: "baseline | current | diff: " + figures(result))
            // The strip is made when the renderer reaches the card (the comparison kept
            // figures only: both images decoded again, the diff image made again), so the
            // board holds the strips of the cards being drawn, not of every change.
            let sizes = [difference.sizeMismatch?.baseline ?? difference.size, difference.sizeMismatch?.current ?? difference.size, difference.size]
            var drawing = options
            drawing.metric = .pixelmatch
            let options = drawing
            let bytes = sizes.reduce(0) { $0 + $1.width * $1.height * 4 } * 2
            // Each region outlined (a report made without regions: the one box).
            // Aligned: bands and moves drawn in their colours where they are on each side, the
            // rest magnified as usual.
            let marks = Self.alignedMarks(difference)
            let aligned = difference.regions.filter { $0.change != .inserted && $0.change != .deleted }
            let changed = marks == nil
                ? (difference.regions.isEmpty ? (difference.bounds.map { [$0] } ?? []) : difference.regions.map(\.bounds))
                : aligned.map(\.bounds)
            // Aligned: the baseline magnified where each region lies in it.
            let inBaseline = marks == nil ? nil : aligned.map { Self.baselineBox($0, in: difference) }
            entry.pixels = CardPixels(size: Self.triptychSize(sizes, height: 360, changed: changed), bytes: bytes) { () throws(ImageDecodingError) -> Bitmap in
                let pair = try decoder.decodePair(basePath, currentPath)
                let a = pair.0.bitmap, b = pair.1.bitmap
                let diffImage = ImageComparison.compare(a, b, options: options).diffImage ?? b
                return Self.triptych([a, b, diffImage], height: 360, changed: changed, marks: marks, inBaseline: inBaseline)
            }
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
                    problem: result.error.map(Self.cardProblem), title: result.relativePath,
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
        options.maxHeight = maxHeight
        return try ContactSheet(catalog: Catalog(sections: sections), options: options, typesetter: typesetter)
    }

    /// Renders the board (see `board`) as a PNG at `output` (`NAME-1.png`, `NAME-2.png`, ...
    /// when `maxHeight` cuts it into pages: the summary's `files`). Nil when there is
    /// nothing to show.
    public func renderBoard(to output: String, typesetter: Typesetter, width: Int = 1500, maxHeight: Int? = nil) throws -> RenderSummary? {
        guard let sheet = try board(typesetter: typesetter, width: width, maxHeight: maxHeight) else { return nil }
        return try SheetRenderer(sheet: sheet).render(to: output)
    }

    /// A failed pair's card: its image's error, or (a pair too large to compare) the pair's
    /// reason as one that could not be read. The board draws a placeholder either way.
    static func cardProblem(_ error: PairError) -> CardProblem {
        guard case .image(let image) = error else { return CardProblem(path: error.path, error: .unreadable(path: error.path, reason: error.reason)) }
        return CardProblem(path: image.path, error: image)
    }

    /// Each pixel repeated `factor` times across and down (nearest neighbour).
    static func zoomed(_ image: Bitmap, by factor: Int) -> Bitmap {
        var out = Bitmap(width: image.width * factor, height: image.height * factor)
        for y in 0..<out.height {
            for x in 0..<out.width { out[x, y] = image[x / factor, y / factor] }
        }
        return out
    }

    /// The outline drawn around the changed pixels.
    static let outlineColor = RGBA(red: 225, green: 29, blue: 72)

    /// A frame (or, `isRule`, a 3-px line across the panel at `box.minY`) drawn on one
    /// panel of a card, in the panel's image's coordinates.
    struct PanelMark {
        var box: Rect
        var colour: RGBA
        var isRule = false
    }

    static let insertedColor = RGBA(red: 22, green: 163, blue: 74)
    static let deletedColor = RGBA(red: 220, green: 38, blue: 38)
    static let shiftedColor = RGBA(red: 37, green: 99, blue: 235)

    /// An aligned pair's marks for the baseline, current and diff panels: an inserted band
    /// framed green on the current side with a green rule where it goes in the baseline; a
    /// deleted band framed red in the baseline with a red rule where it was taken out; a
    /// moved block framed blue on both sides, where it was and where it is; the other
    /// regions framed in the usual colour where they are on each side. Nil when the pair was
    /// not aligned.
    static func alignedMarks(_ d: ImageDifference) -> [[PanelMark]]? {
        guard d.alignment != nil else { return nil }
        func baselineY(_ y: Int) -> Int { Self.baselineY(y, in: d) }
        var marks: [[PanelMark]] = [[], [], []]
        for region in d.regions {
            let box = region.bounds
            switch region.change {
            case .inserted:
                marks[0].append(PanelMark(box: Rect(x: 0, y: baselineY(box.minY), width: 1, height: 1), colour: insertedColor, isRule: true))
                marks[1].append(PanelMark(box: box, colour: insertedColor))
                marks[2].append(PanelMark(box: box, colour: insertedColor))
            case .deleted:
                let at = box.minY + (region.offset?.dy ?? 0)
                marks[0].append(PanelMark(box: box, colour: deletedColor))
                marks[1].append(PanelMark(box: Rect(x: 0, y: at, width: 1, height: 1), colour: deletedColor, isRule: true))
                marks[2].append(PanelMark(box: Rect(x: 0, y: at, width: 1, height: 1), colour: deletedColor, isRule: true))
            case .shifted:
                let offset = region.offset ?? RegionOffset(dx: 0, dy: 0)
                marks[0].append(PanelMark(box: Rect(x: box.minX - offset.dx, y: box.minY - offset.dy, width: box.width, height: box.height), colour: shiftedColor))
                marks[1].append(PanelMark(box: box, colour: shiftedColor))
                marks[2].append(PanelMark(box: box, colour: shiftedColor))
            default:
                marks[0].append(PanelMark(box: baselineBox(region, in: d), colour: outlineColor))
                marks[1].append(PanelMark(box: box, colour: outlineColor))
                marks[2].append(PanelMark(box: box, colour: outlineColor))
            }
        }
        return marks
    }

    /// The baseline row that current row `y` of an aligned pair corresponds to; a row with
    /// none (inserted): the row after the run above it (where the band goes in), else where
    /// the run below it starts.
    static func baselineY(_ y: Int, in d: ImageDifference) -> Int {
        let alignment = d.alignment ?? []
        if let shift = alignment.first(where: { y >= $0.currentY && y < $0.currentY + $0.height }) { return shift.baselineY + (y - shift.currentY) }
        if let above = alignment.first(where: { $0.currentY + $0.height == y }) { return above.baselineY + above.height }
        if let next = alignment.filter({ $0.currentY >= y }).min(by: { $0.currentY < $1.currentY }) { return next.baselineY }
        return alignment.last.map { $0.baselineY + $0.height } ?? y
    }

    /// Where a region of an aligned pair (other than a band inserted or deleted) lies in
    /// the baseline: a moved block where it was (its bounds less its offset), any other in
    /// the rows its own correspond to.
    static func baselineBox(_ region: ChangedRegion, in d: ImageDifference) -> Rect {
        let box = region.bounds
        if region.change == .shifted, let offset = region.offset {
            return Rect(x: box.minX - offset.dx, y: box.minY - offset.dy, width: box.width, height: box.height)
        }
        return Rect(x: box.minX, y: baselineY(box.minY, in: d), width: box.width, height: box.height)
    }

    /// How many regions (the largest) a card magnifies at most.
    static let magnifiedRegions = 3

    /// Images side by side at one height, 8 px apart on white. With `changed` (the boxes of
    /// the changed regions, largest first, in the images' coordinates), each panel outlines
    /// each of them, and for each of the `magnifiedRegions` largest that is small on the
    /// panels (under 24 px either way: a 4-pixel change in a 3840x2160 screenshot shrinks to
    /// nothing) a row under them shows the area around it magnified, nearest neighbour, in
    /// each image. With `inBaseline` (an aligned pair: where each of `changed` lies in the
    /// baseline, the first image), the baseline's inset is cut around that place.
    static func triptych(_ images: [Bitmap], height: Int, changed: [Rect] = [], marks: [[PanelMark]]? = nil, inBaseline: [Rect]? = nil) -> Bitmap {
        let scaled = images.map { image -> Bitmap in
            let (size, zoom) = panel(Size(width: image.width, height: image.height), height: height)
            if let zoom { return Self.zoomed(image, by: zoom) }
            return image.resampled(width: size.width, height: size.height)
        }
        guard !changed.isEmpty || marks != nil else { return stack(scaled) }
        // Each panel's scale, from its height and its image's.
        let scales = zip(scaled, images).map { Double($0.height) / Double(max(1, $1.height)) }
        let outlined = zip(scaled, scales).enumerated().map { index, item in
            var (panel, scale) = item
            // In place: up to 100 regions a card, each frame a few pixels of one panel.
            if let marks, index < marks.count {
                for mark in marks[index] {
                    if mark.isRule {
                        let y = Int((Double(mark.box.minY) * scale).rounded())
                        for row in max(0, y - 1)..<min(panel.height, y + 2) { for x in 0..<panel.width { panel[x, row] = mark.colour } }
                    } else {
                        outline(&panel, around: mark.box.scaled(by: scale), margin: 3, minimum: 12, color: mark.colour)
                    }
                }
            } else {
                for box in changed { outline(&panel, around: box.scaled(by: scale), margin: 3, minimum: 12) }
            }
            return panel
        }
        let rows = changed.prefix(magnifiedRegions).enumerated().compactMap { index, box -> Bitmap? in
            guard let (region, zoom) = inset(box, scales: scales, height: height) else { return nil }
            return stack(images.enumerated().map { side, image -> Bitmap in
                // The baseline of an aligned pair: the same area around the region's place there.
                var (box, region) = (box, region)
                if side == 0, let inBaseline, index < inBaseline.count {
                    let (dx, dy) = (inBaseline[index].minX - box.minX, inBaseline[index].minY - box.minY)
                    box = inBaseline[index]
                    region = Rect(x: region.minX + dx, y: region.minY + dy, width: region.width, height: region.height)
                }
                let crop = Self.crop(image, region)
                let inChange = Rect(x: box.minX - region.minX, y: box.minY - region.minY, width: box.width, height: box.height)
                var magnified = zoomed(crop, by: zoom)
                outline(&magnified, around: inChange.scaled(by: Double(zoom)), margin: 2, minimum: 0)
                return magnified
            })
        }
        return stack([stack(outlined)] + rows, vertically: true)
    }

    /// A panel's size for an image of `size`: small images (icons, UI crops) zoomed by a
    /// whole factor (`zoom`), pixel for pixel, so the changed pixels stay visible; large
    /// ones shrunk to the height.
    static func panel(_ size: Size, height: Int) -> (size: Size, zoom: Int?) {
        let zoom = size.height > 0 ? height / size.height : 1
        if zoom >= 2 { return (Size(width: size.width * zoom, height: size.height * zoom), zoom) }
        let h = min(height, max(1, size.height))
        let w = max(1, Int((Double(size.width) * Double(h) / Double(max(1, size.height))).rounded()))
        return (Size(width: w, height: h), nil)
    }

    /// The region magnified under the panels and its zoom, when the change is under 24 px
    /// on the panels (each panel's scale in `scales`): at least 32 px, the change in its
    /// middle; at most half the panels' height (a long thin change shows its middle), so
    /// that a row of insets is no taller than the panels.
    static func inset(_ changed: Rect, scales: [Double], height: Int) -> (region: Rect, zoom: Int)? {
        let smallest = Double(min(changed.width, changed.height)) * (scales.min() ?? 1)
        guard smallest < 24 else { return nil }
        let side = min(max(32, 2 * max(changed.width, changed.height)), max(32, height / 2))
        let region = Rect(x: (changed.minX + changed.maxX) / 2 - side / 2, y: (changed.minY + changed.maxY) / 2 - side / 2, width: side, height: side)
        return (region, max(2, min(16, height / side)))
    }

    /// The size `triptych` gives for images of `sizes`, without their pixels (for the
    /// board's layout).
    static func triptychSize(_ sizes: [Size], height: Int, changed: [Rect]) -> Size {
        let panels = sizes.map { panel($0, height: height).size }
        let gap = 8
        var size = Size(width: panels.reduce(0) { $0 + $1.width } + gap * (panels.count - 1), height: panels.map(\.height).max() ?? 1)
        let scales = zip(panels, sizes).map { Double($0.height) / Double(max(1, $1.height)) }
        for box in changed.prefix(magnifiedRegions) {
            guard let (region, zoom) = inset(box, scales: scales, height: height) else { continue }
            let side = region.width * zoom
            size = Size(width: max(size.width, side * sizes.count + gap * (sizes.count - 1)), height: size.height + gap + side)
        }
        return size
    }

    /// Panels side by side (or one under another), 8 px apart on white.
    static func stack(_ panels: [Bitmap], vertically: Bool = false) -> Bitmap {
        let gap = 8
        let along = panels.reduce(0) { $0 + (vertically ? $1.height : $1.width) } + gap * (panels.count - 1)
        let across = panels.map { vertically ? $0.width : $0.height }.max() ?? 1
        var canvas = Canvas(bitmap: Bitmap(width: max(1, vertically ? across : along), height: max(1, vertically ? along : across), fill: .white), top: 0)
        var offset = 0
        for panel in panels {
            let origin = vertically ? Point(x: 0, y: offset) : Point(x: offset, y: 0)
            canvas.draw(panel, at: origin, clipRect: Rect(origin: origin, size: Size(width: panel.width, height: panel.height)), radius: 0)
            offset += (vertically ? panel.height : panel.width) + gap
        }
        return canvas.bitmap
    }

    /// `region` of `image`, white where it falls outside.
    static func crop(_ image: Bitmap, _ region: Rect) -> Bitmap {
        var out = Bitmap(width: region.width, height: region.height, fill: .white)
        for y in 0..<region.height {
            let sy = region.minY + y
            guard sy >= 0, sy < image.height else { continue }
            for x in 0..<region.width {
                let sx = region.minX + x
                if sx >= 0, sx < image.width { out[x, y] = image[sx, sy] }
            }
        }
        return out
    }

    /// Draws on `out` a 2-px frame around `box` grown by `margin` (and to at least
    /// `minimum` on each side, about its middle), clipped to the image.
    static func outline(_ out: inout Bitmap, around box: Rect, margin: Int, minimum: Int, color: RGBA = outlineColor) {
        let width = max(minimum, box.width + 2 * margin), height = max(minimum, box.height + 2 * margin)
        let frame = Rect(x: (box.minX + box.maxX) / 2 - width / 2, y: (box.minY + box.maxY) / 2 - height / 2, width: width, height: height)
        func set(_ x: Int, _ y: Int) { if x >= 0, y >= 0, x < out.width, y < out.height { out[x, y] = color } }
        for t in 0..<2 {
            for x in (frame.minX - t)...(frame.maxX + t) {
                set(x, frame.minY - 1 - t)
                set(x, frame.maxY + t)
            }
            for y in (frame.minY - t)...(frame.maxY + t) {
                set(frame.minX - 1 - t, y)
                set(frame.maxX + t, y)
            }
        }
    }
}

extension Rect {
    /// Scaled about the origin, rounded outwards.
    fileprivate func scaled(by scale: Double) -> Rect {
        let x0 = Int((Double(minX) * scale).rounded(.down)), y0 = Int((Double(minY) * scale).rounded(.down))
        let x1 = Int((Double(maxX) * scale).rounded(.up)), y1 = Int((Double(maxY) * scale).rounded(.up))
        return Rect(x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
    }
}
