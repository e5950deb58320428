extension SheetLayout {
    /// The grid's own settings.
    static let gridSettings = [
        LayoutSetting(
            name: "cellAspect", help: "Grid: the cells' width/height, 1.5 for 3:2 (default: 1).",
            kind: .number(default: 1, range: (1.0 / 64)...64)),
        LayoutSetting(name: "crop", help: "Grid: crop each image to fill its cell.", kind: .flag),
    ]

    /// A montage-style grid: equal cells in rows, each image fitted in its cell (or, with
    /// `crop`, filling it), captions under the images in a block of one height.
    ///
    /// - Parameters:
    ///   - cellAspect: the width / height of every image cell (default 1: square, as
    ///     montage's tiles; landscape and portrait photos lose the same); 1/64...64.
    ///   - crop: fill each cell and crop the overhang instead of letterboxing.
    public static func grid(cellAspect: Double = 1, crop: Bool = false) -> SheetLayout {
        let layout = SheetLayout(
            name: "grid", summary: "equal cells",
            settings: gridSettings
        ) { settings, configuration, sections, captions throws(LayoutError) in
            try GridLayout(
                configuration: configuration,
                cells: GridCards(cellAspect: settings.number("cellAspect", or: 1), mode: settings.flag("crop") ? .fill : .fit),
                sections: sections, measurer: captions)
        }
        // Out of range values are the grid's own error when it lays out.
        var values = layout.values
        values.values["cellAspect"] = .number(cellAspect)
        values.values["crop"] = .flag(crop)
        return layout.replacing(values)
    }

    /// This layout with `values` in force, unchecked (the layout checks them itself).
    func replacing(_ values: LayoutSettings) -> SheetLayout {
        var layout = self
        layout.values = values
        return layout
    }
}
