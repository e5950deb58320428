import MosaicLayout

import CMosaicShims

/// TIFF through libtiff (scanners, archives, cameras' exports): the first page, strips or
/// tiles, 1 to 16 bits, RGB(A), grey, palette, CMYK and YCbCr; the Orientation tag as the
/// EXIF orientation. No shrink-on-load: the resampler reduces the whole page.
public struct TIFFCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "tiff")
    public var format: ImageFormat { Self.format }
    public var cacheVersion: String? { "tiff 1; " + DecoderLibraries.versions }
    public var fileExtensions: [String] { ["tif", "tiff"] }

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        signature.starts(with: [0x49, 0x49, 0x2A, 0x00]) || signature.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || signature.starts(with: [0x49, 0x49, 0x2B, 0x00]) || signature.starts(with: [0x4D, 0x4D, 0x00, 0x2B])
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_tiff_probe) else { return nil }
        return raw.imageInfo(format, interlacing: raw.interlaced != 0 ? .tiled : nil, colorModel: Self.colorModel(raw.color_space))
    }

    /// A TIFF file is itself the structure EXIF is written in: its first directory holds
    /// Make and Model, and points to the EXIF directory.
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { bytes[...] }

    /// The ICC profile of tag 34675.
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? { profileWithShim(bytes, mosaic_tiff_icc_profile) }

    /// TIFF's Photometric Interpretation as a colour model.
    static func colorModel(_ photometric: Int32) -> ColorModel {
        switch photometric {
        case 0, 1: .grey
        case 2: .rgb
        case 3: .palette
        case 4: .mask
        case 5: .cmyk
        case 6: .ycbcr
        case 8, 9, 10: .lab
        default: .other("photometric \(photometric)")
        }
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        // Decoded whole, at full size: a 16384 x 16384 page (1 GiB of pixels and a strip)
        // goes through the per-image memory limit before anything is allocated.
        try checkDecodeMemory(info, request: request)
        // CMYK goes through its profile when it has one; without, libtiff's formula.
        let color = colorConversion(bytes, request: request, cmyk: info.colorModel == .cmyk)
        let rawCMYK: Int32 = color?.takesCMYK == true ? 1 : 0
        let decoded = try decodeWithShim(bytes, width: info.width, height: info.height, info: info, request: request, color: color) { input, output, stride in
            mosaic_tiff_decode(input.baseAddress, input.count, output.baseAddress, stride, Int32(info.width), Int32(info.height), rawCMYK)
        }
        return DecodedImage(bitmap: decoded.bitmap, info: info, scaleEighths: 8, reduction: 1, warning: decoded.warning)
    }

    /// The page's pixels and a strip or tile of the file's own.
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int { info.width * info.height * 4 + info.width * 64 }
}

extension ImageFormat {
    /// TIFF (`TIFFCodec`).
    public static let tiff = TIFFCodec.format
}
