import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An AVIF file through libheif's AV1 encoder (libaom in Debian 12's libheif 1.15). libheif
/// encodes whole pictures, so the page's rows are gathered, band by band, into a libheif
/// image (width x height x 3 bytes, 4 with alpha), encoded when the page is finished (plus
/// libaom's own working memory: its YUV frame and per-thread buffers), tagged sRGB (nclx)
/// and written beside the destination with an XMP item naming mosaic (`MosaicMark.xmp`),
/// then renamed into place. Alpha is kept. Use it from one thread at a time.
public final class AVIFFileWriter: EncodedFileWriter {
    /// The largest side libheif reads back (its security limit, 32768 x 32768); libaom
    /// writes up to 65536.
    public static let maximumSide = 32768
    /// The quality used unless told otherwise.
    public static let defaultQuality = 90
    /// libaom's speed unless told otherwise: 0 (slowest, smallest) to 9 (fastest).
    public static let defaultSpeed = 8
    /// True when libheif has an AV1 encoder (Debian's libheif1 1.15 does: libaom).
    public static var isAvailable: Bool { mosaic_avif_encoder_available() != 0 }
    /// The AV1 encoder's name and version, or "" when there is none.
    public static var encoderName: String { String(cString: mosaic_avif_encoder_name()) }

    /// 0 to 100 (libheif's lossy quality).
    public let quality: Int
    public let lossless: Bool
    /// libaom's speed, 0 to 9.
    public let speed: Int

    /// Allocates the page's picture (nothing is written until `finish`).
    ///
    /// - Throws: `.invalidParameter` for a quality outside 0...100 or a speed outside
    ///   0...9, `.sideTooLong` (32768 a side), `.tooLarge`, `.avif` with libheif's message
    ///   (no AV1 encoder, out of memory).
    public init(
        path: String, width: Int, height: Int, hasAlpha: Bool, quality: Int = defaultQuality, lossless: Bool = false,
        speed: Int = defaultSpeed, limits: ImageLimits = ImageLimits()
    ) throws(ImageEncodingError) {
        try limits.checkPage(path: path, width: width, height: height, format: "AVIF", maximumSide: Self.maximumSide)
        guard (0...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        guard (0...9).contains(speed) else { throw .invalidParameter(field: "speed", value: speed) }
        self.quality = quality
        self.lossless = lossless
        self.speed = speed
        var result = mosaic_result()
        guard let picture = mosaic_avif_writer_open(Int32(width), Int32(height), hasAlpha ? 1 : 0, &result) else {
            throw .avif(path: path, message: result.messageText)
        }
        let output: OutputFile
        do { output = try OutputFile(path: path) } catch {
            mosaic_avif_writer_free(picture)
            throw error
        }
        let encoder = RowStream.Encoder(
            write: { mosaic_avif_writer_write($0, $1, $2, $3) },
            finish: { mosaic_avif_writer_finish($0, output.file, Int32(quality), lossless ? 1 : 0, Int32(speed), MosaicMark.xmp) },
            free: { mosaic_avif_writer_free($0) }, failure: { .avif(path: $0, message: $1) })
        super.init(output: output, stream: RowStream(path: path, width: width, height: height, writer: picture, encoder: encoder))
    }

    /// True when the file at `path` is a HEIF or AVIF whose primary image has XMP metadata
    /// naming mosaic as its creator tool; false for anything else, readable or not.
    public static func isMosaicFile(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path), let xmp = mosaic_heif_xmp(path) else { return false }
        defer { free(xmp) }
        return MosaicMark.isMosaic(xmp: UnsafeRawBufferPointer(start: xmp, count: strlen(xmp)))
    }
}
