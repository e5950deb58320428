import Foundation
import Testing

@testable import Mosaic

/// The diff board is drawn from memory: its strips are bitmaps, not files written to a
/// temporary folder and read back, and the board itself can go to any sink.
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
        #expect(card.bitmap != nil && card.problem == nil)
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
}
