import Foundation
import Mosaic
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mosaic diff --html`: the report's folder is the whole report. The images compared are
/// copied (reflinked where the file system can) into `FILE_files/`, never hard-linked, never
/// through a symbolic link; the page and its folder copied alone elsewhere show every image.
/// `--html-links` keeps the relative links.
@Suite struct TravellingReportTests {
    /// Every address the page uses: its data's links (baseline, current, diff) and each
    /// `src` or `href` written in the HTML itself.
    static func links(_ page: String) throws -> [String] {
        let data = try DiffHTMLReportTests.pageData(page)
        let pairs = try #require(data["pairs"] as? [[String: Any]])
        var links = pairs.flatMap { pair in ["b", "c", "d"].compactMap { pair[$0] as? String } }
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for attribute in ["src=\"", "href=\""] {
            var rest = html[...]
            while let at = rest.range(of: attribute) {
                let value = rest[at.upperBound...].prefix { $0 != "\"" }
                // Addresses in the page's own script are built from the data; a literal
                // one is a file or an anchor.
                if !value.isEmpty && !value.hasPrefix("#") && !value.contains("$") && !value.contains("+") { links.append(String(value)) }
                rest = rest[at.upperBound...]
            }
        }
        return links
    }

    /// `link` resolved from `folder`, which it must not leave.
    static func resolve(_ link: String, from folder: String) throws -> String {
        #expect(!link.hasPrefix("/") && !link.contains("://"), "\(link)")
        #expect(!link.split(separator: "/").contains(".."), "\(link) leaves the report's folder")
        return try #require((folder + "/" + link).removingPercentEncoding)
    }

    /// The report folder `report` copied alone to a new place, the folders compared gone:
    /// what another machine gets. Returns the copy and the page's links.
    static func uploadedAlone(_ report: String, baseline: String, current: String) throws -> (folder: String, links: [String]) {
        let elsewhere = CLI.temporaryDirectory() + "/uploaded"
        try FileManager.default.copyItem(atPath: report, toPath: elsewhere)
        try FileManager.default.removeItem(atPath: baseline)
        try FileManager.default.removeItem(atPath: current)
        let links = try Self.links(elsewhere + "/index.html")
        // Two changed pairs (3 images each), one added, one removed.
        #expect(links.count == 8, "\(links)")
        return (elsewhere, links)
    }

    @Test func theReportFolderCopiedAloneHoldsEveryImage() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/report/index.html"], creating: dir + "/report").status == 1)
        let (elsewhere, links) = try Self.uploadedAlone(dir + "/report", baseline: baseline, current: current)
        for link in links {
            let path = try Self.resolve(link, from: elsewhere)
            #expect(FileManager.default.fileExists(atPath: path), "\(link)")
            #expect(path.hasPrefix(elsewhere + "/index_files/"), "\(link)")
        }
        let pairs = try #require(DiffHTMLReportTests.pageData(elsewhere + "/index.html")["pairs"] as? [[String: Any]])
        #expect(pairs[0]["b"] as? String == "index_files/baseline/00001.png" && pairs[0]["c"] as? String == "index_files/current/00001.png")
        // The failed pair shows its error, not its files (a file that is not an image is
        // never copied into a report that is shared).
        #expect(pairs[2]["s"] as? String == "failed" && pairs[2]["b"] == nil && pairs[2]["c"] == nil)
    }

    @Test func copiesAreNewFilesWithTheSameBytes() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/r.html"]).status == 1)
        for (copy, source) in [("baseline/00001.png", baseline + "/ui/button.png"), ("current/00001.png", current + "/ui/button.png")] {
            let path = dir + "/r_files/" + copy
            var (a, b) = (stat(), stat())
            #expect(lstat(path, &a) == 0 && stat(source, &b) == 0)
            // Its own file (never a hard link: a tool rewriting the report cannot reach a
            // baseline), a regular one, the same bytes.
            #expect((a.st_mode & S_IFMT) == S_IFREG && a.st_ino != b.st_ino && a.st_nlink == 1 && b.st_nlink == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: source)))
        }
    }

    @Test func aSymbolicLinkIsNotCopied() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        // The current button is a link to a file outside the folders compared.
        try FileManager.default.moveItem(atPath: current + "/ui/button.png", toPath: dir + "/outside.png")
        try FileManager.default.createSymbolicLink(atPath: current + "/ui/button.png", withDestinationPath: dir + "/outside.png")
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/r.html"]).status == 1)
        let pairs = try #require(DiffHTMLReportTests.pageData(dir + "/r.html")["pairs"] as? [[String: Any]])
        #expect(pairs[0]["p"] as? String == "ui/button.png")
        #expect(pairs[0]["b"] as? String == "r_files/baseline/00001.png" && pairs[0]["c"] == nil)
        #expect(pairs[0]["x"] as? [String] == ["current image not copied into the report: a symbolic link"])
        #expect(!FileManager.default.fileExists(atPath: dir + "/r_files/current/00001.png"))
    }

    @Test func htmlLinksKeepsTheRelativeLinks() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/report/index.html", "--html-links"], creating: dir + "/report").status == 1)
        let pairs = try #require(DiffHTMLReportTests.pageData(dir + "/report/index.html")["pairs"] as? [[String: Any]])
        #expect(pairs[0]["b"] as? String == "../baseline/ui/button.png" && pairs[0]["c"] as? String == "../current/ui/button.png")
        #expect(!FileManager.default.fileExists(atPath: dir + "/report/index_files/baseline"))
        let refused = try CLI.run(["diff", baseline, current, "--html-links"])
        #expect(refused.status == 64 && refused.stderr.contains("--html-links"), "\(refused.stderr)")
    }

    @Test func aMergedReportTravelsToo() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        var parts: [String] = []
        for k in 0..<2 {
            let part = dir + "/parts/part-\(k).json"
            let run = try CLI.run(["diff", baseline, current, "--shard", "\(k)/2", "--json", part, "--html", dir + "/parts/part-\(k).html", "--html-links"], creating: dir + "/parts")
            #expect(run.status == 1 || run.status == 0, "\(run.stderr)")
            parts.append(part)
        }
        let merged = try CLI.run(["diff", "--merge"] + parts + ["--html", dir + "/report/index.html"], creating: dir + "/report")
        #expect(merged.status == 1, "\(merged.stderr)")
        let (elsewhere, links) = try Self.uploadedAlone(dir + "/report", baseline: baseline, current: current)
        for link in links { #expect(FileManager.default.fileExists(atPath: try Self.resolve(link, from: elsewhere)), "\(link)") }
    }

    /// The report folder alone, opened in Chromium from another folder: every image loads.
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there")) func theCopiedFolderOpensWithEveryImage() throws {
        let (dir, baseline, current) = try DiffHTMLReportTests.folders()
        #expect(try CLI.run(["diff", baseline, current, "--html", dir + "/report/index.html"], creating: dir + "/report").status == 1)
        let elsewhere = CLI.temporaryDirectory() + "/uploaded"
        try FileManager.default.copyItem(atPath: dir + "/report", toPath: elsewhere)
        try FileManager.default.removeItem(atPath: dir)
        let dom = try DiffHTMLReportTests.dom(URL(fileURLWithPath: elsewhere + "/index.html").absoluteString)
        #expect(DiffHTMLReportTests.attribute("rendered", in: dom) == 5, "\(dom.prefix(2000))")
        #expect(DiffHTMLReportTests.attribute("loaded", in: dom) == 8)
        #expect(DiffHTMLReportTests.attribute("broken", in: dom) == nil)
        if let shots = ProcessInfo.processInfo.environment["MOSAIC_REPORT_SHOTS"] {
            let browser = try Browser(width: 1200, height: 1400)
            try browser.open(URL(fileURLWithPath: elsewhere + "/index.html").absoluteString, width: 1200, height: 1400)
            try browser.wait(until: "document.body.dataset.loaded === '8'", "every image loaded")
            try browser.screenshot().write(to: URL(fileURLWithPath: shots + "/travelling-report.png"))
        }
    }
}
