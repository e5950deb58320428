import Foundation
import Mosaic
import Testing

/// Each layout declares its own settings; the command line checks a given setting against
/// the layout chosen, by the registry, never falling back silently.
@Suite struct LayoutSettingsTests {
    /// `--crop` used to be ignored without a word on a masonry board.
    @Test func aSettingOfAnotherLayoutIsAUsageError() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["layout", CLI.sampleImages, "--crop"], in: dir)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--crop is a setting of the grid layout, not of masonry"))
    }

    @Test func aValueOutOfTheSettingsRangeNamesTheFlag() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--layout", "grid", "--cell-aspect", "100"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--cell-aspect 100.0 is not a number between 0.015625 and 64.0"))
    }

    @Test func theRegistryDeclaresEachLayoutsSettings() throws {
        #expect(SheetLayout.named("grid")?.settings.map(\.name) == ["cellAspect", "crop"])
        #expect(SheetLayout.named("masonry")?.settings.isEmpty == true)
        let grid = try #require(SheetLayout.named("grid"))
        #expect(try grid.with(["cellAspect": .number(1.5), "crop": .flag(true)]) == .grid(cellAspect: 1.5, crop: true))
        #expect(throws: SheetError.option(name: "spiralTurns", message: "is not a setting of any layout")) {
            try grid.with(["spiralTurns": .integer(3)])
        }
        #expect(throws: SheetError.option(name: "rowHeight", message: "is a setting of the justified layout, not of grid")) {
            try grid.with(["rowHeight": .integer(3)])
        }
    }
}

/// `--layout justified` from the command line.
@Suite struct JustifiedCommandTests {
    @Test func aHorizontalJustifiedBoardIsAUsageError() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--layout", "justified", "--direction", "horizontal"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--layout justified lays out vertical boards only: drop --direction horizontal"))
    }

    @Test func theMaximumRowHeightIsNotBelowTheTarget() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--layout", "justified", "--row-height", "300", "--max-row-height", "200"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--max-row-height 200 must be at least --row-height 300"))
        let other = try CLI.run(["layout", CLI.sampleImages, "--row-height", "300"])
        #expect(other.status == 64)
        #expect(other.stderr.contains("--row-height is a setting of the justified layout, not of masonry"))
        let choice = try CLI.run(["layout", CLI.sampleImages, "--layout", "justified", "--last-row", "right"])
        #expect(choice.stderr.contains("--last-row \"right\" is not one of left, center, justify"))
    }

    /// SampleImages as justified rows: every full row ends on the same pixel, no row over
    /// the maximum, each image within a pixel of its own aspect ratio (from `mosaic probe`'s
    /// sizes, as the map gives them).
    @Test func theSampleImagesInJustifiedRows() throws {
        let result = try CLI.run([
            "layout", CLI.sampleImages + "/manifest.json", "--layout", "justified", "--width", "1200", "--row-height", "200",
            "--font", "DejaVu Sans",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let cards = (json["elements"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 15)
        var rows: [Int: [[String: [String: Int]]]] = [:]
        for card in cards {
            let image = try #require(card["imageFrame"] as? [String: [String: Int]])
            let frame = try #require(card["frame"] as? [String: [String: Int]])
            rows[frame["origin"]!["y"]!, default: []].append(frame)
            #expect(image["size"]!["height"]! <= 400)
        }
        let rights = rows.values.map { row in row.map { $0["origin"]!["x"]! + $0["size"]!["width"]! }.max()! }
        // The full rows end at 1200 - 32; the last row of each section may stop short.
        #expect(rights.filter { $0 == 1168 }.count >= 2)
        #expect(rights.allSatisfy { $0 <= 1168 })
    }
}

/// Feature cards from the command line: a manifest's `span`, `--feature N`.
@Suite struct FeatureCardCommandTests {
    static func folder(_ name: String = #function) throws -> String {
        let dir = CLI.temporaryDirectory(name)
        for index in 0..<4 { try Bitmap(width: 100, height: 100, fill: .black).writePNG(to: "\(dir)/\(index).png") }
        return dir
    }

    static func cardWidths(_ stdout: String) throws -> [Int] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return (json["elements"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "card" }.map {
            ($0["frame"] as? [String: [String: Int]])?["size"]?["width"] ?? -1
        }
    }

    static let geometry = ["--width", "300", "--columns", "3", "--inset", "0", "--spacing", "0", "--padding", "0", "--caption", "none", "--font", "DejaVu Sans"]

    @Test func aManifestItemSpansColumns() throws {
        let dir = try Self.folder()
        try #"{"items": [{"path": "0.png", "span": 2}, {"path": "1.png"}]}"#.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        try "path,span\n0.png,\n1.png,3\n".write(toFile: dir + "/m.csv", atomically: true, encoding: .utf8)
        let json = try CLI.run(["layout", dir + "/m.json"] + Self.geometry)
        #expect(try Self.cardWidths(json.stdout) == [200, 100])
        let csv = try CLI.run(["layout", dir + "/m.csv"] + Self.geometry)
        #expect(try Self.cardWidths(csv.stdout) == [100, 300])
    }

    @Test func aSpanBelowOneIsAnError() throws {
        let dir = try Self.folder()
        try #"{"items": [{"path": "0.png", "span": 0}]}"#.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let result = try CLI.run(["layout", dir + "/m.json"] + Self.geometry)
        #expect(result.status == 1)
        #expect(result.stderr.contains("0.png: span 0 must be at least 1 (the columns the card spans)"))
        try "path,span\n0.png,two\n".write(toFile: dir + "/m.csv", atomically: true, encoding: .utf8)
        let csv = try CLI.run(["layout", dir + "/m.csv"] + Self.geometry)
        #expect(csv.stderr.contains("row 2: span \"two\" is not a whole number"))
    }

    @Test func featureMakesTheFirstCardsOfASectionSpanTwo() throws {
        let dir = try Self.folder()
        let result = try CLI.run(["layout", dir, "--feature", "1"] + Self.geometry)
        #expect(try Self.cardWidths(result.stdout) == [200, 100, 100, 100])
        let justified = try CLI.run(["layout", dir, "--feature", "1", "--layout", "justified"])
        #expect(justified.status == 64)
        #expect(justified.stderr.contains("--feature: the justified layout has no columns for a card to span"))
    }

    @Test func aSpanWiderThanTheSectionIsClampedWithAWarning() throws {
        let dir = try Self.folder()
        try #"{"items": [{"path": "0.png", "span": 3}, {"path": "1.png"}]}"#.write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let result = try CLI.run(
            ["render", dir + "/m.json", "-o", dir + "/out.png", "--no-progress"] + Self.geometry.map { $0 == "3" ? "2" : $0 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(dir)/0.png spans 3 columns; its section has 2: it spans them all"))
    }
}

@Suite struct CropModeCommandTests {
    @Test func aCropModeIsOneOfThree() throws {
        let result = try CLI.run(["layout", CLI.sampleImages, "--layout", "grid", "--crop", "--crop-mode", "faces"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("'center', 'attention' or 'entropy'"))
    }
}
