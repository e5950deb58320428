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
        request.dpi = 600
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
}
