import CMosaicShims

/// A width and a height in pixels.
public struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}

/// Resource limits, checked from the headers before any pixel memory is taken.
public struct ImageLimits: Hashable, Sendable {
    /// The most pixels an input image may have (default 16384 x 16384).
    public var maximumInputPixels: Int
    /// The most pixels an image made by mosaic may have (default 16384 x 16384 x 4).
    public var maximumOutputPixels: Int

    public init(maximumInputPixels: Int = 16384 * 16384, maximumOutputPixels: Int = 16384 * 16384 * 4) {
        self.maximumInputPixels = maximumInputPixels
        self.maximumOutputPixels = maximumOutputPixels
    }
}

/// A decoded image, turned upright.
public struct DecodedImage: Sendable {
    /// Upright (orientation applied), premultiplied RGBA.
    public var bitmap: Bitmap
    /// What the headers said (the stored size, before DCT scaling and orientation).
    public var info: ImageInfo
    /// The JPEG DCT scale used, in eighths (8: full size; always 8 for PNG).
    public var scaleEighths: Int
    /// For a PNG read band by band: each side divided by this (block averages); 1 otherwise.
    public var reduction: Int = 1
    /// Set when the decoder worked around damaged or missing data.
    public var warning: DecodingWarning?
}

/// Reads JPEG and PNG files: headers only (`probe`) or pixels (`decode`).
public struct ImageDecoder: Sendable {
    public var limits: ImageLimits
    /// When true, damaged data that the library works around (a truncated JPEG) is an error
    /// instead of a warning.
    public var strict: Bool
    /// False: bitmaps keep the file's straight alpha (for comparisons that must see the
    /// stored values, as pixelmatch does); everything else in mosaic wants premultiplied.
    public var premultiplyAlpha = true

    public init(limits: ImageLimits = ImageLimits(), strict: Bool = false) {
        self.limits = limits
        self.strict = strict
    }

    /// How many bytes a probe reads first; more only when the headers are longer.
    static let probePrefix = 64 * 1024

    // MARK: Probing

    /// Reads the headers of the file at `path`: format (from the signature), size, EXIF
    /// orientation, alpha. Reads the first 64 KiB (more only for longer headers); never
    /// reads or decodes scan data.
    public func probe(_ path: String) throws(ImageDecodingError) -> ImageInfo {
        var prefix = Self.probePrefix
        while true {
            let (bytes, isWhole) = try FileBytes.read(path, limit: prefix)
            if let info = try probe(bytes: bytes, isWholeFile: isWhole, path: path) { return info }
            prefix *= 4
        }
    }

    /// Reads the headers from the first bytes of a file; nil when they end before the
    /// headers do (and `isWholeFile` is false): call again with more.
    public func probe(bytes: [UInt8], isWholeFile: Bool = true, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let format = ImageFormat.detect(bytes) else {
            if !isWholeFile && bytes.count < 8 { return nil }
            throw .unsupportedFormat(path: path, signature: Array(bytes.prefix(8)))
        }
        var raw = mosaic_image_info()
        let result = bytes.withUnsafeBufferPointer { buffer in
            switch format {
            case .jpeg: return mosaic_jpeg_probe(buffer.baseAddress, buffer.count, isWholeFile ? 1 : 0, &raw)
            case .png: return mosaic_png_probe(buffer.baseAddress, buffer.count, isWholeFile ? 1 : 0, &raw)
            }
        }
        switch result.status {
        case MOSAIC_NEED_MORE_DATA:
            return nil
        case MOSAIC_OK:
            break
        default:
            throw libraryError(format, path: path, message: messageText(result.message))
        }
        guard raw.width > 0, raw.height > 0 else {
            throw libraryError(format, path: path, message: "the header gives a size of \(raw.width)x\(raw.height)")
        }
        return ImageInfo(
            format: format, width: Int(raw.width), height: Int(raw.height),
            orientation: Orientation(rawValue: Int(raw.orientation)) ?? .up,
            hasAlpha: raw.has_alpha != 0,
            isProgressive: format == .jpeg ? raw.progressive != 0 : raw.interlaced != 0,
            bitDepth: Int(raw.bit_depth),
            colorModel: Self.colorModel(format, raw),
            software: { let text = messageText(raw.software); return text.isEmpty ? nil : text }())
    }

    static func colorModel(_ format: ImageFormat, _ raw: mosaic_image_info) -> String {
        switch format {
        case .jpeg:
            // libjpeg's J_COLOR_SPACE: 1 grey, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK.
            switch raw.color_space {
            case 1: return "grey"
            case 2: return "rgb"
            case 3: return "ycbcr"
            case 4: return "cmyk"
            case 5: return "ycck"
            default: return "unknown"
            }
        case .png:
            switch raw.color_space {
            case 0: return "grey"
            case 2: return "rgb"
            case 3: return "palette"
            case 4: return "grey+alpha"
            case 6: return "rgba"
            default: return "unknown"
            }
        }
    }

    // MARK: Decoding

    /// Decodes the file at `path`, upright. For a JPEG, the smallest DCT scale (M/8) whose
    /// result is at least `minimumSize` (in upright pixels) on both sides; nil decodes at
    /// full size.
    public func decode(_ path: String, minimumSize: PixelSize? = nil) throws(ImageDecodingError) -> DecodedImage {
        let (bytes, _) = try FileBytes.read(path)
        return try decode(bytes: bytes, path: path, minimumSize: minimumSize)
    }

    /// Decodes a whole file held in memory; `path` names it in errors.
    public func decode(bytes: [UInt8], path: String, minimumSize: PixelSize? = nil) throws(ImageDecodingError) -> DecodedImage {
        guard let info = try probe(bytes: bytes, isWholeFile: true, path: path) else {
            throw .unreadable(path: path, reason: "the headers are incomplete")
        }
        let (pixels, overflow) = info.width.multipliedReportingOverflow(by: info.height)
        guard !overflow, pixels <= limits.maximumInputPixels else {
            throw .tooLarge(path: path, width: info.width, height: info.height, limit: limits.maximumInputPixels)
        }
        if info.format == .png, let minimumSize,
            let reduced = try decodeReducedPNG(bytes: bytes, info: info, path: path, minimumSize: minimumSize)
        {
            return reduced
        }
        var eighths = 8
        if info.format == .jpeg, let minimumSize {
            eighths = Self.dctScale(stored: PixelSize(width: info.width, height: info.height), orientation: info.orientation, minimumSize: minimumSize)
        }
        let width = (info.width * eighths + 7) / 8
        let height = (info.height * eighths + 7) / 8
        // Every byte is written by the decoder (or the call fails): no zero-fill.
        var storage = [UInt8](unsafeUninitializedCapacity: width * height * 4) { _, count in count = width * height * 4 }
        let result = bytes.withUnsafeBufferPointer { input in
            storage.withUnsafeMutableBufferPointer { output in
                switch info.format {
                case .jpeg:
                    return mosaic_jpeg_decode(input.baseAddress, input.count, Int32(eighths), output.baseAddress, width * 4, Int32(width), Int32(height))
                case .png:
                    return mosaic_png_decode(input.baseAddress, input.count, output.baseAddress, width * 4, Int32(width), Int32(height))
                }
            }
        }
        guard result.status == MOSAIC_OK else {
            throw libraryError(info.format, path: path, message: messageText(result.message))
        }
        let warning = try warning(result, path: path)
        if info.hasAlpha && premultiplyAlpha { Self.premultiplyInPlace(&storage) }
        // The storage holds exactly width * height * 4 bytes.
        let stored = Bitmap(width: width, height: height, pixels: storage)!
        return DecodedImage(bitmap: stored.oriented(info.orientation), info: info, scaleEighths: eighths, reduction: 1, warning: warning)
    }

    /// A large PNG, when a smaller size is wanted: read a band of `k` rows at a time and
    /// average each `k` x `k` block (premultiplied), for the largest `k` that still covers
    /// `minimumSize` (upright). Memory: `k` rows of the file, not the whole image. Nil when
    /// the image is not at least twice the wanted size (decode it whole).
    func decodeReducedPNG(bytes: [UInt8], info: ImageInfo, path: String, minimumSize: PixelSize) throws(ImageDecodingError) -> DecodedImage? {
        let k = Self.pngReduction(info, minimumSize: minimumSize)
        guard k >= 2 else { return nil }
        let width = info.width, height = info.height
        let outWidth = (width + k - 1) / k, outHeight = (height + k - 1) / k
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        // libpng reads from the file's bytes in place: the stream lives inside this scope.
        let end = try bytes.withUnsafeBufferPointer { (input) throws(ImageDecodingError) -> mosaic_result in
            var opened = mosaic_result()
            guard let stream = mosaic_png_stream_open(input.baseAddress, input.count, Int32(width), Int32(height), &opened) else {
                throw .png(path: path, message: messageText(opened.message))
            }
            var closed = false
            defer { if !closed { _ = mosaic_png_stream_close(stream) } }
            var band = [UInt8](repeating: 0, count: k * width * 4)
            var sums = [Int](repeating: 0, count: outWidth * 4)
            let premultiply = info.hasAlpha && premultiplyAlpha
            for oy in 0..<outHeight {
                let rows = min(k, height - oy * k)
                let status = band.withUnsafeMutableBufferPointer { mosaic_png_stream_read(stream, $0.baseAddress, width * 4, Int32(rows)) }
                guard status.status == MOSAIC_OK else { throw .png(path: path, message: messageText(status.message)) }
                if premultiply { Self.premultiplyInPlace(&band) }
                Self.addBlockRow(band, rows: rows, width: width, k: k, sums: &sums)
                for ox in 0..<outWidth {
                    let count = rows * min(k, width - ox * k)
                    let o = (oy * outWidth + ox) * 4
                    for c in 0..<4 { output[o + c] = UInt8((sums[ox * 4 + c] + count / 2) / count) }
                }
            }
            closed = true
            return mosaic_png_stream_close(stream)
        }
        let warning = try warning(end, path: path)
        let reduced = Bitmap(width: outWidth, height: outHeight, pixels: output)!
        return DecodedImage(bitmap: reduced.oriented(info.orientation), info: info, scaleEighths: 8, reduction: k, warning: warning)
    }

    /// Sums each `k`-pixel-wide column block of the first `rows` rows of `band` into `sums`
    /// (four channels per block), starting from zero.
    static func addBlockRow(_ band: [UInt8], rows: Int, width: Int, k: Int, sums: inout [Int]) {
        band.withUnsafeBufferPointer { b in
            sums.withUnsafeMutableBufferPointer { sum in
                for i in 0..<sum.count { sum[i] = 0 }
                for row in 0..<rows {
                    var s = row &* width &* 4
                    var d = 0
                    var column = 0
                    for _ in 0..<width {
                        sum[d] &+= Int(b[s])
                        sum[d &+ 1] &+= Int(b[s &+ 1])
                        sum[d &+ 2] &+= Int(b[s &+ 2])
                        sum[d &+ 3] &+= Int(b[s &+ 3])
                        s &+= 4
                        column &+= 1
                        if column == k {
                            column = 0
                            d &+= 4
                        }
                    }
                }
            }
        }
    }

    /// The block size a PNG is read reduced by for `minimumSize` (upright pixels): the
    /// largest whole factor that still covers it; below 2 the PNG is decoded whole.
    /// Interlaced PNGs are always decoded whole (1).
    public static func pngReduction(_ info: ImageInfo, minimumSize: PixelSize) -> Int {
        guard info.format == .png, !info.isProgressive else { return 1 }
        let wanted = info.orientation.swapsAxes ? PixelSize(width: minimumSize.height, height: minimumSize.width) : minimumSize
        return max(1, min(info.width / max(1, wanted.width), info.height / max(1, wanted.height)))
    }

    /// The decoder's warning as the caller sees it: nil, a `DecodingWarning`, or in strict
    /// mode a `.damaged` error.
    func warning(_ result: mosaic_result, path: String) throws(ImageDecodingError) -> DecodingWarning? {
        guard result.warning_count > 0 else { return nil }
        let message = messageText(result.warning)
        if strict { throw .damaged(path: path, message: message) }
        return DecodingWarning(path: path, message: message, count: Int(result.warning_count))
    }

    /// The smallest M in 1...8 for which the stored size scaled by M/8 (rounded up, as
    /// libjpeg does) still covers `minimumSize` turned to the stored axes; 8 when none does.
    public static func dctScale(stored: PixelSize, orientation: Orientation, minimumSize: PixelSize) -> Int {
        let wanted = orientation.swapsAxes ? PixelSize(width: minimumSize.height, height: minimumSize.width) : minimumSize
        for eighths in 1...8 {
            let width = (stored.width * eighths + 7) / 8
            let height = (stored.height * eighths + 7) / 8
            if width >= wanted.width && height >= wanted.height { return eighths }
        }
        return 8
    }

    static func premultiplyInPlace(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                let alpha = buffer[i + 3]
                if alpha != 255 {
                    buffer[i] = premultiply(buffer[i], alpha)
                    buffer[i + 1] = premultiply(buffer[i + 1], alpha)
                    buffer[i + 2] = premultiply(buffer[i + 2], alpha)
                }
                i += 4
            }
        }
    }

    func libraryError(_ format: ImageFormat, path: String, message: String) -> ImageDecodingError {
        format == .jpeg ? .jpeg(path: path, message: message) : .png(path: path, message: message)
    }
}

/// The text of a fixed-size C message buffer.
func messageText<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
