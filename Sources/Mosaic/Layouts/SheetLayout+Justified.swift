extension SheetLayout {
    /// Justified rows: every row fills the width, images keep their aspect ratio uncropped,
    /// rows differ in height (Flickr's justified-layout rule); `--max-aspect` clamps
    /// panoramas. Vertical boards only.
    public static let justified = SheetLayout(
        name: "justified", summary: "rows that fill the width",
        directions: [.vertical], placesSpans: false,
        settings: [
            LayoutSetting(
                name: "rowHeight", help: "Justified: the height rows aim at, pixels (default: 240).",
                kind: .integer(default: 240, range: 1...100_000)),
            LayoutSetting(
                name: "maxRowHeight",
                help: "Justified: no row taller than this, pixels (default: twice --row-height).",
                kind: .integer(default: nil, range: 1...100_000)),
            LayoutSetting(
                name: "lastRow", help: "Justified: the last row of a section: left, center or justify (default: left).",
                kind: .choice(default: "left", values: JustifiedRows.LastRow.allCases.map(\.rawValue))),
        ]
    ) { settings, configuration, sections, captions throws(LayoutError) in
        let target = settings.integer("rowHeight") ?? 240
        let rows = JustifiedRows(
            targetRowHeight: target, maximumRowHeight: settings.integer("maxRowHeight"),
            lastRow: JustifiedRows.LastRow(rawValue: settings.choice("lastRow", or: "left")) ?? .left,
            aspectClamp: configuration.aspectClamp)
        return try JustifiedLayout(configuration: configuration, rows: rows, sections: sections, measurer: captions)
    }
}
