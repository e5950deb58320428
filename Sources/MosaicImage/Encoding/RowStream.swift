import CMosaicShims

/// Rows handed to a C encoder a band at a time: compressed into an open file that stays its
/// owner's (`JPEGStream`: libjpeg-turbo, `FlateStream`: zlib), or gathered into the
/// picture of an encoder of whole pictures, encoded into the file by `finish()` (the WebP
/// and AVIF writers). Each says how to write, finish and free its encoder's state.
/// Use it from one thread at a time.
public class RowStream {
    /// The C side of an encoder: its calls on the state it allocated.
    struct Encoder {
        /// Compresses rows of premultiplied RGBA (pointer, stride, count).
        let write: (OpaquePointer, UnsafePointer<UInt8>?, Int, Int32) -> mosaic_result
        /// Ends the data and frees the state.
        let finish: (OpaquePointer) -> mosaic_result
        /// Frees a state that will not be finished.
        let free: (OpaquePointer) -> Void
        /// The error for a failed call's result: the library's message, or the system's
        /// reason when a write failed (`.cannotWrite`).
        let failure: (_ path: String, _ message: String) -> ImageEncodingError

        /// The error for `result`.
        func error(_ result: mosaic_result, path: String) -> ImageEncodingError {
            result.status == MOSAIC_SYSTEM_ERROR ? .cannotWrite(path: path, reason: result.messageText) : failure(path, result.messageText)
        }
    }

    /// The file's name, for messages.
    public let path: String
    public let width: Int
    public let height: Int
    /// The rows pushed so far.
    public var rowsWritten: Int { rows.written }
    var rows: RowCount
    var writer: OpaquePointer?
    let encoder: Encoder

    init(path: String, width: Int, height: Int, writer: OpaquePointer, encoder: Encoder) {
        self.path = path
        self.width = width
        self.height = height
        rows = RowCount(path: path, width: width, height: height)
        self.writer = writer
        self.encoder = encoder
    }

    deinit { if let writer { encoder.free(writer) } }

    /// Compresses the band's rows.
    ///
    /// - Throws: `.rowMismatch` for a band of another width or past the last row, the
    ///   encoder's error with the library's message (a full disk among them).
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the image data was already finished or failed") }
        try rows.take(band)
        let result = band.pixels.withUnsafeBufferPointer { encoder.write(writer, $0.baseAddress, width * 4, Int32(band.height)) }
        guard result.status == MOSAIC_OK else {
            abandon()
            throw encoder.error(result, path: path)
        }
    }

    /// Ends the data; every row must have been written.
    public func finish() throws(ImageEncodingError) {
        guard let writer else { throw .rowMismatch(path: path, message: "the image data was already finished or failed") }
        try rows.checkComplete()
        self.writer = nil
        let result = encoder.finish(writer)
        guard result.status == MOSAIC_OK else { throw encoder.error(result, path: path) }
    }

    /// Stops without finishing.
    public func abandon() {
        if let writer { encoder.free(writer) }
        writer = nil
    }
}
