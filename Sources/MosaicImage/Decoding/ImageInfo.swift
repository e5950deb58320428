import MosaicLayout

/// What an image's headers say, read without decoding a pixel.
public struct ImageInfo: Sendable, Hashable, Codable {
    public var format: ImageFormat
    /// The stored size in pixels.
    public var width: Int
    public var height: Int
    public var orientation: Orientation
    public var hasAlpha: Bool
    /// How the image data is spread over passes (JPEG's progressive scans, PNG's Adam7...);
    /// nil for sequential data.
    public var interlacing: Interlacing?
    /// Bits per sample (PNG 1 to 16; JPEG 8).
    public var bitDepth: Int
    /// The colour model (`colorModel.name`: "grey", "rgb", "ycbcr", "cmyk", "ycck",
    /// "palette", "grey+alpha", "rgba"...).
    public var colorModel: ColorModel
    /// PNG: the tEXt "Software" value ("mosaic" for mosaic's own sheets), if any.
    public var software: String? = nil
    /// Bytes the decoder holds besides its output (a progressive JPEG's coefficients for the
    /// whole image); 0 when it streams.
    public var decodeMemory: Int = 0
    /// When the picture was taken (EXIF DateTimeOriginal, else DateTime), read only when the
    /// decoder is asked to (`ImageDecoder.readsCaptureDate`); nil when absent or not asked.
    public var captured: CaptureDate? = nil
    /// The camera's make and model (`CameraText.camera`), read only when the decoder is asked
    /// to (`ImageDecoder.readsCamera`); nil when absent or not asked.
    public var camera: String? = nil
    /// The embedded previews a codec may draw from instead of the image itself (a camera
    /// RAW's JPEGs), as stored, largest first; nil when there are none.
    public var previews: [Size]? = nil
    /// The exposure (EXIF) and the rating, title and description (XMP), read only when the
    /// decoder is asked to (`ImageDecoder.readsExposure`, `readsXMP`); nil when none is known
    /// or none was asked.
    public var shooting: ShootingData? {
        get { shootingBox?.value }
        set { shootingBox = newValue.map(ShootingData.Box.init) }
    }
    /// `shooting`, boxed: an info is copied with every entry read, and most hold none (held
    /// inline, its strings made every copy of every info cost more).
    private var shootingBox: ShootingData.Box? = nil
    /// A Motion Photo's kind (a still that carries a clip in its own file), read only when
    /// the decoder is asked to (`ImageDecoder.findsMotionPhotos`); nil for any other image.
    public var motionPhoto: MotionPhoto? = nil
    /// The gain map the photo carries (Ultra HDR, ISO 21496-1, Apple's), read by the codec's
    /// probe from the headers it reads anyway; nil for none. The card draws the standard image.
    public var gainMap: GainMap? = nil
    /// Apple's content identifier, the UUID a Live Photo's still (its maker note) and clip
    /// (its QuickTime metadata) share: a clip's always, a still's only when the decoder is
    /// asked to (`ImageDecoder.readsContentIdentifier`); nil when absent or not asked.
    public var contentIdentifier: String? = nil

    /// A video's facts (duration, codec, frame rate...) and the frame a card shows; nil
    /// for a still image.
    public var video: VideoInfo? = nil

    public init(
        format: ImageFormat, width: Int, height: Int, orientation: Orientation, hasAlpha: Bool, interlacing: Interlacing? = nil,
        bitDepth: Int, colorModel: ColorModel, software: String? = nil, decodeMemory: Int = 0
    ) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.interlacing = interlacing
        self.bitDepth = bitDepth
        self.colorModel = colorModel
        self.software = software
        self.decodeMemory = decodeMemory
    }

    /// True when the data comes in several passes (progressive or interlaced).
    public var isProgressive: Bool { interlacing != nil }

    /// The stored size in pixels.
    public var size: Size { Size(width: width, height: height) }

    /// The size as displayed, after the orientation.
    public var orientedWidth: Int { orientation.swapsAxes ? height : width }
    public var orientedHeight: Int { orientation.swapsAxes ? width : height }
}
