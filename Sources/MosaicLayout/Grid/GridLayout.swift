/// A grid board (a montage-style contact sheet): equal cells in rows, each image fitted in
/// its cell (or cropped to fill it), captions under the images; sections, headers, footers,
/// decorations and pagination as masonry has them.
public typealias GridLayout = SectionLayout<GridCards>

extension SectionLayout where Cards == GridCards {
    /// Lays out `sections` as a grid of `cells`. When `cells.captionBlock` is 0, the block
    /// under each image is measured here: the tallest reserved caption of all the items
    /// (`TextMeasuring.reservedHeight`), so every cell of the board is the same.
    ///
    /// - Throws: `LayoutError` naming the first field or item that is out of range.
    /// - Complexity: O(n * c) for n cards in sections of c columns.
    public init(
        configuration: BoardConfiguration, cells: GridCards = GridCards(), sections: [LayoutSection],
        measurer: some TextMeasuring = NoText()
    ) throws(LayoutError) {
        var cells = cells
        if cells.captionBlock == 0 {
            for section in sections {
                for item in section.items {
                    guard let caption = item.caption, !caption.isEmpty else { continue }
                    cells.captionBlock = max(cells.captionBlock, measurer.reservedHeight(of: caption))
                }
            }
        }
        try self.init(configuration: configuration, cardSizing: cells, sections: sections, measurer: measurer)
    }
}
