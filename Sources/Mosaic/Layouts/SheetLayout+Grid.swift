extension SheetLayout {
    /// A montage-style grid: equal cells in rows, each image fitted in its cell (or, with
    /// `crop`, filling it), captions under the images in a block of one height.
    ///
    /// - Parameters:
    ///   - cellAspect: the width / height of every image cell (default 1: square, as
    ///     montage's tiles; landscape and portrait photos lose the same).
    ///   - crop: fill each cell and crop the overhang instead of letterboxing.
    public static func grid(cellAspect: Double = 1, crop: Bool = false) -> SheetLayout {
        SheetLayout(
            name: "grid", summary: "equal cells in rows, each image fitted in its cell, as montage does",
            settings: "cell aspect \(cellAspect)\(crop ? ", cropped" : "")"
        ) { configuration, sections, captions throws(LayoutError) in
            try GridLayout(
                configuration: configuration, cells: GridCards(cellAspect: cellAspect, mode: crop ? .fill : .fit),
                sections: sections, measurer: captions)
        }
    }
}
