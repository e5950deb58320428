/// An image file written beside its destination (`OutputFile`) by a `RowStream`, then
/// renamed into place: JPEG (compressed by rows), WebP and AVIF (gathered, encoded when
/// finished). Abandoned or dropped before `moveIntoPlace()`, it leaves nothing behind and
/// the destination untouched. Use it from one thread at a time.
public class EncodedFileWriter: PageFileWriter {
    /// Where the file goes.
    public var path: String { output.path }
    let output: OutputFile
    let stream: RowStream

    init(output: OutputFile, stream: RowStream) {
        self.output = output
        self.stream = stream
    }

    /// Pushes the band's rows to the encoder.
    public func write(_ band: Bitmap) throws(ImageEncodingError) {
        do { try stream.write(band) } catch {
            output.abandon()
            throw error
        }
    }

    /// Ends the encoder's data and closes the file (still beside its destination unless
    /// `moveIntoPlace`).
    ///
    /// - Throws: `.rowMismatch` when rows are missing, the encoder's error with the
    ///   library's message, `.cannotWrite` with the system's reason (a full disk).
    public func finish(moveIntoPlace move: Bool = true) throws(ImageEncodingError) {
        do {
            try stream.finish()
            try output.close()
        } catch {
            output.abandon()
            throw error
        }
        if move { try moveIntoPlace() }
    }

    /// Renames the finished file over the destination.
    public func moveIntoPlace() throws(ImageEncodingError) { try output.moveIntoPlace() }

    /// Gives up: the temporary file goes, the destination stays as it was.
    public func abandon() {
        stream.abandon()
        output.abandon()
    }
}
