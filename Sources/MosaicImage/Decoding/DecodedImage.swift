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

    public init(bitmap: Bitmap, info: ImageInfo, scaleEighths: Int = 8, reduction: Int = 1, warning: DecodingWarning? = nil) {
        self.bitmap = bitmap
        self.info = info
        self.scaleEighths = scaleEighths
        self.reduction = reduction
        self.warning = warning
    }
}
