import Foundation
import Mosaic
import Testing

/// FIFOs (and sockets, devices) among the inputs: never opened, skipped and named. Before,
/// opening a FIFO blocked forever; each run here is killed after 30 s, so a regression
/// fails instead of hanging.
@Suite struct SpecialFileTests {
    static let limit = 30.0

    /// A folder with two photos and a FIFO named like a photo.
    static func folderWithAFIFO(_ name: String = #function) throws -> String {
        let dir = InputTrustTests.folder(name, samples: ["coins.png", "chelsea.jpg"])
        try #require(mkfifo(dir + "/pipe.jpg", 0o644) == 0)
        return dir
    }

    @Test func aFIFOInAFolderIsSkippedAndNamed() throws {
        let dir = try Self.folderWithAFIFO()
        let result = try CLI.run(["render", dir, "-o", dir + "/../fifo-sheet.png"] + InputTrustTests.fixed, timeout: Self.limit)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("rendered 2 images; skipped 1 other file: pipe.jpg -> "))
        let layout = try CLI.run(["layout", dir, "--recursive"] + InputTrustTests.font, timeout: Self.limit)
        #expect(layout.status == 0, "\(layout.stderr)")
        #expect(try InputTrustTests.map(layout.stdout).filter { $0["kind"] as? String == "card" }.count == 2)
    }

    @Test func aFIFONamedOnTheCommandLineOrInAListIsSkipped() throws {
        let dir = try Self.folderWithAFIFO()
        let named = try CLI.run(["render", dir + "/coins.png", dir + "/pipe.jpg", "-o", dir + "/../fifo-named.png"] + InputTrustTests.fixed, timeout: Self.limit)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stderr.hasPrefix("rendered 1 image; skipped 1 other file: pipe.jpg -> "))
        try "\(dir)/pipe.jpg\n\(dir)/chelsea.jpg\n".write(toFile: dir + "/../fifo-list.txt", atomically: true, encoding: .utf8)
        let listed = try CLI.run(["render", "--files-from", dir + "/../fifo-list.txt", "-o", dir + "/../fifo-listed.png"] + InputTrustTests.fixed, timeout: Self.limit)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stderr.hasPrefix("rendered 1 image; skipped 1 other file: pipe.jpg -> "))
        try #"{"items": [{"path": "pipe.jpg"}, {"path": "coins.png"}]}"#.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        let manifest = try CLI.run(["render", dir + "/manifest.json", "-o", dir + "/../fifo-manifest.png"] + InputTrustTests.fixed, timeout: Self.limit)
        #expect(manifest.status == 0, "\(manifest.stderr)")
        #expect(manifest.stderr.hasPrefix("rendered 1 image; skipped 1 other file: pipe.jpg -> "))
    }

    @Test func probeAndDiffNameAFIFOWithoutOpeningIt() throws {
        let dir = try Self.folderWithAFIFO()
        let probe = try CLI.run(["probe", dir + "/pipe.jpg", dir + "/coins.png"], timeout: Self.limit)
        #expect(probe.status == 1)
        #expect(probe.stderr == "error: \(dir)/pipe.jpg: not a file: it is a FIFO (named pipe) (not read)\n")
        #expect(probe.stdout.hasPrefix("\(dir)/coins.png: PNG 384x303"))
        // A FIFO given to diff as one of the two images: the comparison cannot be made.
        let pair = try CLI.run(["diff", dir + "/pipe.jpg", dir + "/chelsea.jpg"], timeout: Self.limit)
        #expect(pair.status == 2)
        #expect(pair.stderr == "error: \(dir)/pipe.jpg: not a file: it is a FIFO (named pipe) (not read)\n")
        // In folders compared: named, left out, and the comparison passes.
        let other = InputTrustTests.folder(samples: ["coins.png", "chelsea.jpg"])
        let folders = try CLI.run(["diff", other, dir], timeout: Self.limit)
        #expect(folders.status == 0, "\(folders.stderr)")
        #expect(folders.stdout == "skipped    pipe.jpg: a FIFO (named pipe), not read\n0 changed, 0 added, 0 removed, 2 unchanged\n")
    }

    /// A manifest that is a FIFO is refused, not waited on.
    @Test func aManifestThatIsAFIFOIsRefused() throws {
        let dir = CLI.temporaryDirectory()
        try #require(mkfifo(dir + "/list.json", 0o644) == 0)
        let result = try CLI.run(["layout", dir + "/list.json"] + InputTrustTests.font, timeout: Self.limit)
        #expect(result.status == 1)
        #expect(result.stderr == "error: \(dir)/list.json: not a file: it is a FIFO (named pipe) (not read)\n")
    }
}
