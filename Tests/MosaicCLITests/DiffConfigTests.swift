import Foundation
import Mosaic
import Testing

/// `mosaic diff --config FILE` (or `mosaic-diff.json` beside BASELINE): per-path rules
/// with their own threshold, metric, tolerance and ignored rectangles; the JSON says which
/// rule compared each pair; unknown keys and globs that compare nothing are warnings, bad
/// values errors naming the file and the key; a sharded run's parts must have read the
/// same file.
@Suite struct DiffConfigTests {
    /// baseline/ and current/: `clock/home.png` whose clock (top right) changed,
    /// `ui/button.png` 41 px changed, `other.png` 4 px changed.
    static func folders() throws -> (dir: String, baseline: String, current: String) {
        let (baseline, current) = try DiffCommandTests.folders()
        let dir = (baseline as NSString).deletingLastPathComponent
        for side in [baseline, current] { try FileManager.default.createDirectory(atPath: side + "/clock", withIntermediateDirectories: true) }
        var page = Bitmap(width: 200, height: 100, fill: .white)
        try page.writePNG(to: baseline + "/clock/home.png")
        try page.writePNG(to: baseline + "/other.png")
        for x in 170..<190 { for y in 5..<12 { page[x, y] = .black } }
        try page.writePNG(to: current + "/clock/home.png")
        page = Bitmap(width: 200, height: 100, fill: .white)
        for (x, y) in [(50, 50), (51, 50), (50, 51), (51, 51)] { page[x, y] = .black }
        try page.writePNG(to: current + "/other.png")
        return (dir, baseline, current)
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    static let config = """
        { "rules": [
            { "glob": "clock/*.png", "ignore": [[160, 0, 40, 20]] },
            { "glob": "ui/**", "maxDiffPixels": 100 },
            { "glob": "**/*.png", "threshold": 0.1 } ] }
        """

    @Test func eachPairIsJudgedByItsRule() throws {
        let (dir, baseline, current) = try Self.folders()
        try Self.write(Self.config, to: dir + "/rules.json")
        let result = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json", "--json", dir + "/r.json"])
        // The clock ignored, the button within its rule's tolerance; other.png changed
        // (the third rule), old/new added and removed.
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let report = try Self.json(dir + "/r.json")
        #expect(report["schemaVersion"] as? Int == 4)
        #expect((report["config"] as? String)?.hasSuffix("rules.json") == true && (report["rules"] as? [Any])?.count == 3)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        func pair(_ name: String) -> [String: Any]? { pairs.first { $0["path"] as? String == name } }
        func rule(_ pair: [String: Any]?) -> String? {
            (pair?["rule"] as? [String: Any]).map { "\($0["index"] as? Int ?? -1) \($0["glob"] as? String ?? "")" }
        }
        #expect(pair("clock/home.png")?["status"] as? String == "unchanged")
        #expect(rule(pair("clock/home.png")) == "0 clock/*.png")
        #expect(pair("ui/button.png")?["status"] as? String == "withinTolerance")
        #expect(rule(pair("ui/button.png")) == "1 ui/**")
        #expect(pair("other.png")?["status"] as? String == "changed")
        #expect(rule(pair("other.png")) == "2 **/*.png")
        // Without the rules the clock and the button fail too.
        let plain = try CLI.run(["diff", baseline, current, "--json", dir + "/plain.json"])
        let plainPairs = try #require(Self.json(dir + "/plain.json")["pairs"] as? [[String: Any]])
        #expect(plain.status == 1)
        #expect(plainPairs.filter { $0["status"] as? String == "changed" }.count == 3 && plainPairs.allSatisfy { $0["rule"] == nil })
    }

    @Test func theFileBesideTheBaselineIsReadUnlessAnotherIsGiven() throws {
        let (dir, baseline, current) = try Self.folders()
        try Self.write(Self.config, to: dir + "/mosaic-diff.json")
        #expect(try CLI.run(["diff", baseline + "/", current, "--json", dir + "/r.json"]).status == 1)
        let pairs = try #require(Self.json(dir + "/r.json")["pairs"] as? [[String: Any]])
        #expect(pairs.first { $0["path"] as? String == "clock/home.png" }?["status"] as? String == "unchanged")
        // --config names another: that one only.
        try Self.write(#"{ "rules": [ { "glob": "other.png", "maxDiffPixels": 4 } ] }"#, to: dir + "/mine.json")
        #expect(try CLI.run(["diff", baseline, current, "--config", dir + "/mine.json", "--json", dir + "/m.json"]).status == 1)
        let mine = try #require(Self.json(dir + "/m.json")["pairs"] as? [[String: Any]])
        #expect(mine.first { $0["path"] as? String == "clock/home.png" }?["status"] as? String == "changed")
        #expect(mine.first { $0["path"] as? String == "other.png" }?["status"] as? String == "withinTolerance")
        // No report may replace it.
        let refused = try CLI.run(["diff", baseline, current, "--config", dir + "/mine.json", "--json", dir + "/mine.json"])
        #expect(refused.status == 2 && refused.stderr.contains("mine.json"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: dir + "/mine.json", encoding: .utf8).contains("other.png"))
    }

    @Test func unknownKeysAndIdleGlobsAreWarnings() throws {
        let (dir, baseline, current) = try Self.folders()
        try Self.write("""
            { "rules": [ { "glob": "clock/*.png", "treshold": 0.3 }, { "glob": "nowhere/*.png" }, { "glob": "clock/home.png" } ],
              "version": 1 }
            """, to: dir + "/rules.json")
        let result = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json"])
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("warning: ") && $0.hasSuffix("rules.json: unknown key rules[0].treshold (ignored)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("rules.json: unknown key version (ignored)") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("rules.json: rules[1] (glob \"nowhere/*.png\") compares nothing: it matches no pair") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("rules.json: rules[2] (glob \"clock/home.png\") compares nothing: every pair it matches is taken by an earlier rule") }, "\(lines)")
    }

    @Test func aBadValueIsAnErrorNamingTheFileAndTheKey() throws {
        let (dir, baseline, current) = try Self.folders()
        try Self.write(#"{ "rules": [ { "glob": "a" }, { "glob": "b", "threshold": 2 } ] }"#, to: dir + "/rules.json")
        let result = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json", "--json", dir + "/r.json"])
        #expect(result.status == 64)
        #expect(result.stderr.hasSuffix("rules.json: rules[1].threshold: a number from 0.0 to 1.0 is expected\n"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/r.json"))
        let missing = try CLI.run(["diff", baseline, current, "--config", dir + "/none.json"])
        #expect(missing.status == 64 && missing.stderr.contains("none.json: cannot read the review config"), "\(missing.stderr)")
    }

    @Test func badConfigsAreRefusedWithTheirCase() throws {
        let path = "c.json"
        func refused(_ text: String) -> DiffConfigError? {
            do {
                let config = try DiffConfig.parse(Data(text.utf8), path: path)
                _ = try config.pairRules(options: ComparisonOptions(), tolerance: DiffTolerance())
                return nil
            } catch {
                return error
            }
        }
        #expect(refused(#"{ "rules": [ { "glob": "a", "threshold": "0.2" } ] }"#) == .badValue(path: path, key: "rules[0].threshold", reason: "a number from 0.0 to 1.0 is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "" } ] }"#) == .badValue(path: path, key: "rules[0].glob", reason: "a glob (a non-empty string) is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "metric": "psnr" } ] }"#) == .badValue(path: path, key: "rules[0].metric", reason: "one of \"pixelmatch\", \"ssim\", \"flip\" is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "maxDiffPixels": 1.5 } ] }"#) == .badValue(path: path, key: "rules[0].maxDiffPixels", reason: "a whole number is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "maxDiffPixels": true } ] }"#) == .badValue(path: path, key: "rules[0].maxDiffPixels", reason: "a number from 0.0 to 2147483647.0 is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "maxDiffPixels": 1, "maxDiffRatio": 0.1 } ] }"#) == .badValue(path: path, key: "rules[0].maxDiffRatio", reason: "give maxDiffPixels or maxDiffRatio, not both"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "ignore": [[0, 0, -1, 4]] } ] }"#) == .badValue(path: path, key: "rules[0].ignore[0]", reason: "the width and height must not be negative"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "ignore": [[0, 0, 4]] } ] }"#) == .badValue(path: path, key: "rules[0].ignore[0]", reason: "[x, y, width, height] is expected"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "minSSIM": 0.9 } ] }"#) == .badValue(path: path, key: "rules[0].minSSIM", reason: "goes with the ssim metric; this rule compares with pixelmatch"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "metric": "ssim", "maxDiffPixels": 3 } ] }"#) == .badValue(path: path, key: "rules[0].maxDiffPixels", reason: "the ssim metric passes pairs by its score, not by differing pixels"))
        #expect(refused(#"{ "rules": [ { "glob": "a", "maxFLIP": 0.1 } ] }"#) == .badValue(path: path, key: "rules[0].maxFLIP", reason: "goes with the flip metric; this rule compares with pixelmatch"))
        #expect(refused(#"{ "glob": "a" }"#) == .badValue(path: path, key: "rules", reason: "missing: the file lists its rules under \"rules\""))
        #expect(refused(#"[1]"#) == .badValue(path: path, key: "(the file)", reason: "an object { \"rules\": [...] } is expected"))
        if case .notJSON(path: path, reason: _)? = refused("{ rules: ") {} else { Issue.record("not JSON: \(String(describing: refused("{ rules: ")))") }
        // A sound one, with a metric of its own.
        #expect(refused(#"{ "rules": [ { "glob": "a", "metric": "ssim", "minSSIM": 0.9, "maxDeltaE": 3 }, { "glob": "b", "metric": "flip", "maxFLIP": 0.1 } ] }"#) == nil)
    }

    @Test func shardsOfOneConfigMergeAndOfTwoAreRefused() throws {
        let (dir, baseline, current) = try Self.folders()
        try Self.write(Self.config, to: dir + "/rules.json")
        let whole = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json", "--json", dir + "/whole.json"])
        var parts: [String] = []
        for k in 0..<2 {
            parts.append(dir + "/part-\(k).json")
            _ = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json", "--shard", "\(k)/2", "--json", parts[k]])
        }
        let merged = try CLI.run(["diff", "--merge"] + parts + ["--json", dir + "/merged.json"])
        #expect(merged.status == whole.status && merged.stdout == whole.stdout, "\(merged.stderr)")
        #expect(FileManager.default.contents(atPath: dir + "/merged.json") == FileManager.default.contents(atPath: dir + "/whole.json"))
        // A second shard that read another config (one rule changed) is of another run.
        try Self.write(Self.config.replacingOccurrences(of: "100", with: "10"), to: dir + "/rules.json")
        _ = try CLI.run(["diff", baseline, current, "--config", dir + "/rules.json", "--shard", "1/2", "--json", parts[1]])
        let refused = try CLI.run(["diff", "--merge"] + parts + ["--json", dir + "/refused.json"])
        #expect(refused.status == 2 && refused.stderr.contains("the review config files"), "\(refused.stderr)")
    }
}

extension DiffConfigTests {
    /// Where the default config is looked for: beside BASELINE, however it is spelt (a
    /// one-component name made Foundation's deletingLastPathComponent trap).
    @Test(arguments: [
        ("b", "mosaic-diff.json"), ("b/", "mosaic-diff.json"), ("x/b", "x/mosaic-diff.json"), ("/b", "/mosaic-diff.json"),
        ("/x/y/b//", "/x/y/mosaic-diff.json"), ("b.png", "mosaic-diff.json"),
    ])
    func theDefaultConfigIsBesideTheBaseline(_ baseline: String, _ expected: String) {
        #expect(DiffConfig.defaultPath(beside: baseline) == expected)
    }
}
