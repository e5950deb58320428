/// A placement of one card at a time in the column the section's `ItemOrder` picks: all
/// it decides is how long a card is in its column and how its image fills its frame
/// (`MasonryCards`, `GridCards`). `CardPlacement` comes with it.
public protocol CardSizing: CardPlacement {
    /// Throws the first of the layout's own settings that is out of range.
    func validate() throws(LayoutError)

    /// The size of `item`'s card in the column (row, when horizontal) described by `slot`.
    ///
    /// - Throws: `LayoutError` naming the item (`invalidItemSize`, `itemTooLong`,
    ///   `rowsTooShort`).
    func cardSize(_ item: LayoutItem, in slot: CardSlot, measurer: some TextMeasuring) throws(LayoutError) -> CardSize
}

/// Where a card is being placed, in flow terms: "main" runs along the flow (down on a
/// vertical board), "cross" across it.
public struct CardSlot: Sendable {
    /// The card's section and its index in the section.
    public var path: ItemPath
    /// True on a vertical board (columns), false on a horizontal one (rows).
    public var isVertical: Bool
    /// The column's width (the row's height when horizontal), pixels.
    public var laneLength: Int
    /// The narrowest column of the section (columns differ by at most one pixel): what a
    /// layout of equal cells sizes them from.
    public var narrowestLaneLength: Int
    /// The card's padding along the flow and across it (both sides added), pixels.
    public var paddingMain: Int
    public var paddingCross: Int
    /// Pixels between an image and its caption.
    public var captionSpacing: Int
}

/// A card's extent and the parts of it, in flow terms (pixels).
public struct CardSize: Sendable, Equatable {
    /// The whole card along the flow, padding included.
    public var length: Int
    /// The image frame along and across the flow.
    public var imageLength: Int
    public var imageCross: Int
    /// The caption's height (its reserved block on a horizontal board); 0 without one.
    public var captionLength: Int
    public var hasCaption: Bool
    /// How the image fills its frame.
    public var scaling: ImageScaling

    public init(length: Int, imageLength: Int, imageCross: Int, captionLength: Int, hasCaption: Bool, scaling: ImageScaling) {
        self.length = length
        self.imageLength = imageLength
        self.imageCross = imageCross
        self.captionLength = captionLength
        self.hasCaption = hasCaption
        self.scaling = scaling
    }
}
