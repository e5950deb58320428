#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An encoder that writes one page as one image file beside its destination: rows pushed
/// band by band, finished, then renamed into place (so that a sink can put all its pages
/// in place together), or abandoned (the temporary file goes, the destination stays).
public protocol PageFileWriter: AnyObject {
    /// Pushes the next rows: `band` is as wide as the page, premultiplied RGBA.
    func write(_ band: Bitmap) throws(ImageEncodingError)
    /// Ends the file once every row was pushed; with `moveIntoPlace: false` it waits beside
    /// the destination for `moveIntoPlace()`.
    func finish(moveIntoPlace: Bool) throws(ImageEncodingError)
    /// Renames the finished file over the destination.
    func moveIntoPlace() throws(ImageEncodingError)
    /// Gives up: the temporary file goes, the destination stays as it was.
    func abandon()
}

extension PNGWriter: PageFileWriter {}

/// How a file that mosaic wrote says so, in the formats whose own field is not a PNG tEXt:
/// an XMP packet (WebP's XMP chunk, AVIF's XMP item, JPEG XL's `xml ` box) naming mosaic
/// as the creator tool.
public enum MosaicMark {
    /// The XMP packet written into WebP and AVIF sheets.
    public static let xmp =
        "<?xpacket begin=\"\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?><x:xmpmeta xmlns:x=\"adobe:ns:meta/\">"
        + "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"><rdf:Description rdf:about=\"\" "
        + "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" " + creatorTool + "/></rdf:RDF></x:xmpmeta><?xpacket end=\"r\"?>"
    /// What a packet holds when mosaic wrote it.
    static let creatorTool = "xmp:CreatorTool=\"mosaic\""

    /// True when `path` is a regular file (links followed): the only kind of file a mark is
    /// read from, so that a FIFO or a device at a page's name is never opened (opening a
    /// FIFO waits for a writer).
    public static func isRegularFile(_ path: String) -> Bool {
        guard let status = FileNames.status(path) else { return false }
        return (status.st_mode & S_IFMT) == S_IFREG
    }

    /// True when `packet` (an XMP packet's bytes) names mosaic as its creator tool.
    public static func isMosaic<Bytes: Collection<UInt8>>(xmp packet: Bytes) -> Bool {
        let wanted = Array(creatorTool.utf8)
        let bytes = Array(packet)
        guard bytes.count >= wanted.count else { return false }
        return (0...(bytes.count - wanted.count)).contains { start in bytes[start..<(start + wanted.count)].elementsEqual(wanted) }
    }
}

extension ImageLimits {
    /// Checks a page of `width` x `height` pixels before anything is written: at least one
    /// pixel a side, at most `maximumSide` (the format's) and `maximumOutputPixels` in all.
    ///
    /// - Throws: `.invalidParameter`, `.sideTooLong` naming `format`, `.tooLarge`.
    public func checkPage(path: String, width: Int, height: Int, format: String, maximumSide: Int?) throws(ImageEncodingError) {
        guard width >= 1 else { throw .invalidParameter(field: "width", value: width) }
        guard height >= 1 else { throw .invalidParameter(field: "height", value: height) }
        if let maximumSide, max(width, height) > maximumSide {
            throw .sideTooLong(path: path, width: width, height: height, format: format, maximumSide: maximumSide)
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maximumOutputPixels else {
            throw .tooLarge(path: path, width: width, height: height, limit: maximumOutputPixels)
        }
    }
}

/// The rows pushed into an image so far, checked band by band.
struct RowCount {
    let path: String
    let width: Int
    let height: Int
    private(set) var written = 0

    /// Counts `band`'s rows once it is known to fit: as wide as the image, not past its end.
    mutating func take(_ band: Bitmap) throws(ImageEncodingError) {
        guard band.width == width, written + band.height <= height else {
            throw .rowMismatch(path: path, message: "a band of \(band.width)x\(band.height) does not fit the image at row \(written)")
        }
        written += band.height
    }

    /// Checks that every row was pushed.
    func checkComplete() throws(ImageEncodingError) {
        guard written == height else { throw .rowMismatch(path: path, message: "only \(written) of \(height) rows were pushed") }
    }
}
