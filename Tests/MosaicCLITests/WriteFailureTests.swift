import Foundation
import Mosaic
import Testing

/// Standard output or error that cannot be written (`/dev/full`), and a full disk: an
/// error message where standard error still works, exit 1 (diff: 2), never a trap, and
/// nothing lost. Before: SIGILL (`FileHandle.write`'s `try!`), or exit 0 with the output
/// lost (`probe`), or libpng's "Write Error".
@Suite struct WriteFailureTests {
    static let full = "/dev/full"
    static let noSpace = "error: standard output: cannot write: No space left on device\n"

    @Test func aSheetSentToAFullStandardOutputIsAnError() throws {
        let result = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", "-"] + InputTrustTests.fixed, standardOutput: Self.full)
        #expect(result.status == 1)
        #expect(result.stderr == Self.noSpace)
    }

    @Test func aFullStandardErrorExitsOne() throws {
        let dir = CLI.temporaryDirectory()
        let result = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", dir + "/s.png"] + InputTrustTests.fixed, standardError: Self.full)
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: dir + "/s.png"))
    }

    @Test func reportsToAFullStandardOutputAreErrors() throws {
        let image = CLI.sampleImages + "/coins.png"
        let probe = try CLI.run(["probe", image], standardOutput: Self.full)
        #expect(probe.status == 1)
        #expect(probe.stderr == Self.noSpace)
        let probeJSON = try CLI.run(["probe", "--json", image], standardOutput: Self.full)
        #expect(probeJSON.status == 1)
        #expect(probeJSON.stderr == Self.noSpace)
        let layout = try CLI.run(["layout", image] + InputTrustTests.font, standardOutput: Self.full)
        #expect(layout.status == 1)
        #expect(layout.stderr == Self.noSpace)
        let diff = try CLI.run(["diff", image, image, "--json", "-"], standardOutput: Self.full)
        #expect(diff.status == 2)
        #expect(diff.stderr == Self.noSpace)
        let diffLines = try CLI.run(["diff", image, image], standardOutput: Self.full)
        #expect(diffLines.status == 2)
        let help = try CLI.run(["--help"], standardOutput: Self.full)
        #expect(help.status == 1)
        #expect(help.stderr == Self.noSpace)
    }

    /// A standard stream closed before the start (`>&-`, `2>&-`): no file mosaic opens
    /// takes its number, and writing to it is an error, not a write into that file.
    @Test func aClosedStandardStreamIsAnError() throws {
        let image = CLI.sampleImages + "/coins.png"
        let probe = try CLI.runInShell("exec \"$0\" probe \"$1\" >&-", arguments: [image])
        #expect(probe.status == 1)
        #expect(probe.stderr == "error: standard output: cannot write: Bad file descriptor\n")
        let layout = try CLI.runInShell("exec \"$0\" layout \"$1\" --font \"$2\" >&-", arguments: [image, InputTrustTests.font[1]])
        #expect(layout.status == 1)
        #expect(layout.stderr == "error: standard output: cannot write: Bad file descriptor\n")
        let dir = CLI.temporaryDirectory()
        let render = try CLI.runInShell("exec \"$0\" render \"$1\" -o \"$2/s.png\" --progress 2>&-", arguments: [image, dir])
        #expect(render.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["s.png"])
    }

    /// A full disk (a 256 KiB tmpfs; mounting needs root): the message says so and names
    /// the file; the previous sheet and map stay, and no temporary file is left.
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskNamesTheFileAndLosesNothing() throws {
        let dir = CLI.temporaryDirectory()
        let disk = dir + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=256k", "tmpfs", disk]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "mount -t tmpfs failed")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [disk]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        try Data("earlier sheet".utf8).write(to: URL(fileURLWithPath: disk + "/sheet.png"))
        let sheet = try CLI.run(["render", CLI.sampleImages, "-o", disk + "/sheet.png"] + InputTrustTests.fixed)
        #expect(sheet.status == 1)
        #expect(sheet.stderr == "error: \(disk)/sheet.png: cannot write: No space left on device (nothing was replaced)\n")
        #expect(try String(contentsOfFile: disk + "/sheet.png", encoding: .utf8) == "earlier sheet")
        // A pyramid: named by its descriptor, not by a tile of its hidden staging folder.
        let pyramid = try CLI.run(["render", CLI.sampleImages, "-o", disk + "/board.dzi"] + InputTrustTests.fixed)
        #expect(pyramid.status == 1)
        #expect(pyramid.stderr == "error: \(disk)/board.dzi: cannot write: No space left on device (nothing was replaced)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["sheet.png"])
        // The map: the disk filled up to its last page first.
        try Data("earlier map".utf8).write(to: URL(fileURLWithPath: disk + "/map.json"))
        let filler = FileHandle(forWritingAtPath: disk + "/sheet.png")
        var block = 0
        while let filler, (try? filler.write(contentsOf: Data(count: 4096))) != nil, block < 100 { block += 1 }
        try filler?.close()
        let map = try CLI.run(["render", CLI.sampleImages + "/coins.png", "-o", dir + "/s.png", "--json", disk + "/map.json"] + InputTrustTests.fixed)
        #expect(map.status == 1)
        #expect(map.stderr == "error: \(disk)/map.json: cannot write: No space left on device (nothing was replaced)\n")
        #expect(try String(contentsOfFile: disk + "/map.json", encoding: .utf8) == "earlier map")
        // diff's reports: the same. Before: "cannot write the file", without a reason.
        let image = CLI.sampleImages + "/coins.png"
        let junit = try CLI.run(["diff", image, image, "--junit", disk + "/junit.xml"])
        #expect(junit.status == 2)
        #expect(junit.stderr == "error: \(disk)/junit.xml: cannot write: No space left on device (nothing was replaced)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk).sorted() == ["map.json", "sheet.png"])
    }
}
