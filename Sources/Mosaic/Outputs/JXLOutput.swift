import CMosaicShims
import MosaicImage
import MosaicLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// JPEG XL sheets (`-o sheet.jxl`) through libjxl 0.7: lossy at `--quality` (default 90,
/// butteraugli distance 1.0 by cjxl's and libvips's mapping) or `--lossless`, effort
/// `effort`, on `--jobs` threads; alpha kept; tagged sRGB; an XMP `xml ` box says the file
/// is mosaic's. libjxl 0.7 has no chunked encoding: it copies a whole page into its own
/// buffers and works on those (`bytesPerPixel` a pixel at its peak, measured), so a page
/// holds at most `maximumPagePixels(lossless:)` and a longer board is paginated to it.
public struct JXLOutput: PagedKind {
    public static let name = "jxl"
    public static let suffixes = [".jxl"]
    public static let hint = ".jxl for JPEG XL"
    public static let summary = "one file per page"
    public static let settings: [OutputSetting] = [.quality, .lossless]
    /// No side limit of the format's own (2^30); pages are limited by their pixels.
    public static let maximumSide: Int? = nil
    /// The encoder's peak memory per page pixel, lossy (54 measured) or lossless (84), with
    /// libjxl 0.7 (docs/guide/outputs.md, "JPEG XL"), rounded up.
    public static func bytesPerPixel(lossless: Bool) -> Int { lossless ? 96 : 64 }
    /// The memory a page's encoding may take: 1 GiB, the per-image limit the decoders have.
    public static let pageMemory = 1 << 30
    /// The most pixels a page has: `pageMemory` / `bytesPerPixel` (16.7 megapixels lossy,
    /// 11.2 lossless).
    public static func maximumPagePixels(lossless: Bool) -> Int { pageMemory / bytesPerPixel(lossless: lossless) }
    /// The quality used unless told otherwise.
    public static let defaultQuality = 90
    /// libjxl's effort, 1 (fastest) to 9; 7 is libjxl's and libvips's default.
    public static let effort = 7

    public let request: OutputRequest
    public let options: SheetOptions

    public init(_ request: OutputRequest, options: SheetOptions) {
        self.request = request
        self.options = options
    }

    /// The longest page a board of these options may have: `maximumPagePixels` over its
    /// width (a horizontal board's height).
    static func maximumPageLength(_ options: SheetOptions, lossless: Bool) -> Int {
        let across = max(1, options.direction == .vertical ? options.width : options.height)
        return max(1, maximumPagePixels(lossless: lossless) / across)
    }

    public func sheetOptions(_ options: SheetOptions) -> SheetOptions {
        var capped = options
        let limit = Self.maximumPageLength(options, lossless: request.flag(.lossless))
        capped.maxHeight = min(options.maxHeight ?? limit, limit)
        return capped
    }

    public func notes(_ sheet: ContactSheet) -> [String] {
        let limit = Self.maximumPageLength(options, lossless: request.flag(.lossless))
        guard (options.maxHeight ?? Int.max) > limit, sheet.layout.pageCount > 1, !request.toStandardOutput else { return [] }
        let files = PageNames.paths(for: request.resolvedDestination, pageCount: sheet.layout.pageCount)
        return [
            "the board is longer than a JPEG XL page holds at this width (\(Self.maximumPagePixels(lossless: request.flag(.lossless)) / 1_000_000) megapixels: \(limit) px): written as \(files.count) pages (\(files[0]) ... \(files[files.count - 1])); set --max-height to choose where it breaks"
        ]
    }

    public static func isMosaicSheet(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path), let xmp = mosaic_jxl_xmp(path) else { return false }
        defer { free(xmp) }
        return MosaicMark.isMosaic(xmp: UnsafeRawBufferPointer(start: xmp, count: strlen(xmp)))
    }

    public func sink(destination: String) -> any PageSink {
        let quality = request.integer(.quality) ?? Self.defaultQuality, lossless = request.flag(.lossless), limits = options.limits
        let threads = max(1, options.jobs)
        return PageFiles<JXLPageWriter>(destination: destination, isMosaicSheet: Self.isMosaicSheet) { path, size, hasAlpha throws(ImageEncodingError) in
            try JXLPageWriter(path: path, size: size, hasAlpha: hasAlpha, quality: quality, lossless: lossless, threads: threads, limits: limits)
        }
    }

    /// cjxl's (and libvips's) butteraugli distance for a quality: 90 is 1.0 ("visually
    /// lossless"), 100 is 0.1.
    public static func distance(quality: Int) -> Float {
        let q = Double(quality)
        return Float(q >= 30 ? 0.1 + (100 - q) * 0.09 : 53.0 / 3000.0 * q * q - 23.0 / 20.0 * q + 25)
    }
}

/// One JPEG XL page: rows gathered into the shim's picture (3 bytes a pixel, 4 with
/// alpha), encoded by libjxl when the page is finished into a file beside the destination,
/// renamed into place on commit.
final class JXLPageWriter: PageFileWriter {
    let output: OutputFile
    var writer: OpaquePointer?
    let size: Size
    var rows = 0
    let distance: Float
    let lossless: Bool
    let threads: Int

    /// - Throws: `.invalidParameter` (a quality outside 1...100), `.tooLarge` (the output
    ///   limit, or more than `JXLOutput.maximumPagePixels(lossless:)`), `.jxl` (no memory for the
    ///   picture), `.cannotCreate`.
    init(path: String, size: Size, hasAlpha: Bool, quality: Int, lossless: Bool, threads: Int, limits: ImageLimits) throws(ImageEncodingError) {
        try limits.checkPage(path: path, width: size.width, height: size.height, format: "JPEG XL", maximumSide: nil)
        let most = JXLOutput.maximumPagePixels(lossless: lossless)
        guard size.width * size.height <= most else { throw .tooLarge(path: path, width: size.width, height: size.height, limit: most) }
        guard (1...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        var result = mosaic_result()
        guard let writer = mosaic_jxl_writer_open(Int32(size.width), Int32(size.height), hasAlpha ? 1 : 0, &result) else {
            throw .jxl(path: path, message: Self.message(result))
        }
        do { output = try OutputFile(path: path) } catch {
            mosaic_jxl_writer_free(writer)
            throw error
        }
        self.writer = writer
        self.size = size
        self.distance = JXLOutput.distance(quality: quality)
        self.lossless = lossless
        self.threads = threads
    }

    deinit { if let writer { mosaic_jxl_writer_free(writer) } }

    static func message(_ result: mosaic_result) -> String {
        withUnsafeBytes(of: result.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let writer, band.width == size.width, rows + band.height <= size.height else {
            abandon()
            throw .rowMismatch(path: output.path, message: "a band of \(band.width)x\(band.height) does not fit the image at row \(rows)")
        }
        let result = band.pixels.withUnsafeBufferPointer { mosaic_jxl_writer_write(writer, $0.baseAddress, size.width * 4, Int32(band.height)) }
        guard result.status == MOSAIC_OK else {
            abandon()
            throw .jxl(path: output.path, message: Self.message(result))
        }
        rows += band.height
    }

    func finish(moveIntoPlace move: Bool) throws(ImageEncodingError) {
        guard let writer, rows == size.height else {
            abandon()
            throw .rowMismatch(path: output.path, message: "only \(rows) of \(size.height) rows were pushed")
        }
        self.writer = nil
        let result = mosaic_jxl_writer_finish(writer, output.file, distance, lossless ? 1 : 0, Int32(JXLOutput.effort), Int32(threads), MosaicMark.xmp)
        guard result.status == MOSAIC_OK else {
            output.abandon()
            throw result.status == MOSAIC_SYSTEM_ERROR
                ? .cannotWrite(path: output.path, reason: Self.message(result)) : .jxl(path: output.path, message: Self.message(result))
        }
        do { try output.close() } catch {
            output.abandon()
            throw error
        }
        if move { try moveIntoPlace() }
    }

    func moveIntoPlace() throws(ImageEncodingError) { try output.moveIntoPlace() }

    func abandon() {
        if let writer { mosaic_jxl_writer_free(writer) }
        writer = nil
        output.abandon()
    }
}
