import Foundation
import Testing

@testable import Mosaic

/// Captions in right-to-left scripts on a rendered sheet (issue 28): by default (`start`)
/// a Hebrew caption sits at the right of its card, a Latin one at the left; `left` and
/// `--text-direction ltr` put the Hebrew one back at the left. Before, every caption was
/// set from the left, in memory order.
@Suite struct CaptionScriptTests {
    /// The inked columns (x from, x to) of the first card's caption on a 600 px sheet.
    static func captionInk(title: String, configure: (inout SheetOptions) -> Void = { _ in }) throws -> (Int, Int, Rect) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mosaic-caption-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json").path
        let item: [String: String] = ["path": RenderGoldenTests.samples + "/coins.png", "title": title]
        try JSONSerialization.data(withJSONObject: ["items": [item]]).write(to: URL(fileURLWithPath: manifest))
        var options = SheetOptions()
        options.width = 600
        options.columns = 1
        options.style.font = .file(RenderGoldenTests.font)
        configure(&options)
        let sheet = try ContactSheet(catalog: try Catalog.manifest(manifest), options: options, typesetter: Typesetter(fonts: try FontLibrary()))
        let image = try RenderGoldenTests.render(sheet)
        let card = try #require(sheet.layout.elements(onPage: 0).first { $0.kind == .card })
        let caption = try #require(card.captionFrame)
        let background = options.style.cardBackground.premultiplied
        var minX = Int.max, maxX = Int.min
        for y in caption.minY..<caption.maxY {
            for x in caption.minX..<caption.maxX where RenderGoldenTests.ink(image, in: Rect(x: x, y: y, width: 1, height: 1), background: background) > 0 {
                minX = min(minX, x)
                maxX = max(maxX, x)
            }
        }
        return (minX, maxX, caption)
    }

    @Test func aHebrewCaptionStartsAtTheRight() throws {
        let (from, to, frame) = try Self.captionInk(title: "השדה העמוק")
        #expect(to >= frame.maxX - 3 && from > (frame.minX + frame.width / 2), "ink \(from)...\(to) in \(frame)")
        let (latinFrom, _, latinFrame) = try Self.captionInk(title: "Deep field")
        #expect(latinFrom <= latinFrame.minX + 3)
    }

    @Test func leftAndForcedDirectionPutItAtTheLeft() throws {
        let (from, to, frame) = try Self.captionInk(title: "השדה העמוק") { $0.style.captionAlignment = .left }
        #expect(from <= frame.minX + 3 && to < (frame.minX + frame.width / 2), "ink \(from)...\(to) in \(frame)")
        let (forcedFrom, _, forcedFrame) = try Self.captionInk(title: "השדה העמוק") { $0.style.textDirection = .ltr }
        #expect(forcedFrom <= forcedFrame.minX + 3)
    }
}
