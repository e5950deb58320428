import Foundation
import Testing

/// Right-to-left sheets and sections: `--text-direction rtl` mirrors every section's
/// placement, a manifest section's "direction" its own.
@Suite struct RightToLeftSheetTests {
    /// The x of each card, by section, from a `mosaic layout` map.
    static func cardXs(_ json: String) throws -> [[Int]] {
        let map = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        var xs: [Int: [Int]] = [:]
        for element in (map?["elements"] as? [[String: Any]]) ?? [] where element["kind"] as? String == "card" {
            let origin = (element["frame"] as? [String: Any])?["origin"] as? [String: Any]
            xs[element["section"] as? Int ?? -1, default: []].append(origin?["x"] as? Int ?? -1)
        }
        return xs.keys.sorted().compactMap { xs[$0] }
    }

    @Test(arguments: ["masonry", "grid", "justified"])
    func theSheetsDirectionMirrorsThePlacement(layout: String) throws {
        let photos = ["astronaut.jpg", "rocket.jpg", "coffee.jpg"].map { CLI.sampleImages + "/" + $0 }
        let common = ["layout"] + photos + ["--layout", layout, "--columns", "3", "--width", "900", "--caption", "none", "--row-height", "100"].filter { layout == "justified" || !["--row-height", "100"].contains($0) }
        let ltr = try Self.cardXs(try CLI.run(common).stdout)
        let rtl = try Self.cardXs(try CLI.run(common + ["--text-direction", "rtl"]).stdout)
        try #require(ltr.count == 1 && rtl.count == 1 && ltr[0].count == 3)
        #expect(ltr[0] == ltr[0].sorted(), "\(ltr)")
        #expect(rtl[0] == rtl[0].sorted().reversed(), "\(rtl)")
    }

    @Test func aManifestSectionHasItsOwnDirection() throws {
        let dir = CLI.temporaryDirectory()
        let items = #"[{"path": "\#(CLI.sampleImages)/astronaut.jpg"}, {"path": "\#(CLI.sampleImages)/rocket.jpg"}]"#
        try #"{"sections": [{"items": \#(items)}, {"direction": "rtl", "items": \#(items)}, {"direction": "ltr", "items": \#(items)}]}"#
            .write(toFile: dir + "/m.json", atomically: true, encoding: .utf8)
        let result = try CLI.run(["layout", dir + "/m.json", "--columns", "2", "--caption", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let xs = try Self.cardXs(result.stdout)
        #expect(xs.count == 3)
        #expect(xs[0][0] < xs[0][1] && xs[1][0] > xs[1][1] && xs[2][0] < xs[2][1], "\(xs)")
        // Under --text-direction rtl, "ltr" keeps its section left to right.
        let flipped = try Self.cardXs(try CLI.run(["layout", dir + "/m.json", "--columns", "2", "--caption", "none", "--text-direction", "rtl"]).stdout)
        #expect(flipped[0][0] > flipped[0][1] && flipped[1][0] > flipped[1][1] && flipped[2][0] < flipped[2][1], "\(flipped)")
        try #"{"sections": [{"direction": "up", "items": \#(items)}]}"#.write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try CLI.run(["layout", dir + "/bad.json"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains(#"sections[0].direction: "ltr", "rtl" or "auto" is needed"#), "\(bad.stderr)")
    }
}
