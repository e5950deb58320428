import CMosaicFixtures
import Foundation
import Testing

/// `mosaic probe` says a photo carries a gain map (in its line and its JSON), and the image
/// map names it on the card (schema 4); the sheet draws the standard image.
@Suite struct GainMapCommandTests {
    /// An Ultra HDR JPEG of a flat orange with a grey gain map, and the same orange alone.
    static func folder(_ name: String = #function) throws -> String {
        let dir = CLI.temporaryDirectory(name)
        let rgb = [UInt8]((0..<(48 * 32)).flatMap { _ in [230, 120, 20] as [UInt8] })
        let grey = [UInt8](repeating: 77, count: 24 * 16)
        let result = rgb.withUnsafeBufferPointer { pixels in
            grey.withUnsafeBufferPointer { mosaic_ultrahdr_encode_file(dir + "/ultrahdr.jpg", pixels.baseAddress, 48, 32, $0.baseAddress, 24, 16, nil, 0, 1) }
        }
        try #require(result.status == MOSAIC_OK)
        return dir
    }

    @Test func probeSaysGainMap() throws {
        let dir = try Self.folder()
        let line = try CLI.run(["probe", dir + "/ultrahdr.jpg"])
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout.contains(", gain map (Ultra HDR; the standard image is drawn)"), "\(line.stdout)")
        let json = try CLI.run(["probe", "--json", dir + "/ultrahdr.jpg"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(entries.first?["gainMap"] as? String == "ultrahdr")
    }

    @Test func theImageMapNamesTheGainMapAndTheSheetDrawsTheStandardImage() throws {
        let dir = try Self.folder()
        let layout = try CLI.run(["layout", dir, "--caption", "name"])
        #expect(layout.status == 0, "\(layout.stderr)")
        let map = try #require(try JSONSerialization.jsonObject(with: Data(layout.stdout.utf8)) as? [String: Any])
        #expect(map["schemaVersion"] as? Int == 4)
        let cards = ((map["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }
        #expect(cards.map { $0["gainMap"] as? String } == ["ultrahdr"])
        // The render's streamed map says the same.
        let render = try CLI.run(["render", dir, "-o", dir + "/sheet.png", "--json", "-", "--width", "200", "--columns", "1", "--caption", "none"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("\"gainMap\":\"ultrahdr\""), "\(render.stdout.prefix(400))")
    }
}
