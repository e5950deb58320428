import Foundation

/// One PDF 1.4 file, one PDF page per sheet page: every page is `pageSize` (the MediaBox,
/// in points) and shows its sheet page as one image, `pagePixels.width` pixels across the
/// page's width, top-aligned (the last page may be shorter than the others: the paper
/// below it takes `pageColor`, the sheet's background). Captions, headers and footers
/// are PDF text over it (`PDFFont`: embedded subsets, searchable), colour emoji pixels
/// of the image. The image is embedded as a baseline JPEG
/// (`/DCTDecode`, by default at quality 90) or losslessly (`/FlateDecode` with PNG's Paeth
/// predictor), compressed band by band straight into the file: memory does not grow with
/// the page. The file is written beside its destination and renamed into place by
/// `commit()`; `abandon()` removes it. It carries no date and no random ID, so the same
/// pages give the same bytes, and its Info says `/Producer (mosaic)`, so a later run
/// replaces only PDFs mosaic wrote. PDF has no transparency here: a sheet with alpha is
/// composited over white.
public final class PDFSink: PageSink {
    /// PDF pages are sized by the caller (`pagePixels`), so the sink asks for no
    /// pagination of its own. A JPEG-embedded page is still at most 65500 pixels a side.
    public static let maximumSide: Int? = nil

    /// How a page's image is stored.
    public enum ImageEncoding: Hashable, Sendable {
        /// Baseline JPEG at `quality` (1...100): 4:4:4 chroma from 90 up, 4:2:0 below.
        case jpeg(quality: Int)
        /// zlib at `level` (0...9), rows Paeth-filtered: lossless.
        case flate(level: Int)
    }

    /// The PDF to write.
    public let destination: String
    /// The sheet's width and page height in pixels (from the page size and the DPI).
    public let pagePixels: Size
    /// Every page's MediaBox, in points.
    public let pageSize: PDFPageSize
    public let encoding: ImageEncoding
    /// The output pixel limit, checked per page.
    public let limits: ImageLimits
    /// Painted over the part of a page below a shorter image (the last page), so that
    /// the sheet's background, not white, runs to the paper's foot (flattened over white
    /// as the image is when it is not opaque); nil: white.
    public let pageColor: Color?
    /// The file written: the destination alone.
    public var files: [String] { [destination] }

    var output: OutputFile?
    /// Byte offsets of objects 1, 2, ... (index: object number - 1); 0 until written.
    var offsets: [Int] = []
    var pageCount = 0
    var pagesWritten = 0
    var image: RowStream?
    /// Where the current image's data began, and its first object's number.
    var imageStart = 0
    var pageObject = 0
    /// The current page's content stream: the image scaled to its place, top-aligned.
    var placement = ""
    /// The current page's image on the paper: points per pixel, and where its top-left
    /// corner is (points, PDF's y up).
    var pageScale = 1.0
    var pageLeft = 0.0
    /// The current page's text (`place(_:)`), drawn over its image, and the fonts it uses.
    var pageText = ""
    var pageFonts: Set<Int> = []
    /// The fonts the document's text uses, in order of first use (font k is `/Fk`).
    var fonts: [PDFFont] = []
    var fontIndex: [PDFFont.Key: Int] = [:]

    /// - Parameters:
    ///   - destination: the PDF to write.
    ///   - pagePixels: the sheet's width and page height in pixels: `pageSize.pixels(dpi:)`.
    ///   - pageSize: the MediaBox of every page, in points.
    ///   - encoding: JPEG at a quality (default 90) or Flate.
    ///   - limits: `maximumOutputPixels` is checked for every page before it is written.
    ///   - pageColor: the paper below a page shorter than the paper.
    ///   - text: captions, headers and footers as PDF text (the default), or as pixels.
    public init(
        destination: String, pagePixels: Size, pageSize: PDFPageSize, encoding: ImageEncoding = .jpeg(quality: JPEGStream.defaultQuality),
        limits: ImageLimits = ImageLimits(), pageColor: Color? = nil, text: Bool = true
    ) {
        self.drawsText = text
        self.pageColor = pageColor
        self.destination = destination
        self.pagePixels = pagePixels
        self.pageSize = pageSize
        self.encoding = encoding
        self.limits = limits
    }

    deinit { abandon() }

    /// What the start of a PDF that mosaic wrote holds (its Info object comes first).
    static let producer = "/Producer (mosaic)"

    /// True when the file at `path` is a PDF whose Info (within its first 1 KiB, where
    /// mosaic writes it) says `/Producer (mosaic)`; false for anything else.
    public static func isMosaicSheet(_ path: String) -> Bool {
        guard MosaicMark.isRegularFile(path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 1024) else { return false }
        return head.starts(with: Array("%PDF-".utf8)) && head.range(of: Data(producer.utf8)) != nil
    }

    /// Objects: 1 the catalog, 2 the page tree, 3 the Info; then four per page: the page,
    /// its image, the image's length, its content stream; then five per font
    /// (`PDFFont.objectCount`), after the last page's.
    static func firstObject(ofPage page: Int) -> Int { 4 + 4 * page }

    /// The first object of font `index` (from 0) in a PDF of `pages` pages.
    static func firstObject(ofFont index: Int, pages: Int) -> Int { firstObject(ofPage: pages) + PDFFont.objectCount * index }

    /// Captions, headers and footers are PDF text (the shaped glyphs in embedded font
    /// subsets, `place(_:)`), or with `text: false` pixels of the page's image.
    public let drawsText: Bool

    /// Starts the file at the first page, then the page and its image.
    ///
    /// - Throws: `.invalidParameter` (quality, level), `.tooLarge`, `.sideTooLong` (a JPEG
    ///   page past 65500 pixels), `.cannotCreate`, `.cannotWrite` (a full disk).
    public func beginPage(_ index: Int, of count: Int, size: Size, hasAlpha: Bool) throws(ImageEncodingError) {
        try limits.checkPage(path: destination, width: size.width, height: size.height, format: "PDF", maximumSide: nil)
        if output == nil || index == 0 { try start(pages: count) }
        guard let output, let file = output.file, index == pagesWritten, count == pageCount else {
            throw .rowMismatch(path: destination, message: "page \(index + 1) of \(count) out of order")
        }
        pageObject = Self.firstObject(ofPage: index)
        let (imageObject, lengthObject) = (pageObject + 1, pageObject + 2)
        var scale = pageSize.width / Double(max(1, pagePixels.width))
        // A page longer than the paper (a card taller than a page, never cut) is scaled down
        // to the paper's height, centred across: shown whole, never clipped.
        let fitted = Double(size.height) * scale > pageSize.height
        if fitted { scale = pageSize.height / Double(max(1, size.height)) }
        let width = Double(size.width) * scale, height = Double(size.height) * scale
        let left = fitted ? (pageSize.width - width) / 2 : 0
        (pageScale, pageLeft, pageText, pageFonts) = (scale, left, "", [])
        let filter: String
        switch encoding {
        case .jpeg: filter = "/Filter /DCTDecode"
        case .flate: filter = "/Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns \(size.width) >>"
        }
        try mark(imageObject)
        try output.write(
            "\(imageObject) 0 obj\n<< /Type /XObject /Subtype /Image /Width \(size.width) /Height \(size.height)"
                + " /ColorSpace /DeviceRGB /BitsPerComponent 8 \(filter) /Length \(lengthObject) 0 R >>\nstream\n")
        imageStart = output.offset
        switch encoding {
        case .jpeg(let quality):
            self.image = try JPEGStream(
                file: file, path: destination, width: size.width, height: size.height, quality: quality, flatten: hasAlpha, comment: nil)
        case .flate(let level):
            self.image = try FlateStream(file: file, path: destination, width: size.width, height: size.height, level: level)
        }
        placement = "q\n\(Self.number(width)) 0 0 \(Self.number(height)) \(Self.number(left)) \(Self.number(pageSize.height - height)) cm\n/Im0 Do\nQ\n"
        if let pageColor, pageColor.alpha > 0, fitted || pageSize.height - height >= 0.01 {
            // The paper the image leaves in its colour flattened over white, as the image's
            // pixels are: the strip below a shorter page (a hair under the image and a point
            // past the paper's three other edges, so that no seam of white shows where a
            // renderer rounds), or all of it beside a page scaled to fit.
            let alpha = Double(pageColor.alpha) / 255
            let rgb = [pageColor.red, pageColor.green, pageColor.blue]
                .map { String(format: "%.4f", (Double($0) * alpha + 255 * (1 - alpha)) / 255) }.joined(separator: " ")
            let top = fitted ? pageSize.height + 1 : pageSize.height - height + min(1, height)
            placement = "\(rgb) rg\n-1 -1 \(Self.number(pageSize.width + 2)) \(Self.number(top + 1)) re f\n" + placement
        }
    }

    /// Writes the header, the catalog, the Info and the page tree of `count` pages.
    func start(pages count: Int) throws(ImageEncodingError) {
        abandon()
        TemporaryFiles.removeLeftovers(besides: [destination])
        let output = try OutputFile(path: destination)
        self.output = output
        pageCount = count
        pagesWritten = 0
        fonts = []
        fontIndex = [:]
        offsets = Array(repeating: 0, count: 3 + 4 * count)
        // A binary comment after the header, as the PDF reference advises.
        try output.write(Array("%PDF-1.4\n%".utf8) + [0xE2, 0xE3, 0xCF, 0xD3, 0x0A])
        try object(3) { () throws(ImageEncodingError) in try output.write("<< \(Self.producer) /Creator (mosaic) >>\n") }
        try object(1) { () throws(ImageEncodingError) in try output.write("<< /Type /Catalog /Pages 2 0 R >>\n") }
        let kids = (0..<count).map { "\(Self.firstObject(ofPage: $0)) 0 R" }.joined(separator: " ")
        try object(2) { () throws(ImageEncodingError) in try output.write("<< /Type /Pages /Kids [\(kids)] /Count \(count) >>\n") }
    }

    /// Records object `number`'s offset: it starts here.
    func mark(_ number: Int) throws(ImageEncodingError) {
        guard let output, number >= 1, number <= offsets.count else { throw .rowMismatch(path: destination, message: "object \(number) out of range") }
        offsets[number - 1] = output.offset
    }

    /// Writes object `number` whose body `body` writes.
    func object(_ number: Int, _ body: () throws(ImageEncodingError) -> Void) throws(ImageEncodingError) {
        guard let output else { throw .rowMismatch(path: destination, message: "no PDF was started") }
        try mark(number)
        try output.write("\(number) 0 obj\n")
        try body()
        try output.write("endobj\n")
    }

    /// Compresses the band's rows into the page's image.
    public func write(band: Bitmap) throws(ImageEncodingError) {
        guard let image else { throw .rowMismatch(path: destination, message: "a band before any page began") }
        try image.write(band)
    }

    /// Ends the page's image, its length and its content stream.
    public func endPage() throws(ImageEncodingError) {
        guard let image, let output else { throw .rowMismatch(path: destination, message: "no page to end") }
        try image.finish()
        self.image = nil
        let length = output.offset - imageStart
        try output.write("\nendstream\nendobj\n")
        try object(pageObject + 2) { () throws(ImageEncodingError) in try output.write("\(length)\n") }
        // The page, now that its fonts are known (its image is the object after it).
        let fontResources = pageFonts.sorted().map { "/F\($0) \(Self.firstObject(ofFont: $0, pages: pageCount)) 0 R" }.joined(separator: " ")
        let pageObject = pageObject
        try object(pageObject) { () throws(ImageEncodingError) in
            try output.write(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(Self.number(pageSize.width)) \(Self.number(pageSize.height))]"
                    + " /Resources << /XObject << /Im0 \(pageObject + 1) 0 R >>" + (fontResources.isEmpty ? "" : " /Font << \(fontResources) >>")
                    + " >> /Contents \(pageObject + 3) 0 R >>\n")
        }
        // With text, the content stream is deflated (a page of captions is tens of kB of
        // operators); the image's placement alone is a few bytes, kept plain.
        if !pageText.isEmpty {
            try writeStream(pageObject + 3, Array((placement + pageText).utf8))
        } else {
            let contents = Array(placement.utf8)
            try object(pageObject + 3) { () throws(ImageEncodingError) in
                try output.write("<< /Length \(contents.count) >>\nstream\n")
                try output.write(contents)
                try output.write("\nendstream\n")
            }
        }
        pagesWritten += 1
    }

    /// Writes the cross-reference table and the trailer, then renames the file into place.
    ///
    /// - Throws: `.rowMismatch` when pages are missing, `.cannotWrite` (a full disk),
    ///   `.cannotRename`.
    public func commit() throws(ImageEncodingError) {
        guard let output else { return }
        guard pagesWritten == pageCount, image == nil else {
            throw .rowMismatch(path: destination, message: "only \(pagesWritten) of \(pageCount) pages were written")
        }
        try writeFonts()
        let table = output.offset
        var xref = "xref\n0 \(offsets.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            xref += String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
        }
        xref += "trailer\n<< /Size \(offsets.count + 1) /Root 1 0 R /Info 3 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        try output.write(xref)
        try output.close()
        try output.moveIntoPlace()
        self.output = nil
    }

    /// Removes the temporary file; the destination stays as it was.
    public func abandon() {
        image?.abandon()
        image = nil
        output?.abandon()
        output = nil
    }

    /// `value` with at most two decimals and no trailing zeros ("595.28", "842", "0.5"):
    /// the same text on every machine and in every locale.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let whole = abs(hundredths) / 100, fraction = abs(hundredths) % 100
        if fraction == 0 { return sign + String(whole) }
        let decimals = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return sign + String(whole) + "." + decimals
    }
}
