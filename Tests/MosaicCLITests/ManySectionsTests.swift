import Foundation
import Testing

/// File descriptors do not grow with sections: a catalog of a thousand one-image albums
/// once held a temporary file open per section, and under the usual limit of 1,024 open
/// files the render crashed or drew good photos as "Too many open files" placeholders.
@Suite struct ManySectionsTests {
    @Test func oneImageAlbumsUnderALowOpenFileLimit() throws {
        let dir = CLI.temporaryDirectory()
        let albums = dir + "/albums"
        let sample = CLI.sampleImages + "/chelsea.jpg"
        let count = 120
        for i in 0..<count {
            let album = albums + "/album-\(i)"
            try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: sample, toPath: album + "/photo.jpg")
        }
        // A limit well under the number of sections (and above what one render needs).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let mosaic = CLI.productsDirectory.appendingPathComponent("mosaic").path
        process.arguments = [
            "-c", "ulimit -n 48 && exec \"$0\" render \"$1/albums\" --recursive --width 600 --columns 6 -o \"$1/sheet.png\" --no-progress "
                + InputTrustTests.font.joined(separator: " "),
            mosaic, dir,
        ]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(!stderr.contains("Too many open files"), "\(stderr)")
        #expect(stderr.contains("rendered \(count) images ->"), "\(stderr)")
        #expect(!stderr.contains("could not"), "\(stderr)")
    }
}
