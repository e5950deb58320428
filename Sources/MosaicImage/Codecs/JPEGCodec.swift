import MosaicLayout

import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JPEG through libjpeg-turbo (the shim's setjmp fences): greyscale, RGB, YCbCr, CMYK and
/// YCCK; baseline, progressive and arithmetic-coded; EXIF orientation from APP1.
/// Shrink-on-load: the smallest DCT scale of 1/8, 1/4, 1/2 and 1 that still covers the
/// wanted size.
public struct JPEGCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "jpeg")
    public var format: ImageFormat { Self.format }
    public var cacheVersion: String? { "jpeg 1; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["jpg", "jpeg", "jpe", "jfif"] }

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.count >= 3 && signature[0] == 0xFF && signature[1] == 0xD8 && signature[2] == 0xFF
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_jpeg_probe) else { return nil }
        var info = raw.imageInfo(format, interlacing: raw.progressive != 0 ? .progressive : nil, colorModel: Self.colorModel(raw.color_space))
        info.gainMap = Self.gainMap(bytes)
        return info
    }

    /// The gain map the first image's markers declare: Ultra HDR's (an XMP packet with
    /// Adobe's `hdrgm:` properties, or a `GContainer` item whose semantic is "GainMap"),
    /// else ISO 21496-1's (an APP2 segment of its URN); nil for none. libjpeg decodes the
    /// first image alone, the standard one: the map appended after it is never drawn.
    public static func gainMap(_ bytes: [UInt8]) -> GainMap? {
        if let xmp = JPEGCodec().xmpPacket(bytes),
            MotionPhoto.contains(xmp, Array("hdrgm:Version".utf8)) || MotionPhoto.contains(xmp, Array("Semantic=\"GainMap\"".utf8))
        {
            return .ultraHDR
        }
        let iso = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]
        return segment(bytes, marker: 0xE2, starting: iso) != nil ? .iso21496 : nil
    }

    /// The ICC profile of the APP2 chunks (joined in sequence order).
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? {
        var damage = mosaic_result()
        return Self.colorProfile(profileWithShim(bytes) { data, size, iccSize in mosaic_jpeg_icc_profile(data, size, iccSize, &damage) }, damage: damage)
    }

    /// The profile the shim read, or the damage it found in the chunks.
    static func colorProfile(_ profile: ColorProfile?, damage: mosaic_result) -> ColorProfile? {
        // Chunks that do not make a profile: a profile that cannot be used (a warning, the
        // pixels drawn as sRGB), not a file without one.
        if profile == nil, damage.status != MOSAIC_OK { return .unsupported("the embedded ICC profile is damaged (\(damage.messageText))") }
        return profile
    }

    /// The APP1 segment that starts with "Exif\0\0", before the first scan.
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        Self.app1(bytes, starting: [0x45, 0x78, 0x69, 0x66, 0, 0])
    }

    /// The APP1 segment that holds the XMP packet ("http://ns.adobe.com/xap/1.0/\0" and
    /// the packet), before the first scan; the packet alone.
    public func xmpPacket(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let signature = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
        return Self.app1(bytes, starting: signature).map { $0.dropFirst(signature.count) }
    }

    /// The IPTC-IIM records of Photoshop's resource 0x0404 in the APP13 segment
    /// ("Photoshop 3.0\0"), before the first scan.
    public func iptcBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let signature = IPTCRecords.photoshopSignature
        return Self.segment(bytes, marker: 0xED, starting: signature).flatMap { IPTCRecords.iimBlock(inResources: $0.dropFirst(signature.count)) }
    }

    /// Samsung's motion photos append their clip after the image's end.
    public var mayCarryTrailer: Bool { true }

    /// The first APP1 segment (its data, after the length) that starts with `signature`.
    static func app1(_ bytes: [UInt8], starting signature: [UInt8]) -> ArraySlice<UInt8>? {
        segment(bytes, marker: 0xE1, starting: signature)
    }

    /// The first segment of `marker` (its data, after the length) that starts with
    /// `signature`, before the first scan; nil when none does or the markers end first.
    static func segment(_ bytes: [UInt8], marker wanted: UInt8, starting signature: [UInt8]) -> ArraySlice<UInt8>? {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            let segment = bytes[(i + 4)..<(i + 2 + length)]
            if marker == wanted, segment.starts(with: signature) { return segment }
            i += 2 + length
        }
        return nil
    }

    /// libjpeg's J_COLOR_SPACE as a colour model.
    static func colorModel(_ space: Int32) -> ColorModel {
        switch space {
        case 1: .grey
        case 2: .rgb
        case 3: .ycbcr
        case 4: .cmyk
        case 5: .ycck
        default: .other("unknown")
        }
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let eighths = request.minimumSize.map { Self.dctScale(stored: info.size, orientation: info.orientation, minimumSize: $0) } ?? 8
        let width = (info.width * eighths + 7) / 8
        let height = (info.height * eighths + 7) / 8
        // CMYK goes through its profile when it has one; without, libjpeg's inks through
        // the uncalibrated formula (as Pillow and ImageMagick do). The profile is read in
        // the decode's own libjpeg session: CMYK comes out as inks, turned into RGB by the
        // formula after the decode when the profile is missing or cannot convert them.
        let inks = info.colorModel.isInks
        var color: ColorConversion? = nil
        let decoded = try decodeWithShim(bytes, width: width, height: height, info: info, request: request, color: color) { input, output, stride in
            let (scans, memory) = (Int32(clamping: request.limits.maximumScans), max(0, request.limits.maximumDecodeMemory))
            guard request.manageColor else {
                return mosaic_jpeg_decode(
                    input.baseAddress, input.count, Int32(eighths), output.baseAddress, stride, Int32(width), Int32(height), scans, memory, 0)
            }
            var icc: UnsafeMutablePointer<UInt8>? = nil
            var iccSize = 0
            var damage = mosaic_result()
            var gaveInks: Int32 = 0
            let result = mosaic_jpeg_decode_with_icc(
                input.baseAddress, input.count, Int32(eighths), output.baseAddress, stride, Int32(width), Int32(height), scans, memory,
                inks ? 1 : 0, &icc, &iccSize, &damage, &gaveInks)
            defer { free(icc) }
            guard result.status == MOSAIC_OK else { return result }
            let profile = icc.flatMap { iccSize > 0 ? ColorProfile.icc(Array(UnsafeBufferPointer(start: $0, count: iccSize))) : nil }
            color = colorConversion(Self.colorProfile(profile, damage: damage), request: request, cmyk: inks)
            // The shim says what it gave: the probe's colour model is the catalog's, and the
            // file may have been replaced since.
            if gaveInks != 0, color?.takesCMYK != true { mosaic_jpeg_inks_to_rgba(output.baseAddress, stride, Int32(width), Int32(height)) }
            return result
        }
        return DecodedImage(bitmap: decoded.bitmap, info: info, scaleEighths: eighths, reduction: 1, warning: decoded.warning)
    }

    /// The DCT-scaled output libjpeg writes into, plus, for a progressive file above 1/8,
    /// the whole image's coefficients it holds until the last scan (about 3 bytes per source
    /// pixel). At 1/8 the shim reads a progressive file's DC coefficients alone (a 16-bit
    /// value per block, next to nothing).
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let eighths = minimumSize.map { Self.dctScale(stored: info.size, orientation: info.orientation, minimumSize: $0) } ?? 8
        let output = ((info.width * eighths + 7) / 8) * ((info.height * eighths + 7) / 8) * 4
        return output + (eighths > 1 ? info.decodeMemory : info.decodeMemory / 64)
    }

    /// The smallest M of 1, 2, 4 and 8 for which the stored size scaled by M/8 (rounded up,
    /// as libjpeg does) still covers `minimumSize` turned to the stored axes; 8 when none
    /// does. Not the odd sizes between: their IDCTs (7x7, 6x6...) cut each block's highest
    /// frequencies on their own and leave block-edge ripples the filter does not remove
    /// (measured: docs/guide/benchmarks.md, "JPEG decoding"), for a decode that costs nearly
    /// what the full one does.
    public static func dctScale(stored: Size, orientation: Orientation, minimumSize: Size) -> Int {
        let wanted = orientation.swapsAxes ? Size(width: minimumSize.height, height: minimumSize.width) : minimumSize
        for eighths in [1, 2, 4, 8] {
            let width = (stored.width * eighths + 7) / 8
            let height = (stored.height * eighths + 7) / 8
            if width >= wanted.width && height >= wanted.height { return eighths }
        }
        return 8
    }
}

extension ImageFormat {
    /// JPEG (`JPEGCodec`).
    public static let jpeg = JPEGCodec.format
}
