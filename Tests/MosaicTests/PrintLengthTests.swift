import Foundation
import Testing

@testable import Mosaic

/// Lengths in points and millimetres (`--font-size 8pt`, `--inset 10mm`): parsed, made
/// pixels at a PDF's `--dpi`, refused by name where the output has no paper.
@Suite struct PrintLengthTests {
    @Test(arguments: [
        ("12", Length.pixels(12)), ("12px", .pixels(12)), ("8pt", .points(8)), ("8.5PT", .points(8.5)), ("10mm", .millimetres(10)),
        ("-1", .pixels(-1)), ("0.25pt", .points(0.25)),
    ])
    func parses(_ text: String, _ expected: Length) {
        #expect(Length(parsing: text) == expected)
    }

    @Test(arguments: ["", "pt", "mm", "10 mm", "10cm", "1e3", "inf", "nan", "--5", "1,5mm", "0x10"])
    func refusesWhatIsNotALength(_ text: String) {
        #expect(Length(parsing: text) == nil)
    }

    @Test func pixelsAtADPI() {
        #expect(Length.points(72).pixels(dpi: 300) == 300)
        #expect(Length.millimetres(25.4).pixels(dpi: 300) == 300)
        #expect(Length.pixels(7).pixels(dpi: 300) == 7)
        // 10 mm at 300 dpi: 118.1 px; 8.5 pt: 35.4 px.
        var options = SheetOptions()
        options.set(.inset, .millimetres(10))
        options.set(.fontSize, .points(8.5))
        options.set(.padding, .pixels(3))
        #expect(options.inset == 32 && options.padding == 3)
        let resolved = options.resolvingLengths(dpi: 300)
        #expect(resolved.inset == 118)
        #expect(abs(resolved.style.captionSize - 35.4166) < 0.001)
        #expect(resolved.lengths.isEmpty)
        // A pixel value given later wins over the length given before.
        options.set(.inset, .pixels(20))
        #expect(options.resolvingLengths(dpi: 300).inset == 20)
    }

    /// A sheet laid out with a length in points and no paper (a PNG, `mosaic layout` without
    /// `--page-size`) is refused naming the option.
    @Test func aSheetWithoutPaperRefusesPhysicalLengths() throws {
        var options = SheetOptions()
        options.set(.rowSpacing, .millimetres(3))
        options.set(.fontSize, .points(8))
        #expect(throws: SheetError.option(name: "fontSize", message: SheetOptions.physicalLengthMessage(.points(8)))) {
            try options.validate()
        }
        #expect(throws: OutputRequestError.lengthWithoutPaper(flag: "--font-size", length: .points(8), kind: "png")) {
            _ = try RenderJob(request: OutputRequest(destination: "sheet.png"), options: options)
        }
        #expect(throws: OutputRequestError.lengthWithoutPaper(flag: "--font-size", length: .points(8), kind: "dzi")) {
            _ = try RenderJob(request: OutputRequest(destination: "board.dzi"), options: options)
        }
        var borderOnly = SheetOptions()
        borderOnly.set(.borderWidth, .points(0.5))
        #expect(throws: OutputRequestError.lengthWithoutPaper(flag: "--border-width", length: .points(0.5), kind: "webp")) {
            _ = try RenderJob(request: OutputRequest(destination: "sheet.webp"), options: borderOnly)
        }
        // A PDF takes them, at its DPI.
        var request = OutputRequest(destination: "proof.pdf")
        request.settings[PDFOutput.dpiSetting.name] = .integer(600)
        let job = try RenderJob(request: request, options: options)
        #expect(abs(job.sheetOptions.style.captionSize - 8.0 * 600 / 72) < 1e-9)
        #expect(job.sheetOptions.rowSpacing == Int((3 * 600 / 25.4).rounded()))
        #expect(job.sheetOptions.lengths.isEmpty)
        try job.sheetOptions.validate()
    }

    /// The print defaults: white paper, no shadow, 8.5 pt captions, 10 mm margins.
    @Test func thePrintDefaults() throws {
        let printed = SheetOptions.printed.resolvingLengths(dpi: 300)
        #expect(printed.style.background == Color(red: 255, green: 255, blue: 255))
        #expect(printed.style.shadowColor.alpha == 0 && printed.style.shadowReach == 0)
        #expect(printed.style.sectionBackground == nil)
        #expect(printed.inset == 118)
        #expect(abs(printed.style.captionSize * 72 / 300 - 8.5) < 0.001)
        #expect(abs(printed.style.headerSize * 72 / 300 - 11) < 0.001)
        // In points at 300 dpi, a caption's title (1 px larger) and description (1 px smaller)
        // stay within 8 to 9 pt.
        for size in [printed.style.captionSize + 1, printed.style.captionSize - 1] { #expect((8...9).contains(size * 72 / 300)) }
    }

    /// `-o proof.pdf --page-size a4` as a library user gets it (`RenderJob`, the print
    /// defaults): every caption is set at 8 to 9 points on the paper, the first card 10 mm
    /// from the paper's left and top edges.
    @Test func anA4ProofPrintsAt8To9PointsWith10mmMargins() throws {
        let path = PageSinkTests.folder() + "/proof.pdf"
        var options = SheetOptions.printed
        options.style.font = .file(RenderGoldenTests.font)
        let job = try RenderJob(request: OutputRequest(destination: path), options: options)
        let sheet = try ContactSheet(
            catalog: try Catalog.manifest(RenderGoldenTests.samples + "/manifest.json"), options: job.sheetOptions, typesetter: Typesetter(fonts: try FontLibrary()))
        _ = try job.render(sheet)
        let pdf = try PDFSinkTests.parse(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        var sizes: [Double] = []
        for page in 0..<sheet.layout.pageCount {
            let stream = try #require(pdf.streams[PDFSink.firstObject(ofPage: page) + 3])
            let contents = String(decoding: try #require(PDFSinkTests.inflate(stream)), as: UTF8.self)
            let lines = contents.split(separator: "\n")
            for line in lines where line.hasSuffix(" Tf") {
                sizes.append(try #require(Double(line.split(separator: " ")[1])))
            }
        }
        // Captions (titles and descriptions) at 8 to 9 pt; headers 11 pt, the title 16.5 pt.
        let captions = sizes.filter { $0 < 10 }
        #expect(captions.count >= 2)
        #expect(captions.allSatisfy { (8...9).contains($0) }, "\(Set(sizes))")
        #expect(Set(sizes).isSubset(of: Set(captions).union([11, 16.5])), "\(Set(sizes))")
        // The first card: 118 px at 300 dpi, 10 mm.
        let first = try #require(sheet.layout.elements(onPage: 0).first { $0.kind == .card })
        #expect(first.frame.minX == 118)
        #expect(abs(Double(first.frame.minX) * 25.4 / 300 - 10) < 0.05)
    }
}
