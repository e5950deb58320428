import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a PNG a band of rows at a time: memory does not grow with the image's height.
///
/// The file is written to a temporary name beside the destination and renamed into place
/// by `finish()`; a writer dropped before `finish()` (an error, a cancelled run) removes its
/// temporary file and leaves whatever was at the destination untouched. The same pixels
/// and options always give the same bytes (no timestamps are written).
///
/// A reference type because it owns a file: use it from one thread at a time.
public final class PNGWriter {
    /// The zlib level used unless told otherwise. Level 1 with the Paeth filter: on photo
    /// contact sheets it writes files within a few percent of level 6 in a fraction of
    /// the time (see the README's figures).
    public static let defaultCompressionLevel = 1

    public let path: String
    public let width: Int
    public let height: Int
    /// RGBA (straight alpha in the file) when true, RGB when false.
    public let hasAlpha: Bool
    public private(set) var rowsWritten = 0

    let temporaryPath: String
    var writer: OpaquePointer?
    var finished = false
    var moved = false
    var scratch: [UInt8]

    /// Starts a PNG of `width` x `height` at `path`.
    ///
    /// - Parameters:
    ///   - hasAlpha: write RGBA; otherwise RGB (the alpha of the rows pushed is dropped).
    ///   - compressionLevel: zlib level 0 to 9.
    ///   - software: a tEXt "Software" value, or nil for none.
    ///   - limits: `maximumOutputPixels` is checked before anything is written.
    public init(
        path: String, width: Int, height: Int, hasAlpha: Bool,
        compressionLevel: Int = PNGWriter.defaultCompressionLevel, software: String? = "mosaic",
        limits: ImageLimits = ImageLimits()
    ) throws(ImageEncodingError) {
        guard width >= 1, width <= 0x7FFF_FFFF else { throw .invalidParameter(field: "width", value: width) }
        guard height >= 1, height <= 0x7FFF_FFFF else { throw .invalidParameter(field: "height", value: height) }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limits.maximumOutputPixels else {
            throw .tooLarge(path: path, width: width, height: height, limit: limits.maximumOutputPixels)
        }
        guard (0...9).contains(compressionLevel) else { throw .invalidParameter(field: "compressionLevel", value: compressionLevel) }
        self.path = path
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.temporaryPath = TemporaryFiles.path(for: path)
        self.scratch = []
        var params = mosaic_png_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.color_type = hasAlpha ? 6 : 2
        params.bit_depth = 8
        params.compression_level = Int32(compressionLevel)
        params.filters = 0x80  // PNG_FILTER_PAETH
        var result = mosaic_result()
        let opened: OpaquePointer? = temporaryPath.withCString { cPath in
            if let software {
                return software.withCString { cSoftware in
                    params.software = cSoftware
                    return mosaic_png_writer_open(cPath, &params, &result)
                }
            }
            return mosaic_png_writer_open(cPath, &params, &result)
        }
        TemporaryFiles.register(temporaryPath)
        guard let opened else {
            unlink(temporaryPath)
            if result.status == MOSAIC_SYSTEM_ERROR {
                throw .cannotCreate(path: path, reason: String(cString: strerror(result.system_errno)))
            }
            throw .png(path: path, message: messageText(result.message))
        }
        writer = opened
    }

    deinit {
        if let writer { mosaic_png_writer_abort(writer) }
        if !moved { unlink(temporaryPath) }
        TemporaryFiles.unregister(temporaryPath)
    }

    /// Pushes the next rows: `band` must be `width` pixels wide, premultiplied RGBA.
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard band.width == width else {
            throw .rowMismatch(path: path, message: "a band \(band.width) px wide for an image \(width) px wide")
        }
        try band.pixels.withUnsafeBufferPointer { (pixels) throws(ImageEncodingError) in
            try write(rows: pixels, count: band.height)
        }
    }

    /// Pushes `count` rows of premultiplied RGBA, `width * 4` bytes each, from `rows`.
    public func write(rows: UnsafeBufferPointer<UInt8>, count: Int) throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the writer was already finished or failed") }
        guard count >= 0, rows.count >= count * width * 4 else {
            throw .rowMismatch(path: path, message: "\(rows.count) bytes do not hold \(count) rows of \(width) pixels")
        }
        guard rowsWritten + count <= height else {
            throw .rowMismatch(path: path, message: "\(rowsWritten + count) rows pushed into an image \(height) rows tall")
        }
        if count == 0 { return }
        let channels = hasAlpha ? 4 : 3
        let needed = count * width * channels
        if scratch.count < needed { scratch = [UInt8](repeating: 0, count: needed) }
        let pixelCount = count * width
        scratch.withUnsafeMutableBufferPointer { out in
            if hasAlpha {
                // PNG keeps straight alpha.
                for i in 0..<pixelCount {
                    let a = rows[4 * i + 3]
                    if a == 255 || a == 0 {
                        out[4 * i] = a == 0 ? 0 : rows[4 * i]
                        out[4 * i + 1] = a == 0 ? 0 : rows[4 * i + 1]
                        out[4 * i + 2] = a == 0 ? 0 : rows[4 * i + 2]
                    } else {
                        out[4 * i] = unpremultiply(rows[4 * i], a)
                        out[4 * i + 1] = unpremultiply(rows[4 * i + 1], a)
                        out[4 * i + 2] = unpremultiply(rows[4 * i + 2], a)
                    }
                    out[4 * i + 3] = a
                }
            } else {
                for i in 0..<pixelCount {
                    out[3 * i] = rows[4 * i]
                    out[3 * i + 1] = rows[4 * i + 1]
                    out[3 * i + 2] = rows[4 * i + 2]
                }
            }
        }
        let result = scratch.withUnsafeBufferPointer { buffer in
            mosaic_png_writer_write_rows(writer, buffer.baseAddress, width * channels, Int32(count))
        }
        guard result.status == MOSAIC_OK else {
            fail()
            throw .png(path: path, message: messageText(result.message))
        }
        rowsWritten += count
    }

    /// Ends the PNG and (unless told not to) moves it into place at `path`. Every row must
    /// have been pushed. With `moveIntoPlace: false` the finished file waits beside the
    /// destination for `moveIntoPlace()` (to put several pages in place together).
    public func finish(moveIntoPlace move: Bool = true) throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the writer was already finished or failed") }
        guard rowsWritten == height else {
            fail()
            throw .rowMismatch(path: path, message: "only \(rowsWritten) of \(height) rows were pushed")
        }
        self.writer = nil
        let result = mosaic_png_writer_finish(writer)
        guard result.status == MOSAIC_OK else {
            unlink(temporaryPath)
            throw .png(path: path, message: messageText(result.message))
        }
        finished = true
        if move { try moveIntoPlace() }
    }

    /// Renames the finished file over the destination.
    public func moveIntoPlace() throws(ImageEncodingError) {
        guard finished, !moved else { throw .rowMismatch(path: path, message: "the PNG is not finished") }
        guard rename(temporaryPath, path) == 0 else {
            let reason = FileBytes.systemMessage()
            unlink(temporaryPath)
            finished = false
            throw .cannotRename(path: path, reason: reason)
        }
        moved = true
    }

    /// Gives up: the temporary file goes, the destination stays as it was.
    public func abandon() {
        fail()
        finished = false
    }

    func fail() {
        if let writer {
            mosaic_png_writer_abort(writer)
            self.writer = nil
        }
        if !moved { unlink(temporaryPath) }
    }
}

extension Bitmap {
    /// Writes the bitmap as a PNG at `path`, atomically (RGB when it is opaque and
    /// `hasAlpha` is nil, RGBA otherwise).
    public func writePNG(
        to path: String, hasAlpha: Bool? = nil, compressionLevel: Int = PNGWriter.defaultCompressionLevel,
        software: String? = "mosaic"
    ) throws(ImageEncodingError) {
        let writer = try PNGWriter(
            path: path, width: width, height: height, hasAlpha: hasAlpha ?? !isOpaque,
            compressionLevel: compressionLevel, software: software)
        try writer.write(self)
        try writer.finish()
    }
}
