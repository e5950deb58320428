import MosaicLayout

import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HEIF files through libheif (`heif.c`): HEIC (HEVC-coded, phone photos) and AVIF
/// (AV1-coded, from browsers and Android phones), one value of this codec each, told apart
/// by the `ftyp` brand. The primary image is made upright by its own transformations
/// (irot, imir, clap); alpha; 10-bit images to 8 bits. Shrink-on-load: a stored thumbnail
/// that covers the size asked for is decoded instead (as libvips does); otherwise the
/// whole image, which the resampler reduces.
public struct HEIFCodec: ImageCodec {
    /// HEVC-coded HEIF (".heic").
    public static let heic = HEIFCodec(
        format: ImageFormat(rawValue: "heif"), brands: ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"],
        fileExtensions: ["heic", "heif", "hif"])
    /// AV1-coded HEIF (".avif").
    public static let avif = HEIFCodec(format: ImageFormat(rawValue: "avif"), brands: ["avif", "avis"], fileExtensions: ["avif"])

    public let format: ImageFormat
    /// The `ftyp` major brands of the files this codec reads.
    public let brands: Set<String>
    public var cacheVersion: String? { "\(format.rawValue) 1; " + DecoderLibraries.versions }
    public let fileExtensions: [String]

    public init(format: ImageFormat, brands: Set<String>, fileExtensions: [String]) {
        self.format = format
        self.brands = brands
        self.fileExtensions = fileExtensions
    }

    public func matches(signature: [UInt8]) -> Bool {
        guard signature.count >= 12, signature[4..<8].elementsEqual("ftyp".utf8) else { return false }
        return brands.contains(String(decoding: signature[8..<12], as: UTF8.self))
    }

    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try probeWithShim(bytes, isWholeFile: isWholeFile, path: path, mosaic_heif_probe) else { return nil }
        let thumbnails = Int(raw.color_space)
        var info = raw.imageInfo(format, interlacing: nil, colorModel: thumbnails > 0 ? .ycbcrWithThumbnails(thumbnails) : .ycbcr)
        // The primary image is the standard one: the map is named, never drawn.
        info.gainMap = raw.gain_map == 2 ? .iso21496 : raw.gain_map == 1 ? .apple : nil
        return info
    }

    /// The primary image's `colr` boxes: its ICC profile when it has one, else its nclx
    /// code points (libheif has already applied the matrix coefficients).
    public func colorProfile(_ bytes: [UInt8]) -> ColorProfile? {
        var icc: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        var nclx = mosaic_heif_nclx()
        let result = bytes.withUnsafeBufferPointer { mosaic_heif_color_profile($0.baseAddress, $0.count, &icc, &size, &nclx) }
        defer { free(icc) }
        guard result.status == MOSAIC_OK else { return nil }
        if let icc, size > 0 { return .icc(Array(UnsafeBufferPointer(start: icc, count: size))) }
        guard nclx.present != 0 else { return nil }
        return .coded(primaries: Int(nclx.primaries), transfer: Int(nclx.transfer), source: "the nclx colour box")
    }

    /// The primary image's Exif metadata item (libheif reads the boxes): its TIFF data.
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { Self.metadata(bytes, mosaic_heif_exif) }

    /// The primary image's XMP item (`mime`, application/rdf+xml): where a phone keeps a
    /// rating, a title and a Motion Photo's mark.
    public func xmpPacket(_ bytes: [UInt8]) -> ArraySlice<UInt8>? { Self.metadata(bytes, mosaic_heif_xmp_packet) }

    /// What one of the shim's metadata readers copies out of `bytes` (a malloc'd block,
    /// freed here); nil when it finds none.
    static func metadata(
        _ bytes: [UInt8], _ read: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?) -> Int32
    ) -> ArraySlice<UInt8>? {
        var block: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        let found = bytes.withUnsafeBufferPointer { read($0.baseAddress, $0.count, &block, &size) }
        defer { free(block) }
        guard found != 0, let block, size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: block, count: size))[...]
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        // The picture is upright already (orientation 1): the minimum needs no turning.
        let minimum = request.minimumSize ?? Size(width: 0, height: 0)
        var width: Int32 = 0, height: Int32 = 0
        let sized = bytes.withUnsafeBufferPointer {
            mosaic_heif_decoded_size($0.baseAddress, $0.count, Int32(minimum.width), Int32(minimum.height), &width, &height)
        }
        guard sized.status == MOSAIC_OK else { throw .codec(path: request.path, format: format, message: sized.messageText) }
        let k = Self.reduction(Size(width: Int(width), height: Int(height)), minimumSize: request.minimumSize)
        let out = Size(width: (Int(width) + k - 1) / k, height: (Int(height) + k - 1) / k)
        let decoded = try decodeWithShim(bytes, width: out.width, height: out.height, info: info, request: request, color: colorConversion(bytes, request: request)) { input, output, stride in
            mosaic_heif_decode(
                input.baseAddress, input.count, Int32(minimum.width), Int32(minimum.height), Int32(k), output.baseAddress, stride,
                Int32(out.width), Int32(out.height))
        }
        // A partial last block: the image spans less than the bitmap (`DecodedImage.extent`).
        return DecodedImage(
            bitmap: decoded.bitmap, info: info, scaleEighths: 8, reduction: k, warning: decoded.warning,
            extent: (0, 0, Double(width) / Double(k), Double(height) / Double(k)))
    }

    /// The block size an image of `size` is averaged by for `minimumSize` (already
    /// upright): the largest whole factor that still covers it; 1 for full size.
    static func reduction(_ size: Size, minimumSize: Size?) -> Int {
        guard let minimumSize, minimumSize.width > 0, minimumSize.height > 0 else { return 1 }
        return max(1, min(size.width / minimumSize.width, size.height / minimumSize.height))
    }

    /// For the whole image (a thumbnail holds less): the decoder's picture and libheif's
    /// copy of its planes (4:2:0 at 8 bits: 1.5 bytes a pixel each), and the result; read
    /// at full size also libheif's RGBA conversion.
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let k = Self.reduction(info.size, minimumSize: minimumSize)
        let planes = info.width * info.height * 3
        let result = ((info.width + k - 1) / k) * ((info.height + k - 1) / k) * 4
        return k > 1 ? planes + result : planes + 2 * result
    }
}

extension ImageFormat {
    /// HEIF, HEVC-coded (`HEIFCodec.heic`).
    public static let heif = HEIFCodec.heic.format
    /// AVIF (`HEIFCodec.avif`).
    public static let avif = HEIFCodec.avif.format
}
