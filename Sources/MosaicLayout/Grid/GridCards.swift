/// Grid cards, as ImageMagick's `montage` lays them out: every card of the board is the same
/// cell, its image frame of one aspect ratio (`cellAspect`), each image fitted inside it
/// (letterboxed) or filling it (cropped), its caption under the image in a block as tall as
/// the board's tallest caption can be. With equal cards, every order fills whole rows, so
/// rows line up across the section (and restart together on a new page).
public struct GridCards: CardSizing, Hashable {
    /// The width / height of every image frame (1: square cells).
    public var cellAspect: Double
    /// `.fit`: each image fits inside its frame; `.fill`: it covers the frame, cropped.
    public var mode: ClampMode
    /// The height reserved under every image for captions, pixels (0: no caption block).
    /// `GridLayout`'s initializer measures it over all items; give it to fix it yourself.
    public var captionBlock: Int

    public init(cellAspect: Double = 1, mode: ClampMode = .fit, captionBlock: Int = 0) {
        self.cellAspect = cellAspect
        self.mode = mode
        self.captionBlock = captionBlock
    }

    public func validate() throws(LayoutError) {
        guard cellAspect.isFinite, cellAspect >= 1.0 / 64, cellAspect <= 64 else { throw .invalidCellAspect(cellAspect) }
        try checkLength(captionBlock, "captionBlock")
    }

    /// Vertical: the image frame is the column's width less padding across and the narrowest
    /// column's width less padding divided by `cellAspect` (rounded) along, then the caption
    /// block, so that all the cards are equally long. Horizontal: the row's height less
    /// padding and the caption block is the frame's height, its width follows from the
    /// narrowest row and `cellAspect`.
    public func cardSize(_ item: LayoutItem, in slot: CardSlot, measurer: some TextMeasuring) throws(LayoutError) -> CardSize {
        guard item.width.isFinite, item.height.isFinite, item.width > 0, item.height > 0 else {
            throw .invalidItemSize(section: slot.path.section, item: slot.path.item, width: item.width, height: item.height)
        }
        let hasCaption = item.caption.map { !$0.isEmpty } ?? false
        let block = captionBlock > 0 ? slot.captionSpacing + captionBlock : 0
        let imageCross: Int, imageLength: Int, length: Int
        if slot.isVertical {
            imageCross = slot.laneLength - slot.paddingCross
            // From the narrowest column, so that the cells of a row are equally long.
            imageLength = max(1, roundedPixels(Double(slot.narrowestLaneLength - slot.paddingCross) / cellAspect))
            length = slot.paddingMain + imageLength + block
        } else {
            imageCross = slot.laneLength - slot.paddingCross - block
            let narrowest = slot.narrowestLaneLength - slot.paddingCross - block
            guard narrowest >= 1 else {
                throw .rowsTooShort(section: slot.path.section, rowHeight: slot.narrowestLaneLength, reserved: slot.paddingCross + block)
            }
            imageLength = max(1, roundedPixels(Double(narrowest) * cellAspect))
            length = slot.paddingMain + imageLength
        }
        // An image of the cell's own aspect (within a pixel) fills it exactly.
        let aspect = item.width / item.height
        // A feature card spans several cells (its column is wider than any one): its frame
        // has an aspect of its own.
        let spanned = slot.laneLength > slot.narrowestLaneLength + 1
        let frameAspect = !spanned ? cellAspect
            : slot.isVertical ? Double(imageCross) / Double(imageLength) : Double(imageLength) / Double(imageCross)
        let exact = abs(aspect - frameAspect) * Double(max(imageLength, imageCross)) < 1
        return CardSize(
            length: length, imageLength: imageLength, imageCross: imageCross,
            captionLength: captionBlock, hasCaption: hasCaption && captionBlock > 0,
            scaling: exact ? .exact : (mode == .fill ? .fill : .fit))
    }
}
