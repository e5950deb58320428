import Foundation
import MosaicDiff
import MosaicLayout
import MosaicImage
import Testing

/// The same counts as the reference implementation: pixelmatch's Python port, run by
/// make_reference_counts.py on the pairs in Fixtures/ (anti-aliased text shifted and
/// changed, an anti-aliased shape shifted and recoloured, alpha, noise, identical).
@Suite struct PixelmatchTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static let cases: [(String, Int)] = {
        let data = FileManager.default.contents(atPath: fixtures + "/reference-counts.json")!
        let counts = try! JSONSerialization.jsonObject(with: data) as! [String: Int]
        return counts.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }()

    static func load(_ name: String) throws -> Bitmap {
        var decoder = ImageDecoder()
        decoder.premultiplyAlpha = false
        return try decoder.decode(fixtures + "/\(name).png").bitmap
    }

    @Test(arguments: cases)
    func sameCountAsPixelmatch(key: String, expected: Int) throws {
        let parts = key.split(separator: " ")
        let name = String(parts[0]), threshold = Double(parts[1])!, includeAA = parts[2] == "True"
        let a = try Self.load(name + "-a"), b = try Self.load(name + "-b")
        let result = ImageComparison.compare(a, b, options: ComparisonOptions(threshold: threshold, includeAntialiasing: includeAA), premultiplied: false)
        #expect(result.differingPixels == expected, "\(key)")
    }

    @Test func theReferenceSetIsComplete() {
        #expect(Self.cases.count == 42)
        #expect(Self.cases.contains { $0.1 > 100 } && Self.cases.contains { $0.1 == 0 })
    }

    /// The largest delta is on the threshold's scale: a grey 40 against black differs at
    /// 0.1 (its YIQ delta, 808.5 of 35215, is 0.1515² of the range) and says 0.15 (before:
    /// 0.023, which looked far below the threshold it failed).
    @Test func theLargestDeltaIsOnTheThresholdsScale() throws {
        let a = try #require(Bitmap(width: 4, height: 4, pixels: [UInt8](repeating: 0, count: 64).enumerated().map { $0.offset % 4 == 3 ? 255 : 0 }))
        var pixels = a.pixels
        pixels[0] = 40; pixels[1] = 40; pixels[2] = 40
        let b = try #require(Bitmap(width: 4, height: 4, pixels: pixels))
        let result = ImageComparison.compare(a, b, options: ComparisonOptions(threshold: 0.1), premultiplied: false)
        #expect(result.differingPixels == 1)
        #expect(abs(result.largestDelta - 0.1515) < 0.002, "\(result.largestDelta)")
        #expect(ImageComparison.compare(a, b, options: ComparisonOptions(threshold: 0.16), premultiplied: false).differingPixels == 0)
    }

    @Test func resultFigures() throws {
        let a = try Self.load("text-shifted-a"), b = try Self.load("text-shifted-b")
        let result = ImageComparison.compare(a, b, premultiplied: false)
        #expect(result.comparedPixels == 96 * 64)
        #expect(result.fraction == Double(result.differingPixels) / Double(96 * 64))
        #expect(result.antialiasedPixels > 0)
        let box = try #require(result.bounds)
        #expect(box.minX >= 0 && box.minX + box.width <= 96 && box.minY >= 0 && box.minY + box.height <= 64)
        #expect(result.largestDelta > 0.3 && result.largestDelta <= 1)
        // The diff image: red where counted, yellow where anti-aliased, grey elsewhere.
        var red = 0, yellow = 0
        let p = try #require(result.diffImage).pixels
        for i in stride(from: 0, to: p.count, by: 4) {
            if p[i] == 255 && p[i + 1] == 0 && p[i + 2] == 0 { red += 1 }
            if p[i] == 255 && p[i + 1] == 255 && p[i + 2] == 0 { yellow += 1 }
        }
        #expect(red == result.differingPixels && yellow == result.antialiasedPixels)
        #expect(ImageComparison.compare(a, a, premultiplied: false).isMatch)
    }

    @Test func ignoredRegionsAndMasks() throws {
        let a = try Self.load("shape-colour-a"), b = try Self.load("shape-colour-b")
        let all = ImageComparison.compare(a, b, premultiplied: false)
        let ignored = ImageComparison.compare(a, b, options: ComparisonOptions(ignoreRegions: [Rect(x: 0, y: 0, width: 96, height: 64)]), premultiplied: false)
        #expect(all.differingPixels > 0 && ignored.differingPixels == 0 && ignored.comparedPixels == 0)
        let mask = ImageComparison.compare(a, b, options: ComparisonOptions(maskOnly: true), premultiplied: false)
        #expect(try #require(mask.diffImage).pixels.enumerated().filter { $0.offset % 4 == 3 && $0.element == 255 }.count == mask.differingPixels)
    }

    @Test func sizeMismatchIsItsOwnResult() {
        let a = Bitmap(width: 10, height: 10, fill: .white), b = Bitmap(width: 12, height: 10, fill: .white)
        let result = ImageComparison.compare(a, b)
        #expect(!result.isMatch && result.differingPixels == 0)
        #expect(result.sizeMismatch?.baseline == Size(width: 10, height: 10) && result.sizeMismatch?.current == Size(width: 12, height: 10))
        #expect(!DiffTolerance(maximumPixels: 1000).accepts(result))
    }
}
