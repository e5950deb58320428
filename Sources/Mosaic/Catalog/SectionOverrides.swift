/// Per-section settings a manifest may give (nil: the sheet's).
public struct SectionOverrides: Sendable, Hashable, Codable {
    /// Columns of this section.
    public var columns: Int?
    /// A target column width, pixels.
    public var columnWidth: Int?
    /// Pixels between cards.
    public var spacing: Int?
    /// Pixels between columns.
    public var columnSpacing: Int?
    /// Pixels between the cards of a column.
    public var rowSpacing: Int?
    /// Inset around the section's cards, pixels.
    public var inset: Int?
    /// The section's direction: rtl mirrors its cards' placement (`SectionStyle.isRightToLeft`),
    /// ltr keeps it; nil or auto: the sheet's (`--text-direction rtl` mirrors every section).
    /// Its text's direction stays the sheet's (auto finds it from the text).
    public var direction: TextDirection?

    /// Overrides; nil keeps the sheet's setting.
    public init(columns: Int? = nil, columnWidth: Int? = nil, spacing: Int? = nil, columnSpacing: Int? = nil, rowSpacing: Int? = nil, inset: Int? = nil,
        direction: TextDirection? = nil
    ) {
        self.columns = columns
        self.columnWidth = columnWidth
        self.spacing = spacing
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.inset = inset
        self.direction = direction
    }

    /// True when nothing is overridden.
    public var isEmpty: Bool { self == SectionOverrides() }
}
