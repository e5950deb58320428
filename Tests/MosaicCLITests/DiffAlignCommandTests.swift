import Foundation
import Mosaic
import Testing

/// `mosaic diff --align`, `--metric flip` and the SSIM colour check from the command line:
/// the terminal line, the JSON (schema 3), the merge, the options' checks.
@Suite struct DiffAlignCommandTests {
    /// A text-like page (lines of blocks on white) and the same with a 40 px banner on top.
    static func bannerPair() throws -> (String, String) {
        let dir = CLI.temporaryDirectory()
        var page = Bitmap(width: 240, height: 200, fill: .white)
        var state: UInt64 = 11
        for line in 0..<12 {
            var x = 10
            while x < 220 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let w = 3 + Int(state >> 60)
                for y in (8 + line * 15)..<(15 + line * 15) { for dx in 0..<w where x + dx < 230 { page[x + dx, y] = RGBA(red: 30, green: 30, blue: 30) } }
                x += w + 3
            }
        }
        var banner = Bitmap(width: 240, height: 240, fill: RGBA(red: 250, green: 200, blue: 40))
        for y in 0..<200 { for x in 0..<240 { banner[x, 40 + y] = page[x, y] } }
        try page.writePNG(to: dir + "/page.png")
        try banner.writePNG(to: dir + "/banner.png")
        return (dir + "/page.png", dir + "/banner.png")
    }

    @Test func aBannerIsOneInsertedBand() throws {
        let (a, b) = try Self.bannerPair()
        let plain = try CLI.run(["diff", a, b])
        #expect(plain.status == 1)
        #expect(plain.stdout.contains("size 240x200 -> 240x240"))
        let aligned = try CLI.run(["diff", a, b, "--align", "--json", "-"])
        #expect(aligned.status == 1)
        #expect(aligned.stderr.contains("changed    banner.png: 40 px inserted at y 0 (9600 px counted aligned"), "\(aligned.stderr)")
        let report = try #require(JSONSerialization.jsonObject(with: Data(aligned.stdout.utf8)) as? [String: Any])
        #expect(report["schemaVersion"] as? Int == 4 && report["align"] as? Bool == true)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        #expect(pair["alignedDifferingPixels"] as? Int == 9600 && pair["regionCount"] as? Int == 1)
        #expect(pair["alignmentSummary"] as? String == "40 px inserted at y 0")
        #expect((pair["alignment"] as? [[String: Int]]) == [["baselineY": 0, "currentY": 40, "height": 200]])
        let region = try #require((pair["regions"] as? [[String: Any]])?.first)
        #expect(region["change"] as? String == "inserted")
        // Judged aligned: the banner's pixels pass a tolerance of that many.
        #expect(try CLI.run(["diff", a, b, "--align", "--max-diff-pixels", "9600"]).status == 0)
        #expect(try CLI.run(["diff", a, b, "--align", "--max-diff-pixels", "9599"]).status == 1)
        // Without --align, the JSON has no alignment.
        let unaligned = try CLI.run(["diff", a, b, "--json", "-"])
        let plainPair = try #require(((try JSONSerialization.jsonObject(with: Data(unaligned.stdout.utf8)) as? [String: Any])?["pairs"] as? [[String: Any]])?.first)
        #expect(plainPair["alignment"] == nil && plainPair["alignedDifferingPixels"] == nil)
    }

    /// A section of a page: a title bar of its own width, then lines of blocks (seeded).
    static func section(_ seed: UInt64, width: Int = 240) -> Bitmap {
        var b = Bitmap(width: width, height: 60, fill: .white)
        for y in 2..<12 { for x in 10..<(40 + Int(seed) * 23) { b[x, y] = RGBA(red: 40, green: 60, blue: 110) } }
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for line in 0..<3 {
            var x = 10
            while x < width - 20 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let w = 3 + Int(state >> 60)
                for y in (20 + line * 13)..<(27 + line * 13) { for dx in 0..<w { b[x + dx, y] = RGBA(red: 30, green: 30, blue: 30) } }
                x += w + 3
            }
        }
        return b
    }

    static func stacked(_ parts: [Bitmap], width: Int = 240) -> Bitmap {
        var page = Bitmap(width: width, height: parts.reduce(16) { $0 + $1.height + 16 }, fill: .white)
        var y = 16
        for part in parts {
            for row in 0..<part.height { for x in 0..<width { page[x, y + row] = part[x, row] } }
            y += part.height + 16
        }
        return page
    }

    /// The HTML report's aligned view draws a moved section as a move (before: the section
    /// moved down was a deleted band beside a red gap, and appeared again further down),
    /// and its magnifier shows each side of an aligned pair where the region lies there
    /// (before: an aligned pair had no magnifier).
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there"))
    func theHTMLReportShowsMovesAndMagnifiesAlignedPairs() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["base", "cur"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        let s = (1...4).map { Self.section(UInt64($0)) }
        try Self.stacked(s).writePNG(to: dir + "/base/swapped.png")
        try Self.stacked([s[0], s[2], s[1], s[3]]).writePNG(to: dir + "/cur/swapped.png")
        // A banner, and below it a 3 px dot turned from red to green.
        var page = Self.stacked(s)
        for y in 200..<203 { for x in 150..<153 { page[x, y] = RGBA(red: 220, green: 20, blue: 20) } }
        var banner = Bitmap(width: 240, height: page.height + 40, fill: RGBA(red: 250, green: 200, blue: 40))
        for y in 0..<page.height { for x in 0..<240 { banner[x, y + 40] = page[x, y] } }
        for y in 240..<243 { for x in 150..<153 { banner[x, y] = RGBA(red: 20, green: 180, blue: 20) } }
        try page.writePNG(to: dir + "/base/banner.png")
        try banner.writePNG(to: dir + "/cur/banner.png")
        let run = try CLI.run(["diff", dir + "/base", dir + "/cur", "--align", "--html", dir + "/report/index.html"])
        #expect(run.status == 1 && run.stdout.contains("swapped.png: a block moved 76 px up at y 94; a block moved 76 px down at y 170"), "\(run.stdout)")
        let url = URL(fileURLWithPath: dir + "/report/index.html").absoluteString
        func count(_ text: String, in dom: String) -> Int { dom.components(separatedBy: text).count - 1 }
        // The swap: both sections framed as moved on both sides, row against row, with their
        // offsets; nothing deleted or inserted.
        let swapped = try DiffHTMLReportTests.dom(url + "#filter=all&q=swapped&view=aligned")
        #expect(count("class=\"strip shifted\"", in: swapped) == 4, "\(swapped)")
        #expect(count("class=\"strip deleted\"", in: swapped) == 0 && count("class=\"gap ", in: swapped) == 0)
        #expect(swapped.contains("moved 76 px up, from y 145 to y 69") && swapped.contains("moved 76 px down, from y 69 to y 145"))
        // The banner: an inserted band beside a green gap, then the page row against row.
        let aligned = try DiffHTMLReportTests.dom(url + "#filter=all&q=banner&view=aligned")
        #expect(count("class=\"gap inserted\"", in: aligned) == 1 && count("class=\"strip inserted\"", in: aligned) == 1)
        // The magnifier: the dot on each side where it is, the baseline's 40 rows higher.
        let side = try DiffHTMLReportTests.dom(url + "#filter=all&q=banner")
        #expect(side.contains("baseline, magnified") && side.contains("current, magnified"))
        // The banner boxed green on the current image, a green rule where it goes in on the baseline.
        #expect(count("class=\"box inserted\"", in: side) == 2 && count("class=\"rule inserted\"", in: side) == 1)
        let positions = side.components(separatedBy: "background-position: ").dropFirst().compactMap { rest -> Int? in
            let y = rest.prefix { $0 != ";" }.split(separator: " ").last ?? ""
            return Int(y.replacingOccurrences(of: "px", with: ""))
        }
        // Zoom 6 (a 32 px area for a 3 px dot): 40 rows are 240 px.
        #expect(positions.count >= 2 && positions[1] - positions[0] == -240, "\(positions)")
    }

    /// A sharded run merged gives the aligned verdict and figures of the run in one piece.
    @Test func theMergeKeepsTheAlignment() throws {
        let (a, b) = try Self.bannerPair()
        let dir = CLI.temporaryDirectory()
        for side in ["base", "cur"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: a, toPath: dir + "/base/page.png")
        try FileManager.default.copyItem(atPath: b, toPath: dir + "/cur/page.png")
        let whole = try CLI.run(["diff", dir + "/base", dir + "/cur", "--align", "--max-diff-pixels", "9600", "--json", dir + "/whole.json"])
        #expect(whole.status == 0, "\(whole.stderr)")
        _ = try CLI.run(["diff", dir + "/base", dir + "/cur", "--align", "--max-diff-pixels", "9600", "--shard", "0/1", "--json", dir + "/part.json"])
        let merged = try CLI.run(["diff", "--merge", dir + "/part.json", "--json", dir + "/merged.json"])
        #expect(merged.status == 0, "\(merged.stderr)")
        let pair = try #require(((try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/merged.json"))) as? [String: Any])?["pairs"] as? [[String: Any]])?.first)
        #expect(pair["alignmentSummary"] as? String == "40 px inserted at y 0" && pair["status"] as? String == "withinTolerance")
    }

    /// FLIP from the command line: a recoloured button fails by its region, the JSON says
    /// the pair's mean; --max-flip 1 lets it pass.
    @Test func flipJudgesByRegion() throws {
        let dir = CLI.temporaryDirectory()
        var a = Bitmap(width: 200, height: 150, fill: RGBA(red: 248, green: 248, blue: 250))
        for y in 110..<135 { for x in 120..<181 { a[x, y] = RGBA(red: 200, green: 40, blue: 40) } }
        var b = a
        for y in 110..<135 { for x in 120..<181 { b[x, y] = RGBA(red: 40, green: 130, blue: 60) } }
        try a.writePNG(to: dir + "/a.png")
        try b.writePNG(to: dir + "/b.png")
        let result = try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--metric", "flip", "--json", "-"])
        #expect(result.status == 1)
        let report = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["metric"] as? String == "flip" && report["maxFLIP"] as? Double == 0.05)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        let flip = try #require(pair["flip"] as? Double)
        #expect(flip > 0 && flip < 0.1)
        let region = try #require((pair["regions"] as? [[String: Any]])?.first)
        #expect((region["flip"] as? Double ?? 0) > 0.5)
        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--metric", "flip", "--max-flip", "1"]).status == 0)
        // SSIM passes the recolour by luma alone only when the colour check is let go.
        let ssim = try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--metric", "ssim", "--min-ssim", "0.5"])
        #expect(ssim.status == 1 && ssim.stdout.contains("largest colour shift"), "\(ssim.stdout)")
        #expect(try CLI.run(["diff", dir + "/a.png", dir + "/b.png", "--metric", "ssim", "--min-ssim", "0.5", "--max-delta-e", "100"]).status == 0)
    }

    @Test(arguments: [
        (["--max-flip", "0.1"], "give --metric flip"),
        (["--metric", "flip", "--max-flip", "2"], "--max-flip must be between 0 and 1"),
        (["--metric", "flip", "--max-diff-pixels", "3"], "not by --max-diff-pixels"),
        (["--max-delta-e", "3"], "give --metric ssim"),
        (["--metric", "ssim", "--max-delta-e", "-1"], "--max-delta-e must be 0 or more"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["diff", DiffCommandTests.fixtures + "/identical-a.png", DiffCommandTests.fixtures + "/identical-b.png"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
