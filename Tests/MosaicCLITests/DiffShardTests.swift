import Foundation
import Mosaic
import Testing

/// `mosaic diff --shard K/N` and `--merge`: a run split over machines, merged into the
/// reports the run in one piece writes, byte for byte; parts that do not belong together
/// refused, naming the file, with nothing written.
@Suite struct DiffShardTests {
    /// baseline/ and current/: 30 pairs of 8x8 PNGs (unchanged; one pixel changed, within
    /// `--max-diff-pixels 1`; three changed), a size mismatch, a truncated PNG, a name that
    /// is not UTF-8, an added and a removed image, and a FIFO (skipped).
    static func folders() throws -> (dir: String, baseline: String, current: String) {
        let dir = CLI.temporaryDirectory()
        let (baseline, current) = (dir + "/baseline", dir + "/current")
        for side in [baseline, current] { try FileManager.default.createDirectory(atPath: side + "/screens/deep", withIntermediateDirectories: true) }
        for i in 0..<30 {
            let name = (i % 3 == 0 ? "/screens/deep/" : i % 3 == 1 ? "/screens/" : "/") + "s\(i).png"
            var image = Bitmap(width: 8, height: 8, fill: RGBA(red: UInt8(i * 8), green: 100, blue: 50))
            try image.writePNG(to: baseline + name)
            if i % 4 == 0 { image[1, 1] = .white }
            if i % 9 == 0 { for x in 2..<5 { image[x, 3] = .black } }
            try image.writePNG(to: current + name)
        }
        try Bitmap(width: 8, height: 8, fill: .white).writePNG(to: baseline + "/size.png")
        try Bitmap(width: 9, height: 8, fill: .white).writePNG(to: current + "/size.png")
        try Bitmap(width: 8, height: 8, fill: .white).writePNG(to: baseline + "/cut.png")
        let whole = try #require(FileManager.default.contents(atPath: baseline + "/cut.png"))
        try whole.prefix(40).write(to: URL(fileURLWithPath: current + "/cut.png"))
        try Bitmap(width: 8, height: 8, fill: .black).writePNG(to: baseline + "/gone.png")
        try Bitmap(width: 8, height: 8, fill: .black).writePNG(to: current + "/new.png")
        // "caf\xE9.png": Latin-1, not UTF-8, changed.
        try Bitmap(width: 8, height: 8, fill: .black).writePNG(to: dir + "/black.png")
        try Bitmap(width: 8, height: 8, fill: .white).writePNG(to: dir + "/white.png")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "cp \"$0/black.png\" \"$0/baseline/caf$(printf '\\351').png\" && cp \"$0/white.png\" \"$0/current/caf$(printf '\\351').png\"", dir]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        #expect(mkfifo(current + "/pipe.png", 0o644) == 0)
        return (dir, baseline, current)
    }

    static let options = ["--threshold", "0.05", "--ignore", "7,7,1,1", "--max-diff-pixels", "1"]

    /// Runs the shards of `count`, each writing `dir/part-K.json` (and its HTML report with
    /// `html`); returns the parts' paths.
    static func shards(_ count: Int, _ f: (dir: String, baseline: String, current: String), html: Bool = false, extra: [String] = []) throws -> [String] {
        var parts: [String] = []
        for k in 0..<count {
            let part = f.dir + "/parts/part-\(k).json"
            var arguments = ["diff", f.baseline, f.current, "--shard", "\(k)/\(count)", "--json", part, "-q"] + options + extra
            if html { arguments += ["--html", f.dir + "/parts/part-\(k).html"] }
            try FileManager.default.createDirectory(atPath: f.dir + "/parts", withIntermediateDirectories: true)
            let result = try CLI.run(arguments)
            #expect(result.status == 1, "\(result.stderr)")
            parts.append(part)
        }
        return parts
    }

    @Test func fourShardsMergedAreTheRunInOnePiece() throws {
        let f = try Self.folders()
        let whole = try CLI.run(["diff", f.baseline, f.current, "--json", f.dir + "/whole.json", "--junit", f.dir + "/whole.xml"] + Self.options)
        #expect(whole.status == 1, "\(whole.stderr)")
        #expect(whole.stdout.contains("failed     cut.png") && whole.stdout.contains("skipped    pipe.png") && whole.stdout.contains("caf\u{FFFD}.png"))
        let parts = try Self.shards(4, f)
        // Each part holds its share: every 4th pair in the order of the names' bytes.
        for (k, part) in parts.enumerated() {
            let object = try JSONSerialization.jsonObject(with: try #require(FileManager.default.contents(atPath: part))) as? [String: Any]
            let shard = try #require(object?["shard"] as? [String: Any])
            #expect(shard["index"] as? Int == k && shard["count"] as? Int == 4 && shard["pairsInRun"] as? Int == 35)
            #expect((object?["pairs"] as? [Any])?.count == (35 - k + 3) / 4)
        }
        // In any order; several after one --merge, or --merge repeated.
        for merge in [["--merge", parts[2], parts[0], parts[3], parts[1]], ["--merge", parts[3], "--merge", parts[1], "--merge", parts[0], "--merge", parts[2]]] {
            let merged = try CLI.run(["diff", "--json", f.dir + "/merged.json", "--junit", f.dir + "/merged.xml"] + merge)
            #expect(merged.status == whole.status, "\(merged.stderr)")
            #expect(merged.stdout == whole.stdout)
            #expect(FileManager.default.contents(atPath: f.dir + "/merged.json") == FileManager.default.contents(atPath: f.dir + "/whole.json"))
            #expect(FileManager.default.contents(atPath: f.dir + "/merged.xml") == FileManager.default.contents(atPath: f.dir + "/whole.xml"))
        }
        // The Markdown summary, and GitHub's annotations, of merged results too.
        let environment = ["GITHUB_ACTIONS": "true"]
        let wholeMarkdown = try CLI.run(["diff", f.baseline, f.current, "--markdown", f.dir + "/whole.md"] + Self.options, environment: environment)
        let mergedMarkdown = try CLI.run(["diff", "--merge"] + parts + ["--markdown", f.dir + "/merged.md"], environment: environment)
        #expect(mergedMarkdown.stdout == wholeMarkdown.stdout && mergedMarkdown.stdout.contains("::error file="))
        #expect(FileManager.default.contents(atPath: f.dir + "/merged.md") == FileManager.default.contents(atPath: f.dir + "/whole.md"))
        // The merged JSON to standard output, the summary then on standard error.
        let toStandardOutput = try CLI.run(["diff", "--merge"] + parts + ["--json", "-"])
        #expect(toStandardOutput.stdout == (try String(contentsOfFile: f.dir + "/whole.json", encoding: .utf8)) + "\n")
        #expect(toStandardOutput.stderr == whole.stdout)
    }

    /// In the perceptual mode, the parts keep each pair's score and regions: the merge gives
    /// the run's JSON, summary and Markdown (its regions column) byte for byte.
    @Test func perceptualShardsMergedAreTheRunInOnePiece() throws {
        let f = try Self.folders()
        let ssim = ["--threshold", "0.05", "--ignore", "7,7,1,1", "--metric", "ssim", "--min-ssim", "0.995"]
        let whole = try CLI.run(["diff", f.baseline, f.current, "--json", f.dir + "/whole.json", "--markdown", f.dir + "/whole.md"] + ssim)
        #expect(whole.status == 1, "\(whole.stderr)")
        var parts: [String] = []
        for k in 0..<3 {
            parts.append(f.dir + "/part-\(k).json")
            _ = try CLI.run(["diff", f.baseline, f.current, "--shard", "\(k)/3", "--json", parts[k], "-q"] + ssim)
        }
        let merged = try CLI.run(["diff", "--merge"] + parts + ["--json", f.dir + "/merged.json", "--markdown", f.dir + "/merged.md"])
        #expect(merged.status == whole.status && merged.stdout == whole.stdout, "\(merged.stderr)")
        let json = try #require(FileManager.default.contents(atPath: f.dir + "/whole.json"))
        #expect(String(decoding: json, as: UTF8.self).contains("\"ssim\""))
        #expect(FileManager.default.contents(atPath: f.dir + "/merged.json") == json)
        #expect(FileManager.default.contents(atPath: f.dir + "/merged.md") == FileManager.default.contents(atPath: f.dir + "/whole.md"))
    }

    @Test func oneShardAndMoreShardsThanPairs() throws {
        let f = try Self.folders()
        let whole = try CLI.run(["diff", f.baseline, f.current, "--json", f.dir + "/whole.json"] + Self.options)
        let one = try Self.shards(1, f)
        #expect(try CLI.run(["diff", "--merge"] + one + ["--json", f.dir + "/one.json"]).stdout == whole.stdout)
        #expect(FileManager.default.contents(atPath: f.dir + "/one.json") == FileManager.default.contents(atPath: f.dir + "/whole.json"))
        // Two files: one pair, shard 0's; shard 1's part is empty, and the merge passes.
        let fixtures = DiffCommandTests.fixtures
        let dir = CLI.temporaryDirectory()
        for k in 0..<2 {
            #expect(try CLI.run(["diff", fixtures + "/identical-a.png", fixtures + "/identical-b.png", "--shard", "\(k)/2", "--json", dir + "/p\(k).json"]).status == 0)
        }
        let merged = try CLI.run(["diff", "--merge", dir + "/p1.json", dir + "/p0.json", "--json", dir + "/m.json"])
        #expect(merged.status == 0 && merged.stdout == "0 changed, 0 added, 0 removed, 1 unchanged\n", "\(merged.stderr)")
        _ = try CLI.run(["diff", fixtures + "/identical-a.png", fixtures + "/identical-b.png", "--json", dir + "/w.json"])
        #expect(FileManager.default.contents(atPath: dir + "/m.json") == FileManager.default.contents(atPath: dir + "/w.json"))
    }

    /// Names with quotes, backslashes, brackets, a newline and an escape character: the
    /// pairs' JSON objects are found in the parts and written back as they were.
    @Test func hostileNamesSurviveTheMerge() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["b", "c"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        for (i, name) in ["a\"q.png", "b\\x.png", "c\nnl.png", "d{[.png", "e\u{1B}.png", "f}].png", "g\\\".png"].enumerated() {
            try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/b/" + name)
            try Bitmap(width: 4, height: 4, fill: i % 2 == 0 ? .black : .white).writePNG(to: dir + "/c/" + name)
        }
        let whole = try CLI.run(["diff", dir + "/b", dir + "/c", "--json", dir + "/whole.json", "--junit", dir + "/whole.xml"])
        for k in 0..<3 { _ = try CLI.run(["diff", dir + "/b", dir + "/c", "--shard", "\(k)/3", "--json", dir + "/p\(k).json"]) }
        let merged = try CLI.run(["diff", "--merge", dir + "/p0.json", dir + "/p1.json", dir + "/p2.json", "--json", dir + "/m.json", "--junit", dir + "/m.xml"])
        #expect(merged.status == 1 && merged.stdout == whole.stdout, "\(merged.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/m.json") == FileManager.default.contents(atPath: dir + "/whole.json"))
        #expect(FileManager.default.contents(atPath: dir + "/m.xml") == FileManager.default.contents(atPath: dir + "/whole.xml"))
    }

    /// Names that Swift's String takes for equal but whose bytes differ (é as one scalar,
    /// NFC, and as e + U+0301, NFD) are two files: each is its own pair, added or removed,
    /// in one run and in shards merged (before, the NFD pair vanished from every report and
    /// café NFC against café NFD failed as "cannot read").
    @Test func namesEqualAsTextButNotAsBytesAreTwoPairs() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["b", "c"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        let (cafeNFC, cafeNFD) = ("caf\u{E9}.png", "cafe\u{301}.png")
        let (xNFC, xNFD) = ("x\u{E9}.png", "xe\u{301}.png")
        #expect(cafeNFC == cafeNFD && Array(cafeNFC.utf8) != Array(cafeNFD.utf8))
        try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/b/" + cafeNFC)
        try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/c/" + cafeNFD)
        for side in ["b", "c"] { try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/\(side)/" + xNFC) }
        try Bitmap(width: 4, height: 4, fill: .white).writePNG(to: dir + "/b/" + xNFD)
        try Bitmap(width: 4, height: 4, fill: .black).writePNG(to: dir + "/c/" + xNFD)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir + "/b").count == 3)
        let whole = try CLI.run(["diff", dir + "/b", dir + "/c", "--json", dir + "/whole.json", "-q"])
        #expect(whole.status == 1, "\(whole.stderr)")
        let data = try #require(FileManager.default.contents(atPath: dir + "/whole.json"))
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let counts = try #require(report["counts"] as? [String: Int])
        #expect(counts["added"] == 1 && counts["removed"] == 1 && counts["unchanged"] == 1 && counts["changed"] == 1 && counts["failed"] == 0, "\(counts)")
        for k in 0..<2 { _ = try CLI.run(["diff", dir + "/b", dir + "/c", "--shard", "\(k)/2", "--json", dir + "/p\(k).json", "-q"]) }
        let merged = try CLI.run(["diff", "--merge", dir + "/p0.json", dir + "/p1.json", "--json", dir + "/m.json", "-q"])
        #expect(merged.status == 1, "\(merged.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/m.json") == FileManager.default.contents(atPath: dir + "/whole.json"))
    }

    @Test func mergedHTMLLinksTheShardsDiffImages() throws {
        let f = try Self.folders()
        #expect(try CLI.run(["diff", f.baseline, f.current, "--html", f.dir + "/whole.html"] + Self.options).status == 1)
        let parts = try Self.shards(3, f, html: true)
        let merged = try CLI.run(["diff", "--merge"] + parts + ["--html", f.dir + "/merged.html"])
        #expect(merged.status == 1, "\(merged.stderr)")
        let page = try String(contentsOfFile: f.dir + "/merged.html", encoding: .utf8)
        let wholePage = try String(contentsOfFile: f.dir + "/whole.html", encoding: .utf8)
        #expect(page.replacingOccurrences(of: "merged_files", with: "whole_files") == wholePage)
        let images = try FileManager.default.contentsOfDirectory(atPath: f.dir + "/whole_files").filter { $0.hasSuffix(".png") }.sorted()
        #expect(images.count == 13)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.dir + "/merged_files").filter { $0.hasSuffix(".png") }.sorted() == images)
        for image in images {
            #expect(FileManager.default.contents(atPath: f.dir + "/merged_files/" + image) == FileManager.default.contents(atPath: f.dir + "/whole_files/" + image))
        }
        // The parts' own images stay where they are.
        #expect(FileManager.default.fileExists(atPath: f.dir + "/parts/part-0_files/00001.png"))
        // Parts without their images: refused, nothing written.
        let bare = try Self.shards(3, f, extra: [])
        let refused = try CLI.run(["diff", "--merge"] + bare + ["--html", f.dir + "/bare.html", "--json", f.dir + "/bare.json"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("part-0.json: no diff images for --html: its shard wrote no HTML report"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/bare.html") && !FileManager.default.fileExists(atPath: f.dir + "/bare.json"))
    }

    /// Each refused with a message naming the file; no report written.
    @Test func partsThatDoNotBelongTogether() throws {
        let f = try Self.folders()
        let parts = try Self.shards(4, f)
        let out = f.dir + "/merged.json"
        func refused(_ merge: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try CLI.run(["diff", "--json", out, "--junit", f.dir + "/merged.xml", "--merge"] + merge)
            #expect(result.status == 2, sourceLocation: sourceLocation)
            #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
            #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: f.dir + "/merged.xml"), sourceLocation: sourceLocation)
        }
        try refused(Array(parts[0..<3]), "shard 3/4 missing: give every shard's part (K from 0 to 3)")
        try refused([parts[1]], "shards 0/4, 2/4, 3/4 missing")
        try refused(parts + [parts[2]], "part-2.json and \(parts[2]) are both shard 2/4")
        // Another run: 3 shards, another threshold, another baseline folder.
        let other = f.dir + "/other"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        let three = other + "/three.json"
        _ = try CLI.run(["diff", f.baseline, f.current, "--shard", "0/3", "--json", three] + Self.options)
        try refused([parts[0], three], "three.json and \(parts[0]) are parts of different runs: the number of shards (3 and 4) differ")
        let threshold = other + "/threshold.json"
        _ = try CLI.run(["diff", f.baseline, f.current, "--shard", "1/4", "--json", threshold, "--threshold", "0.2", "--ignore", "7,7,1,1", "--max-diff-pixels", "1"])
        try refused([parts[0], threshold, parts[2], parts[3]], "threshold.json and \(parts[0]) are parts of different runs: the comparison (--threshold, --include-aa, --metric, --min-ssim, --max-delta-e, --max-flip, --align) differ")
        let ssim = other + "/ssim.json"
        _ = try CLI.run(["diff", f.baseline, f.current, "--shard", "1/4", "--json", ssim, "--threshold", "0.05", "--ignore", "7,7,1,1", "--metric", "ssim"])
        try refused([parts[0], ssim, parts[2], parts[3]], "ssim.json and \(parts[0]) are parts of different runs: the comparison (--threshold, --include-aa, --metric, --min-ssim, --max-delta-e, --max-flip, --align) differ")
        try FileManager.default.copyItem(atPath: f.baseline, toPath: f.dir + "/baseline2")
        let base = other + "/base.json"
        _ = try CLI.run(["diff", f.dir + "/baseline2", f.current, "--shard", "1/4", "--json", base] + Self.options)
        try refused([parts[0], base, parts[2], parts[3]], "base.json and \(parts[0]) are parts of different runs: the baseline")
        // A report of a run in one piece.
        let whole = other + "/whole.json"
        _ = try CLI.run(["diff", f.baseline, f.current, "--json", whole] + Self.options)
        try refused([whole], "whole.json: a report of a run in one piece, not a shard's part")
        // Damaged: cut short, a pair taken out, another schema, not JSON at all, missing.
        let text = try String(contentsOfFile: parts[1], encoding: .utf8)
        let cut = other + "/cut.json"
        try String(text.prefix(text.count / 2)).write(toFile: cut, atomically: true, encoding: .utf8)
        try refused([parts[0], cut, parts[2], parts[3]], "cut.json: not a whole part of a sharded mosaic diff: not JSON")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["pairs"] = Array((object["pairs"] as? [Any] ?? []).dropLast())
        let fewer = other + "/fewer.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: fewer))
        try refused([parts[0], fewer, parts[2], parts[3]], "fewer.json: not a whole part of a sharded mosaic diff: it holds 8 pairs; shard 1/4 of a run of 35 pairs has 9")
        object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var pairs = object["pairs"] as? [[String: Any]] ?? []
        pairs[0]["path"] = "elsewhere.png"
        object["pairs"] = pairs
        let moved = other + "/moved.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: moved))
        try refused([parts[0], moved, parts[2], parts[3]], "not a whole part of a sharded mosaic diff: pair ")
        object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["schemaVersion"] = 99
        let schema = other + "/schema.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: schema))
        try refused([parts[0], schema, parts[2], parts[3]], "schema.json: written with schemaVersion 99; this mosaic merges parts of schemaVersion 4")
        object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        object["pairs"] = nil
        let noPairs = other + "/nopairs.json"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: noPairs))
        try refused([parts[0], noPairs], "nopairs.json: not a whole part of a sharded mosaic diff: \"pairs\" missing")
        try refused([parts[0], other + "/absent.json"], "absent.json: cannot read the part")
        #expect(mkfifo(other + "/fifo.json", 0o644) == 0)
        try refused([parts[0], other + "/fifo.json"], "fifo.json: cannot read the part: not a file")
    }

    @Test func usageErrors() throws {
        let f = try Self.folders()
        func usage(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let result = try CLI.run(["diff"] + arguments)
            #expect(result.status == 64, sourceLocation: sourceLocation)
            #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
        }
        // The same parser and messages as render's --shard.
        try usage([f.baseline, f.current, "--shard", "4/4", "--json", f.dir + "/p.json"], "--shard 4/4: K must be 0 to 3 (K counts from 0), got 4")
        try usage([f.baseline, f.current, "--shard", "1/0", "--json", f.dir + "/p.json"], "--shard must be K/N with 0 <= K < N (K from 0) and N at most 10000")
        try usage([f.baseline, f.current, "--shard", "0/10001", "--json", f.dir + "/p.json"], "--shard: at most 10000 shards, got 10001")
        let render = try CLI.run(["render", f.baseline, "-o", f.dir + "/b.dzi", "--shard", "4/4"])
        #expect(render.status == 64 && render.stderr.contains("--shard 4/4: K must be 0 to 3 (K counts from 0), got 4"))
        try usage([f.baseline, f.current, "--shard", "0/2"], "--shard compares a part of the pairs: give --json FILE")
        try usage([f.baseline, "--merge", f.dir + "/a.json"], "--merge reads the parts only")
        try usage(["--merge", f.dir + "/a.json", "--threshold", "0.2"], "--threshold does not go with --merge")
        try usage(["--merge", f.dir + "/a.json", "-o", f.dir + "/board.png"], "--output does not go with --merge")
        try usage(["--merge", f.dir + "/a.json", "--accept"], "--accept does not go with --merge")
        try usage([f.baseline], "Missing expected argument '<current>'")
        #expect(!FileManager.default.fileExists(atPath: f.dir + "/p.json"))
    }
}
