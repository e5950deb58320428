import Foundation

/// Draws a contact sheet page by page, band by band, into a page sink.
public struct SheetRenderer: Sendable {
    /// The sheet to draw.
    public let sheet: ContactSheet
    /// Rows per band.
    public var bandHeight = 256
    /// How far below the band the decoders may run ahead, pixels.
    public var lookahead = 2048
    /// Only these rows of the page are drawn (a shard's strip), in bands from the first;
    /// nil for all. Cards outside them are not decoded.
    public var rows: Range<Int>?
    /// Cards kept between runs (`CardCache`): a card found there is not decoded; nil, none.
    public var cache: CardCache?

    /// A renderer of `sheet` with 256-row bands and a 2048-pixel lookahead.
    public init(sheet: ContactSheet) {
        self.sheet = sheet
    }

    /// Renders every page into `sink` and commits it (unless `commit` is false: then the
    /// caller commits or abandons the sink, to put other outputs in place with it). With
    /// `strict`, any input that fails (unreadable, corrupt, damaged) stops the render; on
    /// any error the sink is abandoned (nothing it wrote stays).
    ///
    /// - Throws: `RenderError.inputsFailed` (strict), `.output` (the sink), `.text`.
    public func render(
        into sink: some PageSink, commit: Bool = true, progress: (@Sendable (RenderProgress) -> Void)? = nil
    ) throws(RenderError) -> RenderSummary {
        let options = sheet.options
        Allocator.returnLargeBlocks
        var tally = RenderTally(total: sheet.layout.cardCount, progress: progress)
        do throws(RenderError) {
            for page in 0..<sheet.layout.pageCount { try renderPage(page, into: sink, tally: &tally) }
            if options.strict {
                // Every input that failed, from the headers or the pixels, each named once.
                let probeProblems = sheet.catalog.strictProblems
                let known = Set(probeProblems)
                let failed = probeProblems + tally.failures.filter { !known.contains($0) }
                if !failed.isEmpty { throw .inputsFailed(failed) }
            }
            if commit { try Self.output { () throws(ImageEncodingError) in try sink.commit() } }
        } catch {
            sink.abandon()
            throw error
        }
        return RenderSummary(
            files: [], pageCount: sheet.layout.pageCount, rendered: tally.rendered, failures: tally.failures, warnings: tally.warnings,
            missingCharacters: Array(sheet.typesetter.fonts.missingCharacters).sorted { $0.value < $1.value })
    }

    /// Renders into the files at `output` as the command line does (`RenderJob`): PNG pages
    /// (`NAME-1.png`, ... when paginated), or the kind its suffix picks; each page written
    /// beside its destination and all renamed into place when every page is complete. An
    /// output that is one of the inputs is refused before anything is drawn, and so is a
    /// board whose every card failed.
    ///
    /// - Throws: `RenderError`; `.request` for a destination no kind takes.
    public func render(to output: String, progress: (@Sendable (RenderProgress) -> Void)? = nil) throws(RenderError) -> RenderSummary {
        let job: RenderJob
        do {
            job = try RenderJob(request: OutputRequest(destination: output), options: sheet.options)
        } catch {
            throw .request(error)
        }
        return try job.render(sheet, progress: progress).summary
    }

    /// A sink's call, its error as the render's.
    static func output(_ body: () throws(ImageEncodingError) -> Void) throws(RenderError) {
        do { try body() } catch { throw .output(.write(error)) }
    }

    /// Draws one page band by band into the sink, its cards decoded ahead on the workers.
    func renderPage(_ page: Int, into sink: some PageSink, tally: inout RenderTally) throws(RenderError) {
        let size = sheet.layout.pageSize(page)
        let hasAlpha = !sheet.options.style.background.isOpaque
        try Self.output { () throws(ImageEncodingError) in
            try sink.beginPage(page, of: sheet.layout.pageCount, size: size, hasAlpha: hasAlpha)
        }
        // A sink that draws text (a PDF) gets the page's captions, headers and footers as text;
        // the bands then carry only the glyphs it cannot draw so (colour emoji).
        if sink.drawsText {
            let texts = try CardPainter(sheet: sheet).texts(onPage: page)
            try Self.output { () throws(ImageEncodingError) in try sink.place(texts) }
        }
        let window = rows.map { max(0, $0.lowerBound)..<min(size.height, $0.upperBound) } ?? 0..<size.height
        var bands = PageBands(sheet: sheet, page: page, lookahead: lookahead, rows: window, cache: cache, textAsVectors: sink.drawsText)
        bands.start()
        defer { bands.finish() }
        var top = window.lowerBound
        while top < window.upperBound {
            let rows = min(bandHeight, window.upperBound - top)
            let band = try bands.draw(top: top, rows: rows, width: size.width, tally: &tally)
            try Self.output { () throws(ImageEncodingError) in try sink.write(band: band) }
            top += rows
        }
        bands.releaseAll(tally: &tally)
        try Self.output { () throws(ImageEncodingError) in try sink.endPage() }
    }
}
