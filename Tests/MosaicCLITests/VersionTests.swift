import Foundation
import Mosaic
import Testing

/// `mosaic --version`: the release and the git commit it was built from; the commit never
/// enters what must be byte-identical across builds.
@Suite struct VersionTests {
    /// Whether the package was built from a git work tree (`.git` is a folder, or a file in
    /// a linked work tree), so that its build names a commit.
    static let inWorkTree = FileManager.default.fileExists(atPath: CLI.repository.path + "/.git")

    /// Runs `git` with `arguments`; its standard output, trimmed, or nil when it fails.
    static func git(_ arguments: [String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `scripts/build-commit.sh` for `package`; the `hash` line it generates.
    static func generatedHash(package: String) throws -> String {
        let output = CLI.temporaryDirectory("generated")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [CLI.repository.path + "/scripts/build-commit.sh", package, output]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let text = try String(contentsOfFile: output + "/BuildCommit.swift", encoding: .utf8)
        return text.split(separator: "\n").first { $0.contains("static let hash") }.map { String($0).trimmingCharacters(in: .whitespaces) } ?? text
    }

    /// Before: `0.6.0` alone. After: `0.6.0 (b40706f)`, the commit of this work tree (the
    /// version alone when the tests run from a tarball, which has no .git).
    @Test func versionNamesTheCommit() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        var head = Self.inWorkTree ? try Self.git(["-C", CLI.repository.path, "rev-parse", "--short=7", "HEAD"]) : nil
        // Built from tracked files that differ from the commit: "-dirty". The index's
        // stat data is refreshed first, as the build's script does: a fresh clone whose
        // files were touched after checkout otherwise reads as changed.
        if head != nil { _ = try Self.git(["-C", CLI.repository.path, "update-index", "-q", "--refresh"]) }
        if let hash = head, try Self.git(["-C", CLI.repository.path, "diff-index", "--quiet", "HEAD", "--"]) == nil { head = hash + "-dirty" }
        #expect(result.stdout == "\(MosaicVersion.string)\(head.map { " (\($0))" } ?? "")\n")
        #expect(result.stdout.hasPrefix("0.6.0"))
    }

    /// The generator: a commit in a work tree; nil in a folder without git, and nil in a
    /// folder inside someone else's repository (a tarball unpacked in a checkout).
    @Test func generatedCommitComesFromThePackagesOwnRepository() throws {
        let repository = CLI.temporaryDirectory("repository")
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = nil")
        _ = try Self.git(["-C", repository, "init", "-q"])
        _ = try Self.git(["-C", repository, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "first"])
        let head = try #require(try Self.git(["-C", repository, "rev-parse", "--short=7", "HEAD"]))
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = \"\(head)\"")
        // A tracked file changed (not committed): the build says "-dirty"; an untracked
        // file does not count (issue 35 item 22: before, a modified tree named the commit).
        try "a".write(toFile: repository + "/tracked.txt", atomically: true, encoding: .utf8)
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = \"\(head)\"")
        _ = try Self.git(["-C", repository, "add", "tracked.txt"])
        _ = try Self.git(["-C", repository, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "second"])
        let second = try #require(try Self.git(["-C", repository, "rev-parse", "--short=7", "HEAD"]))
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = \"\(second)\"")
        try "b".write(toFile: repository + "/tracked.txt", atomically: true, encoding: .utf8)
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = \"\(second)-dirty\"")
        _ = try Self.git(["-C", repository, "checkout", "-q", "--", "tracked.txt"])
        #expect(try Self.generatedHash(package: repository) == "static let hash: String? = \"\(second)\"")
        let unpacked = repository + "/vendor/mosaic-0.6.0"
        try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
        #expect(try Self.generatedHash(package: unpacked) == "static let hash: String? = nil")
    }

    /// A pyramid shard (its record and tiles), a sheet and its image map hold the release
    /// but never the commit, and the shard record's board digest is the library's own, so
    /// builds of two commits give the same bytes and shards rendered by them assemble
    /// (checked to fail with the commit mixed into the record's digest).
    @Test(.enabled(if: inWorkTree, "a build from a tarball names no commit to look for"))
    func theCommitNeverEntersOutputs() throws {
        let version = try CLI.run(["--version"]).stdout
        let commit = try #require(version.split(separator: "(").dropFirst().first?.dropLast(2), "built outside a git work tree: \(version)")
        let dir = CLI.temporaryDirectory()
        let manifest = CLI.sampleImages + "/manifest.json"
        let shard = try CLI.run(["render", manifest, "--tile-format", "png", "--tile-size", "510", "--shard", "0/2", "-o", dir + "/board.dzi",
            "--width", "900", "--columns", "3"] + RenderCommandTests.fixed)
        #expect(shard.status == 0, "\(shard.stderr)")
        let sheet = try CLI.run(["render", manifest, "--width", "600", "-o", dir + "/sheet.png", "--json", dir + "/sheet.json"])
        #expect(sheet.status == 0, "\(sheet.stderr)")
        // The shard record's board digest is the library's own for that board: the
        // command mixes nothing (no commit) into it.
        let record = dir + "/board.shards/0-of-2/shard.json"
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any])
        var options = SheetOptions()
        options.width = 900
        options.columns = 3
        options.style.font = .file(RenderCommandTests.font)
        let board = try ContactSheet(catalog: try Catalog.manifest(manifest), options: options, typesetter: Typesetter(fonts: try FontLibrary()))
        #expect(fields["boardDigest"] as? String == board.digest)
        let files = ShardTests.files(dir)
        #expect(files.keys.contains { $0.hasPrefix("board.shards/") }, "\(files.keys.sorted())")
        #expect(files.keys.contains("sheet.png") && files.keys.contains("sheet.json"))
        for (path, bytes) in files {
            #expect(bytes.range(of: Data(commit.utf8)) == nil, "\(path) holds the commit \(commit)")
        }
    }
}
