import Foundation
import Mosaic
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `mosaic diff --merge` checks what it merges (issue 35): a part of another run (other
/// bytes under the same names) is refused by the run's fingerprint, every verdict is
/// recomputed from the figures, a key given twice is refused, the HTML report copies only
/// the diff images the shards wrote (never a link, never by hard link), and parts and
/// their strings are capped.
@Suite struct MergeTrustTests {
    /// Runs `mosaic diff --merge PARTS --json OUT --junit XML`: the status and standard
    /// error, and that no report was written when refused.
    static func merge(_ parts: [String], dir: String, extra: [String] = []) throws -> CommandResult {
        let result = try CLI.run(["diff", "--json", dir + "/merged.json", "--junit", dir + "/merged.xml"] + extra + ["--merge"] + parts)
        if result.status == 2 {
            #expect(!FileManager.default.fileExists(atPath: dir + "/merged.json") && !FileManager.default.fileExists(atPath: dir + "/merged.xml"))
        }
        // For the next merge's check.
        for report in ["merged.json", "merged.xml"] { try? FileManager.default.removeItem(atPath: dir + "/" + report) }
        return result
    }

    /// Today's parts 0, 1, 3 with yesterday's part 2 (the same names, other screenshots)
    /// merged into a passing run, exit 0. The parts' fingerprints differ now.
    @Test func aPartOfAnotherRunIsRefused() throws {
        let f = try DiffShardTests.folders()
        let yesterday = try DiffShardTests.shards(4, f)
        try FileManager.default.moveItem(atPath: yesterday[2], toPath: f.dir + "/yesterday-2.json")
        // Today: one screenshot changed (whichever shard holds it).
        try Bitmap(width: 8, height: 8, fill: .black).writePNG(to: f.current + "/screens/s1.png")
        let today = try DiffShardTests.shards(4, f)
        let run = try Self.merge([today[0], today[1], f.dir + "/yesterday-2.json", today[3]], dir: f.dir)
        #expect(run.status == 2)
        #expect(run.stderr == """
            error: \(f.dir)/yesterday-2.json and \(today[0]) are parts of different runs: the bytes of the images compared (a part of another run, or files changed while the shards ran) differ

            """, "\(run.stderr)")
        #expect(try Self.merge(today, dir: f.dir).status == 1)
        // A part without the fingerprint (an older mosaic's): refused as such.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: today[2]))) as? [String: Any])
        var shard = try #require(object["shard"] as? [String: Any])
        shard["fingerprint"] = nil
        object["shard"] = shard
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: f.dir + "/old.json"))
        let old = try Self.merge([today[0], today[1], f.dir + "/old.json", today[3]], dir: f.dir)
        #expect(old.status == 2 && old.stderr == "error: \(f.dir)/old.json: a part without the run's fingerprint (from an older mosaic): run the shards again with this one\n", "\(old.stderr)")
    }

    /// A pair's `"status": "unchanged"` beside 64 differing pixels passed; a second
    /// `"status"` key was copied into the merged report. Each edit is refused now.
    @Test(arguments: [
        ("a verdict", "\"status\" : \"unchanged\"", "says \"unchanged\", but its figures make it \"changed\" (4 differing pixels against --max-diff-pixels 1): an edited part"),
        ("a key twice", "\"status\" : \"changed\", \"\\u0073tatus\" : \"unchanged\"", "not a part as mosaic writes it: \"status\" twice in one object"),
        ("a negative count", "\"differingPixels\" : -4", "says \"changed\", but its figures do not add up (-4 of 63 pixels compared in 8x8): an edited part"),
        ("an SSIM score", "\"ssim\" : 1, \"status\" : \"changed\"", "says \"changed\", but it has an SSIM score in a run compared with pixelmatch: an edited part"),
        ("a fraction", "", "says \"changed\", but its fraction 0.0 is not 4 of 63: an edited part"),
    ])
    func anEditedPairIsRefused(_ what: String, _ replacement: String, _ message: String) throws {
        let (run, dir) = try Self.mergeEdited { pair in
            #expect(pair.contains("\"status\" : \"changed\"") && pair.contains("\"differingPixels\" : 4"), "\(pair)")
            switch what {
            case "a negative count": pair = pair.replacingOccurrences(of: "\"differingPixels\" : 4", with: replacement)
            case "a fraction": pair = pair.replacing(/"fraction" : [0-9.e+-]+/, with: "\"fraction\" : 0")
            default: pair = pair.replacingOccurrences(of: "\"status\" : \"changed\"", with: replacement)
            }
        }
        #expect(run.status == 2)
        let pairName = what == "a key twice" ? "" : "pair screens/deep/s0.png "
        #expect(run.stderr.hasPrefix("error: \(dir)/edited.json: \(pairName)\(message)"), "\(run.stderr)")
    }

    /// Three shards' parts, the one holding screens/deep/s0.png (changed, 4 pixels, more
    /// than the 1 that passes) with that pair's JSON object edited by `edit` (and the rest
    /// of the part by `editPart`), merged: the run and its folder.
    static func mergeEdited(_ edit: (inout String) throws -> Void, editPart: (String) -> String = { $0 }) throws -> (CommandResult, String) {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(3, f)
        let index = try #require(parts.firstIndex { (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("\"path\" : \"screens/deep/s0.png\"") ?? false })
        let text = try String(contentsOfFile: parts[index], encoding: .utf8)
        let object = try #require(text.range(of: "\"path\" : \"screens/deep/s0.png\""))
        let open = try #require(text[..<object.lowerBound].range(of: "{", options: .backwards)).lowerBound
        // Its last key is "status" (the keys are sorted); the object ends after it.
        let status = try #require(text[object.upperBound...].range(of: "\"status\" : "))
        let close = try #require(text[status.upperBound...].range(of: "}")).upperBound
        var pair = String(text[open..<close])
        try edit(&pair)
        var edited = parts
        edited[index] = f.dir + "/edited.json"
        try editPart(text[..<open] + pair + text[close...]).write(toFile: edited[index], atomically: true, encoding: .utf8)
        return (try Self.merge(edited, dir: f.dir), f.dir)
    }

    /// Valid JSON whose number no field holds (`2.5` pixels, 2^64, `1e400`, a shard count
    /// of `1e300`) was "not JSON (The given data was not valid JSON.)"; a height of 2^62
    /// trapped (an overflow, SIGILL); bounds at 2^63 were printed as they were. Each is
    /// named now, with the field and its range.
    @Test(arguments: [
        (#""differingPixels" : 4"#, #""differingPixels" : 2.5"#,
            "not a whole part of a sharded mosaic diff: pairs[0].differingPixels is 2.5, not a whole number from 0 to 9223372036854775807"),
        (#""comparedPixels" : 63"#, #""comparedPixels" : 18446744073709551616"#,
            "not a whole part of a sharded mosaic diff: pairs[0].comparedPixels is 18446744073709551616, not a whole number from 0 to 9223372036854775807"),
        (#""largestDelta" : [0-9.e-]+"#, #""largestDelta" : 1e400"#,
            "not a whole part of a sharded mosaic diff: pairs[0].largestDelta is 1e400, more than a number holds"),
        (#""size" : \{\s*"height" : 8"#, #""size" : { "height" : 4611686018427387904"#,
            #"pair screens/deep/s0.png says "changed", but its size's height 4611686018427387904 is not a whole number from 0 to 2147483647: an edited part"#),
        (#""x" : [0-9]+"#, #""x" : 9223372036854775807"#,
            #"pair screens/deep/s0.png says "changed", but its bounds (9223372036854775807, "#),
        ("shard.count", "1e300", "not a whole part of a sharded mosaic diff: shard.count is 1e300, not a whole number from 1 to 10000"),
    ])
    func aNumberNoFieldHoldsIsNamed(_ pattern: String, _ replacement: String, _ message: String) throws {
        let isShard = pattern == "shard.count"
        let (run, dir) = try Self.mergeEdited({ pair in
            guard !isShard else { return }
            let regex = try Regex(pattern)
            #expect(pair.contains(regex), "\(pair)")
            pair = pair.replacing(regex, with: replacement, maxReplacements: 1)
        }, editPart: { isShard ? $0.replacing(/"count" : 3,/, with: "\"count\" : 1e300,") : $0 })
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: \(dir)/edited.json: \(message)"), "\(run.stderr)")
    }

    /// Scores outside their scales passed into the merged verdicts (a largest delta of -3,
    /// an SSIM of 5): each is named now, with its scale.
    @Test(arguments: [
        (#""largestDelta" : [0-9.e-]+"#, #""largestDelta" : -3"#, "not a whole part of a sharded mosaic diff: pair screens/deep/s0.png: its largestDelta -3.0 is not a number from 0 to 1"),
        (#""largestDelta" : [0-9.e-]+"#, #""largestDelta" : 0.5, "ssim" : 5"#, "not a whole part of a sharded mosaic diff: pair screens/deep/s0.png: its ssim 5.0 is not a number from -1 to 1"),
        (#""largestDelta" : [0-9.e-]+"#, #""largestDelta" : 0.5, "flip" : -0.25"#, "not a whole part of a sharded mosaic diff: pair screens/deep/s0.png: its flip -0.25 is not a number from 0 to 1"),
    ])
    func aScoreOutsideItsScaleIsNamed(_ pattern: String, _ replacement: String, _ message: String) throws {
        let (run, dir) = try Self.mergeEdited({ pair in
            let regex = try Regex(pattern)
            #expect(pair.contains(regex), "\(pair)")
            pair = pair.replacing(regex, with: replacement, maxReplacements: 1)
        }, editPart: { $0 })
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("error: \(dir)/edited.json: \(message)"), "\(run.stderr)")
    }

    /// `--merge --html` copied a link from a shard's `_files` folder (to any file) into the
    /// report, and hard-linked the others. Now a link, a file of other bytes or one that is
    /// not a PNG is refused (nothing written), and the images are copied, never linked.
    @Test func onlyTheDiffImagesTheShardsWroteAreCopied() throws {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(3, f, html: true)
        let image = f.dir + "/parts/part-0_files/00001.png"
        let original = try Data(contentsOf: URL(fileURLWithPath: image))
        try "secret".write(toFile: f.dir + "/secret.txt", atomically: true, encoding: .utf8)
        try Bitmap(width: 8, height: 8, fill: .white).writePNG(to: f.dir + "/other.png")
        let fm = FileManager.default
        for (swap, reason) in [
            ("a link", "a symbolic link"), ("a link to a PNG", "a symbolic link"), ("another PNG", "its bytes are not those its shard wrote"),
            ("text", "not a PNG"),
        ] {
            try fm.removeItem(atPath: image)
            switch swap {
            case "a link": try fm.createSymbolicLink(atPath: image, withDestinationPath: f.dir + "/secret.txt")
            case "a link to a PNG": try fm.createSymbolicLink(atPath: image, withDestinationPath: f.dir + "/other.png")
            case "another PNG": try fm.copyItem(atPath: f.dir + "/other.png", toPath: image)
            default: try fm.copyItem(atPath: f.dir + "/secret.txt", toPath: image)
            }
            let run = try Self.merge(parts, dir: f.dir, extra: ["--html", f.dir + "/merged.html"])
            #expect(run.status == 2)
            #expect(run.stderr == "error: \(parts[0]): \(image) is not the diff image its shard wrote: \(reason); nothing copied\n", "\(swap): \(run.stderr)")
            #expect(!fm.fileExists(atPath: f.dir + "/merged.html") && !fm.fileExists(atPath: f.dir + "/merged_files"))
        }
        try fm.removeItem(atPath: image)
        try original.write(to: URL(fileURLWithPath: image))
        let run = try Self.merge(parts, dir: f.dir, extra: ["--html", f.dir + "/merged.html"])
        #expect(run.status == 1, "\(run.stderr)")
        // Copies: each merged image is a file of its own (one link), the shard's too.
        for name in try fm.contentsOfDirectory(atPath: f.dir + "/merged_files") where name.hasSuffix(".png") {
            #expect(FileNames.status(f.dir + "/merged_files/" + name)?.st_nlink == 1, "\(name)")
        }
        #expect(FileNames.status(image)?.st_nlink == 1)
        // A file name that is a path in a part: refused, not read.
        let text = try String(contentsOfFile: parts[0], encoding: .utf8)
        try text.replacingOccurrences(of: "\"file\" : \"00001.png\"", with: "\"file\" : \"..\\/..\\/secret.txt\"").write(toFile: f.dir + "/path.json", atomically: true, encoding: .utf8)
        let path = try Self.merge([f.dir + "/path.json", parts[1], parts[2]], dir: f.dir, extra: ["--html", f.dir + "/p.html"])
        #expect(path.status == 2 && path.stderr.contains("path.json: not a whole part of a sharded mosaic diff: \"../../secret.txt\" is not the name of a diff image"), "\(path.stderr)")
    }

    /// A hand-edited part could point its diff images' folder anywhere (`../elsewhere_files`,
    /// an absolute path, a link beside it) or its image at a hard link to another file, and
    /// the merge copied any PNG whose digest it gave into the report. Now the images come
    /// only from a `_files` folder inside the part's folder, reached without a link, each a
    /// file of one link; nothing is written otherwise.
    @Test(arguments: ["../elsewhere_files", "an absolute path", "link_files", "a hard link"])
    func aPartTakesItsDiffImagesOnlyFromItsOwnFolder(_ edit: String) throws {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(3, f, html: true)
        let fm = FileManager.default
        let (own, elsewhere) = (f.dir + "/parts/part-0_files", f.dir + "/elsewhere_files")
        // Another PNG, and the digest an editor of the part would give it; beside it the
        // part's other images, so that only the one swapped differs.
        try Bitmap(width: 8, height: 8, fill: RGBA(red: 1, green: 2, blue: 3)).writePNG(to: f.dir + "/secret.png")
        let digest = CRC64.hex(ContentDigest(of: [UInt8](try Data(contentsOf: URL(fileURLWithPath: f.dir + "/secret.png")))).crc64)
        try fm.copyItem(atPath: own, toPath: elsewhere)
        try fm.removeItem(atPath: elsewhere + "/00001.png")
        try fm.copyItem(atPath: f.dir + "/secret.png", toPath: elsewhere + "/00001.png")
        var folder = "part-0_files"
        switch edit {
        case "an absolute path": folder = elsewhere
        case "link_files":
            try fm.createSymbolicLink(atPath: f.dir + "/parts/link_files", withDestinationPath: elsewhere)
            folder = "link_files"
        case "a hard link":
            try fm.removeItem(atPath: own + "/00001.png")
            #expect(link(f.dir + "/secret.png", own + "/00001.png") == 0)
        default: folder = edit
        }
        var text = try String(contentsOfFile: parts[0], encoding: .utf8)
        text = text.replacingOccurrences(of: "\"folder\" : \"part-0_files\"", with: "\"folder\" : \"\(folder)\"")
        let entry = try NSRegularExpression(pattern: "\"digest\" : \"[0-9a-f]+\",(\\s*)\"file\" : \"00001.png\"")
        #expect(entry.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) == 1)
        text = entry.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "\"digest\" : \"\(digest)\",$1\"file\" : \"00001.png\"")
        try text.write(toFile: parts[0], atomically: true, encoding: .utf8)
        let run = try Self.merge(parts, dir: f.dir, extra: ["--html", f.dir + "/merged.html"])
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        let expected = switch edit {
        case "link_files": "\(f.dir)/parts/link_files/00001.png is not the diff image its shard wrote: link_files is a symbolic link; nothing copied"
        case "a hard link": "\(own)/00001.png is not the diff image its shard wrote: a hard link (2 names for one file); nothing copied"
        default: "no diff images for --html: its images' folder \"\(folder)\" is not a _files folder inside the part's folder (write each shard's --json beside its --html)"
        }
        #expect(run.stderr == "error: \(parts[0]): \(expected)\n", "\(run.stderr)")
        #expect(!fm.fileExists(atPath: f.dir + "/merged.html") && !fm.fileExists(atPath: f.dir + "/merged_files"))
        // Without --html the images are not read, and the part merges.
        #expect(try Self.merge(parts, dir: f.dir).status == 1)
    }

    /// A part of 1,000 MiB (under the cap: sparse, a string or a name that never ends) was
    /// read whole, and copied, before the scan refused it (1.98 GB for a 1 GB string); under
    /// a 600 MB address space that was a crash. It is read in chunks now, and refused at the
    /// cap of the string or name, having read no more than that and a chunk.
    @Test(arguments: [
        (#"{"metric" : ""#, "a string of more than 64 KiB at byte 13"),
        (#"{"pairs" : [{"path" : ""#, "a name of more than 4096 bytes (more than a path can hold) at byte 23"),
    ])
    func aHugeStringOrNameIsRefusedUnread(_ start: String, _ message: String) throws {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(2, f)
        let huge = f.dir + "/huge.json"
        try Data(start.utf8).write(to: URL(fileURLWithPath: huge))
        #expect(truncate(huge, 1000 << 20) == 0)
        let result = try CLI.runInShell("ulimit -v 600000 && exec \"$0\" diff --merge \"$1\" \"$2\"", arguments: [parts[0], huge])
        #expect(result.status == 2)
        #expect(result.stderr == "error: \(huge): not a part of a sharded mosaic diff: \(message)\n", "\(result.stderr)")
    }

    /// A part of 3,000 pairs (1.3 MB) is decoded in two batches: merged, it is the run in one
    /// piece; a number no field holds and a key missing in its last pair are named there.
    @Test func aPartOfMoreThanOneBatch() throws {
        let dir = CLI.temporaryDirectory()
        for side in ["b", "c"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        for i in 0..<3000 {
            let name = String(repeating: "0", count: 5 - String(i).count) + "\(i).png"
            try Bitmap(width: 4, height: 4, fill: RGBA(red: UInt8(i % 256), green: 0, blue: 0)).writePNG(to: dir + "/b/" + name)
            try Bitmap(width: 4, height: 4, fill: RGBA(red: UInt8(i % 256), green: i % 7 == 0 ? 200 : 0, blue: 0)).writePNG(to: dir + "/c/" + name)
        }
        #expect(try CLI.run(["diff", dir + "/b", dir + "/c", "--json", dir + "/whole.json", "-q"]).status == 1)
        #expect(try CLI.run(["diff", dir + "/b", dir + "/c", "--shard", "0/1", "--json", dir + "/part.json", "-q"]).status == 1)
        let part = try String(contentsOfFile: dir + "/part.json", encoding: .utf8)
        #expect(part.utf8.count > 1 << 20)
        #expect(try Self.merge([dir + "/part.json"], dir: dir, extra: ["--json", dir + "/merged.json"]).status == 1)
        // (`merge` removes merged.json: the last --json wins, so write it again elsewhere.)
        #expect(try CLI.run(["diff", "--json", dir + "/again.json", "-q", "--merge", dir + "/part.json"]).status == 1)
        #expect(try String(contentsOfFile: dir + "/again.json", encoding: .utf8) == String(contentsOfFile: dir + "/whole.json", encoding: .utf8))
        let last = try #require(part.range(of: "\"comparedPixels\" : 16", options: .backwards))
        try part.replacingCharacters(in: last, with: "\"comparedPixels\" : 16.5").write(toFile: dir + "/number.json", atomically: true, encoding: .utf8)
        let number = try Self.merge([dir + "/number.json"], dir: dir)
        #expect(number.status == 2 && number.stderr.hasSuffix("pairs[2999].comparedPixels is 16.5, not a whole number from 0 to 9223372036854775807\n"), "\(number.stderr)")
        let path = try #require(part.range(of: "\"path\" : ", options: .backwards))
        try part.replacingCharacters(in: path, with: "\"name\" : ").write(toFile: dir + "/key.json", atomically: true, encoding: .utf8)
        let key = try Self.merge([dir + "/key.json"], dir: dir)
        #expect(key.status == 2 && key.stderr.hasSuffix("\"path\" missing at .pairs[2999]\n"), "\(key.stderr)")
    }

    /// `--merge --html part-0.html` replaced the shard's report folder the merge copies its
    /// diff images from (the shards' images gone, the part naming files of other bytes).
    /// Refused now, nothing written; the shard's images stay.
    @Test func theReportMayNotReplaceTheImagesItCopies() throws {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(2, f, html: true)
        let images = f.dir + "/parts/part-0_files"
        let before = ShardTests.files(images)
        #expect(!before.isEmpty)
        let run = try Self.merge(parts, dir: f.dir, extra: ["--html", f.dir + "/parts/part-0.html"])
        #expect(run.status == 2)
        #expect(run.stderr == "error: \(images): the output would overwrite one of the inputs\n", "\(run.stderr)")
        #expect(ShardTests.files(images) == before)
    }

    /// A part of 2 GiB (sparse) is refused from its size, unread; a string over 64 KiB
    /// from the scan, before the decoder holds it; a name over 4 KiB as a name.
    @Test func partsAndTheirStringsAreCapped() throws {
        let f = try DiffShardTests.folders()
        let parts = try DiffShardTests.shards(2, f)
        let huge = f.dir + "/huge.json"
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, 2 << 30) == 0)
        let large = try Self.merge([parts[0], huge], dir: f.dir)
        #expect(large.status == 2 && large.stderr == "error: \(huge): larger than 1024 MiB, more than any part of a sharded mosaic diff\n", "\(large.stderr)")
        let text = try String(contentsOfFile: parts[1], encoding: .utf8)
        let marker = "\"path\" : \""
        let at = try #require(text.range(of: marker))
        try (text[..<at.upperBound] + String(repeating: "a", count: 70_000) + text[at.upperBound...]).write(toFile: f.dir + "/long.json", atomically: true, encoding: .utf8)
        let long = try Self.merge([parts[0], f.dir + "/long.json"], dir: f.dir)
        #expect(long.status == 2)
        #expect(long.stderr == "error: \(f.dir)/long.json: not a part of a sharded mosaic diff: a name of more than 4096 bytes (more than a path can hold) at byte \(text.utf8.distance(from: text.startIndex, to: at.upperBound))\n", "\(long.stderr)")
        let metric = try #require(text.range(of: "\"metric\" : \""))
        try (text[..<metric.upperBound] + String(repeating: "a", count: 70_000) + text[metric.upperBound...]).write(toFile: f.dir + "/message.json", atomically: true, encoding: .utf8)
        let message = try Self.merge([parts[0], f.dir + "/message.json"], dir: f.dir)
        #expect(message.status == 2)
        #expect(message.stderr == "error: \(f.dir)/message.json: not a part of a sharded mosaic diff: a string of more than 64 KiB at byte \(text.utf8.distance(from: text.startIndex, to: metric.upperBound))\n", "\(message.stderr)")
        try (text[..<at.upperBound] + String(repeating: "a", count: 5_000) + text[at.upperBound...]).write(toFile: f.dir + "/name.json", atomically: true, encoding: .utf8)
        let name = try Self.merge([parts[0], f.dir + "/name.json"], dir: f.dir)
        #expect(name.status == 2 && name.stderr.contains("name.json: not a whole part of a sharded mosaic diff: a name of 50"), "\(name.stderr)")
        let device = try Self.merge([parts[0], "/dev/zero"], dir: f.dir)
        #expect(device.status == 2 && device.stderr == "error: /dev/zero: cannot read the part: not a file: it is a character device (not read)\n", "\(device.stderr)")
    }
}
