/// A JPEG file written a band of rows at a time (see `JPEGStream`) beside its destination
/// and renamed into place when finished; it says it is mosaic's with a COM segment
/// "mosaic". Use it from one thread at a time.
public final class JPEGFileWriter: EncodedFileWriter {
    /// The text of the COM segment that marks a JPEG as mosaic's.
    public static let comment = "mosaic"

    /// Starts a JPEG of `width` x `height` at `path` (written beside it until finished).
    ///
    /// - Parameters:
    ///   - quality: 1 to 100.
    ///   - flatten: composite over white (the sheet has transparency; JPEG has none).
    ///   - limits: `maximumOutputPixels` is checked before anything is written.
    /// - Throws: `.invalidParameter`, `.sideTooLong` (65500 a side), `.tooLarge`,
    ///   `.cannotCreate` with the system's reason, `.jpeg` with libjpeg's message.
    public init(
        path: String, width: Int, height: Int, quality: Int = JPEGStream.defaultQuality, flatten: Bool = false,
        limits: ImageLimits = ImageLimits()
    ) throws(ImageEncodingError) {
        try limits.checkPage(path: path, width: width, height: height, format: "JPEG", maximumSide: JPEGStream.maximumSide)
        guard (1...100).contains(quality) else { throw .invalidParameter(field: "quality", value: quality) }
        let output = try OutputFile(path: path)
        guard let file = output.file else { throw .cannotCreate(path: path, reason: "the file closed") }
        let stream = try JPEGStream(file: file, path: path, width: width, height: height, quality: quality, flatten: flatten, comment: Self.comment)
        super.init(output: output, stream: stream)
    }

    /// True when the file at `path` is a JPEG whose headers (before the first scan) hold
    /// the COM segment "mosaic"; false for anything else, readable or not.
    public static func isMosaicFile(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path), let (bytes, _) = try? FileBytes.read(path, limit: 1 << 16), bytes.starts(with: [0xFF, 0xD8]) else { return false }
        var at = 2
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xDA || marker == 0xD9 { return false }  // the first scan, or the end
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { return false }
            if marker == 0xFE && bytes[(at + 4)..<(at + 2 + length)].elementsEqual(comment.utf8) { return true }
            at += 2 + length
        }
        return false
    }
}
