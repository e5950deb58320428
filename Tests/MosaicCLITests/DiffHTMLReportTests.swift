import Foundation
import Mosaic
import Testing

/// `mosaic diff --html`: the page's data, its files and links, its safety; and the page in
/// a real browser (headless Chromium, which `.ci/run` installs).
@Suite struct DiffHTMLReportTests {
    /// The page's data block, decoded.
    static func pageData(_ path: String) throws -> [String: Any] {
        let html = try String(contentsOfFile: path, encoding: .utf8)
        let start = try #require(html.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = String(html[start.upperBound..<end.lowerBound])
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    /// baseline/ and current/ with a changed pair, an unchanged one, an added one whose name
    /// holds markup, a removed one, an unreadable one, and one 4 px change in a large image.
    static func folders() throws -> (dir: String, baseline: String, current: String) {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        let fm = FileManager.default
        try fm.moveItem(atPath: current + "/new.png", toPath: current + "/new <!--<script><b>&\"x\".png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("broken".utf8)).write(to: URL(fileURLWithPath: baseline + "/broken.png"))
        try fm.copyItem(atPath: DiffCommandTests.fixtures + "/identical-a.png", toPath: current + "/broken.png")
        var large = Bitmap(width: 1920, height: 1080, fill: RGBA(red: 240, green: 240, blue: 240))
        try large.writePNG(to: baseline + "/screen.png")
        for (x, y) in [(900, 500), (901, 500), (900, 501), (901, 501)] { large[x, y] = RGBA(red: 200, green: 0, blue: 200) }
        try large.writePNG(to: current + "/screen.png")
        return (dir, baseline, current)
    }

    @Test func thePageListsProblemsFirstAndLinksEveryImage() throws {
        let (dir, baseline, current) = try Self.folders()
        let result = try CLI.run(["diff", baseline, current, "--html", dir + "/report/index.html"], creating: dir + "/report")
        #expect(result.status == 1, "\(result.stderr)")
        let page = try Self.pageData(dir + "/report/index.html")
        #expect(page["passes"] as? Bool == false)
        let pairs = try #require(page["pairs"] as? [[String: Any]])
        // Problems first (changed, worst first; failed; added; removed); the unchanged pair
        // counted, not listed.
        #expect(pairs.map { $0["s"] as? String } == ["changed", "changed", "failed", "added", "removed"])
        #expect(pairs.map { $0["p"] as? String } == ["ui/button.png", "screen.png", "broken.png", "new <!--<script><b>&\"x\".png", "old.png"])
        #expect((page["counts"] as? [String: Int])?["unchanged"] == 1)
        // The markup in a name is data: the page's two scripts and no other.
        let html = try String(contentsOfFile: dir + "/report/index.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<script").count == 3 && !html.contains("<!--"))
        // Every link resolves from the page's folder; diff images are in index_files/.
        for pair in pairs {
            for key in ["b", "c", "d"] {
                guard let link = pair[key] as? String else { continue }
                let path = try #require((dir + "/report/" + link).removingPercentEncoding)
                #expect(FileManager.default.fileExists(atPath: path), "\(key) of \(pair["p"] ?? ""): \(link)")
            }
        }
        #expect(pairs[0]["d"] as? String != nil && (pairs[0]["d"] as? String)?.hasPrefix("index_files/") == true)
        #expect(pairs[1]["box"] as? [Int] == [900, 500, 2, 2] && pairs[1]["size"] as? [Int] == [1920, 1080])
        #expect((pairs[2]["e"] as? String)?.contains("broken.png") == true)
        #expect(pairs[3]["b"] == nil && pairs[4]["c"] == nil)
        let diff = try ImageDecoder().probe(dir + "/report/" + #require((pairs[1]["d"] as? String)?.removingPercentEncoding))
        #expect(diff.width == 1920 && diff.height == 1080)
    }

    @Test func aSecondRunReplacesItsOwnFolderOnly() throws {
        let (dir, baseline, current) = try Self.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/r.html"]).status == 1)
        try Data("stale".utf8).write(to: URL(fileURLWithPath: dir + "/r_files/00099.png"))
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/r.html"]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/r_files/00099.png"))
        #expect(FileManager.default.fileExists(atPath: dir + "/r_files/00001.png"))
        // No staging or old folder left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
        // A folder mosaic did not write is never replaced.
        try FileManager.default.createDirectory(atPath: dir + "/mine_files", withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir + "/mine_files/notes.txt"))
        let refused = try CLI.run(["diff", baseline, current, "--html", dir + "/mine.html"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("mine_files"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/mine.html"))
        #expect(try String(contentsOfFile: dir + "/mine_files/notes.txt", encoding: .utf8) == "keep")
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/r.txt"]).status == 64)
    }

    /// A comparison keeps figures, not diff images: memory holds one pair's images at a
    /// time (before, every pair's full-size diff image stayed in the results).
    @Test func folderResultsHoldNoDiffImages() throws {
        let (_, baseline, current) = try Self.folders()
        let comparison = try FolderComparison.compare(baseline: baseline, current: current)
        #expect(comparison.results.allSatisfy { $0.difference?.diffImage == nil })
        #expect(comparison.changed.count == 2)
    }

    // MARK: In a browser

    static var chromium: String? { Browser.executable }

    /// The page's DOM after its script ran and its images loaded, in a window of `height`.
    static func dom(_ url: String, height: Int = 1400) throws -> String {
        let chromium = try #require(Self.chromium, "Chromium is needed for the browser tests: apt-get install chromium")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=" + NSTemporaryDirectory() + "mosaic-chromium-\(getpid())-\(UUID().uuidString.prefix(8))",
            "--window-size=1400,\(height)", "--virtual-time-budget=10000", "--dump-dom", url,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func attribute(_ name: String, in dom: String) -> Int? {
        guard let body = dom.range(of: "<body"), let end = dom.range(of: ">", range: body.upperBound..<dom.endIndex) else { return nil }
        let tag = dom[body.upperBound..<end.lowerBound]
        guard let at = tag.range(of: "data-\(name)=\"") else { return nil }
        return Int(tag[at.upperBound...].prefix { $0.isNumber })
    }

    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there")) func thePageWorksInABrowser() throws {
        let (dir, baseline, current) = try Self.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/report.html"]).status == 1)
        let url = URL(fileURLWithPath: dir + "/report.html").absoluteString
        // Problems: five rows, every image loaded (baseline, current and diff of two
        // changed pairs, one added, one removed), none broken; the 4 px change magnified.
        let problems = try Self.dom(url)
        #expect(Self.attribute("rendered", in: problems) == 5, "\(problems.prefix(3000))")
        #expect(Self.attribute("loaded", in: problems) == 8)
        #expect(Self.attribute("broken", in: problems) == nil)
        #expect(problems.components(separatedBy: "<article").count - 1 == 5)
        #expect(problems.contains("current, magnified"))
        #expect(problems.contains("new &lt;!--&lt;script&gt;&lt;b&gt;&amp;\"x\".png"))
        // The address's fragment: a filter, a search, a view.
        let failed = try Self.dom(url + "#filter=failed")
        #expect(failed.components(separatedBy: "<article").count - 1 == 1)
        #expect(failed.contains("class=\"error\""))
        let found = try Self.dom(url + "#filter=all&q=BUTTON")
        #expect(found.components(separatedBy: "<article").count - 1 == 1 && found.contains("ui/button.png"))
        let slider = try Self.dom(url + "#view=slider")
        #expect(slider.components(separatedBy: "type=\"range\"").count - 1 == 2)
    }

    /// 300 changed pairs: the first hundred rows are built, the rest wait for the reader to
    /// scroll; every listed image of those loaded.
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there")) func manyPairsAreListedInBatches() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["baseline", "current"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        for i in 0..<300 {
            var image = Bitmap(width: 32, height: 20, fill: .white)
            try image.writePNG(to: dir + "/baseline/\(i).png")
            image[i % 32, i % 20] = RGBA(red: 0, green: 0, blue: 0)
            try image.writePNG(to: dir + "/current/\(i).png")
        }
        #expect(try CLI.run(["diff", dir + "/baseline", dir + "/current", "--html", dir + "/report.html"]).status == 1)
        let dom = try Self.dom(URL(fileURLWithPath: dir + "/report.html").absoluteString)
        #expect(Self.attribute("rendered", in: dom) == 100)
        #expect(dom.contains("Showing 100 of 300"))
        #expect(Self.attribute("broken", in: dom) == nil)
    }
}
