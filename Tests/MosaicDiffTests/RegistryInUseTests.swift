import Foundation
import MosaicDiff
import MosaicImage
import Testing

/// "Which format is this" is asked of the registry in use, not of the standard one.
@Suite struct RegistryInUseTests {
    static let jpegOnly = CodecRegistry(codecs: [JPEGCodec()])

    @Test func detectAsksTheRegistryGiven() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(ImageFormat.detect(png, in: .standard) == .png)
        #expect(ImageFormat.detect(png, in: Self.jpegOnly) == nil)
        #expect(ImageFormat.detect([0xFF, 0xD8, 0xFF, 0xE0], in: Self.jpegOnly) == .jpeg)
    }

    /// Before: a folder comparison whose decoder reads JPEG only listed the PNGs too (the
    /// standard registry recognised them), each then a failed pair.
    @Test func aFolderComparisonListsTheImagesItsDecoderReads() throws {
        let dir = NSTemporaryDirectory() + "mosaic-registry-in-use-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        let fm = FileManager.default
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleImages").path
        for side in ["a", "b"] {
            try fm.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true)
            try fm.copyItem(atPath: samples + "/coffee.jpg", toPath: dir + "/\(side)/coffee.jpg")
            try fm.copyItem(atPath: samples + "/coins.png", toPath: dir + "/\(side)/coins.png")
        }
        defer { try? fm.removeItem(atPath: dir) }
        let comparison = try FolderComparison.compare(baseline: dir + "/a", current: dir + "/b", decoder: ImageDecoder(codecs: Self.jpegOnly))
        #expect(comparison.results.map(\.relativePath) == ["coffee.jpg"])
        #expect(comparison.results.map(\.status) == [.unchanged])
    }
}
