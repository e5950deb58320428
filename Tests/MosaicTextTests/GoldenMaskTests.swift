import Foundation
import MosaicSnapshotTesting
import MosaicText
import Testing

/// Coverage masks of a few strings against references in __Snapshots__ (plain PGM files).
/// Tolerance: at most 0.5% of the pixels may differ, and only by up to 24 levels of 255
/// (FreeType's rasterizer may change in its last bits between releases). A missing
/// reference is written and the test fails; MOSAIC_RECORD=all rewrites them all.
@Suite struct GoldenMaskTests {
    static let cases: [(String, String, Double, Bool)] = [
        ("latin", "Hello, mosaic! AVATAR fjord", 16, false),
        ("bold", "Hubble Deep Field", 14, true),
        ("chinese", "瀑布流：宇航员，月球。", 18, false),
    ]

    @Test(arguments: cases)
    func mask(name: String, text: String, size: Double, bold: Bool) throws {
        let t = TestFonts.typesetter
        let layout = try t.layout(text, style: TestFonts.style(size: size, bold: bold), width: 400)
        var mask = CoverageMask(width: layout.lines[0].width + 4, height: layout.height)
        t.draw(layout, into: &mask, x: 2, y: 0)
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__/\(name).pgm").path
        let record = try SnapshotRecordMode.fromEnvironment()
        let exists = FileManager.default.fileExists(atPath: path)
        if record == .never && !exists { throw SnapshotFailure.missingReference(reference: path) }
        if record == .all || !exists {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.pgm(mask).write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded \(path); run again to compare")
            return
        }
        let reference = try Self.parse(String(contentsOfFile: path, encoding: .utf8))
        try #require(reference.width == mask.width && reference.height == mask.height, "size \(mask.width)x\(mask.height), reference \(reference.width)x\(reference.height)")
        var differing = 0
        var largest = 0
        for i in 0..<mask.pixels.count {
            let delta = abs(Int(mask.pixels[i]) - Int(reference.pixels[i]))
            if delta > 0 { differing += 1 }
            largest = max(largest, delta)
        }
        #expect(Double(differing) <= 0.005 * Double(mask.pixels.count), "\(differing) pixels differ")
        #expect(largest <= 24, "a pixel differs by \(largest)")
    }

    static func pgm(_ mask: CoverageMask) -> String {
        var text = "P2\n\(mask.width) \(mask.height)\n255\n"
        for y in 0..<mask.height {
            text += (0..<mask.width).map { String(mask[$0, y]) }.joined(separator: " ") + "\n"
        }
        return text
    }

    static func parse(_ text: String) throws -> CoverageMask {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).dropFirst().compactMap { Int($0) }
        var mask = CoverageMask(width: numbers[0], height: numbers[1])
        mask.pixels = numbers.dropFirst(3).map { UInt8($0) }
        return mask
    }
}
