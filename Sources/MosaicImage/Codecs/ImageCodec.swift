import MosaicLayout

/// One image format: how to recognise it, read its headers and decode its pixels.
///
/// A codec is a small value in a file of its own (`JPEGCodec.swift`, `PNGCodec.swift`),
/// registered with one line in `CodecRegistry.standard`; the C it needs lives in the shim.
/// Nothing outside a codec switches on the format.
public protocol ImageCodec: Sendable {
    /// The format this codec reads.
    var format: ImageFormat { get }

    /// The format's name as written in messages ("JPEG"; by default the format's raw
    /// value in capitals).
    var name: String { get }

    /// How this codec is set to draw, when it can be set ("full" for a RAW codec told to
    /// develop the raw data): part of the registry's description, so a sheet's digest tells
    /// two settings apart. Empty by default.
    var settings: String { get }

    /// The file name extensions of the format, lowercase, without the dot: a file named so
    /// that is not one is reported, not skipped.
    var fileExtensions: [String] { get }

    /// True when `signature` (the file's first `CodecRegistry.signatureLength` bytes, fewer
    /// for a shorter file) starts a file of this format.
    func matches(signature: [UInt8]) -> Bool

    /// True when `header` (the file's first bytes as a probe reads them: the signature and
    /// more, up to the whole file) starts a file of this format: for a format that shares
    /// its signature with another (a RAW that is a TIFF underneath), known by its first
    /// directory. By default `matches(signature:)` of its first bytes.
    func matches(header: [UInt8]) -> Bool

    /// Reads the headers from the first bytes of a file: size, orientation, alpha, colour
    /// model; never decodes scan data.
    ///
    /// - Returns: nil when `bytes` end before the headers do and `isWholeFile` is false
    ///   (the caller reads more and calls again).
    /// - Throws: `ImageDecodingError.codec` with the library's message.
    func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo?

    /// Decodes the whole file `bytes`, whose headers said `info`, as stored (the caller
    /// turns it upright): at full size, or smaller but still covering
    /// `request.minimumSize` (upright pixels) where the format can (shrink-on-load).
    func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage

    /// Decodes two whole files of this format together, each as `decode` would (a diff's
    /// baseline and current image), where the format can share work between them; nil when
    /// it cannot for these two (then each is decoded alone, which also gives its errors).
    func decodePair(_ first: DecodeInput, _ second: DecodeInput) throws(ImageDecodingError) -> (DecodedImage, DecodedImage)?

    /// The colour the whole file `bytes` declares (an embedded ICC profile, or the
    /// format's own description), or nil when its pixels are sRGB.
    func colorProfile(_ bytes: [UInt8]) -> ColorProfile?

    /// The EXIF block (a TIFF structure, perhaps after JPEG's "Exif\0\0") in the first
    /// bytes of a file, or nil: what the probe reads the date, camera and exposure
    /// from.
    func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>?

    /// The embedded XMP packet (RDF/XML) in the first bytes of a file, or nil: where a
    /// Motion Photo says it holds a clip, and where ratings and titles are kept.
    func xmpPacket(_ bytes: [UInt8]) -> ArraySlice<UInt8>?

    /// The IPTC-IIM records (`IPTCRecords`) in the first bytes of a file, or nil: older
    /// writers' titles and captions, read after the XMP packet's.
    func iptcBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>?

    /// True when a file of this format may carry a maker's trailer after its image data
    /// (Samsung's motion photos append their clip to a JPEG): only then is a file's end
    /// read for it.
    var mayCarryTrailer: Bool { get }

    /// The bytes of pixel memory that `decode` will hold at its peak for `minimumSize`
    /// (nil: full size): what the decode budget reserves before it starts.
    func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int

    /// What this codec's decodes depend on besides the file: its own code's revision and
    /// its libraries' versions. A card cache keys entries by it; nil (the default): the
    /// codec's decodes are never cached.
    var cacheVersion: String? { get }

    /// The frames of the animation in the file at `path` of this format (`info` its probe),
    /// for a section of its frames (`--frames`); nil for a still image, and (the default)
    /// for a format without animations, whose file is not read. A frame is then decoded by
    /// `decode` when `info.video?.frameTime` names its time.
    func timeline(ofFile path: String, info: ImageInfo) -> AnimationTimeline?

    /// True when the format's library reads the file itself, by path (a video, whose index
    /// may lie at its end of gigabytes): `probe(file:request:)` and
    /// `decode(file:info:request:)` are called instead of the calls on bytes.
    var readsFromPath: Bool { get }

    /// Reads the headers of the file at `path` (when `readsFromPath`), with `request`'s
    /// limits and video settings.
    func probe(file path: String, request: DecodeRequest) throws(ImageDecodingError) -> ImageInfo

    /// Decodes the file at `path` (when `readsFromPath`) as `decode` decodes bytes: as
    /// stored, covering `request.minimumSize`.
    func decode(file path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage

    /// Decodes the file at `path` (probed as `info`) from the parts of it the decode needs
    /// alone, as stored, as `decode` would; nil (the default) when this codec reads the
    /// whole file, or when the parts do not serve (the caller then reads the whole file and
    /// calls `decode`, which judges damage and `--strict`). A RAW's card from its preview
    /// reads the directories and the preview's bytes, never the raw data.
    func decodeReadingParts(ofFile path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage?
}

extension ImageCodec {
    public var settings: String { "" }
    public func matches(header: [UInt8]) -> Bool { matches(signature: Array(header.prefix(CodecRegistry.signatureLength))) }
    public var name: String { format.rawValue.uppercased() }
    public var cacheVersion: String? { nil }
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? { nil }
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { nil }
    public func xmpPacket(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { nil }
    public func iptcBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { nil }
    public var mayCarryTrailer: Bool { false }
    public func decodePair(_ first: DecodeInput, _ second: DecodeInput) throws(ImageDecodingError) -> (DecodedImage, DecodedImage)? { nil }
    public var readsFromPath: Bool { false }
    public func decodeReadingParts(ofFile path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage? { nil }
    public func timeline(ofFile path: String, info: ImageInfo) -> AnimationTimeline? { nil }
    public func probe(file path: String, request: DecodeRequest) throws(ImageDecodingError) -> ImageInfo {
        let (bytes, _) = try FileBytes.read(path)
        guard let info = try probe(bytes, isWholeFile: true, path: path) else { throw .unreadable(path: path, reason: "the headers are incomplete") }
        return info
    }
    public func decode(file path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        try decode(FileBytes.read(path).bytes, info: info, request: request)
    }
}

