import MosaicLayout

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
    /// How many of `bitmap`'s pixels the whole image spans, across and down (upright): its
    /// size, less where a read in `reduction` x `reduction` block averages ends in a partial
    /// block (a 3840-pixel row in blocks of 7 spans 548.57 of its 549 pixels). Resampling to
    /// this extent (`Bitmap.resampled(width:height:filter:extent:)`) keeps the scale exact.
    public var extent: (width: Double, height: Double)

    public init(
        bitmap: Bitmap, info: ImageInfo, scaleEighths: Int = 8, reduction: Int = 1, warning: DecodingWarning? = nil,
        extent: (width: Double, height: Double)? = nil
    ) {
        self.bitmap = bitmap
        self.info = info
        self.scaleEighths = scaleEighths
        self.reduction = reduction
        self.warning = warning
        self.extent = extent ?? (Double(bitmap.width), Double(bitmap.height))
    }
}
