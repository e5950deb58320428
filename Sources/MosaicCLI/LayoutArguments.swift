import ArgumentParser
import Foundation
import Mosaic

extension CropFocus: ExpressibleByArgument {}

/// The board's geometry: layout, size, columns or rows, spacing, pages, sections.
struct LayoutArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The layout: \(SheetLayout.all.map { "\($0.name) (\($0.summary))" }.joined(separator: ", ")).", valueName: "name"))
    var layout = SheetLayout.all[0].name
    // Each layout's own settings: declared (name, help, range, default) by the layout in
    // `SheetLayout`; here only the flag that carries each, checked by the layout chosen.
    @Option(parsing: .unconditional, help: layoutSettingHelp("cellAspect"))
    var cellAspect: Double?
    @Flag(help: layoutSettingHelp("crop"))
    var crop = false
    @Option(parsing: .unconditional, help: layoutSettingHelp("rowHeight"))
    var rowHeight: Int?
    @Option(parsing: .unconditional, help: layoutSettingHelp("maxRowHeight"))
    var maxRowHeight: Int?
    @Option(help: layoutSettingHelp("lastRow"))
    var lastRow: String?
    @Option(help: "Columns that grow down (vertical) or rows that grow right (horizontal).")
    var direction: Direction = .vertical
    @Option(parsing: .unconditional, help: "Sheet width in pixels (vertical boards). (default: 1800)")
    var width: Int?
    @Option(parsing: .unconditional, help: "Number of columns (default: 6).")
    var columns: Int?
    @Option(parsing: .unconditional, help: "As many columns as fit this wide, pixels (default: none; use --columns).")
    var columnWidth: Int?
    @Option(parsing: .unconditional, help: "Number of rows (horizontal boards).")
    var rows = 4
    @Option(parsing: .unconditional, help: "Sheet height in pixels (horizontal boards).")
    var height = 1200
    @Option(parsing: .unconditional, help: ArgumentHelp("Space between cards: pixels, or for a PDF 4mm or 12pt (default: 16; PDF 4mm).", valueName: "length"))
    var spacing: LengthArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Space between columns (default: --spacing).", valueName: "length"))
    var columnSpacing: LengthArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Space between cards of a column (default: --spacing).", valueName: "length"))
    var rowSpacing: LengthArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Margin around the sheet: pixels, or for a PDF 10mm or 28pt (default: 32; PDF 10mm).", valueName: "length"))
    var inset: LengthArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Padding inside each card: pixels, or for a PDF mm or pt (default: 8; PDF 0).", valueName: "length"))
    var padding: LengthArgument?
    @Option(help: "Which column a card goes to: the shortest, or in turn.")
    var order: OrderArgument = .shortest
    @Option(parsing: .unconditional, help: "Pages no taller than this, pixels (default: one page).")
    var maxHeight: Int?
    @Option(parsing: .unconditional, help: "Pages of a horizontal board no wider than this (default: one page).")
    var maxWidth: Int?
    @Option(parsing: .unconditional, help: "Crop images more elongated than this ratio, 3 for 3:1 or 1:3 (default: 16).")
    var maxAspect: Double?
    @Option(help: "Which part of a cropped image is kept.")
    var cropMode: CropFocus = .center
    @Option(parsing: .unconditional, help: "The first N cards of each section span two columns.")
    var feature = 0
    @Option(help: "A background behind each section, in this colour (default: none).")
    var sectionBackground: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("Padding inside section backgrounds: pixels, or for a PDF mm or pt (default: 12; PDF 2mm).", valueName: "length"))
    var sectionPadding: LengthArgument?

    func validate() throws {
        let chosen = try chosenLayout()
        if feature > 0, !chosen.placesSpans { throw ValidationError("--feature: the \(layout) layout has no columns for a card to span") }
        if let maxRowHeight, maxRowHeight < (rowHeight ?? 240) {
            throw ValidationError("--max-row-height \(maxRowHeight) must be at least --row-height \(rowHeight ?? 240)")
        }
        if let width, width < 1 || width > 100_000 { throw ValidationError("--width must be between 1 and 100000, got \(width)") }
        if height < 1 || height > 100_000 { throw ValidationError("--height must be between 1 and 100000, got \(height)") }
        try SheetArguments.checkAtLeastOne([
            ("columns", columns), ("column-width", columnWidth), ("rows", rows), ("max-height", maxHeight), ("max-width", maxWidth),
        ])
        if columns != nil && columnWidth != nil { throw ValidationError("give --columns or --column-width, not both") }
        try LengthArgument.check(lengths)
        try SheetArguments.checkNotNegative([("feature", feature)])
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
        // Checked by validate(); nothing here can fail any more.
        if let chosen = try? chosenLayout() { o.layout = chosen }
        o.direction = direction
        if let width { (o.width, o.widthIsGiven) = (width, true) }
        o.height = height
        o.columns = columns
        o.columnWidth = columnWidth
        o.rows = rows
        LengthArgument.apply(lengths, to: &o)
        o.order = order.itemOrder
        o.feature = feature
        o.cropMode = cropMode
        o.maxHeight = direction == .horizontal ? maxWidth : maxHeight
        if let maxAspect { o.maxAspect = maxAspect }
        if let sectionBackground, let color = Color(parsing: sectionBackground) { o.style.sectionBackground = color }
    }

    /// The lengths given, by the option each sets.
    var lengths: [(LengthSetting, LengthArgument?)] {
        [(.spacing, spacing), (.columnSpacing, columnSpacing), (.rowSpacing, rowSpacing), (.inset, inset), (.padding, padding), (.sectionPadding, sectionPadding)]
    }

    /// The values given to layout settings, by setting name: only those on the command line.
    var givenLayoutSettings: [String: LayoutSettingValue] {
        var given: [String: LayoutSettingValue] = [:]
        if let cellAspect { given["cellAspect"] = .number(cellAspect) }
        if crop { given["crop"] = .flag(true) }
        if let rowHeight { given["rowHeight"] = .integer(rowHeight) }
        if let maxRowHeight { given["maxRowHeight"] = .integer(maxRowHeight) }
        if let lastRow { given["lastRow"] = .choice(lastRow) }
        return given
    }

    /// The registered layout `--layout` names with the settings given to it.
    ///
    /// - Throws: `ValidationError` for a name that is not registered, a setting of another
    ///   layout, or a value out of its setting's range (each naming the flag).
    func chosenLayout() throws -> SheetLayout {
        guard let registered = SheetLayout.all.first(where: { $0.name == layout }) else {
            let names = SheetLayout.all.map(\.name)
            throw ValidationError("--layout: \"\(layout)\" is not a layout (use \(names.dropLast().joined(separator: ", ")) or \(names.last ?? ""))")
        }
        guard registered.directions.contains(direction) else {
            throw ValidationError("--layout \(layout) lays out \(registered.directions.map(\.rawValue).joined(separator: " or ")) boards only: drop --direction \(direction.rawValue)")
        }
        do {
            return try registered.with(givenLayoutSettings)
        } catch {
            guard case .option(let name, let message) = error else { throw ValidationError("\(error)") }
            throw ValidationError("\(flag(forOption: name)) \(message)")
        }
    }
}

/// The help of a layout setting, as its layout declares it.
func layoutSettingHelp(_ name: String) -> ArgumentHelp {
    ArgumentHelp(SheetLayout.allSettings.first { $0.setting.name == name }?.setting.help ?? "")
}
