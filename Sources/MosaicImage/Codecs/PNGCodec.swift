import MosaicLayout

import CMosaicShims

/// PNG through libpng (the shim's setjmp fences): every colour type and bit depth, palettes
/// with tRNS, colour keys, Adam7, EXIF orientation from eXIf. Shrink-on-load: a large,
/// non-interlaced PNG is read a band of rows at a time and averaged in k x k blocks (the
/// image data of an 8-bit one without palette or tRNS read by the shim itself, with
/// ISA-L's inflate, libpng's results kept: `png.c`; also when decoded whole).
public struct PNGCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "png")
    public var format: ImageFormat { Self.format }
    public var cacheVersion: String? { "png 1; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["png"] }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.starts(with: Self.signature)
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_png_probe) else { return nil }
        return raw.imageInfo(format, interlacing: raw.interlaced != 0 ? .interlaced : nil, colorModel: Self.colorModel(raw.color_space))
    }

    /// The colour a PNG declares, by the PNG specification's precedence: cICP, then iCCP,
    /// then sRGB (nothing to convert), then gAMA and cHRM.
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? {
        let chunks = ColorChunks(bytes)
        if let cicp = chunks.cicp {
            // Colour primaries, transfer characteristics, matrix coefficients (0 for RGB),
            // and the full-range flag (0 or 1): four bytes, no more, no less.
            guard cicp.count == 4 else { return .unsupported("the cICP chunk is malformed: \(cicp.count) bytes, where it has 4") }
            guard cicp[3] <= 1 else { return .unsupported("the cICP chunk is malformed: a full-range flag of \(cicp[3]), where it is 0 or 1") }
            guard cicp[2] == 0 else { return .unsupported("the cICP chunk is not for RGB pixels (matrix coefficients \(cicp[2]), where RGB has 0)") }
            return .coded(primaries: Int(cicp[0]), transfer: Int(cicp[1]), source: "the cICP chunk")
        }
        if chunks.hasICCP { return profileWithShim(bytes, mosaic_png_icc_profile) }
        if chunks.hasSRGB { return nil }
        return .png(gamma: chunks.gamma, chromaticities: chunks.chromaticities)
    }

    /// The eXIf chunk (before the image data).
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { ColorChunks(bytes).exif.map { bytes[$0] } }

    /// The colour chunks (and eXIf) before the image data.
    struct ColorChunks {
        var cicp: [UInt8]?
        var hasICCP = false
        var hasSRGB = false
        var gamma: Int?
        var chromaticities: Chromaticities?
        var exif: Range<Int>?

        init(_ bytes: [UInt8]) {
            func be32(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
            var offset = PNGCodec.signature.count
            while offset + 8 <= bytes.count {
                let length = be32(offset)
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                let start = offset + 8
                guard type != "IDAT", length <= bytes.count - start else { break }
                switch type {
                case "cICP": cicp = Array(bytes[start..<(start + length)])
                case "eXIf": exif = start..<(start + length)
                case "iCCP": hasICCP = true
                case "sRGB": hasSRGB = true
                case "gAMA" where length == 4: gamma = be32(start)
                case "cHRM" where length == 32:
                    let v = (0..<8).map { Double(be32(start + 4 * $0)) / 100_000 }
                    chromaticities = Chromaticities(white: (v[0], v[1]), red: (v[2], v[3]), green: (v[4], v[5]), blue: (v[6], v[7]))
                default: break
                }
                offset = start + length + 4
            }
        }
    }

    /// libpng's colour type as a colour model.
    static func colorModel(_ type: Int32) -> ColorModel {
        switch type {
        case 0: .grey
        case 2: .rgb
        case 3: .palette
        case 4: .greyAlpha
        case 6: .rgba
        default: .other("unknown")
        }
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let k = request.minimumSize.map { Self.reduction(info, minimumSize: $0) } ?? 1
        if k >= 2 { return try decodeReduced(bytes, info: info, k: k, request: request) }
        let interlaced = info.interlacing != nil
        let decoded = try decodeWithShim(bytes, width: info.width, height: info.height, info: info, request: request, color: colorConversion(bytes, request: request)) { input, output, stride in
            interlaced
                ? mosaic_png_decode(input.baseAddress, input.count, output.baseAddress, stride, Int32(info.width), Int32(info.height))
                : mosaic_png_decode_streamed(input.baseAddress, input.count, output.baseAddress, stride, Int32(info.width), Int32(info.height))
        }
        return DecodedImage(bitmap: decoded.bitmap, info: info, scaleEighths: 8, reduction: 1, warning: decoded.warning)
    }

    /// Two non-interlaced PNGs of one size at full size: read together
    /// (`mosaic_png_decode_pair`), the second's rows that are the first's copied rather
    /// than unfiltered; each file's error as decoding it alone gives it, the first's first.
    /// nil for any other pair (then each is decoded alone).
    public func decodePair(_ first: DecodeInput, _ second: DecodeInput) throws(ImageDecodingError) -> (DecodedImage, DecodedImage)? {
        try decodePair(first, second, copiedRows: nil)
    }

    /// `decodePair`, counting in `copiedRows` the rows of the second file copied (tests).
    func decodePair(_ first: DecodeInput, _ second: DecodeInput, copiedRows: UnsafeMutablePointer<Int32>?) throws(ImageDecodingError) -> (DecodedImage, DecodedImage)? {
        let (width, height) = (first.info.width, first.info.height)
        guard first.request.minimumSize == nil, second.request.minimumSize == nil,
            first.info.interlacing == nil, second.info.interlacing == nil,
            second.info.width == width, second.info.height == height,
            var storageA = try? shimOutput(width: width, height: height, info: first.info, request: first.request),
            var storageB = try? shimOutput(width: width, height: height, info: second.info, request: second.request)
        else { return nil }
        var resultA = mosaic_result(), resultB = mosaic_result()
        let secondRead = first.bytes.withUnsafeBufferPointer { a in
            second.bytes.withUnsafeBufferPointer { b in
                storageA.withUnsafeMutableBufferPointer { outA in
                    storageB.withUnsafeMutableBufferPointer { outB in
                        mosaic_png_decode_pair(
                            a.baseAddress, a.count, outA.baseAddress, &resultA, b.baseAddress, b.count, outB.baseAddress, &resultB,
                            width * 4, Int32(width), Int32(height), copiedRows)
                    }
                }
            }
        }
        func finish(_ input: DecodeInput, _ result: mosaic_result, _ storage: inout [UInt8]) throws(ImageDecodingError) -> DecodedImage {
            let done = try finishShimDecode(
                &storage, result: result, width: width, height: height, info: input.info, request: input.request,
                color: colorConversion(input.bytes, request: input.request))
            return DecodedImage(bitmap: done.bitmap, info: input.info, scaleEighths: 8, reduction: 1, warning: done.warning)
        }
        // The first file's outcome (its error thrown first), then the second's: the shim
        // leaves the second unread only when the first failed.
        let a = try finish(first, resultA, &storageA)
        guard secondRead == 1 else { return nil }
        return (a, try finish(second, resultB, &storageB))
    }

    /// A band of `k` rows at a time, each `k` x `k` block averaged (premultiplied). Memory:
    /// `k` rows of the file, not the whole image.
    func decodeReduced(_ bytes: [UInt8], info: ImageInfo, k: Int, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let width = info.width, height = info.height
        let outWidth = (width + k - 1) / k, outHeight = (height + k - 1) / k
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * 4)
        // To sRGB: an opaque image once reduced (k² fewer pixels; its averages are straight
        // colours), one with alpha band by band before it is premultiplied and averaged.
        let color = colorConversion(bytes, request: request)
        let convertBands = info.hasAlpha
        // libpng reads from the file's bytes in place: the stream lives inside this scope.
        let end = try bytes.withUnsafeBufferPointer { (input) throws(ImageDecodingError) -> mosaic_result in
            var opened = mosaic_result()
            guard let stream = mosaic_png_stream_open(input.baseAddress, input.count, Int32(width), Int32(height), &opened) else {
                if opened.status == MOSAIC_OUT_OF_MEMORY { throw .outOfMemory(path: request.path, bytes: decodedBytes(info, minimumSize: request.minimumSize)) }
                throw .codec(path: request.path, format: format, message: opened.messageText)
            }
            var closed = false
            defer { if !closed { _ = mosaic_png_stream_close(stream) } }
            var band = [UInt8](repeating: 0, count: k * width * 4)
            var sums = [Int](repeating: 0, count: outWidth * 4)
            let premultiply = info.hasAlpha && request.premultiplyAlpha
            for oy in 0..<outHeight {
                let rows = min(k, height - oy * k)
                let status = band.withUnsafeMutableBufferPointer { mosaic_png_stream_read(stream, $0.baseAddress, width * 4, Int32(rows)) }
                if status.status == MOSAIC_OUT_OF_MEMORY { throw .outOfMemory(path: request.path, bytes: decodedBytes(info, minimumSize: request.minimumSize)) }
                guard status.status == MOSAIC_OK else { throw .codec(path: request.path, format: format, message: status.messageText) }
                if convertBands { color?.apply(&band) }
                if premultiply { premultiplyInPlace(&band) }
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
        if !convertBands { color?.apply(&output) }
        let warning = try end.warning(path: request.path, strict: request.strict) ?? color?.warning
        guard let reduced = Bitmap(width: outWidth, height: outHeight, pixels: output) else {
            throw .codec(path: request.path, format: format, message: "the reduction made \(output.count) bytes for \(outWidth)x\(outHeight)")
        }
        return DecodedImage(
            bitmap: reduced, info: info, scaleEighths: 8, reduction: k, warning: warning, extent: (0, 0, Double(width) / Double(k), Double(height) / Double(k)))
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

    /// A band of rows and the block averages when read reduced, else the full image.
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let k = minimumSize.map { Self.reduction(info, minimumSize: $0) } ?? 1
        if k >= 2 { return k * info.width * 4 + ((info.width + k - 1) / k) * ((info.height + k - 1) / k) * 4 }
        return info.width * info.height * 4
    }

    /// The block size a PNG is read reduced by for `minimumSize` (upright pixels): the
    /// largest whole factor that still covers it `boxHeadroom` times over; below 2 the PNG
    /// is decoded whole. Interlaced PNGs are always decoded whole (1).
    public static func reduction(_ info: ImageInfo, minimumSize: Size) -> Int {
        guard info.interlacing == nil else { return 1 }
        let wanted = info.orientation.swapsAxes ? Size(width: minimumSize.height, height: minimumSize.width) : minimumSize
        let across = max(1, wanted.width) * boxHeadroom, down = max(1, wanted.height) * boxHeadroom
        return max(1, min(info.width / across, info.height / down))
    }

    /// How many times over the block averages cover the size asked for (which already
    /// leaves the resampler a factor of two). A block average is a box filter: it blurs
    /// what it keeps and lets through what it should stop, and the factor of two a JPEG's
    /// scaled IDCT gets is not enough to hide it on fine textures and one-pixel rules.
    /// Smaller blocks cost the resampler more
    /// input pixels, not the read: every row of the file is inflated either way.
    static let boxHeadroom = 2
}

extension ImageFormat {
    /// PNG (`PNGCodec`).
    public static let png = PNGCodec.format
}
