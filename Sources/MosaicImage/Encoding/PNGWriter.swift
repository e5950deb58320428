import CMosaicShims
import Dispatch
import MosaicSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a PNG a band of rows at a time: memory does not grow with the image's height.
///
/// The rows are cut into segments of about 512 KiB (a number of rows that depends only on
/// the width), each filtered with Paeth and deflated on its own, on up to `threads`
/// threads at once, and joined in order into the one zlib stream (see png_deflate.c):
/// the file's bytes do not depend on the thread count.
///
/// The file is written to a temporary name beside the destination and renamed into place
/// by `finish()`; a writer dropped before `finish()` (an error, a cancelled run) removes its
/// temporary file and leaves whatever was at the destination untouched. The same pixels
/// and options always give the same bytes (no timestamps are written).
///
/// A reference type because it owns a file: use it from one thread at a time.
public final class PNGWriter {
    /// The level used unless told otherwise, by the image's size: zlib's level 6 (libpng's
    /// and libvips's default) up to `smallImagePixels`, where it costs little time and
    /// writes smaller files; level 1 (ISA-L's igzip) with the Paeth filter above, where
    /// deflating at 6 would take longer than drawing the sheet (igzip at 1 writes photo
    /// sheets smaller than zlib's 1, and faster: see docs/guide/benchmarks.md).
    /// Levels 1 to 3 use igzip, 0 and 4 to 9 zlib.
    public static func defaultCompressionLevel(width: Int, height: Int) -> Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= smallImagePixels ? 6 : 1
    }
    /// The largest image (width x height) written at level 6 unless told otherwise: a
    /// 2000 x 2000 sheet.
    public static let smallImagePixels = 4_000_000
    /// Bytes of filtered rows per deflated segment.
    static let segmentBytes = 1 << 19

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
    let compressionLevel: Int
    let threads: Int
    /// Rows per segment, the rows of the segment being filled (straight alpha, 3 or 4
    /// channels), how many it holds, and the row above its first.
    let segmentRows: Int
    var segment: [UInt8] = []
    var segmentCount = 0
    var above: [UInt8]?
    /// Segments being deflated, in file order.
    var pending: [PendingSegment] = []

    /// Starts a PNG of `width` x `height` at `path`.
    ///
    /// - Parameters:
    ///   - hasAlpha: write RGBA; otherwise RGB (the alpha of the rows pushed is dropped).
    ///   - compressionLevel: 0 to 9, as zlib's; nil: `defaultCompressionLevel` for the size.
    ///   - software: a tEXt "Software" value, or nil for none.
    ///   - limits: `maximumOutputPixels` is checked before anything is written.
    ///   - threads: how many segments may be deflated at once (the bytes are the same).
    public init(
        path: String, width: Int, height: Int, hasAlpha: Bool,
        compressionLevel: Int? = nil, software: String? = "mosaic",
        limits: ImageLimits = ImageLimits(), threads: Int = 1
    ) throws(ImageEncodingError) {
        let compressionLevel = compressionLevel ?? Self.defaultCompressionLevel(width: width, height: height)
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
        self.compressionLevel = compressionLevel
        self.threads = max(1, threads)
        self.segmentRows = max(1, Self.segmentBytes / (width * (hasAlpha ? 4 : 3) + 1))
        var params = mosaic_png_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.color_type = hasAlpha ? 6 : 2
        params.bit_depth = 8
        params.compression_level = Int32(compressionLevel)
        params.filters = 0x80  // PNG_FILTER_PAETH
        params.srgb = 1  // everything mosaic draws is sRGB
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
        for job in pending { job.discard() }
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
        guard writer != nil else { throw .rowMismatch(path: path, message: "the writer was already finished or failed") }
        guard count >= 0, rows.count >= count * width * 4 else {
            throw .rowMismatch(path: path, message: "\(rows.count) bytes do not hold \(count) rows of \(width) pixels")
        }
        guard rowsWritten + count <= height else {
            throw .rowMismatch(path: path, message: "\(rowsWritten + count) rows pushed into an image \(height) rows tall")
        }
        if count == 0 { return }
        let channels = hasAlpha ? 4 : 3
        let rowBytes = width * channels
        var done = 0
        while done < count {
            if segment.isEmpty { segment = [UInt8](repeating: 0, count: segmentRows * rowBytes) }
            let take = min(count - done, segmentRows - segmentCount)
            segment.withUnsafeMutableBufferPointer { out in
                Self.straighten(rows, from: done * width, into: out, at: segmentCount * width, pixels: take * width, hasAlpha: hasAlpha)
            }
            segmentCount += take
            done += take
            rowsWritten += take
            if segmentCount == segmentRows || rowsWritten == height { try submitSegment() }
        }
    }

    /// `pixels` premultiplied RGBA pixels from pixel `first` of `rows` into `out` from pixel
    /// `start`: straight RGBA (PNG keeps straight alpha), or RGB.
    static func straighten(
        _ rows: UnsafeBufferPointer<UInt8>, from first: Int, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int, pixels: Int,
        hasAlpha: Bool
    ) {
        if hasAlpha {
            for p in 0..<pixels {
                let i = 4 * (first + p), o = 4 * (start + p)
                let a = rows[i + 3]
                if a == 255 || a == 0 {
                    out[o] = a == 0 ? 0 : rows[i]
                    out[o + 1] = a == 0 ? 0 : rows[i + 1]
                    out[o + 2] = a == 0 ? 0 : rows[i + 2]
                } else {
                    out[o] = unpremultiply(rows[i], a)
                    out[o + 1] = unpremultiply(rows[i + 1], a)
                    out[o + 2] = unpremultiply(rows[i + 2], a)
                }
                out[o + 3] = a
            }
        } else if pixels > 0, let source = UnsafeRawPointer(rows.baseAddress), let target = UnsafeMutableRawPointer(out.baseAddress) {
            // A pixel a four-byte load and store, three bytes kept: each store's fourth byte
            // is the next pixel's first, written again by it; the last pixel byte by byte.
            let from = source + 4 * first, to = target + 3 * start
            for p in 0..<(pixels - 1) {
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self), toByteOffset: 3 * p, as: UInt32.self)
            }
            let i = 4 * (first + pixels - 1), o = 3 * (start + pixels - 1)
            out[o] = rows[i]
            out[o + 1] = rows[i + 1]
            out[o + 2] = rows[i + 2]
        }
    }

    /// Hands the filled segment to a deflating thread (or deflates it here with one
    /// thread), then writes out, in order, the segments that are done while more than
    /// `threads` are under way, or all of them after the last.
    func submitSegment() throws(ImageEncodingError) {
        let rowBytes = width * (hasAlpha ? 4 : 3)
        let last = rowsWritten == height
        let job = PendingSegment(
            rows: segment, count: segmentCount, above: above, width: width, channels: hasAlpha ? 4 : 3, level: compressionLevel, last: last)
        above = Array(segment[((segmentCount - 1) * rowBytes)..<(segmentCount * rowBytes)])
        segment = []
        segmentCount = 0
        if threads > 1 {
            DispatchQueue.global().async { job.run() }
        } else {
            job.run()
        }
        pending.append(job)
        while pending.count > (last ? 0 : threads) {
            let next = pending.removeFirst()
            let outcome = next.wait()
            defer { next.discard() }
            guard let writer, outcome.result.status == MOSAIC_OK else {
                fail()
                throw .png(path: path, message: messageText(outcome.result.message))
            }
            var segment = outcome.segment
            let result = mosaic_png_writer_write_segment(writer, &segment, next.last ? 1 : 0)
            guard result.status == MOSAIC_OK else {
                fail()
                throw failure(result)
            }
        }
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
            throw failure(result)
        }
        finished = true
        if move { try moveIntoPlace() }
    }

    /// The error of a failed write: the system's reason when a system call failed (a full
    /// disk), else libpng's message.
    func failure(_ result: mosaic_result) -> ImageEncodingError {
        result.system_errno != 0
            ? .cannotWrite(path: path, reason: String(cString: strerror(result.system_errno)))
            : .png(path: path, message: messageText(result.message))
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
        for job in pending { job.discard() }
        pending = []
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
        to path: String, hasAlpha: Bool? = nil, compressionLevel: Int? = nil,
        software: String? = "mosaic"
    ) throws(ImageEncodingError) {
        let writer = try PNGWriter(
            path: path, width: width, height: height, hasAlpha: hasAlpha ?? !isOpaque,
            compressionLevel: compressionLevel, software: software)
        try writer.write(self)
        try writer.finish()
    }
}

/// One segment of a PNG's rows being filtered and deflated, on whichever thread runs it.
final class PendingSegment: Sendable {
    struct Outcome: @unchecked Sendable {
        /// `segment.data` is malloc'd by the shim: freed by `discard()`.
        var segment = mosaic_png_segment()
        var result = mosaic_result()
    }

    let rows: [UInt8]
    let count: Int
    let above: [UInt8]?
    let width: Int
    let channels: Int
    let level: Int
    let last: Bool
    private let outcome = Locked<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(rows: [UInt8], count: Int, above: [UInt8]?, width: Int, channels: Int, level: Int, last: Bool) {
        self.rows = rows
        self.count = count
        self.above = above
        self.width = width
        self.channels = channels
        self.level = level
        self.last = last
    }

    func run() {
        var result = Outcome()
        rows.withUnsafeBufferPointer { rows in
            func deflate(_ above: UnsafePointer<UInt8>?) {
                result.result = mosaic_png_deflate_segment(
                    rows.baseAddress, width * channels, Int32(width), Int32(channels), Int32(count), above, Int32(level), last ? 1 : 0,
                    &result.segment)
            }
            if let above { above.withUnsafeBufferPointer { deflate($0.baseAddress) } } else { deflate(nil) }
        }
        outcome.withLock { $0 = result }
        done.signal()
    }

    /// Waits for `run()` to end and gives its outcome.
    func wait() -> Outcome {
        done.wait()
        done.signal()  // later waits return at once
        return outcome.withLock { $0 } ?? Outcome()
    }

    /// Waits for `run()` and frees the deflated bytes.
    func discard() {
        _ = wait()
        outcome.withLock { value in
            if var taken = value {
                mosaic_png_segment_free(&taken.segment)
                value = nil
            }
        }
    }
}
