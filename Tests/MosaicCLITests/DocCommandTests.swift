import Foundation
import MosaicTestSupport
import Testing

/// The `mosaic` command lines of the README and the user guide: every one names a command
/// and options that exist, and the README's own examples run as written (on the sample
/// photos, and on a baseline and a current folder made here).
@Suite struct DocCommandTests {
    static let root = CLI.repository

    /// Every `mosaic` command line of a `sh` block, with where it is.
    static func commands(documents: Set<String>? = nil) throws -> [(block: DocExamples.Block, words: [String])] {
        try DocExamples.blocks(in: root).filter { $0.language == "sh" && (documents?.contains($0.document) ?? true) }.flatMap { block in
            DocExamples.mosaicCommands(in: block.text).map { (block, $0) }
        }
    }

    static let readmeCommands: [[String]] = ((try? commands(documents: ["README.md"])) ?? []).map(\.words)

    /// `flag` as an option of `help`: followed by neither a letter, a digit nor a hyphen.
    static func offers(_ help: String, _ flag: String) -> Bool {
        var rest = help[...]
        while let found = rest.range(of: flag) {
            let next = help[found.upperBound...].first
            if next.map({ !($0.isLetter || $0.isNumber || $0 == "-") }) ?? true { return true }
            rest = help[found.upperBound...]
        }
        return false
    }

    @Test func everyCommandInTheDocsNamesRealOptions() throws {
        let commands = try Self.commands()
        #expect(commands.count >= 40, "\(commands.count) mosaic command lines")
        // The commands `mosaic --help` lists (a line of two spaces and a name under
        // SUBCOMMANDS), and `help`.
        let top = try CLI.run(["--help"], environment: ["COLUMNS": "200"]).stdout
        let listed = (top.components(separatedBy: "SUBCOMMANDS:").last ?? "").split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  "), let first = line.split(separator: " ").first, first.allSatisfy(\.isLetter), first.first?.isLowercase == true else { return nil }
            return String(first)
        }
        #expect(listed.contains("render") && listed.contains("cache"), "\(listed)")
        var helps: [String: String] = [:]
        for (block, words) in commands {
            guard let subcommand = words.first, !subcommand.hasPrefix("-") else { continue }
            #expect((listed + ["help"]).contains(subcommand), "\(block): mosaic \(subcommand)")
            if helps[subcommand] == nil { helps[subcommand] = try CLI.run([subcommand, "--help"], environment: ["COLUMNS": "200"]).stdout }
            let help = helps[subcommand] ?? ""
            for word in words.dropFirst() where word.hasPrefix("-") && word != "-" {
                let flag = String(word.prefix(while: { $0 != "=" }))
                let offered = Self.offers(help, flag)
                #expect(offered, "\(block): mosaic \(subcommand) has no option \(flag)")
            }
        }
    }

    @Test func theReadmeHasExamplesToRun() {
        #expect(Self.readmeCommands.count >= 12, "\(Self.readmeCommands)")
    }

    /// Each in a folder of its own, beside the sample photos, a baseline and a current
    /// folder whose one image changed, and two such files.
    @Test(arguments: readmeCommands) func theReadmeExampleRuns(_ words: [String]) throws {
        let dir = CLI.temporaryDirectory()
        let fixtures = DiffCommandTests.fixtures
        try FileManager.default.createSymbolicLink(atPath: dir + "/SampleImages", withDestinationPath: CLI.sampleImages)
        for folder in ["baseline", "current"] { try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: fixtures + "/text-changed-a.png", toPath: dir + "/baseline/page.png")
        try FileManager.default.copyItem(atPath: fixtures + "/text-changed-b.png", toPath: dir + "/current/page.png")
        try FileManager.default.copyItem(atPath: fixtures + "/text-changed-a.png", toPath: dir + "/old.png")
        try FileManager.default.copyItem(atPath: fixtures + "/text-changed-b.png", toPath: dir + "/new.png")
        let result = try CLI.run(words, in: dir, timeout: 300)
        let allowed: Set<Int32> = words.first == "diff" ? [0, 1] : [0]
        #expect(allowed.contains(result.status), "mosaic \(words.joined(separator: " ")): exit \(result.status)\n\(result.stderr)")
        #expect(!result.stderr.contains("error:"), "\(result.stderr)")
    }
}
