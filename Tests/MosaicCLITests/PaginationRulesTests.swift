import Foundation
import Mosaic
import Testing

/// The seven pagination defects an independent reimplementation of the written rules found
/// (issue 27), each with its exact spec: `mosaic layout` on PNGs of the sizes named, with
/// `--caption none --font 'DejaVu Sans' --inset 0 --padding 0`.
@Suite struct PaginationRulesTests {
    struct Element: Equatable, CustomStringConvertible {
        var kind: String
        var section: Int
        var item: Int?
        var page: Int
        var x: Int, y: Int, width: Int, height: Int
        var description: String { "\(kind) s\(section) i\(item.map(String.init) ?? "-") p\(page) (\(x), \(y), \(width), \(height))" }
    }

    struct Map {
        var pages: [Int]
        var elements: [Element]
        func on(_ page: Int) -> [Element] { elements.filter { $0.page == page } }
    }

    /// Lays out `manifest` (or the single image `image`) over PNGs of the sizes it names.
    static func layOut(manifest: String? = nil, image: String? = nil, _ arguments: [String], name: String = #function) throws -> Map {
        let dir = CLI.temporaryDirectory(name)
        let sizes = ["100x100", "100x300", "100x50", "100x20", "100x10", "1x100"]
        for size in sizes {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            try Bitmap(width: parts[0], height: parts[1], fill: .black).writePNG(to: "\(dir)/\(size).png")
        }
        var input = image.map { "\(dir)/\($0)" } ?? "\(dir)/board.json"
        if let manifest { try manifest.write(toFile: input, atomically: true, encoding: .utf8) } else { input = "\(dir)/\(image ?? "")" }
        let result = try CLI.run(
            ["layout", input, "--caption", "none", "--font", "DejaVu Sans", "--inset", "0", "--padding", "0"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pages = (json["pages"] as? [[String: Any]] ?? []).map { $0["height"] as? Int ?? -1 }
        let elements = (json["elements"] as? [[String: Any]] ?? []).map { e -> Element in
            let frame = e["frame"] as? [String: [String: Int]] ?? [:]
            return Element(
                kind: e["kind"] as? String ?? "", section: e["section"] as? Int ?? -1, item: e["item"] as? Int,
                page: e["page"] as? Int ?? -1, x: frame["origin"]?["x"] ?? -1, y: frame["origin"]?["y"] ?? -1,
                width: frame["size"]?["width"] ?? -1, height: frame["size"]?["height"] ?? -1)
        }
        return Map(pages: pages, elements: elements)
    }

    /// 1. An empty section that does not fit opened a page of 60 px holding nothing.
    @Test func noPageIsEmpty() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"items": [{"path": "100x100.png"}]}, {"inset": 30, "items": []}]}"#,
            ["--width", "100", "--columns", "1", "--spacing", "0", "--max-height", "150"])
        #expect(map.pages == [100])
        #expect(map.elements.map(\.description) == ["card s0 i0 p0 (0, 0, 100, 100)"])
    }

    /// 2. A card longer than a page shared it with items 3 and 4: it stands alone.
    @Test func aCardLongerThanAPageStandsAlone() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"items": [{"path": "100x100.png"}, {"path": "100x300.png"}, {"path": "100x100.png"}, {"path": "100x100.png"}]}]}"#,
            ["--width", "100", "--columns", "2", "--spacing", "0", "--max-height", "100"])
        #expect(map.pages == [50, 150, 50])
        #expect(map.on(1).map(\.description) == ["card s0 i1 p1 (0, 0, 50, 150)"])
        #expect(map.on(2).map(\.description) == ["card s0 i2 p2 (0, 0, 50, 50)", "card s0 i3 p2 (50, 0, 50, 50)"])
    }

    /// 3. The empty section's band stayed at y 120 of page 0 (130 px) when its footer moved.
    @Test func anEmptySectionLeavesNoBandBehind() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"items": [{"path": "100x100.png"}]}, {"footer": "F", "items": []}]}"#,
            ["--width", "100", "--columns", "1", "--spacing", "20", "--section-background", "#dddddd",
             "--section-padding", "5", "--max-height", "145"])
        #expect(map.pages.first == 100)
        #expect(map.on(0).map(\.kind) == ["decoration", "card"])
        #expect(map.on(0).allSatisfy { $0.section == 0 })
        // The footer's page frames it with its section's background (issue 35 item 11: a
        // section that shows a footer and no cards drew none).
        #expect(map.on(1).map(\.kind) == ["decoration", "footer"])
        #expect(map.on(1).allSatisfy { $0.section == 1 })
    }

    /// 4. The empty section's header ended page 0 and its footer began page 1.
    @Test func anEmptySectionsHeaderStaysWithItsFooter() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"items": [{"path": "100x100.png"}]}, {"header": "H", "footer": "F", "items": []}, {"items": [{"path": "100x50.png"}]}]}"#,
            ["--width", "100", "--columns", "1", "--spacing", "0", "--max-height", "145"])
        #expect(map.pages == [100, 100])
        #expect(map.on(0).map(\.kind) == ["card"])
        #expect(map.on(1).map(\.description) == [
            "card s2 i0 p1 (0, 50, 100, 50)", "header s1 i- p1 (0, 0, 100, 30)", "footer s1 i- p1 (0, 30, 100, 20)",
        ])
    }

    /// 5. The repeated header was checked against the card's length in its old (50 px)
    /// column; in the 51 px column it goes to, the page was 81 px.
    @Test func theRepeatedHeaderIsCheckedAgainstTheCardsNewColumn() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"header": "H", "items": [{"path": "100x20.png"}, {"path": "100x20.png"}, {"path": "100x10.png"}, {"path": "100x100.png"}]}]}"#,
            ["--width", "101", "--columns", "2", "--spacing", "0", "--max-height", "80"])
        #expect(map.pages == [45, 51])
        #expect(map.on(1).map(\.description) == ["card s0 i3 p1 (0, 0, 51, 51)"])
    }

    /// 6. 5 x 2.3 = 11.5 and 45 x 0.7 = 31.5 rounded down (their doubles are just below).
    @Test(arguments: [
        (["--width", "5", "--columns", "1", "--spacing", "0", "--max-aspect", "2.3"], "1x100.png", 5, 12),
        (["--layout", "grid", "--direction", "horizontal", "--cell-aspect", "0.7", "--height", "45", "--rows", "1", "--spacing", "0"],
         "100x100.png", 32, 45),
    ])
    func exactDecimalHalvesRoundAwayFromZero(arguments: [String], image: String, width: Int, height: Int) throws {
        let map = try Self.layOut(image: image, arguments, name: "halves\(width)")
        let card = try #require(map.elements.first)
        #expect((card.width, card.height) == (width, height))
    }

    /// 7. An empty section's background of no height was listed at the page's edge. A
    /// section that shows nothing draws none; one that shows a header and no cards frames
    /// its header (issue 35 item 11: it drew none).
    @Test func anEmptySectionDrawsNoBackground() throws {
        let map = try Self.layOut(
            manifest: #"{"sections": [{"items": [{"path": "100x100.png"}]}, {"header": "H", "items": []}, {"items": []}]}"#,
            ["--width", "100", "--columns", "1", "--spacing", "0", "--section-background", "#dddddd", "--section-padding", "0"])
        let backgrounds = map.elements.filter { $0.kind == "decoration" }
        #expect(backgrounds.map(\.section) == [0, 1])
        let header = try #require(map.elements.first { $0.kind == "header" && $0.section == 1 })
        let background = try #require(backgrounds.last)
        #expect(background.height > 0 && background.y <= header.y && header.y + header.height <= background.y + background.height)
    }
}
