/// Masonry cards: each image keeps its own aspect ratio (the AVMakeRect computation across
/// the column's width), its caption wrapped below it; an optional clamp keeps extreme
/// images (a 1x10000 strip) from making extreme cards.
public struct MasonryCards: CardSizing, Hashable {
    /// The aspect ratios an image frame may have; `nil` keeps every image's own.
    public var aspectClamp: AspectClamp?

    public init(aspectClamp: AspectClamp? = nil) {
        self.aspectClamp = aspectClamp
    }

    public func validate() throws(LayoutError) {
        if let clamp = aspectClamp {
            guard clamp.minimum.isFinite, clamp.maximum.isFinite, clamp.minimum > 0, clamp.minimum <= clamp.maximum
            else { throw .invalidAspectClamp(minimum: clamp.minimum, maximum: clamp.maximum) }
        }
    }

    /// Vertical: the image is as wide as the column less padding and as tall as its (clamped)
    /// aspect ratio makes it, rounded to the nearest pixel, then the caption as set for that
    /// width. Horizontal: the row's height less padding and the caption's reserved block is
    /// the image's height; its width follows from the aspect ratio.
    @inline(__always)
    public func cardSize(_ item: LayoutItem, in slot: CardSlot, measurer: some TextMeasuring) throws(LayoutError) -> CardSize {
        guard item.width.isFinite, item.height.isFinite, item.width > 0, item.height > 0 else {
            throw .invalidItemSize(section: slot.path.section, item: slot.path.item, width: item.width, height: item.height)
        }
        var aspect = item.width / item.height
        var clamped = false
        if let clamp = aspectClamp {
            if aspect < clamp.minimum {
                aspect = clamp.minimum
                clamped = true
            } else if aspect > clamp.maximum {
                aspect = clamp.maximum
                clamped = true
            }
        }
        let scaling: ImageScaling = clamped ? (aspectClamp?.mode == .fit ? .fit : .fill) : .exact
        let caption = item.caption.flatMap { $0.isEmpty ? nil : $0 }
        if slot.isVertical {
            let imageCross = slot.laneLength - slot.paddingCross
            // One division of exact products, so that an exact half (a 6x17 image 21 px
            // wide: 59.5) is seen as one and rounds away from zero; `imageCross / aspect`
            // rounded 21 / (6/17) to 59.4999... first.
            let exact = clamped ? Double(imageCross) / aspect : Double(imageCross) * item.height / item.width
            guard exact < Double(maximumLayoutLength) else {
                throw .itemTooLong(section: slot.path.section, item: slot.path.item, length: exact)
            }
            let imageLength = max(1, roundedPixels(exact))
            var captionLength = 0
            var length = slot.paddingMain + imageLength
            if let caption {
                captionLength = max(0, measurer.height(of: caption, width: imageCross))
                length += slot.captionSpacing + captionLength
            }
            return CardSize(
                length: length, imageLength: imageLength, imageCross: imageCross,
                captionLength: captionLength, hasCaption: caption != nil, scaling: scaling)
        }
        var reserved = 0
        var captionLength = 0
        if let caption {
            captionLength = max(0, measurer.reservedHeight(of: caption))
            reserved = slot.captionSpacing + captionLength
        }
        let imageCross = slot.laneLength - slot.paddingCross - reserved
        guard imageCross >= 1 else {
            throw .rowsTooShort(section: slot.path.section, rowHeight: slot.laneLength, reserved: slot.paddingCross + reserved)
        }
        let exact = clamped ? Double(imageCross) * aspect : Double(imageCross) * item.width / item.height
        guard exact < Double(maximumLayoutLength) else {
            throw .itemTooLong(section: slot.path.section, item: slot.path.item, length: exact)
        }
        let imageLength = max(1, roundedPixels(exact))
        return CardSize(
            length: slot.paddingMain + imageLength, imageLength: imageLength, imageCross: imageCross,
            captionLength: captionLength, hasCaption: caption != nil, scaling: scaling)
    }
}
