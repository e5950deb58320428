/// Justified rows, as Flickr's justified-layout, Google Photos and 500px lay out photos:
/// each row fills the section's width exactly, every image keeps its aspect ratio
/// uncropped, rows differ in height.
///
/// Images are added to a row while the row's height at full width stays above
/// `targetRowHeight`; the image that brings it to the target or below ends the row before
/// or after it, whichever height is closer to the target. The row is then scaled to fill
/// the width, its rounding spread so that every row ends on the same pixel; a row that
/// would be taller than `maximumRowHeight` (a lone portrait) is capped and centred
/// instead. The last row, which ran out of images, stays at the target height and is
/// aligned by `lastRow`. Captions go under each image, the row as long as its tallest.
/// Vertical boards only.
public struct JustifiedRows: CardPlacement, Hashable {
    /// How the last row of a section, which ran out of images, is set.
    public enum LastRow: String, Codable, Sendable, CaseIterable {
        /// At the target height, from the left.
        case left
        /// At the target height, centred.
        case center
        /// Filling the width like the other rows (no taller than the maximum).
        case justify
    }

    /// The height rows aim at, pixels (the images', without padding and caption).
    public var targetRowHeight: Int
    /// No row's images are taller than this, pixels.
    public var maximumRowHeight: Int
    public var lastRow: LastRow
    /// Panoramas and strips are clamped to this range of aspect ratios (cropped or
    /// letterboxed, as its mode says); nil: every image keeps its own.
    public var aspectClamp: AspectClamp?

    /// - Parameters:
    ///   - targetRowHeight: the height rows aim at, pixels (default 240).
    ///   - maximumRowHeight: the cap, pixels (default twice the target).
    public init(targetRowHeight: Int = 240, maximumRowHeight: Int? = nil, lastRow: LastRow = .left, aspectClamp: AspectClamp? = nil) {
        self.targetRowHeight = targetRowHeight
        self.maximumRowHeight = maximumRowHeight ?? 2 * targetRowHeight
        self.lastRow = lastRow
        self.aspectClamp = aspectClamp
    }

    /// Rows across the section's whole width: one lane.
    public var laneCount: Int? { 1 }

    public func validate(_ configuration: BoardConfiguration) throws(LayoutError) {
        guard configuration.direction == .vertical else { throw .unsupportedDirection(layout: "justified", direction: configuration.direction) }
        try checkLength(targetRowHeight, "targetRowHeight", allowZero: false)
        try checkLength(maximumRowHeight, "maximumRowHeight", allowZero: false)
        guard maximumRowHeight >= targetRowHeight else {
            throw .outOfOrder(field: "maximumRowHeight", value: maximumRowHeight, minimumField: "targetRowHeight", minimum: targetRowHeight)
        }
        if let clamp = aspectClamp { try MasonryCards(aspectClamp: clamp).validate() }
    }

    public func place(
        _ items: ArraySlice<LayoutItem>, in layout: inout SectionLayout<Self>, cursor: inout SectionCursor,
        measurer: some TextMeasuring
    ) throws(LayoutError) {
        let packer = RowPacker(rows: self, cursor: cursor)
        layout.tailMark = nil
        // The row being filled: its images, and the items they came from (for the last
        // row, which appending lays out again).
        var row: [RowItem] = []
        var rowStart = items.startIndex
        var cards: [RowCard] = []
        var index = cursor.itemCount
        let target = Double(targetRowHeight)
        for position in items.indices {
            row.append(try packer.rowItem(items[position], index: index))
            index += 1
            let with = packer.fullWidthHeight(of: row)
            guard with <= target else { continue }
            // The row has reached the target: it ends before or after its last image,
            // whichever height is closer to the target (a row keeps at least one image).
            let without = row.count > 1 ? packer.fullWidthHeight(of: row.dropLast()) : Double.infinity
            let breakBefore = without - target < target - with
            packer.cards(for: breakBefore ? row.dropLast() : row[...], height: nil, align: .justify, into: &cards, measurer: measurer)
            layout.placeRow(cards, cursor: &cursor)
            if breakBefore {
                row.removeFirst(row.count - 1)
                rowStart = position
                if packer.fullWidthHeight(of: row) <= target {
                    // A lone image that reaches the target alone (a panorama): its own row.
                    packer.cards(for: row[...], height: nil, align: .justify, into: &cards, measurer: measurer)
                    layout.placeRow(cards, cursor: &cursor)
                    row.removeAll(keepingCapacity: true)
                    rowStart = position + 1
                }
            } else {
                row.removeAll(keepingCapacity: true)
                rowStart = position + 1
            }
        }
        guard !row.isEmpty else { return }
        // The last row ran out of images: at the target height unless justified. More
        // images would change it, so it is marked for `append` to lay out again.
        layout.markTail(Array(items[rowStart...]), cursor: cursor)
        packer.cards(
            for: row[...], height: lastRow == .justify ? nil : targetRowHeight, align: lastRow, into: &cards, measurer: measurer)
        layout.placeRow(cards, cursor: &cursor)
    }
}

/// An image waiting in a row: its (clamped) aspect ratio and caption.
struct RowItem {
    var aspect: Double
    var scaling: ImageScaling
    var caption: Caption?
}

/// Sizes the rows of one section.
struct RowPacker {
    let rows: JustifiedRows
    let section: Int
    let width: Int
    let spacing: Int
    let paddingMain: Int
    let paddingCross: Int
    let captionSpacing: Int

    init(rows: JustifiedRows, cursor: SectionCursor) {
        self.rows = rows
        section = cursor.section
        width = cursor.crossLength
        spacing = cursor.columnSpacing
        paddingMain = cursor.paddingMain
        paddingCross = cursor.paddingCross
        captionSpacing = cursor.captionSpacing
    }

    /// Checks `item`'s size and clamps its aspect ratio.
    func rowItem(_ item: LayoutItem, index: Int) throws(LayoutError) -> RowItem {
        guard item.width.isFinite, item.height.isFinite, item.width > 0, item.height > 0 else {
            throw .invalidItemSize(section: section, item: index, width: item.width, height: item.height)
        }
        var aspect = item.width / item.height
        var scaling = ImageScaling.exact
        if let clamp = rows.aspectClamp, aspect < clamp.minimum || aspect > clamp.maximum {
            aspect = min(max(aspect, clamp.minimum), clamp.maximum)
            scaling = clamp.mode == .fit ? .fit : .fill
        }
        // An image narrower than a pixel at the maximum row height, or wider than the row
        // at one pixel high, is drawn at that pixel.
        aspect = min(max(aspect, 1 / Double(max(1, rows.maximumRowHeight))), Double(max(1, width)))
        return RowItem(aspect: aspect, scaling: scaling, caption: item.caption.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The pixels across that `count` images share once padding and spacing are taken.
    func imageWidth(count: Int) -> Int {
        width - count * paddingCross - (count - 1) * spacing
    }

    /// The images' height when `row` fills the width exactly (0 or less: they cannot).
    func fullWidthHeight(of row: some Collection<RowItem>) -> Double {
        guard !row.isEmpty else { return .infinity }
        var sum = 0.0
        for item in row { sum += item.aspect }
        let available = imageWidth(count: row.count)
        guard available >= row.count else { return 0 }
        return Double(available) / sum
    }

    /// The cards of `row`: at `height` (nil: filling the width, capped at the maximum row
    /// height and then centred), aligned by `align` when they do not fill it.
    func cards(
        for row: ArraySlice<RowItem>, height fixed: Int?, align: JustifiedRows.LastRow, into cards: inout [RowCard],
        measurer: some TextMeasuring
    ) {
        cards.removeAll(keepingCapacity: true)
        let available = imageWidth(count: row.count)
        var sum = 0.0
        for item in row { sum += item.aspect }
        var exact = fixed.map(Double.init) ?? Double(available) / sum
        var alignment = align
        if exact > Double(rows.maximumRowHeight) {
            exact = Double(rows.maximumRowHeight)
            if fixed == nil { alignment = .center }
        }
        // Fills the width exactly unless held to a height: the boundaries between images
        // are rounded, so the row's right edge is the same pixel in every full row.
        let fills = fixed == nil && exact * sum >= Double(available) - 0.5
        // Every image at least a pixel wide (a 1x10000 strip in a low row).
        let total = min(available, max(row.count, fills ? available : roundedPixels(exact * sum)))
        var start: Int
        switch alignment {
        case .center: start = (available - total) / 2
        case .left, .justify: start = 0
        }
        // Images narrower than a pixel get one; the others give up what that costs, in
        // proportion, so the boundaries stay exact sums of the widths, rounded.
        var tiny = 0, tinyAspect = 0.0
        for item in row where item.aspect * exact < 1 {
            tiny += 1
            tinyAspect += item.aspect
        }
        let scale = tiny == 0 || tiny == row.count ? exact : max(0, Double(total - tiny)) / (sum - tinyAspect)
        // A full row's height follows from the width its other images share.
        let height = max(1, roundedPixels(fills ? min(scale, Double(rows.maximumRowHeight)) : exact))
        var cumulative = 0.0
        var left = 0
        for (position, item) in row.enumerated() {
            cumulative += item.aspect * exact < 1 ? 1 : item.aspect * scale
            let right = position == row.count - 1
                ? total : min(max(left + 1, roundedPixels(cumulative)), total - (row.count - 1 - position))
            let imageCross = max(1, right - left)
            var captionLength = 0
            if let caption = item.caption { captionLength = max(0, measurer.height(of: caption, width: imageCross)) }
            let length = paddingMain + height + (item.caption != nil ? captionSpacing + captionLength : 0)
            cards.append(RowCard(
                crossOffset: start, crossLength: imageCross + paddingCross,
                size: CardSize(
                    length: length, imageLength: height, imageCross: imageCross, captionLength: captionLength,
                    hasCaption: item.caption != nil, scaling: item.scaling)))
            start += imageCross + paddingCross + spacing
            left = right
        }
    }
}

/// A justified board: rows that fill the width, images uncropped; sections, headers,
/// footers, decorations and pagination as every board has them (a row is never cut).
public typealias JustifiedLayout = SectionLayout<JustifiedRows>

extension SectionLayout where Cards == JustifiedRows {
    /// Lays out `sections` in justified `rows`.
    ///
    /// - Throws: `LayoutError` naming the first field or item that is out of range, or
    ///   `unsupportedDirection` on a horizontal board.
    /// - Complexity: O(n) for n cards.
    public init(
        configuration: BoardConfiguration, rows: JustifiedRows, sections: [LayoutSection], measurer: some TextMeasuring = NoText()
    ) throws(LayoutError) {
        try self.init(configuration: configuration, cardSizing: rows, sections: sections, measurer: measurer)
    }
}

extension SectionLayout where Cards == JustifiedRows {
    /// Adds images to the end of the last section: its last row, which ran out of images,
    /// is laid out again with them, and the rows after it follow; the footer and
    /// decoration move down (or onto a new page).
    ///
    /// - Complexity: O(k + r) for k new images and a last row of r, whatever the board's size.
    /// - Throws: `LayoutError.noSectionToAppendTo` on a board without sections, or the
    ///   error of the first invalid item (the layout is then unchanged).
    public mutating func append(_ items: [LayoutItem], measurer: some TextMeasuring = NoText()) throws(LayoutError) {
        guard let open else { throw .noSectionToAppendTo }
        for (offset, item) in items.enumerated() {
            guard item.width.isFinite, item.height.isFinite, item.width > 0, item.height > 0 else {
                throw .invalidItemSize(section: open.section, item: open.itemCount + offset, width: item.width, height: item.height)
            }
        }
        var (state, tail) = try reopenLastSection()
        try place(tail + items, in: &state, measurer: measurer)
        _ = close(&state)
    }
}
