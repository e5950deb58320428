/// The settings of one section; every section may have its own.
public struct SectionStyle: Hashable, Codable, Sendable {
    public var columns: ColumnRule
    /// Space between neighbouring columns (rows, when horizontal), pixels.
    public var columnSpacing: Int
    /// Space between consecutive cards of one column, pixels.
    public var rowSpacing: Int
    /// Space between the section's cards and its outer frame (below the header, above the
    /// footer, and on both sides), pixels.
    public var insets: Insets
    public var header: Supplementary?
    public var footer: Supplementary?
    public var decoration: Decoration?
    public var order: ItemOrder
    /// Right to left: on a vertical board the section's placement is mirrored across, as
    /// for right-to-left text. The first column is the rightmost (masonry's ties, a grid's
    /// first cell, a feature card's place), justified rows fill from the right and a last
    /// row kept at its target height sits at the right. Columns keep their widths (the
    /// first, the one a remainder pixel widens, on the right). A horizontal board is not
    /// mirrored (its columns are rows).
    public var isRightToLeft: Bool

    public init(
        columns: ColumnRule = .count(2),
        columnSpacing: Int = 0,
        rowSpacing: Int = 0,
        insets: Insets = .zero,
        header: Supplementary? = nil,
        footer: Supplementary? = nil,
        decoration: Decoration? = nil,
        order: ItemOrder = .shortestFirst,
        isRightToLeft: Bool = false
    ) {
        self.columns = columns
        self.columnSpacing = columnSpacing
        self.rowSpacing = rowSpacing
        self.insets = insets
        self.header = header
        self.footer = footer
        self.decoration = decoration
        self.order = order
        self.isRightToLeft = isRightToLeft
    }
}
