import Foundation
import Testing

/// `--sort date`, `--group-by` and `--date-format`: sections by capture date or camera.
@Suite struct GroupByTests {
    /// A copy of SampleImages' rocket.jpg with an EXIF block (make, model, date) in an
    /// APP1 segment, or none when `date` is nil.
    static func photo(_ path: String, date: String?, make: String = "Canon", model: String = "Canon EOS R5") throws {
        var jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLI.sampleImages + "/rocket.jpg")))
        if let date {
            let payload = Array("Exif".utf8) + [0, 0] + RenderCommandTests.exif(make: make, model: model, date: date)
            jpeg.insert(contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload, at: 2)
        }
        try Data(jpeg).write(to: URL(fileURLWithPath: path))
    }

    /// A folder of photos taken in three months (named against their date order), one
    /// without a date, one with a date that is no date.
    static func album(_ name: String = #function) throws -> String {
        let dir = CLI.temporaryDirectory(name) + "/album"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try photo(dir + "/a.jpg", date: "2024:05:01 08:00:00", make: "FUJIFILM", model: "X-T4")
        try photo(dir + "/b.jpg", date: "2024:03:14 09:00:00")
        try photo(dir + "/c.jpg", date: "2024:01:20 23:59:59")
        try photo(dir + "/d.jpg", date: "2024:03:02 18:30:00")
        try photo(dir + "/e.jpg", date: nil)
        try photo(dir + "/f.jpg", date: "0000:00:00 00:00:00")
        return dir
    }

    /// The headers and the cards' names of a `mosaic layout` map, in order.
    static func sections(_ json: String) throws -> [(header: String?, cards: [String])] {
        let map = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        var sections: [Int: (header: String?, cards: [String])] = [:]
        for element in (map?["elements"] as? [[String: Any]]) ?? [] {
            guard let section = element["section"] as? Int else { continue }
            if element["kind"] as? String == "header" { sections[section, default: (nil, [])].header = element["text"] as? String }
            if element["kind"] as? String == "card", let source = element["source"] as? String {
                sections[section, default: (nil, [])].cards.append((source as NSString).lastPathComponent)
            }
        }
        return sections.keys.sorted().compactMap { sections[$0] }
    }

    /// The issue's check: a folder with dates in three months gives three sections, in date
    /// order, then "Undated"; within a group the --sort order.
    @Test func groupsByMonth() throws {
        let dir = try Self.album()
        let result = try CLI.run(["layout", dir, "--group-by", "month", "--caption", "none", "--columns", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        let sections = try Self.sections(result.stdout)
        #expect(sections.map(\.header) == ["January 2024", "March 2024", "May 2024", "Undated"])
        #expect(sections.map(\.cards) == [["c.jpg"], ["b.jpg", "d.jpg"], ["a.jpg"], ["e.jpg", "f.jpg"]])
        // --sort date orders each group by the time taken; --reverse puts the newest first.
        let dated = try Self.sections(try CLI.run(["layout", dir, "--group-by", "month", "--sort", "date", "--caption", "none"]).stdout)
        #expect(dated.map(\.cards) == [["c.jpg"], ["d.jpg", "b.jpg"], ["a.jpg"], ["e.jpg", "f.jpg"]])
        let reversed = try Self.sections(try CLI.run(["layout", dir, "--group-by", "month", "--sort", "date", "--reverse", "--caption", "none"]).stdout)
        #expect(reversed.map(\.header) == ["May 2024", "March 2024", "January 2024", "Undated"])
        #expect(reversed.map(\.cards)[1] == ["b.jpg", "d.jpg"])
    }

    @Test(arguments: [
        (["--group-by", "day"], ["2024-01-20", "2024-03-02", "2024-03-14", "2024-05-01", "Undated"]),
        (["--group-by", "year"], ["2024", "Undated"]),
        (["--group-by", "camera"], ["Canon EOS R5", "FUJIFILM X-T4", "Unknown camera"]),
        (["--group-by", "day", "--date-format", "%A %-d %b %Y, day %j"], [
            "Saturday 20 Jan 2024, day 020", "Saturday 2 Mar 2024, day 062", "Thursday 14 Mar 2024, day 074",
            "Wednesday 1 May 2024, day 122", "Undated",
        ]),
        (["--group-by", "month", "--date-format", "%y/%m 100%%"], ["24/01 100%", "24/03 100%", "24/05 100%", "Undated"]),
    ])
    func groupHeaders(arguments: [String], headers: [String]) throws {
        let dir = try Self.album("groupHeaders\(arguments.joined())".filter { $0.isLetter || $0.isNumber })
        let result = try CLI.run(["layout", dir, "--caption", "none"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.sections(result.stdout).map(\.header) == headers)
    }

    /// EXIF dates are wall-clock values: the machine's time zone changes no byte (the
    /// fallback to the file's time is read in UTC too).
    @Test func theTimeZoneChangesNothing() throws {
        let dir = try Self.album()
        var outputs: [Data] = []
        for zone in ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Kiritimati"] {
            let out = CLI.temporaryDirectory() + "/\(zone.replacingOccurrences(of: "/", with: "-")).png"
            let result = try CLI.run(
                ["render", dir, "--group-by", "day", "--sort", "date", "-o", out, "--no-progress", "--font", RenderCommandTests.font, "--caption", "{name}"],
                environment: ["TZ": zone])
            #expect(result.status == 0, "\(result.stderr)")
            outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        #expect(Set(outputs).count == 1)
    }

    @Test(arguments: [
        (["--group-by", "day", "--date-format", "%Q"], "--date-format: %Q is not a directive mosaic knows"),
        (["--group-by", "day", "--date-format", "%-x %Y"], "--date-format: %-x is not a directive mosaic knows"),
        (["--group-by", "day", "--date-format", "100%"], "--date-format: the pattern ends in %, an incomplete directive"),
        (["--date-format", "%Y"], "--date-format goes with --group-by day, month or year"),
        (["--group-by", "camera", "--date-format", "%Y"], "--date-format goes with --group-by day, month or year"),
        (["--group-by", "week"], "--group-by"),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try CLI.run(["layout", CLI.sampleImages] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    /// A manifest has sections of its own: --group-by with one is a usage error, before
    /// anything is read.
    @Test func aManifestIsNotRegrouped() throws {
        let result = try CLI.run(["layout", CLI.sampleImages + "/manifest.json", "--group-by", "month"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--group-by month regroups folders and files; \(CLI.sampleImages)/manifest.json is a manifest"), "\(result.stderr)")
    }

    /// Several folders are regrouped together; files named on the command line too.
    @Test func severalInputsAreRegroupedTogether() throws {
        let dir = try Self.album()
        let other = CLI.temporaryDirectory() + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        try Self.photo(other + "/g.jpg", date: "2024:03:20 10:00:00")
        let result = try CLI.run(["layout", dir, other, CLI.sampleImages + "/coins.png", "--group-by", "month", "--caption", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let sections = try Self.sections(result.stdout)
        #expect(sections.map(\.header) == ["January 2024", "March 2024", "May 2024", "Undated"])
        #expect(sections[1].cards == ["b.jpg", "d.jpg", "g.jpg"])
        #expect(sections[3].cards == ["coins.png", "e.jpg", "f.jpg"])
    }

    /// {date} and {camera} from what the probe read (--group-by camera reads both) are the
    /// captions a separate read gives.
    @Test func captionsFromTheProbeAreTheSame() throws {
        let dir = try Self.album()
        func captions(_ extra: [String]) throws -> Set<String> {
            let result = try CLI.run(["layout", dir, "--caption", "{camera}\\n{date}"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            let cards = ((map?["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }
            return Set(cards.map { "\($0["source"] ?? "") \($0["title"] ?? "") \($0["description"] ?? "")" })
        }
        let plain = try captions([])
        #expect(plain.contains { $0.contains("b.jpg Canon EOS R5 2024-03-14 09:00") }, "\(plain)")
        #expect(try captions(["--group-by", "camera", "--sort", "date"]) == plain)
    }

    /// `mosaic probe` says when a picture was taken and with what (before: neither).
    @Test func probeNamesTheDateAndCamera() throws {
        let dir = try Self.album()
        let result = try CLI.run(["probe", dir + "/a.jpg", dir + "/e.jpg"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasSuffix(", taken 2024-05-01T08:00:00, FUJIFILM X-T4"), "\(result.stdout)")
        #expect(!lines[1].contains("taken"))
        let json = try CLI.run(["probe", "--json", dir + "/b.jpg"])
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.first?["captured"] as? String == "2024-03-14T09:00:00")
        #expect(entries?.first?["camera"] as? String == "Canon EOS R5")
    }

    /// One reading of a date for every use: an EXIF date that is no date (month 13, year 0,
    /// full-width digits) leaves a file undated in `{date}` as in probe and --group-by:
    /// `{date}` is empty (issue 37: it showed the file's time, as if taken then), and
    /// `{mtime}` shows the file's time; a file modified before 1970 shows that time.
    @Test func captionsProbeAndGroupsReadDatesAlike() throws {
        let dir = CLI.temporaryDirectory() + "/dates"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let fullWidth = "\u{FF12}\u{FF10}\u{FF12}\u{FF14}:01:01 00:00:00"
        let bad = ["m.jpg": "2024:13:01 00:00:00", "z.jpg": "0000:00:00 00:00:00", "w.jpg": fullWidth]
        for (name, date) in bad { try Self.photo(dir + "/" + name, date: date) }
        try Self.photo(dir + "/old.jpg", date: nil)
        let old = Date(timeIntervalSince1970: -300_000_000)  // 1960-06-29 UTC
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: dir + "/old.jpg")
        let result = try CLI.run(["layout", dir, "--caption", "{date}|{mtime}"])
        #expect(result.status == 0, "\(result.stderr)")
        let map = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let cards = ((map?["elements"] as? [[String: Any]]) ?? []).filter { $0["kind"] as? String == "card" }
        let captions = Dictionary(uniqueKeysWithValues: cards.map { (($0["source"] as? String ?? "") as NSString).lastPathComponent }.enumerated().map { ($1, cards[$0]["title"] as? String ?? "") })
        #expect(captions.count == 4)
        for (name, caption) in captions {
            #expect(caption.range(of: #"^\|\d{4}-\d\d-\d\d \d\d:\d\d$"#, options: .regularExpression) != nil, "\(name): \(caption)")
            #expect(!caption.hasPrefix("0000") && !caption.hasPrefix("2024-13") && !caption.contains("?"), "\(name): \(caption)")
        }
        #expect(captions["old.jpg"]?.hasPrefix("|1960-06-") == true, "\(captions)")
        let grouped = try Self.sections(try CLI.run(["layout", dir, "--group-by", "month", "--caption", "none"]).stdout)
        #expect(grouped.map(\.header) == ["Undated"])
        let probe = try CLI.run(["probe", dir + "/m.jpg", dir + "/z.jpg", dir + "/w.jpg"])
        #expect(probe.status == 0 && !probe.stdout.contains("taken"), "\(probe.stdout)")
    }
}
