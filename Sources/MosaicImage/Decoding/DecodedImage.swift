import MosaicLayout

/// A region of a bitmap in (fractional) pixels, origin top-left.
public typealias ImageExtent = (x: Double, y: Double, width: Double, height: Double)

/// A decoded image, turned upright.
public struct DecodedImage: Sendable {
    /// Upright (orientation applied), premultiplied RGBA.
    public var bitmap: Bitmap
    /// What the headers said (the stored size, before DCT scaling and orientation).
    public var info: ImageInfo
    /// The DCT scale used, in eighths (8: full size; 8 for formats without one).
    public var scaleEighths: Int
    /// Each side divided by this when read band by band in block averages; 1 otherwise.
    public var reduction: Int = 1
    /// Set when the decoder worked around damaged or missing data.
    public var warning: DecodingWarning?
    /// The part of `bitmap` the whole image spans, in its pixels (upright, origin top-left):
    /// all of it, less where a read in `reduction` x `reduction` block averages ends in a
    /// partial block (a 3840-pixel row in blocks of 7 spans 548.57 of its 549 pixels), at
    /// the right and bottom as stored and on whichever sides the orientation turns them
    /// to. Resampling this region (`Bitmap.resampled(width:height:filter:extent:)`) keeps
    /// the scale exact and the edges in place.
    public var extent: ImageExtent

    public init(
        bitmap: Bitmap, info: ImageInfo, scaleEighths: Int = 8, reduction: Int = 1, warning: DecodingWarning? = nil,
        extent: ImageExtent? = nil
    ) {
        self.bitmap = bitmap
        self.info = info
        self.scaleEighths = scaleEighths
        self.reduction = reduction
        self.warning = warning
        self.extent = extent ?? (0, 0, Double(bitmap.width), Double(bitmap.height))
    }

    /// `extent` of the bitmap as stored (`storedWidth` x `storedHeight`) as it lies once
    /// the bitmap is turned upright by `orientation`.
    static func oriented(_ extent: ImageExtent, storedWidth: Int, storedHeight: Int, _ orientation: Orientation) -> ImageExtent {
        let (w, h) = (Double(storedWidth), Double(storedHeight))
        // Where a stored point lands (the pixel mapping of `Bitmap.oriented`, on edges).
        func turn(_ x: Double, _ y: Double) -> (Double, Double) {
            switch orientation {
            case .up: return (x, y)
            case .upMirrored: return (w - x, y)
            case .down: return (w - x, h - y)
            case .downMirrored: return (x, h - y)
            case .leftMirrored: return (y, x)
            case .right: return (h - y, x)
            case .rightMirrored: return (h - y, w - x)
            case .left: return (y, w - x)
            }
        }
        let a = turn(extent.x, extent.y), b = turn(extent.x + extent.width, extent.y + extent.height)
        return (min(a.0, b.0), min(a.1, b.1), abs(b.0 - a.0), abs(b.1 - a.1))
    }
}
