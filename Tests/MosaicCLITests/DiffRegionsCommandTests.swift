import Foundation
import Mosaic
import Testing

/// `mosaic diff`'s changed regions and `--metric ssim` from the command line: the JSON, the
/// terminal line, JUnit, the options' checks.
@Suite struct DiffRegionsCommandTests {
    static let fixtures = DiffCommandTests.fixtures

    /// A page with three small changes far apart (and the page itself).
    static func threeChanges() throws -> (String, String) {
        let dir = CLI.temporaryDirectory()
        var a = Bitmap(width: 600, height: 400, fill: .white)
        for y in 0..<400 where y % 40 < 6 { for x in 20..<580 { a[x, y] = RGBA(red: 220, green: 224, blue: 230) } }
        var b = a
        for (x0, y0, w, h) in [(30, 100, 12, 8), (550, 20, 5, 5), (300, 380, 3, 2)] {
            for y in y0..<(y0 + h) { for x in x0..<(x0 + w) { b[x, y] = RGBA(red: 200, green: 30, blue: 30) } }
        }
        try a.writePNG(to: dir + "/a.png")
        try b.writePNG(to: dir + "/b.png")
        return (dir + "/a.png", dir + "/b.png")
    }

    static func json(_ result: CommandResult) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func threeChangesFarApartAreThreeRegions() throws {
        let (a, b) = try Self.threeChanges()
        let junit = CLI.temporaryDirectory() + "/junit.xml"
        let result = try CLI.run(["diff", a, b, "--json", "-", "--junit", junit])
        #expect(result.status == 1)
        let report = try Self.json(result)
        #expect(report["schemaVersion"] as? Int == 4)
        #expect(report["metric"] as? String == "pixelmatch" && report["minSSIM"] == nil)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        #expect(pair["regionCount"] as? Int == 3 && pair["ssim"] == nil)
        let regions = try #require(pair["regions"] as? [[String: Any]])
        let boxes = regions.compactMap { $0["bounds"] as? [String: Int] }
        #expect(boxes == [
            ["x": 30, "y": 100, "width": 12, "height": 8], ["x": 550, "y": 20, "width": 5, "height": 5], ["x": 300, "y": 380, "width": 3, "height": 2],
        ])
        #expect(regions.map { $0["differingPixels"] as? Int } == [96, 25, 6])
        #expect(regions.allSatisfy { ($0["largestDelta"] as? Double ?? 0) > 0.1 && $0["ssim"] == nil })
        // The union box stays, as before.
        #expect(pair["bounds"] as? [String: Int] == ["x": 30, "y": 20, "width": 525, "height": 362])
        #expect(result.stderr.contains("3 regions"))
        #expect(try String(contentsOfFile: junit, encoding: .utf8).contains(", 3 regions"))
        // An ignored rectangle takes its region away.
        let ignored = try Self.json(try CLI.run(["diff", a, b, "--json", "-", "--ignore", "540,10,30,30"]))
        #expect(((ignored["pairs"] as? [[String: Any]])?.first?["regionCount"] as? Int) == 2)
        #expect(try CLI.run(["diff", a, b]).stdout.contains(", 3 regions, "))
    }

    @Test func theSSIMModePassesNoiseAndFailsAMovedButton() throws {
        let base = Self.fixtures + "/ssim/button-a.png"
        let noise = try CLI.run(["diff", base, Self.fixtures + "/ssim/button-aa-noise-b.png", "--metric", "ssim", "--json", "-"])
        #expect(noise.status == 0, "\(noise.stderr)")
        let report = try Self.json(noise)
        #expect(report["metric"] as? String == "ssim" && report["minSSIM"] as? Double == 0.99)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        #expect(pair["status"] as? String == "withinTolerance")
        #expect(abs((pair["ssim"] as? Double ?? 0) - 0.99900) < 0.001)
        #expect((pair["regions"] as? [[String: Any]])?.allSatisfy { ($0["ssim"] as? Double ?? 0) >= 0.99 } == true)
        // pixelmatch counts it.
        #expect(try CLI.run(["diff", base, Self.fixtures + "/ssim/button-aa-noise-b.png"]).status == 1)
        let moved = try CLI.run(["diff", base, Self.fixtures + "/ssim/button-moved-b.png", "--metric", "ssim"])
        #expect(moved.status == 1)
        #expect(moved.stdout.contains("1 region, SSIM 0.8459"), "\(moved.stdout)")
        // Its one region scores 0.357, the pair 0.846.
        #expect(try CLI.run(["diff", base, Self.fixtures + "/ssim/button-moved-b.png", "--metric", "ssim", "--min-ssim", "0.5"]).status == 1)
        #expect(try CLI.run(["diff", base, Self.fixtures + "/ssim/button-moved-b.png", "--metric", "ssim", "--min-ssim", "0.3"]).status == 0)
        // Equal files: a score of 1 without decoding.
        let same = try Self.json(try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png", "--metric", "ssim", "--json", "-"]))
        #expect((same["pairs"] as? [[String: Any]])?.first?["ssim"] as? Double == 1)
    }

    @Test(arguments: [
        (["--min-ssim", "1.5"], "--min-ssim must be between 0 and 1"),
        (["--min-ssim", "-0.1"], "--min-ssim must be between 0 and 1"),
        (["--min-ssim", "nan"], "--min-ssim must be between 0 and 1"),
        (["--metric", "ssim", "--min-ssim", "inf"], "--min-ssim must be between 0 and 1"),
        (["--min-ssim", "0.9"], "give --metric ssim"),
        (["--metric", "ssim", "--max-diff-pixels", "3"], "not by --max-diff-pixels"),
        (["--metric", "ssim", "--max-diff-ratio", "0.1"], "not by --max-diff-pixels"),
        (["--metric", "yiq"], "--metric"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["diff", Self.fixtures + "/identical-a.png", Self.fixtures + "/identical-b.png"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// Before: exit 132, an arithmetic overflow in the scan.
    @Test func aHugeIgnoredRectangleIsNoCrash() throws {
        let (a, b) = try Self.threeChanges()
        for metric in ["pixelmatch", "ssim"] {
            let result = try CLI.run(["diff", a, b, "--metric", metric, "--ignore", "5,5,9223372036854775807,9223372036854775807"])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    /// The HTML report: each region's box in the page's data, an outline per region on each
    /// pane, and the three magnified in the browser (before: one union box, one magnifier).
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there"))
    func theReportOutlinesAndMagnifiesEachRegion() throws {
        let (a, b) = try Self.threeChanges()
        let page = CLI.temporaryDirectory() + "/report.html"
        #expect(try CLI.run(["diff", a, b, "--html", page, "--metric", "ssim"]).status == 1)
        let data = try DiffHTMLReportTests.pageData(page)
        let row = try #require((data["pairs"] as? [[String: Any]])?.first)
        #expect(row["rg"] as? [[Int]] == [[30, 100, 12, 8], [550, 20, 5, 5], [300, 380, 3, 2]])
        #expect((data["settings"] as? String)?.contains("SSIM 0.99") == true)
        let dom = try DiffHTMLReportTests.dom(URL(fileURLWithPath: page).absoluteString)
        // Three panes (baseline, current, diff) with three outlines each, and two magnified
        // views (baseline, current) of each region with its own.
        #expect(dom.components(separatedBy: "class=\"box\"").count - 1 == 3 * 3 + 3 * 2, "\(dom.prefix(4000))")
        for n in 1...3 { #expect(dom.contains("current, magnified (region \(n))")) }
    }
}
