import CMosaicShims
import CZlib
import Foundation
import Testing

@testable import Mosaic

/// The PDF sink: a valid PDF 1.4 (every xref offset points at its "N 0 obj", the trailer's
/// startxref at the table), one page per sheet page at the page size asked, the page's
/// image decoding back to the sheet, the same bytes twice, PNG's atomic-write rules.
@Suite struct PDFSinkTests {
    /// The SampleImages sheet as A4 pages at 100 dpi (827 x 1169 pixels): several pages.
    static func sheet() throws -> ContactSheet {
        var options = SheetOptions()
        let pixels = PDFPageSize.a4.pixels(dpi: 100)
        options.width = pixels.width
        options.maxHeight = pixels.height
        options.columns = 2
        options.style.font = .file(RenderGoldenTests.font)
        let catalog = try Catalog.manifest(RenderGoldenTests.samples + "/manifest.json")
        return try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary()))
    }

    static func render(to path: String, encoding: PDFSink.ImageEncoding = .jpeg(quality: 90)) throws -> ContactSheet {
        let sheet = try sheet()
        // Captions as pixels: the page's image is then the sheet, pixel for pixel.
        let sink = PDFSink(destination: path, pagePixels: PDFPageSize.a4.pixels(dpi: 100), pageSize: .a4, encoding: encoding, text: false)
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        return sheet
    }

    /// What a reader needs of the file: the xref table's entries, checked against the
    /// bytes, and each object's text up to its stream.
    struct Parsed {
        var objects: [Int: String] = [:]
        /// Each object's stream bytes.
        var streams: [Int: [UInt8]] = [:]
        var trailer = ""
    }

    static func parse(_ bytes: [UInt8]) throws -> Parsed {
        func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func find(_ needle: String, from start: Int) -> Int? {
            let n = Array(needle.utf8)
            guard bytes.count >= n.count, start <= bytes.count - n.count else { return nil }
            return (start...(bytes.count - n.count)).first { bytes[$0..<($0 + n.count)].elementsEqual(n) }
        }
        #expect(text(0..<9) == "%PDF-1.4\n")
        #expect(text((bytes.count - 6)..<bytes.count) == "%%EOF\n")
        // startxref's offset is the table's.
        let startxref = try #require(find("startxref\n", from: max(0, bytes.count - 64)))
        let tail = text((startxref + 10)..<bytes.count).split(separator: "\n")
        let table = try #require(Int(tail[0]))
        #expect(text(table..<(table + 5)) == "xref\n")
        let lines = text(table..<startxref).split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines[1].split(separator: " ")
        #expect(header[0] == "0")
        let count = try #require(Int(header[1]))
        #expect(lines[2] == "0000000000 65535 f ")
        var parsed = Parsed()
        for number in 1..<count {
            let entry = lines[2 + number]
            #expect(entry.count == 19 && entry.hasSuffix(" 00000 n "), "entry \(number): \(entry)")  // 20 bytes with its \n
            let offset = try #require(Int(entry.prefix(10)))
            let opening = "\(number) 0 obj\n"
            #expect(text(offset..<(offset + opening.utf8.count)) == opening, "object \(number) at \(offset)")
            let end = try #require(find("endobj\n", from: offset))
            if let stream = find("stream\n", from: offset), stream < end {
                parsed.objects[number] = text(offset..<stream)
                let data = stream + 7
                let close = try #require(find("\nendstream\n", from: data))
                parsed.streams[number] = Array(bytes[data..<close])
            } else {
                parsed.objects[number] = text(offset..<end)
            }
        }
        parsed.trailer = text(startxref..<bytes.count)
        let trailer = text(table..<startxref)
        #expect(trailer.contains("trailer\n<< /Size \(count) /Root 1 0 R /Info 3 0 R >>"))
        return parsed
    }

    @Test func thePDFIsValidAndHoldsEveryPageAtA4() throws {
        let dir = PageSinkTests.folder()
        let path = dir + "/sheet.pdf"
        let sheet = try Self.render(to: path)
        let pages = sheet.layout.pageCount
        #expect(pages >= 2)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pdf = try Self.parse(bytes)
        #expect(pdf.objects.count == 3 + 4 * pages)
        #expect(pdf.objects[3]?.contains("/Producer (mosaic)") == true)
        #expect(pdf.objects[2]?.contains("/Count \(pages)") == true)
        #expect(PDFSink.isMosaicSheet(path))
        let memory = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: memory)
        for page in 0..<pages {
            let first = PDFSink.firstObject(ofPage: page)
            #expect(pdf.objects[first]?.contains("/MediaBox [0 0 595.28 841.89]") == true)
            let size = sheet.layout.pageSize(page)
            let image = try #require(pdf.objects[first + 1])
            #expect(image.contains("/Width \(size.width) /Height \(size.height)") && image.contains("/DCTDecode /Length \(first + 2) 0 R"))
            let data = try #require(pdf.streams[first + 1])
            #expect(pdf.objects[first + 2]?.hasSuffix("\n\(data.count)\n") == true)
            // The embedded JPEG is the page.
            let jpeg = dir + "/page\(page).jpg"
            try Data(data).write(to: URL(fileURLWithPath: jpeg))
            let decoded = try ImageDecoder().decode(jpeg).bitmap
            #expect(SheetSinkTests.psnr(decoded, memory.pages[page]) >= 35)
            // Placed at the page's top, 595.28 points across for the sheet's 827 pixels.
            let height = Double(size.height) * PDFPageSize.a4.width / 827
            let placement = try #require(pdf.streams[first + 3])
            #expect(String(decoding: placement, as: UTF8.self) == "q\n595.28 0 0 \(PDFSink.number(height)) 0 \(PDFSink.number(PDFPageSize.a4.height - height)) cm\n/Im0 Do\nQ\n")
        }
    }

    /// With text (the default): every page's captions are PDF text in its deflated content
    /// stream, set in Type 0 fonts of Identity-H codes whose five objects follow the last
    /// page's, each with an embedded TrueType subset and a ToUnicode map; the image
    /// holds no outline glyph, so the page's image differs from the pixel sheet only where
    /// text is.
    @Test func captionsAreTextInEmbeddedFonts() throws {
        let path = PageSinkTests.folder() + "/text.pdf"
        let sheet = try Self.sheet()
        _ = try SheetRenderer(sheet: sheet).render(into: PDFSink(destination: path, pagePixels: PDFPageSize.a4.pixels(dpi: 100), pageSize: .a4))
        let pdf = try Self.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        let pages = sheet.layout.pageCount
        let fonts = pdf.objects.values.filter { $0.contains("/Subtype /Type0") }.count
        #expect(fonts >= 1)
        #expect(pdf.objects.count == 3 + 4 * pages + 5 * fonts)
        for font in 0..<fonts {
            let first = PDFSink.firstObject(ofFont: font, pages: pages)
            let type0 = try #require(pdf.objects[first])
            #expect(type0.contains("/Encoding /Identity-H") && type0.contains("/ToUnicode \(first + 4) 0 R"))
            #expect(pdf.objects[first + 1]?.contains("/CIDFontType2 /CIDToGIDMap /Identity") == true)
            #expect(pdf.objects[first + 2]?.contains("/FontFile2 \(first + 3) 0 R") == true)
            let programStream = try #require(pdf.streams[first + 3]), cmapStream = try #require(pdf.streams[first + 4])
            let program = try #require(Self.inflate(programStream, limit: 8 << 20))
            #expect(program.starts(with: [0, 1, 0, 0]))
            let cmap = String(decoding: try #require(Self.inflate(cmapStream)), as: UTF8.self)
            #expect(cmap.contains("beginbfchar") && cmap.contains("endcmap"))
        }
        var shown = ""
        for page in 0..<pages {
            let first = PDFSink.firstObject(ofPage: page)
            #expect(pdf.objects[first]?.contains("/Font << /F") == true)
            let stream = try #require(pdf.streams[first + 3])
            let contents = String(decoding: try #require(Self.inflate(stream)), as: UTF8.self)
            #expect(contents.hasPrefix("q\n") && contents.contains("BT\n") && contents.contains("] TJ\n"))
            shown += contents
        }
        // Cards' titles are marked with their text (left-to-right captions).
        for title in ["Astronaut", "Rocket", "Coffee"] {
            #expect(shown.contains("/ActualText <FEFF" + title.utf16.map { String(format: "%04X", $0) }.joined() + ">"), "\(title)")
        }
    }

    /// A last page shorter than the paper: the paper below it takes the sheet's background
    /// (from a hair under the image to the foot), not white; full pages paint nothing.
    @Test func theShortLastPageKeepsTheBackgroundToTheFoot() throws {
        let path = PageSinkTests.folder() + "/sheet.pdf"
        let sheet = try Self.sheet()
        let background = sheet.options.style.background
        #expect(background.alpha == 255)
        let sink = PDFSink(destination: path, pagePixels: PDFPageSize.a4.pixels(dpi: 100), pageSize: .a4, pageColor: background, text: false)
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        let pdf = try Self.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        let pages = sheet.layout.pageCount
        let last = sheet.layout.pageSize(pages - 1)
        #expect(last.height < PDFPageSize.a4.pixels(dpi: 100).height)
        let rgb = [background.red, background.green, background.blue].map { String(format: "%.4f", Double($0) / 255) }.joined(separator: " ")
        for page in 0..<pages {
            let size = sheet.layout.pageSize(page)
            let height = Double(size.height) * PDFPageSize.a4.width / 827
            let image = "q\n595.28 0 0 \(PDFSink.number(height)) 0 \(PDFSink.number(PDFPageSize.a4.height - height)) cm\n/Im0 Do\nQ\n"
            let contents = String(decoding: try #require(pdf.streams[PDFSink.firstObject(ofPage: page) + 3]), as: UTF8.self)
            if size.height == PDFPageSize.a4.pixels(dpi: 100).height {
                #expect(contents == image, "page \(page + 1)")
            } else {
                let top = PDFSink.number(PDFPageSize.a4.height - height + 2)
                #expect(contents == "\(rgb) rg\n-1 -1 597.28 \(top) re f\n" + image, "page \(page + 1)")
            }
        }
    }

    /// A background that is not opaque: the strip takes it flattened over white, as the
    /// image's pixels are; a transparent one paints nothing (white paper).
    @Test func aTranslucentBackgroundIsFlattenedOverWhite() throws {
        let dir = PageSinkTests.folder()
        let sheet = try Self.sheet()
        for (alpha, expected) in [(UInt8(128), "0.5610 0.6240 0.6870 rg\n"), (0, nil)] {
            let path = dir + "/a\(alpha).pdf"
            let colour = Color(red: 32, green: 64, blue: 96, alpha: alpha)
            let sink = PDFSink(destination: path, pagePixels: PDFPageSize.a4.pixels(dpi: 100), pageSize: .a4, pageColor: colour, text: false)
            _ = try SheetRenderer(sheet: sheet).render(into: sink)
            let pdf = try Self.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
            let last = PDFSink.firstObject(ofPage: sheet.layout.pageCount - 1) + 3
            let contents = String(decoding: try #require(pdf.streams[last]), as: UTF8.self)
            if let expected {
                #expect(contents.hasPrefix(expected), "\(contents)")
            } else {
                #expect(contents.hasPrefix("q\n"), "\(contents)")
            }
        }
    }

    /// Flate: lossless, the page's pixels exactly (after PDF's PNG predictor).
    @Test func aFlatePageIsLossless() throws {
        let dir = PageSinkTests.folder()
        let sink = PDFSink(destination: dir + "/f.pdf", pagePixels: Size(width: 5, height: 4), pageSize: .letter, encoding: .flate(level: 9))
        try sink.beginPage(0, of: 1, size: Size(width: 5, height: 3), hasAlpha: false)
        try sink.write(band: Bitmap(width: 5, height: 3, fill: RGBA(red: 10, green: 200, blue: 30)))
        try sink.endPage()
        try sink.commit()
        let pdf = try Self.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/f.pdf"))))
        #expect(pdf.objects[5]?.contains("/FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 /Columns 5 >>") == true)
        #expect(pdf.objects[4]?.contains("/MediaBox [0 0 612 792]") == true)
        let stream = try #require(pdf.streams[5])
        let inflated = try #require(Self.inflate(stream))
        // Row 0: Paeth of a flat colour: the first pixel, then zeros; later rows all zeros.
        #expect(inflated.count == 3 * 16)
        #expect(Array(inflated[0..<4]) == [4, 10, 200, 30] && inflated[4..<16].allSatisfy { $0 == 0 } && inflated[16] == 4)
        #expect(inflated[17..<48].allSatisfy { $0 == 0 || $0 == 4 })
    }

    /// zlib's inflate of `data` (at most `limit` bytes, 1 MiB), or nil when it is not a zlib stream.
    static func inflate(_ data: [UInt8], limit: Int = 1 << 20) -> [UInt8]? {
        var out = [UInt8](repeating: 0, count: limit)
        var size = uLongf(out.count)
        let status = out.withUnsafeMutableBufferPointer { o in data.withUnsafeBufferPointer { uncompress(o.baseAddress, &size, $0.baseAddress, uLong($0.count)) } }
        return status == Z_OK ? Array(out[0..<Int(size)]) : nil
    }

    @Test func theSamePagesGiveTheSameBytes() throws {
        let dir = PageSinkTests.folder()
        _ = try Self.render(to: dir + "/a.pdf")
        _ = try Self.render(to: dir + "/b.pdf")
        let a = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.pdf"))
        let b = try Data(contentsOf: URL(fileURLWithPath: dir + "/b.pdf"))
        #expect(a.count > 10_000 && a == b)
    }

    /// Abandoning (or a failure) leaves the previous file and no temporary file; an
    /// interrupt's walk over the temporary files removes the half-written PDF.
    @Test func abandoningLeavesThePreviousPDF() throws {
        let dir = PageSinkTests.folder()
        let path = dir + "/s.pdf"
        try Data("previous".utf8).write(to: URL(fileURLWithPath: path))
        let sink = PDFSink(destination: path, pagePixels: Size(width: 8, height: 8), pageSize: .a4)
        try sink.beginPage(0, of: 2, size: Size(width: 8, height: 8), hasAlpha: false)
        try sink.write(band: Bitmap(width: 8, height: 8, fill: .white))
        try sink.endPage()
        #expect(try SheetSinkTests.temporaryFiles(dir).count == 1)
        #expect(throws: ImageEncodingError.rowMismatch(path: path, message: "only 1 of 2 pages were written")) { try sink.commit() }
        // What the SIGINT handler does: the half-written PDF is in the table.
        #expect(mosaic_temp_remove_under(dir + "/") == 1)
        #expect(try SheetSinkTests.temporaryFiles(dir).isEmpty)
        sink.abandon()
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.pdf"])
        #expect(FileManager.default.contents(atPath: path) == Data("previous".utf8))
        #expect(!PDFSink.isMosaicSheet(path))
    }

    @Test func pageSizesConvertToPointsAndPixels() {
        #expect(PDFPageSize.a4.pixels(dpi: 300) == Size(width: 2480, height: 3508))
        #expect(PDFPageSize.letter.pixels(dpi: 300) == Size(width: 2550, height: 3300))
        #expect(PDFPageSize.millimetres(100, 150).pixels(dpi: 254) == Size(width: 1000, height: 1500))
        #expect(PDFSink.number(595.2755) == "595.28" && PDFSink.number(612) == "612" && PDFSink.number(0.5) == "0.5" && PDFSink.number(1.05) == "1.05")
    }

    /// A page size no Int can hold (or one just past the limit) is a usage error naming the
    /// option and the range, never a trap converting a Double to an Int.
    @Test(arguments: ["1e20x100mm", "1e308x100mm", "100x1e19mm", "1e17x100mm", "100x1e300in", "5554x100mm", "5x100mm"])
    func pageSizesBeyondAPageAreUsageErrors(text: String) throws {
        var request = OutputRequest()
        request.destination = "s.pdf"
        request.settings["pageSize"] = .text(text)
        request.settings["dpi"] = .integer(300)
        let error = #expect(throws: OutputRequestError.self) { _ = try PDFOutput(request, options: SheetOptions()) }
        guard case .settings(let message) = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.hasPrefix("--page-size \(text) at --dpi 300 is "))
        #expect(message.hasSuffix("pixels: a page must be 64 to 65500 pixels a side, 5.42 to 5545.67 mm at 300 dpi"))
    }

    @Test func theLargestPageIsTakenAndNoSizeTraps() throws {
        var request = OutputRequest()
        request.destination = "s.pdf"
        request.settings["dpi"] = .integer(300)
        request.settings["pageSize"] = .text("5545x5.42mm")
        let page = try PDFOutput(request, options: SheetOptions())
        #expect(page.pageSize.pixels(dpi: 300) == Size(width: 65_492, height: 64))
        #expect(PDFPageSize.millimetres(1e20, 1e308).pixels(dpi: 300) == Size(width: Int(Int32.max), height: Int(Int32.max)))
        #expect(PDFPageSize(width: -.infinity, height: .nan).pixels(dpi: 300) == Size(width: 1, height: 1))
        #expect(try #require(error(for: "1e20x100mm")) == .settings(
            "--page-size 1e20x100mm at --dpi 300 is 1.18e+21x1181 pixels: a page must be 64 to 65500 pixels a side, 5.42 to 5545.67 mm at 300 dpi"))
    }

    private func error(for text: String) -> OutputRequestError? {
        var request = OutputRequest()
        request.destination = "s.pdf"
        request.settings["pageSize"] = .text(text)
        do { _ = try PDFOutput(request, options: SheetOptions()); return nil } catch { return error }
    }
}
