import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page for an encoder that takes whole pictures (libwebp, libheif): the rows are
/// gathered, band by band, into the encoder's own picture, encoded when `finish` is
/// called into a file beside the destination, then renamed into place. `WebPFileWriter`
/// and `AVIFFileWriter` say how to fill, encode and free their picture.
/// Use it from one thread at a time.
public class GatheredPageWriter: PageFileWriter {
    /// The C side of a format: its calls on the picture it allocated.
    struct Encoder {
        /// "WebP", "AVIF": for messages.
        let format: String
        /// Copies rows of premultiplied RGBA (pointer, stride, count) into the picture.
        let write: (OpaquePointer, UnsafePointer<UInt8>?, Int, Int32) -> mosaic_result
        /// Encodes the picture into the open file and frees it.
        let encode: (OpaquePointer, UnsafeMutablePointer<FILE>?) -> mosaic_result
        /// Frees a picture that will not be encoded.
        let free: (OpaquePointer) -> Void
        /// The error for the library's message.
        let failure: (_ path: String, _ message: String) -> ImageEncodingError
    }

    public let path: String
    public let width: Int
    public let height: Int
    /// The rows pushed so far.
    public var rowsWritten: Int { rows.written }
    var rows: RowCount
    var picture: OpaquePointer?
    var output: OutputFile?
    let encoder: Encoder

    init(path: String, width: Int, height: Int, picture: OpaquePointer, encoder: Encoder) {
        self.path = path
        self.width = width
        self.height = height
        rows = RowCount(path: path, width: width, height: height)
        self.picture = picture
        self.encoder = encoder
    }

    deinit { if let picture { encoder.free(picture) } }

    /// Copies the band's rows into the picture.
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let picture else { throw .rowMismatch(path: path, message: "the \(encoder.format) was already finished or failed") }
        try rows.take(band)
        _ = band.pixels.withUnsafeBufferPointer { encoder.write(picture, $0.baseAddress, width * 4, Int32(band.height)) }
    }

    /// Encodes the picture into the file beside the destination.
    ///
    /// - Throws: `.rowMismatch` when rows are missing, `.cannotCreate`, the format's error
    ///   with the library's message, `.cannotWrite` with the system's reason (a full disk).
    public func finish(moveIntoPlace move: Bool = true) throws(ImageEncodingError) {
        guard let picture else { throw .rowMismatch(path: path, message: "the \(encoder.format) was already finished or failed") }
        try rows.checkComplete()
        self.picture = nil
        let output: OutputFile
        do { output = try OutputFile(path: path) } catch {
            encoder.free(picture)
            throw error
        }
        self.output = output
        let result = encoder.encode(picture, output.file)
        if result.status == MOSAIC_SYSTEM_ERROR { throw output.failure(reason: result.messageText) }
        guard result.status == MOSAIC_OK else {
            output.abandon()
            throw encoder.failure(path, result.messageText)
        }
        try output.close()
        if move { try moveIntoPlace() }
    }

    /// Renames the finished file over the destination.
    public func moveIntoPlace() throws(ImageEncodingError) {
        guard let output else { throw .rowMismatch(path: path, message: "the \(encoder.format) is not finished") }
        try output.moveIntoPlace()
    }

    /// Frees the picture; the temporary file goes, the destination stays as it was.
    public func abandon() {
        if let picture { encoder.free(picture) }
        picture = nil
        output?.abandon()
    }
}
