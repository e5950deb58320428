#if canImport(Glibc)
import Glibc
#endif
import CMosaicShims
import MosaicLayout

/// Reads image files through the codec registry: headers only (`probe`) or pixels
/// (`decode`), limits checked from the headers before any pixel memory is taken.
public struct ImageDecoder: Sendable {
    public var limits: ImageLimits
    /// When true, damaged data that the library works around (a truncated JPEG) is an error
    /// instead of a warning.
    public var strict: Bool
    /// False: bitmaps keep the file's straight alpha (for comparisons that must see the
    /// stored values, as pixelmatch does); everything else in mosaic wants premultiplied.
    public var premultiplyAlpha = true
    /// Convert images with an embedded ICC profile to sRGB (on by default).
    public var manageColor = true
    /// The formats read.
    public var codecs: CodecRegistry
    /// Probes also read when the picture was taken (`ImageInfo.captured`), from the EXIF
    /// block of the bytes the probe reads anyway (no second read of the file).
    public var readsCaptureDate = false
    /// Probes also read the camera's make and model (`ImageInfo.camera`), likewise.
    public var readsCamera = false
    /// Probes also read the exposure (`ShootingData`'s lens, ISO, aperture, exposure time
    /// and focal length) from the EXIF block, likewise.
    public var readsExposure = false
    /// Probes also read the rating, title and description from the embedded XMP packet (and
    /// the title and description from IPTC-IIM records, where XMP has none).
    public var readsXMP = false
    /// Probes also tell a Motion Photo (`ImageInfo.motionPhoto`): from the XMP packet of
    /// the bytes read anyway, and for a format that may carry a trailer and whose EXIF
    /// names Samsung, from the file's last 4 KiB.
    public var findsMotionPhotos = false
    /// Probes also read Apple's content identifier (`ImageInfo.contentIdentifier`) from the
    /// EXIF block's maker note, likewise: what pairs a Live Photo's still with a clip of
    /// another name.
    public var readsContentIdentifier = false
    /// How videos' frames are chosen and decoded (poster time, exact frames, time limit).
    public var video = VideoDecoding()

    public init(limits: ImageLimits = ImageLimits(), strict: Bool = false, codecs: CodecRegistry = .standard) {
        self.limits = limits
        self.strict = strict
        self.codecs = codecs
    }

    /// How many bytes a probe reads first; more only when the headers are longer.
    static let probePrefix = 64 * 1024

    // MARK: Probing

    /// Reads the headers of the file at `path`: format (from the signature), size, EXIF
    /// orientation, alpha. Reads the first 64 KiB (more only for longer headers); never
    /// reads or decodes scan data.
    public func probe(_ path: String) throws(ImageDecodingError) -> ImageInfo {
        var status = stat()
        return try probe(path, fileStatus: &status)
    }

    /// `probe(_:)`, giving in `fileStatus` the `fstat` of the file it read (its size and
    /// modification time): a catalog needs no other look at the path.
    public func probe(_ path: String, fileStatus: inout stat) throws(ImageDecodingError) -> ImageInfo {
        var prefix = Self.probePrefix
        while true {
            let (bytes, isWhole) = try FileBytes.read(path, limit: prefix, status: &fileStatus)
            // A format whose library reads the file by path (a video): its own probe.
            // (The header check only when no signature matches: a transport stream's.)
            let signature = Array(bytes.prefix(CodecRegistry.signatureLength))
            if let codec = codecs.codec(for: signature) ?? codecs.codec(forHeader: bytes), codec.readsFromPath {
                var request = DecodeRequest(path: path, limits: limits)
                request.video = video
                return try codec.probe(file: path, request: request)
            }
            if var info = try probe(bytes: bytes, isWholeFile: isWhole, path: path) {
                if findsMotionPhotos, info.motionPhoto == nil, !isWhole, let codec = codecs.codec(of: info.format), codec.mayCarryTrailer,
                    let exif = codec.exifBlock(bytes), MotionPhoto.namesSamsung(exif),
                    let tail = MotionPhoto.tail(path), MotionPhoto.samsungTrailer(tail)
                {
                    info.motionPhoto = .samsung
                }
                return info
            }
            prefix *= 4
        }
    }

    /// Reads the headers from the first bytes of a file; nil when they end before the
    /// headers do (and `isWholeFile` is false): call again with more.
    public func probe(bytes: [UInt8], isWholeFile: Bool = true, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let (probed, codec) = try probeWithCodec(bytes: bytes, isWholeFile: isWholeFile, path: path) else { return nil }
        var info = probed
        // Each block read once for all who ask (a HEIF's are items libheif reads).
        let exif = readsExif || readsContentIdentifier ? codec.exifBlock(bytes) : nil
        if let exif {
            if readsExif { readExif(exif, into: &info) }
            if readsContentIdentifier { info.contentIdentifier = Self.appleContentIdentifier(exif) }
        }
        let xmp = readsXMP || findsMotionPhotos ? codec.xmpPacket(bytes) : nil
        if readsXMP {
            // IPTC's title and caption, then XMP's over them (a sidecar's over both, later).
            var fields = codec.iptcBlock(bytes).map(IPTCRecords.fields) ?? ShootingData()
            if let xmp { fields = fields.overridden(by: XMPPacket.fields(xmp)) }
            if !fields.isEmpty { info.shooting = (info.shooting ?? ShootingData()).overridden(by: fields) }
        }
        if findsMotionPhotos {
            if let xmp, let kind = MotionPhoto(xmp: xmp) {
                info.motionPhoto = kind
            } else if isWholeFile, codec.mayCarryTrailer, let exif = exif ?? codec.exifBlock(bytes), MotionPhoto.namesSamsung(exif),
                MotionPhoto.samsungTrailer(bytes.suffix(MotionPhoto.trailerLength))
            {
                info.motionPhoto = .samsung
            }
        }
        return info
    }

    /// True when a probe reads any EXIF field.
    var readsExif: Bool { readsCaptureDate || readsCamera || readsExposure }

    /// The EXIF fields asked for, from `block`, into `info` (parsed once, by libexif).
    func readExif(_ block: ArraySlice<UInt8>, into info: inout ImageInfo) {
        var fields = mosaic_exif_text()
        var exposure = mosaic_exif_exposure()
        if readsExposure {
            block.withUnsafeBufferPointer { mosaic_exif_fields($0.baseAddress, $0.count, &fields, &exposure) }
        } else {
            block.withUnsafeBufferPointer { mosaic_exif_fields($0.baseAddress, $0.count, &fields, nil) }
        }
        let text = Self.cameraText(fields)
        if readsCaptureDate { info.captured = text.date.flatMap { CaptureDate(exif: $0, offset: text.offset) } }
        if readsCamera, !text.camera.isEmpty { info.camera = text.camera }
        if readsExposure {
            let lens = messageText(exposure.lens).trimming(" ")
            var shooting = ShootingData(
                lens: lens.isEmpty ? nil : lens, iso: exposure.iso > 0 ? exposure.iso : nil,
                aperture: exposure.f_number > 0 ? exposure.f_number : nil, exposureTime: exposure.exposure_time > 0 ? exposure.exposure_time : nil,
                focalLength: exposure.focal_length > 0 ? exposure.focal_length : nil)
            if let known = info.shooting { shooting = known.overridden(by: shooting) }
            if !shooting.isEmpty { info.shooting = shooting }
        }
    }

    func probeWithCodec(bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> (info: ImageInfo, codec: any ImageCodec)? {
        guard let codec = codecs.codec(forHeader: bytes) else {
            if !isWholeFile && bytes.count < CodecRegistry.signatureLength { return nil }
            throw .unsupportedFormat(path: path, signature: Array(bytes.prefix(CodecRegistry.signatureLength)), readable: codecs.names)
        }
        guard let info = try codec.probe(bytes, isWholeFile: isWholeFile, path: path) else { return nil }
        guard info.width > 0, info.height > 0 else {
            throw .codec(path: path, format: codec.format, message: "the header gives a size of \(info.width)x\(info.height)")
        }
        return (info, codec)
    }

    /// The colour the file at `path` declares (reads the whole file: a TIFF's profile tag
    /// may follow its pixels); nil for sRGB and for a video.
    public func colorProfile(_ path: String) throws(ImageDecodingError) -> ColorProfile? {
        // A video's colour is converted while decoding (its stream's matrix and range).
        if try codecReadingFromPath(path) != nil { return nil }
        let (bytes, _) = try FileBytes.read(path)
        guard let (_, codec) = try probeWithCodec(bytes: bytes, isWholeFile: true, path: path) else { return nil }
        return codec.colorProfile(bytes)
    }

    /// Apple's content identifier in the maker note of `block`; nil when there is none.
    static func appleContentIdentifier(_ block: ArraySlice<UInt8>) -> String? {
        var text = [CChar](repeating: 0, count: 64)
        let found = block.withUnsafeBufferPointer { exif in
            text.withUnsafeMutableBufferPointer { mosaic_exif_apple_content_identifier(exif.baseAddress, exif.count, $0.baseAddress, $0.count) }
        }
        return found != 0 ? String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// The date, offset, make and model the shim read.
    static func cameraText(_ fields: mosaic_exif_text) -> CameraText {
        func text<T>(_ tuple: T) -> String? {
            let value = messageText(tuple).trimming(" ")
            return value.isEmpty ? nil : value
        }
        return CameraText(date: text(fields.date), make: text(fields.make), model: text(fields.model), offset: text(fields.offset))
    }

    // MARK: Decoding

    /// Decodes the file at `path`, upright: at full size, or (shrink-on-load, where the
    /// format can) smaller but still covering `minimumSize` in upright pixels.
    public func decode(_ path: String, minimumSize: Size? = nil) throws(ImageDecodingError) -> DecodedImage {
        if let codec = try codecReadingFromPath(path) {
            let info = try probe(path)
            return try decode(file: path, info: info, codec: codec, minimumSize: minimumSize)
        }
        let (bytes, _) = try FileBytes.read(path)
        return try decode(bytes: bytes, path: path, minimumSize: minimumSize)
    }

    /// The whole file at `path` (for a caller that looks at the bytes before decoding
    /// them with `decode(bytes:path:)`: `mosaic diff` short-cuts byte-identical files).
    public func fileBytes(_ path: String) throws(ImageDecodingError) -> [UInt8] {
        try FileBytes.read(path).bytes
    }

    /// Decodes the file at `path` whose headers a probe of this decoder's registry already
    /// read (`info`, as the catalog keeps it): the decode does not read them again (unless
    /// the file no longer starts as a file of `info`'s format, when it is probed anew).
    public func decode(_ path: String, probed info: ImageInfo, minimumSize: Size? = nil) throws(ImageDecodingError) -> DecodedImage {
        // A format read by path (a video): no byte of the file is read here (an image's
        // decode reads no signature first either).
        if let codec = codecs.codec(of: info.format), codec.readsFromPath {
            return try decode(file: path, info: info, codec: codec, minimumSize: minimumSize)
        }
        // A codec that needs only parts of the file (a RAW's preview): those alone.
        if let codec = codecs.codec(of: info.format),
            let decoded = try codec.decodeReadingParts(ofFile: path, info: info, request: try request(info, path: path, minimumSize: minimumSize))
        {
            return Self.upright(decoded, info.orientation)
        }
        return try decode(bytes: try FileBytes.read(path).bytes, path: path, probed: info, minimumSize: minimumSize)
    }

    /// Decodes a whole file held in memory whose headers a probe already read (`info`), as
    /// `decode(_:probed:minimumSize:)` does the file at `path` (a card cache read the bytes
    /// to digest them).
    public func decode(bytes: [UInt8], path: String, probed info: ImageInfo, minimumSize: Size? = nil) throws(ImageDecodingError) -> DecodedImage {
        guard let codec = codecs.codec(forHeader: bytes), codec.format == info.format else {
            return try decode(bytes: bytes, path: path, minimumSize: minimumSize)
        }
        return try decode(bytes: bytes, path: path, info: info, codec: codec, minimumSize: minimumSize)
    }

    /// The codec of the file at `path` when it reads files by path (a video), from the
    /// file's first bytes; nil for every other format.
    func codecReadingFromPath(_ path: String) throws(ImageDecodingError) -> (any ImageCodec)? {
        // Enough for a transport stream's packets (`VideoCodec.matches(header:)`).
        let (header, _) = try FileBytes.read(path, limit: max(CodecRegistry.signatureLength, VideoCodec.transportStreamHeader))
        let signature = Array(header.prefix(CodecRegistry.signatureLength))
        guard let codec = codecs.codec(for: signature) ?? codecs.codec(forHeader: header), codec.readsFromPath else { return nil }
        return codec
    }

    /// Decodes the file at `path` through a codec that reads it by path, upright.
    func decode(file path: String, info: ImageInfo, codec: any ImageCodec, minimumSize: Size?) throws(ImageDecodingError) -> DecodedImage {
        var request = try request(info, path: path, minimumSize: minimumSize)
        request.video = video
        return Self.upright(try codec.decode(file: path, info: info, request: request), info.orientation)
    }

    /// Decodes a whole file held in memory; `path` names it in errors.
    public func decode(bytes: [UInt8], path: String, minimumSize: Size? = nil) throws(ImageDecodingError) -> DecodedImage {
        guard let (info, codec) = try probeWithCodec(bytes: bytes, isWholeFile: true, path: path) else {
            throw .unreadable(path: path, reason: "the headers are incomplete")
        }
        return try decode(bytes: bytes, path: path, info: info, codec: codec, minimumSize: minimumSize)
    }

    func decode(bytes: [UInt8], path: String, info: ImageInfo, codec: any ImageCodec, minimumSize: Size?) throws(ImageDecodingError) -> DecodedImage {
        let request = try request(info, path: path, minimumSize: minimumSize)
        return Self.upright(try codec.decode(bytes, info: info, request: request), info.orientation)
    }

    /// Decodes two whole files held in memory (a diff's baseline and current image), each
    /// upright as `decode(bytes:path:)` gives it, and with the same errors in the same
    /// order (the first file's first): together where their codec shares work between
    /// two files (two PNGs of one size: `PNGCodec.decodePair`), else one after the other.
    public func decodePair(_ first: (bytes: [UInt8], path: String), _ second: (bytes: [UInt8], path: String)) throws(ImageDecodingError) -> (DecodedImage, DecodedImage) {
        // A probe that fails or ends short: each decoded alone, which gives its error.
        guard let a = try? probeWithCodec(bytes: first.bytes, isWholeFile: true, path: first.path),
            let b = try? probeWithCodec(bytes: second.bytes, isWholeFile: true, path: second.path)
        else { return (try decode(bytes: first.bytes, path: first.path), try decode(bytes: second.bytes, path: second.path)) }
        if a.codec.format == b.codec.format,
            let requestA = try? request(a.info, path: first.path, minimumSize: nil),
            let requestB = try? request(b.info, path: second.path, minimumSize: nil),
            let pair = try a.codec.decodePair(
                DecodeInput(bytes: first.bytes, info: a.info, request: requestA), DecodeInput(bytes: second.bytes, info: b.info, request: requestB))
        {
            return (Self.upright(pair.0, a.info.orientation), Self.upright(pair.1, b.info.orientation))
        }
        // One after the other, from the probes above.
        return (
            try decode(bytes: first.bytes, path: first.path, info: a.info, codec: a.codec, minimumSize: nil),
            try decode(bytes: second.bytes, path: second.path, info: b.info, codec: b.codec, minimumSize: nil)
        )
    }

    /// Decodes the files at two paths (a diff's pair) as `decode(_:)` decodes each, with the
    /// same errors in the same order (the first file's first): together where their codec
    /// shares work (`decodePair(_:_:)` of bytes).
    public func decodePair(_ first: String, _ second: String) throws(ImageDecodingError) -> (DecodedImage, DecodedImage) {
        let bytesA = try FileBytes.read(first).bytes
        let bytesB: [UInt8]
        do throws(ImageDecodingError) {
            bytesB = try FileBytes.read(second).bytes
        } catch {
            _ = try decode(bytes: bytesA, path: first)
            throw error
        }
        return try decodePair((bytesA, first), (bytesB, second))
    }

    /// The request for decoding `info`; refused when the image has more pixels than the
    /// limits allow.
    func request(_ info: ImageInfo, path: String, minimumSize: Size?) throws(ImageDecodingError) -> DecodeRequest {
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= limits.maximumInputPixels else {
            throw .tooLarge(path: path, width: info.width, height: info.height, limit: limits.maximumInputPixels)
        }
        var request = DecodeRequest(path: path, minimumSize: minimumSize, premultiplyAlpha: premultiplyAlpha, strict: strict, limits: limits)
        request.manageColor = manageColor
        return request
    }

    /// A decode as stored, turned upright by the file's `orientation`.
    static func upright(_ decoded: DecodedImage, _ orientation: Orientation) -> DecodedImage {
        var decoded = decoded
        let stored = (decoded.bitmap.width, decoded.bitmap.height)
        decoded.bitmap = decoded.bitmap.oriented(orientation)
        decoded.extent = DecodedImage.oriented(decoded.extent, storedWidth: stored.0, storedHeight: stored.1, orientation)
        return decoded
    }

    /// The bytes of pixel memory decoding `info` for `minimumSize` will hold (for a decode
    /// budget); 0 for a format no codec reads.
    /// The frames of the animation at `path` (an animated GIF, WebP or JPEG XL, probed as `info`);
    /// nil for a still image or a format without animations (whose file is not read).
    public func timeline(_ path: String, info: ImageInfo) -> AnimationTimeline? {
        codecs.codec(of: info.format)?.timeline(ofFile: path, info: info)
    }

    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        codecs.codec(of: info.format)?.decodedBytes(info, minimumSize: minimumSize) ?? 0
    }
}
