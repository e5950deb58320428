import Foundation

/// A print-ready PDF (`-o sheets.pdf`): `--page-size a4|letter|WIDTHxHEIGHTmm` and `--dpi`
/// (default A4 at 300 dpi) set the sheet's width and page height in pixels, the board is
/// paginated to them, and each sheet page is one PDF page at that physical size, its image
/// embedded as JPEG at `--quality` (default 90) or losslessly with `--lossless` (Flate).
/// Captions are pixels of the page image. No date, no random ID: the same inputs give the
/// same bytes.
public struct PDFOutput: OutputKind {
    public static let name = "pdf"
    public static let suffixes = [".pdf"]
    public static let hint = ".pdf for a PDF"
    public static let summary = "one PDF of pages at --page-size"
    public static let takesPages = true
    public static let settings: [OutputSetting] = [.quality, .lossless, pageSizeSetting, dpiSetting]
    /// The paper (`--page-size`); nil: A4.
    public static let pageSizeSetting = OutputSetting(
        name: "pageSize", help: "PDF: a4, letter, WxHmm or WxHin (default: a4).", kind: .text(form: "a4, letter, WxHmm or WxHin"))
    /// Pixels per inch of the pages (`--dpi`).
    public static let dpiSetting = OutputSetting(
        name: "dpi", help: "PDF: pixels per inch of the pages (default: 300).", kind: .integer(default: 300, range: dpiRange))
    /// A page longer than the paper (a card taller than a page) is scaled down to fit it
    /// (`PDFSink`), never clipped.
    public static let scalesLongPages = true
    /// Its pages are paper: lengths in points and millimetres are taken, at `--dpi`.
    public static let printsOnPaper = true

    /// The resolutions a page may be printed at.
    public static let dpiRange = 36...1200

    public let request: OutputRequest
    public let options: SheetOptions
    /// The paper.
    public let pageSize: PDFPageSize
    public let dpi: Int

    public static func namedFiles(_ request: OutputRequest) -> [String] { [request.resolvedDestination] }

    /// `a4`, `letter`, or `WIDTHxHEIGHTmm` / `WIDTHxHEIGHTin` (portrait or landscape as given).
    public static func pageSize(parsing text: String) -> PDFPageSize? {
        let lower = text.lowercased()
        if lower == "a4" { return .a4 }
        if lower == "letter" { return .letter }
        for (unit, make) in [("mm", PDFPageSize.millimetres), ("in", PDFPageSize.inches)] where lower.hasSuffix(unit) {
            let sides = lower.dropLast(unit.count).split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, let width = Double(sides[0]), let height = Double(sides[1]),
                width.isFinite, height.isFinite, width > 0, height > 0
            else { return nil }
            return make(width, height)
        }
        return nil
    }

    public static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        let destination = request.resolvedDestination
        guard destination.lowercased().hasSuffix(".pdf") else {
            throw .destination("--format pdf: the output names a PDF file, NAME.pdf; got \"\(destination)\"")
        }
        if request.shard != nil {
            throw .settings("--shard renders part of a tile pyramid: name one with -o NAME.dzi or --format iiif")
        }
        if options.direction != .vertical { throw .settings("--direction horizontal: a PDF's pages are read top to bottom; drop it") }
        if options.maxHeight != nil { throw .settings("--max-height: a PDF's pages are as tall as --page-size at --dpi; drop it") }
        let (size, dpi) = try make(request)
        if options.widthIsGiven {
            let pixels = size.pixels(dpi: dpi)
            throw .settings(
                "--width: a PDF's sheet is as wide as --page-size at --dpi (\(pixels.width) px for \(request.text(pageSizeSetting) ?? "a4") at \(dpi) dpi); drop it, or set --dpi")
        }
    }

    /// The paper and resolution a request asks for.
    static func make(_ request: OutputRequest) throws(OutputRequestError) -> (PDFPageSize, Int) {
        let text = request.text(pageSizeSetting) ?? "a4"
        guard let size = pageSize(parsing: text) else {
            throw .settings("--page-size: \"\(text)\" is not a4, letter, WIDTHxHEIGHTmm or WIDTHxHEIGHTin")
        }
        let dpi = request.integer(dpiSetting) ?? 300
        // (Its range is checked with the declaration's: `OutputKinds.checkSettings`.)
        guard dpiRange.contains(dpi) else { throw .settingOutOfRange(name: dpiSetting.name, value: dpi, range: dpiRange) }
        // Checked in points before any conversion to Int: 1e20x100mm is a usage error, not a trap.
        let sides = pageSideRange(dpi: dpi)
        guard sides.contains(size.width), sides.contains(size.height) else {
            // Each side in pixels, as a whole number while it is one a person reads.
            let shown = { (points: Double) -> String in
                let pixels = (points * Double(dpi) / 72).rounded()
                guard pixels.isFinite else { return "over 1e308" }
                return pixels < 1e9 ? String(Int(pixels)) : String(format: "%.3g", pixels)
            }
            let millimetres = { (pixels: Double) in PDFSink.number(pixels / Double(dpi) * 25.4) }
            throw .settings(
                "--page-size \(text) at --dpi \(dpi) is \(shown(size.width))x\(shown(size.height)) pixels: a page must be 64 to 65500 pixels a side, "
                    + "\(millimetres(64)) to \(millimetres(65_500)) mm at \(dpi) dpi")
        }
        return (size, dpi)
    }

    /// The sides, in points, that make 64 to 65500 pixels at `dpi` once rounded.
    static func pageSideRange(dpi: Int) -> ClosedRange<Double> {
        let perPoint = Double(dpi) / 72
        return (63.5 / perPoint)...(65_500.49 / perPoint)
    }

    public init(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {
        self.request = request
        self.options = options
        (pageSize, dpi) = try Self.make(request)
    }

    /// The sheet as wide as the paper and paginated to its height, in pixels at the DPI, its
    /// lengths in points and millimetres made pixels at the DPI.
    public func sheetOptions(_ options: SheetOptions) -> SheetOptions {
        let pixels = pageSize.pixels(dpi: dpi)
        var paper = options.resolvingLengths(dpi: dpi)
        paper.width = pixels.width
        paper.maxHeight = pixels.height
        return paper
    }

    public func plan(_ sheet: ContactSheet, check base: OutputCheck) throws(RenderError) -> OutputPlan {
        let destination = request.resolvedDestination
        try RenderError.output { () throws(OutputError) in try checkFiles([destination], of: request, against: base, isMosaicSheet: PDFSink.isMosaicSheet) }
        let encoding: PDFSink.ImageEncoding = request.flag(.lossless) ? .flate(level: 6) : .jpeg(quality: request.integer(.quality) ?? JPEGStream.defaultQuality)
        let sink = PDFSink(
            destination: destination, pagePixels: pageSize.pixels(dpi: dpi), pageSize: pageSize, encoding: encoding, limits: options.limits,
            pageColor: options.style.background)
        let paper = request.text(Self.pageSizeSetting) ?? "a4", dpi = dpi
        return OutputPlan(
            sink: sink, files: [destination], mapOutput: destination,
            written: { _ in
                let pages = sheet.layout.pageCount
                let bytes = FileNames.status(destination).map { ", " + CaptionMode.humanSize(Int($0.st_size)) } ?? ""
                return "\(destination) (\(pages) page\(pages == 1 ? "" : "s"), \(paper) at \(dpi) dpi\(bytes))"
            })
    }
}
