import Foundation
import MosaicDiff
import MosaicImage
import MosaicLayout
import Testing

/// The comparison's short-cuts (equal rows by memcmp, images of different sizes read in
/// place, byte-identical files not decoded) and the pair memory limit.
@Suite struct FastComparisonTests {
    static let fixtures = PixelmatchTests.fixtures

    /// A pair of different sizes is compared over its overlap, each image read with its
    /// own row length: the same counts as the overlap cut out first.
    @Test func theOverlapOfDifferentSizesIsComparedInPlace() throws {
        let a = try PixelmatchTests.load("text-changed-a"), b = try PixelmatchTests.load("text-changed-b")
        var wide = Bitmap(width: b.width + 5, height: b.height + 6, fill: RGBA(red: 9, green: 200, blue: 31))
        for y in 0..<b.height { for x in 0..<b.width { wide[x, y] = b[x, y] } }
        let cut = ImageComparison.compare(a, b, premultiplied: false)
        let inPlace = ImageComparison.compare(a, wide, premultiplied: false)
        #expect(cut.differingPixels == 41 && inPlace.differingPixels == 41)
        #expect(inPlace.antialiasedPixels == cut.antialiasedPixels && inPlace.bounds == cut.bounds)
        #expect(inPlace.diffImage == cut.diffImage)
        #expect(inPlace.sizeMismatch != nil)
    }

    /// The diff image's grey is pixelmatch's blend of each baseline pixel's luma, whether the
    /// pixel repeats the one before it (taken from it without the arithmetic) or not.
    @Test func theGreyOfRepeatedPixelsIsEachPixelsOwn() throws {
        let (width, height) = (53, 6)
        var a = Bitmap(width: width, height: height, fill: RGBA(red: 0, green: 0, blue: 0))
        var state: UInt64 = 3
        var run = 0, colour = RGBA(red: 0, green: 0, blue: 0)
        for y in 0..<height {
            for x in 0..<width {
                if run == 0 {
                    state = state &* 6364136223846793005 &+ 1442695040888963407
                    run = Int(state >> 61) + 1
                    let v = UInt8(truncatingIfNeeded: state >> 40)
                    colour = RGBA(red: v, green: v &* 3, blue: v &+ 91, alpha: state & 1 == 0 ? 255 : v | 1)
                }
                a[x, y] = colour
                run -= 1
            }
        }
        var b = a
        b[7, 2] = RGBA(red: 255, green: 255, blue: 255)
        let image = try #require(ImageComparison.compare(a, b, premultiplied: false).diffImage)
        let fade = ComparisonOptions().fade
        for y in 0..<height {
            for x in 0..<width where !(x == 7 && y == 2) {
                let p = a[x, y]
                let luma = Double(p.red) * 0.29889531 + Double(p.green) * 0.58662247 + Double(p.blue) * 0.11448223
                let v = UInt8(min(255, max(0, 255 + (luma - 255) * (fade * Double(p.alpha) / 255))))
                #expect(image[x, y] == RGBA(red: v, green: v, blue: v), "pixel \(x), \(y)")
            }
        }
    }

    /// An ignored region that cuts rows leaves out exactly its pixels: the differing
    /// pixels outside it, as the whole comparison's diff image marks them.
    @Test func anIgnoredRegionCutsRowsExactly() throws {
        let a = try PixelmatchTests.load("text-shifted-a"), b = try PixelmatchTests.load("text-shifted-b")
        let whole = ImageComparison.compare(a, b, premultiplied: false)
        let region = Rect(x: 30, y: 10, width: 25, height: 30)
        let cut = ImageComparison.compare(a, b, options: ComparisonOptions(ignoreRegions: [region]), premultiplied: false)
        let image = try #require(whole.diffImage)
        var outside = 0
        for y in 0..<image.height {
            for x in 0..<image.width where !region.contains(x: x, y: y) && image[x, y] == RGBA(red: 255, green: 0, blue: 0) { outside += 1 }
        }
        #expect(whole.differingPixels > outside && outside > 0)
        #expect(cut.differingPixels == outside)
        #expect(cut.comparedPixels == a.width * a.height - 25 * 30)
    }

    /// Without a diff image the counts are the same (the folder comparison's first pass).
    @Test(arguments: ["text-shifted", "shape-colour", "alpha", "noise", "identical"])
    func countsWithoutTheDiffImage(name: String) throws {
        let a = try PixelmatchTests.load(name + "-a"), b = try PixelmatchTests.load(name + "-b")
        let with = ImageComparison.compare(a, b, premultiplied: false)
        let without = ImageComparison.compare(a, b, premultiplied: false, diffImage: false)
        #expect(without.diffImage == nil)
        #expect(with.differingPixels == without.differingPixels && with.antialiasedPixels == without.antialiasedPixels)
        #expect(with.largestDelta == without.largestDelta && with.bounds == without.bounds && with.comparedPixels == without.comparedPixels)
    }

    /// A 35-byte GIF declaring a 16000 x 16000 screen, its two colours given.
    static func hugeScreenGIF(_ colour: UInt8) -> [UInt8] {
        [0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x80, 0x3E, 0x80, 0x3E, 0x80, 0x00, 0x00, colour, colour, colour, 0, 0, 0,
         0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
    }

    /// Two tiny GIFs declaring 16000 x 16000 screens are refused from their headers (the
    /// pair would hold 1953 MiB of pixels; before: decoded, 3 GB to compare), as a
    /// failed pair in folders and as the error for two files. Byte-identical files are
    /// equal without being decoded at all.
    @Test func aHugeDeclaredCanvasIsRefusedBeforeDecoding() throws {
        let dir = NSTemporaryDirectory() + "mosaic-huge-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for side in ["a", "b"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        try Data(Self.hugeScreenGIF(255)).write(to: URL(fileURLWithPath: dir + "/a/screen.gif"))
        try Data(Self.hugeScreenGIF(0)).write(to: URL(fileURLWithPath: dir + "/b/screen.gif"))
        try Data(Self.hugeScreenGIF(0)).write(to: URL(fileURLWithPath: dir + "/a/same.gif"))
        try Data(Self.hugeScreenGIF(0)).write(to: URL(fileURLWithPath: dir + "/b/same.gif"))
        let expected = PairError.tooMuchMemory(path: dir + "/a/screen.gif", bytes: 2 * (16000 * 16000 * 4 + 16000), limit: 1 << 30)
        let folders = try FolderComparison.compare(baseline: dir + "/a", current: dir + "/b")
        #expect(folders.results.map(\.relativePath) == ["same.gif", "screen.gif"])
        #expect(folders.results[0].status == .unchanged && folders.results[0].difference?.comparedPixels == 16000 * 16000)
        #expect(folders.results[1].status == .failed && folders.results[1].error == expected)
        #expect(expected.description.hasSuffix("screen.gif: comparing it would take 1953 MiB of pixels, more than the limit of 1024 MiB"))
        #expect(throws: DiffError.tooMuchMemory(path: dir + "/a/screen.gif", bytes: 2 * (16000 * 16000 * 4 + 16000), limit: 1 << 30)) {
            try FolderComparison.compare(baseline: dir + "/a/screen.gif", current: dir + "/b/screen.gif")
        }
    }
}

extension FastComparisonTests {
    /// Two 390-byte animated WebPs whose canvas says 16000 x 16000 (and 16000 x 15999): an
    /// animation decodes its canvas three times over, so the pair is refused from the
    /// headers (before: decoded, 4.2 GB for two 700-byte files).
    @Test func aHugeAnimatedWebPCanvasIsRefusedBeforeDecoding() throws {
        let seed = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds-webp/animated.webp")
        var bytes = try [UInt8](Data(contentsOf: seed))
        #expect(Array(bytes[12..<16]) == Array("VP8X".utf8))
        let dir = NSTemporaryDirectory() + "mosaic-anim-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // The canvas's width and height less one, 24 bits each, after the flags.
        bytes.replaceSubrange(24..<30, with: [0x7F, 0x3E, 0, 0x7F, 0x3E, 0])
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/a.webp"))
        bytes.replaceSubrange(27..<30, with: [0x7E, 0x3E, 0])
        try Data(bytes).write(to: URL(fileURLWithPath: dir + "/b.webp"))
        let each = 16000 * 16000 * 4 * 3, other = 16000 * 15999 * 4 * 3
        #expect(throws: DiffError.tooMuchMemory(path: dir + "/a.webp", bytes: each + other, limit: 1 << 30)) {
            try FolderComparison.compare(baseline: dir + "/a.webp", current: dir + "/b.webp")
        }
    }
}

/// Folders holding what is not a regular file.
@Suite struct FolderListingTests {
    /// A FIFO in a folder compared is left out (before: opened to read its signature, the
    /// run waited for a writer for ever).
    @Test(.timeLimit(.minutes(1))) func aFIFOInAFolderIsLeftOut() throws {
        let dir = NSTemporaryDirectory() + "mosaic-fifo-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for side in ["a", "b"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: PixelmatchTests.fixtures + "/identical-a.png", toPath: dir + "/\(side)/same.png")
        }
        #expect(mkfifo(dir + "/a/pipe.png", 0o644) == 0)
        let comparison = try FolderComparison.compare(baseline: dir + "/a", current: dir + "/b")
        #expect(comparison.results.map(\.relativePath) == ["same.png"] && comparison.passes)
    }
}
