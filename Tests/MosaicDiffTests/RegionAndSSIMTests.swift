import Foundation
import MosaicDiff
import MosaicImage
import MosaicLayout
import Testing

/// Changed regions (`RegionGrid`) and the SSIM mode (`StructuralSimilarity`) against
/// scikit-image's figures in Fixtures/ssim/ssim-references.json (make_ssim_references.py).
@Suite struct RegionAndSSIMTests {
    static let fixtures = PixelmatchTests.fixtures

    struct Reference: Decodable, Sendable {
        struct Region: Decodable, Sendable { var x, y, width, height: Int; var ssim: Double }
        var baseline: String
        var current: String
        var ssim: Double
        var regions: [Region]?
    }

    static let references: [String: Reference] = {
        let data = FileManager.default.contents(atPath: fixtures + "/ssim/ssim-references.json") ?? Data()
        return (try? JSONDecoder().decode([String: Reference].self, from: data)) ?? [:]
    }()

    static func load(_ relative: String) throws -> Bitmap {
        var decoder = ImageDecoder()
        decoder.premultiplyAlpha = false
        return try decoder.decode(fixtures + "/" + relative).bitmap
    }

    static var ssim: ComparisonOptions {
        var options = ComparisonOptions()
        options.metric = .ssim
        return options
    }

    /// A white image with black squares: (x, y, side).
    static func squares(_ width: Int, _ height: Int, _ squares: [(Int, Int, Int)]) -> Bitmap {
        var b = Bitmap(width: width, height: height, fill: .white)
        for (x0, y0, side) in squares {
            for y in y0..<(y0 + side) { for x in x0..<(x0 + side) { b[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        }
        return b
    }

    @Test func theReferenceSetIsComplete() {
        #expect(Self.references.count == 12)
        #expect(Self.references.values.contains { $0.ssim == 1 } && Self.references.values.contains { $0.ssim < 0.5 })
    }

    @Test(arguments: references.keys.sorted())
    func sameScoreAsScikitImage(name: String) throws {
        let reference = try #require(Self.references[name])
        let a = try Self.load(reference.baseline), b = try Self.load(reference.current)
        let result = ImageComparison.compare(a, b, options: Self.ssim, premultiplied: false, diffImage: false)
        let score = try #require(result.ssim)
        #expect(abs(score - reference.ssim) < 0.001, "\(name): \(score) against scikit-image's \(reference.ssim)")
        for expected in reference.regions ?? [] {
            let box = Rect(x: expected.x, y: expected.y, width: expected.width, height: expected.height)
            let region = try #require(result.regions.first { $0.bounds == box }, "\(name): no region at \(box) in \(result.regions.map(\.bounds))")
            #expect(abs((region.ssim ?? 2) - expected.ssim) < 0.001, "\(name) \(box)")
        }
    }

    /// The pixelmatch mode is unchanged by the SSIM mode: the same counts, no score.
    @Test func pixelmatchModeHasNoScore() throws {
        let a = try Self.load("ssim/button-a.png"), b = try Self.load("ssim/button-moved-b.png")
        let plain = ImageComparison.compare(a, b, premultiplied: false)
        let perceptual = ImageComparison.compare(a, b, options: Self.ssim, premultiplied: false)
        #expect(plain.ssim == nil && plain.regions.allSatisfy { $0.ssim == nil })
        #expect(plain.differingPixels == perceptual.differingPixels && plain.regions.count == perceptual.regions.count)
    }

    @Test func antialiasingNoisePassesAMovedButtonFails() throws {
        let a = try Self.load("ssim/button-a.png")
        let noise = ImageComparison.compare(a, try Self.load("ssim/button-aa-noise-b.png"), options: Self.ssim, premultiplied: false)
        // pixelmatch counts it; SSIM lets it pass, pair and regions.
        #expect(noise.differingPixels > 0)
        #expect(!DiffTolerance().accepts({ var d = noise; d.ssim = nil; return d }()))
        #expect(DiffTolerance().accepts(noise), "\(noise.ssim ?? 0) \(noise.lowestRegionSSIM ?? 0)")
        let moved = ImageComparison.compare(a, try Self.load("ssim/button-moved-b.png"), options: Self.ssim, premultiplied: false)
        #expect(!DiffTolerance().accepts(moved))
        // A region below the threshold fails the pair even when the pair's score passes.
        var tolerance = DiffTolerance()
        tolerance.minimumSSIM = 0.5
        #expect(!tolerance.accepts(moved) && (moved.ssim ?? 0) > 0.5)
        tolerance.minimumSSIM = 0.3
        #expect(tolerance.accepts(moved))
    }

    @Test func threeChangesFarApartAreThreeRegionsLargestFirst() {
        let a = Self.squares(400, 300, [])
        let b = Self.squares(400, 300, [(10, 10, 3), (300, 20, 6), (150, 250, 4)])
        let result = ImageComparison.compare(a, b)
        #expect(result.regionCount == 3)
        #expect(result.regions.map(\.bounds) == [
            Rect(x: 300, y: 20, width: 6, height: 6), Rect(x: 150, y: 250, width: 4, height: 4), Rect(x: 10, y: 10, width: 3, height: 3),
        ])
        #expect(result.regions.map(\.differingPixels) == [36, 16, 9])
        #expect(result.regions.allSatisfy { $0.largestDelta == result.largestDelta && $0.largestDelta > 0.9 })
    }

    /// 8 pixels apart (7 unchanged between) join; 9 apart do not; across tile edges too.
    @Test(arguments: [0, 3, 5, 7])
    func theGapIsEightPixels(offset: Int) {
        let a = Self.squares(64, 64, [])
        let near = ImageComparison.compare(a, Self.squares(64, 64, [(offset, 20, 1), (offset + 8, 20, 1)]))
        #expect(near.regionCount == 1)
        let far = ImageComparison.compare(a, Self.squares(64, 64, [(offset, 20, 1), (offset + 9, 20, 1)]))
        #expect(far.regionCount == 2)
        let diagonal = ImageComparison.compare(a, Self.squares(64, 64, [(offset, offset, 1), (offset + 8, offset + 8, 1)]))
        #expect(diagonal.regionCount == 1)
        // A chain of pixels 8 apart is one region however long.
        let chain = ImageComparison.compare(a, Self.squares(64, 64, (0..<8).map { (offset + $0 * 7, 40, 1) }))
        #expect(chain.regionCount == 1 && chain.regions.first?.differingPixels == 8)
    }

    /// Equal pixel counts: top to bottom, then left to right.
    @Test func tiesAreBrokenByPosition() {
        let a = Self.squares(200, 200, [])
        let result = ImageComparison.compare(a, Self.squares(200, 200, [(150, 100, 2), (20, 100, 2), (90, 30, 2)]))
        #expect(result.regions.map(\.bounds.origin) == [Point(x: 90, y: 30), Point(x: 20, y: 100), Point(x: 150, y: 100)])
    }

    /// A noise image (a differing pixel every 9 pixels): 100 listed, every one counted.
    @Test func manyRegionsAreCapped() {
        let a = Self.squares(900, 900, [])
        let b = Self.squares(900, 900, (0..<100).flatMap { y in (0..<100).map { x in (x * 9, y * 9, 1) } })
        let result = ImageComparison.compare(a, b)
        #expect(result.regionCount == 10_000)
        #expect(result.regions.count == 100)
        #expect(result.regions.first?.bounds == Rect(x: 0, y: 0, width: 1, height: 1))
    }

    /// Ignored rectangles hold no region, and no change in the SSIM score.
    @Test func ignoredRectanglesAreLeftOut() {
        let a = Self.squares(200, 100, [])
        let b = Self.squares(200, 100, [(10, 10, 5), (150, 50, 5)])
        var options = Self.ssim
        options.ignoreRegions = [Rect(x: 140, y: 40, width: 30, height: 30)]
        let result = ImageComparison.compare(a, b, options: options)
        #expect(result.regions.map(\.bounds) == [Rect(x: 10, y: 10, width: 5, height: 5)])
        let alone = ImageComparison.compare(a, Self.squares(200, 100, [(10, 10, 5)]), options: Self.ssim)
        #expect(result.ssim == alone.ssim)
        options.ignoreRegions = [Rect(x: 0, y: 0, width: 200, height: 100)]
        #expect(ImageComparison.compare(a, b, options: options).ssim == 1)
    }

    /// Tiny images (under the 11-pixel window) and images of different sizes are scored
    /// too, without a crash.
    @Test func smallAndMismatchedImages() {
        for (w, h) in [(1, 1), (3, 12), (12, 3), (10, 10), (11, 11)] {
            let a = Self.squares(w, h, []), b = Self.squares(w, h, [(0, 0, 1)])
            let result = ImageComparison.compare(a, b, options: Self.ssim)
            let score = result.ssim ?? -1
            #expect(score.isFinite && score < 1 && score >= -1, "\(w)x\(h): \(score)")
            #expect(ImageComparison.compare(a, a, options: Self.ssim).ssim == 1)
        }
        let result = ImageComparison.compare(Self.squares(40, 30, []), Self.squares(50, 20, [(2, 2, 3)]), options: Self.ssim)
        #expect(result.sizeMismatch != nil && result.regionCount == 1 && result.ssim != nil)
    }

    /// A region reads back from the report's JSON.
    @Test func regionsAreCodableAsTheReportWritesThem() throws {
        let region = ChangedRegion(bounds: Rect(x: 1, y: 2, width: 3, height: 4), differingPixels: 5, largestDelta: 0.5, ssim: 0.25)
        let json = String(decoding: try JSONEncoder().encode(region), as: UTF8.self)
        #expect(json.contains("\"bounds\":{") && json.contains("\"x\":1") && !json.contains("origin"))
        #expect(try JSONDecoder().decode(ChangedRegion.self, from: Data(json.utf8)) == region)
    }

    /// An ignored rectangle reaching past the largest coordinate is clipped (before: an
    /// arithmetic overflow trapped the scan).
    @Test func anIgnoredRectangleOfAnyExtentIsClipped() {
        let a = Self.squares(60, 40, []), b = Self.squares(60, 40, [(10, 10, 5), (40, 30, 3)])
        for metric in DiffMetric.allCases {
            let options = ComparisonOptions(ignoreRegions: [Rect(x: 5, y: 5, width: Int.max, height: 10), Rect(x: Int.max, y: -3, width: 4, height: 4)], metric: metric)
            let result = ImageComparison.compare(a, b, options: options)
            #expect(result.regions.map(\.bounds) == [Rect(x: 40, y: 30, width: 3, height: 3)])
            #expect(result.comparedPixels == 60 * 40 - 55 * 10)
        }
    }
}
