/// Per-section settings a manifest may give (nil: the sheet's).
public struct SectionOverrides: Sendable, Hashable, Codable {
    public var columns: Int?
    public var columnWidth: Int?
    public var spacing: Int?
    public var columnSpacing: Int?
    public var rowSpacing: Int?
    public var inset: Int?

    public init(columns: Int? = nil, columnWidth: Int? = nil, spacing: Int? = nil, columnSpacing: Int? = nil, rowSpacing: Int? = nil, inset: Int? = nil) {
        self.columns = columns
        self.columnWidth = columnWidth
        self.spacing = spacing
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.inset = inset
    }

    public var isEmpty: Bool { self == SectionOverrides() }
}
