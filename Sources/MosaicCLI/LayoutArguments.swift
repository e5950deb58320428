import ArgumentParser
import Foundation
import Mosaic

/// The board's geometry: layout, size, columns or rows, spacing, pages, sections.
struct LayoutArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The layout: \(SheetLayout.all.map { "\($0.name), \($0.summary)" }.joined(separator: "; ")).", valueName: "name"))
    var layout = SheetLayout.all[0].name
    @Option(parsing: .unconditional, help: "Grid layout: the width/height ratio of every image cell (1 square, 1.5 for 3:2).")
    var cellAspect: Double = 1
    @Flag(help: "Grid layout: crop each image to fill its cell instead of fitting it inside.")
    var crop = false
    @Option(help: "Columns that grow down (vertical) or rows that grow right (horizontal).")
    var direction: Direction = .vertical
    @Option(parsing: .unconditional, help: "Sheet width in pixels (vertical boards).")
    var width = 1800
    @Option(parsing: .unconditional, help: "Number of columns (default: 6).")
    var columns: Int?
    @Option(parsing: .unconditional, help: "Target column width in pixels: as many columns as fit (default: none; use --columns).")
    var columnWidth: Int?
    @Option(parsing: .unconditional, help: "Number of rows (horizontal boards).")
    var rows = 4
    @Option(parsing: .unconditional, help: "Sheet height in pixels (horizontal boards).")
    var height = 1200
    @Option(parsing: .unconditional, help: "Space between cards, pixels.")
    var spacing = 16
    @Option(parsing: .unconditional, help: "Space between columns (default: --spacing).")
    var columnSpacing: Int?
    @Option(parsing: .unconditional, help: "Space between cards of a column (default: --spacing).")
    var rowSpacing: Int?
    @Option(parsing: .unconditional, help: "Margin around the sheet, pixels.")
    var inset = 32
    @Option(parsing: .unconditional, help: "Padding inside each card, pixels.")
    var padding = 8
    @Option(help: "Which column a card goes to: the shortest, or in turn left to right or right to left.")
    var order: OrderArgument = .shortest
    @Option(parsing: .unconditional, help: "Split a vertical board into pages no taller than this (sheet-1.png, sheet-2.png, ...) (default: one page).")
    var maxHeight: Int?
    @Option(parsing: .unconditional, help: "Split a horizontal board into pages no wider than this (default: one page).")
    var maxWidth: Int?
    @Option(parsing: .unconditional, help: "Crop images more elongated than this ratio, 3 for 3:1 or 1:3 (default: 16, so that a 1x10000 strip still makes a card that fits).")
    var maxAspect: Double?
    @Option(help: "Draw a background behind each section, in this colour (default: none).")
    var sectionBackground: String?
    @Option(parsing: .unconditional, help: "Padding inside section backgrounds, pixels (default: 12).")
    var sectionPadding: Int?

    func validate() throws {
        guard SheetLayout.named(layout) != nil else {
            throw ValidationError("--layout: \"\(layout)\" is not a layout (use \(SheetLayout.all.map(\.name).joined(separator: " or ")))")
        }
        if !(cellAspect.isFinite && cellAspect >= 1.0 / 64 && cellAspect <= 64) {
            throw ValidationError("--cell-aspect must be a ratio between 1/64 and 64, got \(cellAspect)")
        }
        if width < 1 || width > 100_000 { throw ValidationError("--width must be between 1 and 100000, got \(width)") }
        if height < 1 || height > 100_000 { throw ValidationError("--height must be between 1 and 100000, got \(height)") }
        try SheetArguments.checkAtLeastOne([
            ("columns", columns), ("column-width", columnWidth), ("rows", rows), ("max-height", maxHeight), ("max-width", maxWidth),
        ])
        if columns != nil && columnWidth != nil { throw ValidationError("give --columns or --column-width, not both") }
        try SheetArguments.checkNotNegative([
            ("spacing", spacing), ("inset", inset), ("padding", padding), ("column-spacing", columnSpacing ?? 0),
            ("row-spacing", rowSpacing ?? 0), ("section-padding", sectionPadding ?? 0),
        ])
        // The page limit is named for what it limits: the height of a vertical board's
        // pages, the width of a horizontal one's.
        if direction == .horizontal, maxHeight != nil {
            throw ValidationError("--max-height limits a vertical board's pages; a horizontal board grows to the right: use --max-width")
        }
        if direction == .vertical, maxWidth != nil {
            throw ValidationError("--max-width limits a horizontal board's pages; a vertical board grows downwards: use --max-height")
        }
        if let maxAspect, !(maxAspect.isFinite && maxAspect >= 1) { throw ValidationError("--max-aspect must be a ratio of at least 1, got \(maxAspect)") }
        try SheetArguments.checkColors([("section-background", sectionBackground)])
    }

    func apply(to o: inout SheetOptions) {
        o.layout = layout == "grid" ? .grid(cellAspect: cellAspect, crop: crop) : SheetLayout.named(layout) ?? .masonry
        o.direction = direction
        o.width = width
        o.height = height
        o.columns = columns
        o.columnWidth = columnWidth
        o.rows = rows
        o.spacing = spacing
        o.columnSpacing = columnSpacing
        o.rowSpacing = rowSpacing
        o.inset = inset
        o.padding = padding
        o.order = order.itemOrder
        o.maxHeight = direction == .horizontal ? maxWidth : maxHeight
        if let maxAspect { o.maxAspect = maxAspect }
        if let sectionBackground, let color = Color(parsing: sectionBackground) { o.style.sectionBackground = color }
        if let sectionPadding { o.style.sectionPadding = sectionPadding }
    }
}
