import Foundation
import Testing

/// Past a section's first 100 inputs that cannot be read, one card stands for the rest: a
/// folder of 50,000 empty files and one photo drew a board over 2 million pixels tall, and
/// the run failed. Every input is still named in the summary and the image map.
@Suite struct ManyFailuresTests {
    @Test func failuresPastAHundredShareOneCard() throws {
        let dir = CLI.temporaryDirectory()
        let photos = dir + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/chelsea.jpg", toPath: photos + "/a-photo.jpg")
        for i in 1...130 { _ = FileManager.default.createFile(atPath: photos + "/empty-\(i).jpg", contents: Data()) }
        let result = try CLI.run(
            ["render", photos, "-o", dir + "/sheet.png", "--json", dir + "/map.json", "--width", "600", "--columns", "6"] + InputTrustTests.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("rendered 1 image, 130 failed"), "\(result.stderr)")
        // Every failed input named in the summary, the last ones too.
        #expect(result.stderr.contains("empty-130.jpg"))
        let map = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let cards = try #require(map["elements"] as? [[String: Any]]).filter { $0["kind"] as? String == "card" }
        // One photo, 100 placeholders, one card for the other 30.
        #expect(cards.count == 102)
        let summary = try #require(cards.first { $0["unplaced"] != nil })
        #expect(summary["failure"] as? String == "and 30 more could not be read: see the summary")
        #expect(summary["title"] as? String == "and 30 more could not be read")
        let unplaced = try #require(summary["unplaced"] as? [[String: Any]])
        #expect(unplaced.count == 30)
        let named = Set(cards.compactMap { $0["source"] as? String } + unplaced.compactMap { $0["source"] as? String })
        #expect(named.count == 131)
        #expect((unplaced.first?["problem"] as? [String: Any])?["code"] as? String == "unsupportedFormat")
    }

    /// A hundred failures or fewer: a placeholder each, as before.
    @Test func aHundredFailuresKeepTheirCards() throws {
        let dir = CLI.temporaryDirectory()
        let photos = dir + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.sampleImages + "/chelsea.jpg", toPath: photos + "/a-photo.jpg")
        for i in 1...100 { _ = FileManager.default.createFile(atPath: photos + "/empty-\(i).jpg", contents: Data()) }
        let result = try CLI.run(["render", photos, "-o", dir + "/sheet.png", "--json", dir + "/map.json"] + InputTrustTests.fixed)
        #expect(result.status == 0, "\(result.stderr)")
        let map = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/map.json"))) as? [String: Any])
        let cards = try #require(map["elements"] as? [[String: Any]]).filter { $0["kind"] as? String == "card" }
        #expect(cards.count == 101)
        #expect(cards.allSatisfy { $0["unplaced"] == nil })
    }
}
