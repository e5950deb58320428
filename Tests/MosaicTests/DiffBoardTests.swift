import Foundation
import Testing

@testable import Mosaic

/// The diff board is drawn from memory: its strips are bitmaps made as the renderer reaches
/// their cards, not files written to a temporary folder and read back, and the board
/// itself can go to any sink.
@Suite struct DiffBoardTests {
    @Test func theBoardIsDrawnFromMemoryIntoAMemorySink() throws {
        let dir = NSTemporaryDirectory() + "mosaic-board-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = Bitmap(width: 40, height: 30, fill: .white)
        var b = a
        for y in 10..<20 { for x in 10..<20 { b[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        try a.writePNG(to: dir + "/a.png")
        try b.writePNG(to: dir + "/b.png")
        let comparison = try FolderComparison.compare(baseline: dir + "/a.png", current: dir + "/b.png")
        let report = DiffReport(comparison: comparison, options: ComparisonOptions(), tolerance: DiffTolerance())
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let sheet = try #require(try report.board(typesetter: Typesetter(fonts: try FontLibrary(fallbacks: [.file(font)], systemFallback: false)), width: 600))
        let card = try #require(sheet.catalog.entries.first)
        // Made when the renderer reaches the card, at the size the layout was given.
        #expect(card.bitmap == nil && card.pixels != nil && card.problem == nil)
        let made = try #require(try card.pixels?.make())
        #expect(Size(width: made.width, height: made.height) == card.pixels?.size)
        let temporaryBefore = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("mosaic-diff-") }
        let sink = MemorySink()
        let summary = try SheetRenderer(sheet: sheet).render(into: sink)
        #expect(summary.rendered == 1 && summary.failures.isEmpty)
        let page = try #require(sink.pages.first)
        // The strip is drawn: the current image's black square shows in the card's image.
        let element = try #require(sheet.layout.elements(onPage: 0).first { $0.kind == .card })
        let frame = try #require(element.imageFrame)
        let dark = (frame.minY..<frame.maxY).reduce(0) { sum, y in
            sum + (frame.minX..<frame.maxX).filter { page[$0, y].red < 40 }.count
        }
        #expect(dark > 100)
        let temporaryAfter = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("mosaic-diff-") }
        #expect(temporaryAfter == temporaryBefore)
    }

    /// A 4-pixel change in a screenshot is visible on the board: an outline on each panel
    /// and a magnified inset of the region (before: in a 3840x2160 one, a red tint of at
    /// most 12/255 after shrinking, nothing else). 960x540 here, for the debug build's time.
    @Test func aTinyChangeIsOutlinedAndMagnified() throws {
        let a = Bitmap(width: 960, height: 540, fill: .white)
        var b = a
        for y in 250..<252 { for x in 500..<502 { b[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        let difference = ImageComparison.compare(a, b)
        #expect(difference.differingPixels == 4)
        let strip = DiffReport.triptych([a, b, difference.diffImage!], height: 360, changed: difference.regions.map(\.bounds))
        // Two rows: the panels and, under them, the insets.
        #expect(strip.height > 360 + 8 + 100)
        let outline = DiffReport.outlineColor
        let top = (0..<360).reduce(0) { sum, y in sum + (0..<strip.width).filter { strip[$0, y] == outline }.count }
        #expect(top > 3 * 4 * 12)  // a frame on each of the three panels
        // The inset shows the black pixels, magnified: many dark pixels below the panels.
        let dark = (368..<strip.height).reduce(0) { sum, y in sum + (0..<strip.width).filter { strip[$0, y].red < 40 && strip[$0, y].alpha == 255 }.count }
        #expect(dark >= 4 * 64, "\(dark)")
        // A large change needs no inset.
        var c = a
        for y in 0..<250 { for x in 0..<500 { c[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        let large = ImageComparison.compare(a, c)
        #expect(DiffReport.triptych([a, c, large.diffImage!], height: 360, changed: large.regions.map(\.bounds)).height == 360)
    }

    /// Three changes far apart: three outlines on each panel (not one box over the page),
    /// and a magnified row for each, largest first.
    @Test func threeChangesFarApartAreOutlinedAndMagnifiedEach() throws {
        let a = Bitmap(width: 960, height: 540, fill: .white)
        var b = a
        for (x0, y0, side) in [(40, 40, 4), (900, 60, 3), (480, 500, 2)] {
            for y in y0..<(y0 + side) { for x in x0..<(x0 + side) { b[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        }
        let difference = ImageComparison.compare(a, b)
        #expect(difference.regionCount == 3)
        let strip = DiffReport.triptych([a, b, difference.diffImage!], height: 360, changed: difference.regions.map(\.bounds))
        // Three rows of insets under the panels.
        #expect(strip.height > 360 + 3 * (8 + 64))
        // On the baseline's panel (540 -> 360: 2/3), an outline near each change, none
        // between (the middle of the page, where one union box would pass).
        let outline = DiffReport.outlineColor
        func outlined(_ x: Int, _ y: Int) -> Bool {
            (max(0, y - 12)..<min(360, y + 12)).contains { yy in (max(0, x - 12)..<(x + 12)).contains { strip[$0, yy] == outline } }
        }
        #expect(outlined(27, 27) && outlined(600, 40) && outlined(320, 333))
        #expect(!outlined(320, 180))
    }

    /// An aligned pair's magnifier shows the corresponding rows of both: under a 40 px
    /// banner, a 3 px dot turned from red to green is magnified in the baseline where it
    /// was (40 rows higher), so the baseline's inset shows the red dot and the current's
    /// the green one (before: the baseline was cut at the current's rows, a blank patch).
    @Test func anAlignedPairIsMagnifiedWhereEachSideHasTheRegion() throws {
        let dir = NSTemporaryDirectory() + "mosaic-board-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Lines of blocks, so that every row is told apart; the dot below them.
        var a = Bitmap(width: 600, height: 400, fill: .white)
        var state: UInt64 = 7
        for line in 0..<8 {
            var x = 10
            while x < 560 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let w = 3 + Int(state >> 60)
                for y in (10 + line * 20)..<(18 + line * 20) { for dx in 0..<w { a[x + dx, y] = RGBA(red: 30, green: 30, blue: 30) } }
                x += w + 4
            }
        }
        let red = RGBA(red: 220, green: 20, blue: 20), green = RGBA(red: 20, green: 180, blue: 20)
        for y in 300..<303 { for x in 400..<403 { a[x, y] = red } }
        var b = Bitmap(width: 600, height: 440, fill: RGBA(red: 250, green: 200, blue: 40))
        for y in 0..<400 { for x in 0..<600 { b[x, y + 40] = a[x, y] } }
        for y in 340..<343 { for x in 400..<403 { b[x, y] = green } }
        try a.writePNG(to: dir + "/a.png")
        try b.writePNG(to: dir + "/b.png")
        var options = ComparisonOptions()
        options.align = true
        let comparison = try FolderComparison.compare(baseline: dir + "/a.png", current: dir + "/b.png", options: options)
        let report = DiffReport(comparison: comparison, options: options, tolerance: DiffTolerance())
        let dot = try #require(comparison.results.first?.difference?.regions.first { $0.change == .recoloured })
        #expect(dot.bounds == Rect(x: 400, y: 340, width: 3, height: 3))
        let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        let sheet = try #require(try report.board(typesetter: Typesetter(fonts: try FontLibrary(fallbacks: [.file(font)], systemFallback: false)), width: 1600))
        let strip = try #require(try sheet.catalog.entries.first?.pixels?.make())
        // The insets' row, under the 360 px panels: the baseline's inset comes first.
        let insetTop = 368
        #expect(strip.height > insetTop + 64)
        func count(_ colour: RGBA, _ xs: Range<Int>) -> Int {
            (insetTop..<strip.height).reduce(0) { sum, y in sum + xs.filter { strip[$0, y] == colour }.count }
        }
        let side = (strip.width - 16) / 3
        #expect(count(red, 0..<side) >= 9 * 4, "the baseline's inset shows the red dot")
        #expect(count(green, (side + 8)..<(2 * side + 8)) >= 9 * 4, "the current's inset shows the green dot")
    }

    /// The board lays out each strip from its size alone (`triptychSize`), before the strip
    /// is made: the same size as the strip, zoomed or shrunk, with or without the inset,
    /// and for images of different sizes.
    @Test(arguments: [
        (Size(width: 40, height: 30), Size(width: 40, height: 30), Rect(x: 3, y: 4, width: 2, height: 2)),
        (Size(width: 960, height: 540), Size(width: 960, height: 540), Rect(x: 500, y: 250, width: 2, height: 2)),
        (Size(width: 960, height: 540), Size(width: 960, height: 540), Rect(x: 0, y: 0, width: 500, height: 250)),
        (Size(width: 300, height: 700), Size(width: 320, height: 650), Rect(x: 10, y: 600, width: 30, height: 5)),
    ])
    func theStripsSizeIsKnownBeforeItIsMade(baseline: Size, current: Size, changed: Rect) {
        let overlap = Size(width: min(baseline.width, current.width), height: min(baseline.height, current.height))
        let images = [baseline, current, overlap].map { Bitmap(width: $0.width, height: $0.height, fill: .white) }
        let far = Rect(x: overlap.width - 3, y: overlap.height - 3, width: 2, height: 2)
        for box in [[changed], [], [changed, far], [changed, far, far, far]] {
            let strip = DiffReport.triptych(images, height: 360, changed: box)
            #expect(DiffReport.triptychSize([baseline, current, overlap], height: 360, changed: box) == Size(width: strip.width, height: strip.height))
        }
    }
}
