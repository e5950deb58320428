import Foundation
import MosaicSnapshotTesting
import Testing

@testable import Mosaic

/// The SampleImages sheet rendered in process into a memory sink and compared with its
/// reference region by region, so that a missing caption, header, shadow or image fails:
///
/// - image frames (from the layout): a pixel differs when a channel is more than 2 levels
///   off; at most 0.1% of a frame's pixels may differ;
/// - caption, header and footer frames: anti-aliased pixels count too; a pixel differs when
///   a channel is more than 24 levels off (a FreeType update moves glyph edges by less);
///   at most 2% of a frame's pixels may differ;
/// - every caption and header frame has ink: at least 2% of its pixels are 64 levels or
///   more away from the card's (or sheet's) background;
/// - everything else (backgrounds, card corners, shadows): more than 2 levels off counts;
///   at most 0.05% of those pixels may differ.
///
/// The reference is `__Snapshots__/sample-sheet.png`; `MOSAIC_RECORD=all` writes it anew.
@Suite struct RenderGoldenTests {
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("SampleImages").path
    static let font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let reference = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__/sample-sheet.png").path

    /// The sheet `mosaic render SampleImages/manifest.json --width 900 --columns 3
    /// --font DejaVuSans.ttf` draws.
    static func sheet() throws -> ContactSheet {
        var options = SheetOptions()
        options.width = 900
        options.columns = 3
        options.style.font = .file(font)
        let catalog = try Catalog.manifest(samples + "/manifest.json")
        return try ContactSheet(catalog: catalog, options: options, typesetter: Typesetter(fonts: try FontLibrary()))
    }

    static func render(_ sheet: ContactSheet) throws -> Bitmap {
        let sink = MemorySink()
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        return try #require(sink.pages.first)
    }

    /// Pixels of `rect` where a channel of `a` and `b` differs by more than `levels`.
    static func differing(_ a: Bitmap, _ b: Bitmap, in rect: Rect, levels: Int) -> Int {
        var count = 0
        for y in max(0, rect.minY)..<min(a.height, rect.maxY) {
            for x in max(0, rect.minX)..<min(a.width, rect.maxX) {
                let p = a[x, y], q = b[x, y]
                let d = max(abs(Int(p.red) - Int(q.red)), abs(Int(p.green) - Int(q.green)), abs(Int(p.blue) - Int(q.blue)), abs(Int(p.alpha) - Int(q.alpha)))
                if d > levels { count += 1 }
            }
        }
        return count
    }

    /// Pixels of `rect` at least `levels` away from `background` in some channel.
    static func ink(_ image: Bitmap, in rect: Rect, background: RGBA, levels: Int = 64) -> Int {
        var count = 0
        for y in max(0, rect.minY)..<min(image.height, rect.maxY) {
            for x in max(0, rect.minX)..<min(image.width, rect.maxX) {
                let p = image[x, y]
                if max(abs(Int(p.red) - Int(background.red)), abs(Int(p.green) - Int(background.green)), abs(Int(p.blue) - Int(background.blue))) >= levels { count += 1 }
            }
        }
        return count
    }

    @Test func theSampleSheetMatchesItsReferenceRegionByRegion() throws {
        let sheet = try Self.sheet()
        let actual = try Self.render(sheet)
        let mode = try SnapshotRecordMode.fromEnvironment()
        let exists = FileManager.default.fileExists(atPath: Self.reference)
        if mode == .all || (!exists && mode == .missing) {
            try actual.writePNG(to: Self.reference, hasAlpha: false, compressionLevel: 9, software: nil)
            Issue.record("recorded \(Self.reference); check it and run again")
            return
        }
        let expected = try ImageDecoder().decode(Self.reference).bitmap
        try #require(expected.width == actual.width && expected.height == actual.height, "size \(actual.width)x\(actual.height), reference \(expected.width)x\(expected.height)")
        var covered = Bitmap(width: actual.width, height: actual.height)  // alpha 255 where a frame was checked
        func cover(_ rect: Rect) {
            for y in max(0, rect.minY)..<min(actual.height, rect.maxY) {
                for x in max(0, rect.minX)..<min(actual.width, rect.maxX) { covered[x, y] = .white }
            }
        }
        let style = sheet.options.style
        var captions = 0, headers = 0, images = 0
        for element in sheet.layout.elements(onPage: 0) {
            switch element.kind {
            case .card:
                let image = try #require(element.imageFrame)
                let off = Self.differing(expected, actual, in: image, levels: 2)
                #expect(off * 1000 <= image.width * image.height, "image of \(element.itemPath!): \(off) pixels differ")
                cover(image)
                images += 1
                if let caption = element.captionFrame {
                    let offText = Self.differing(expected, actual, in: caption, levels: 24)
                    #expect(offText * 50 <= caption.width * caption.height, "caption of \(element.itemPath!): \(offText) pixels differ")
                    let inked = Self.ink(actual, in: caption, background: style.cardBackground.premultiplied)
                    #expect(inked * 50 >= caption.width * caption.height, "caption of \(element.itemPath!) has no ink (\(inked) pixels)")
                    cover(caption)
                    captions += 1
                }
            case .header, .footer:
                let off = Self.differing(expected, actual, in: element.frame, levels: 24)
                #expect(off * 50 <= element.frame.width * element.frame.height, "\(element.kind) of section \(element.section): \(off) pixels differ")
                if element.kind == .header {
                    // Text fills a header's first line only: ink over 0.5% of its frame.
                    let inked = Self.ink(actual, in: element.frame, background: style.background.premultiplied)
                    #expect(inked * 200 >= element.frame.width * element.frame.height, "header of section \(element.section) has no ink")
                    headers += 1
                }
                cover(element.frame)
            case .decoration:
                break
            }
        }
        #expect(images == 15 && captions == 15 && headers == 4)
        // Everything else: backgrounds, card corners and padding, shadows.
        var rest = 0, restOff = 0
        for y in 0..<actual.height {
            for x in 0..<actual.width where covered[x, y].alpha == 0 {
                rest += 1
                if Self.differing(expected, actual, in: Rect(x: x, y: y, width: 1, height: 1), levels: 2) > 0 { restOff += 1 }
            }
        }
        #expect(restOff * 2000 <= rest, "\(restOff) of \(rest) pixels outside the frames differ")
    }
}

/// The sheet's title stands above the section headers in the hierarchy (before: the same
/// size and weight as every header).
@Suite struct TitleHierarchyTests {
    @Test func theTitleIsLargerThanSectionHeaders() throws {
        let sheet = try RenderGoldenTests.sheet()
        let headers = sheet.layout.elements(onPage: 0).filter { $0.kind == .header }
        let title = try #require(headers.first { $0.section == 0 })
        let sections = headers.filter { $0.section != 0 }
        #expect(!sections.isEmpty)
        for header in sections { #expect(Double(title.frame.height) >= 1.4 * Double(header.frame.height), "\(title.frame) vs \(header.frame)") }
        // Drawn in its own style: taller glyphs than a header's.
        #expect(sheet.textStyle(.header, section: 0).size == 1.5 * sheet.textStyle(.header, section: 1).size)
    }
}
