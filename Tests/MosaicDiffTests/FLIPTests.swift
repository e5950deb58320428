import Foundation
import MosaicDiff
import MosaicImage
import MosaicLayout
import Testing

/// The FLIP mode (`FLIPMetric`) against flip-evaluator 1.7's figures in
/// Fixtures/flip/flip-references.json (make_flip_references.py).
@Suite struct FLIPTests {
    static let fixtures = PixelmatchTests.fixtures

    struct Reference: Decodable, Sendable {
        struct Region: Decodable, Sendable { var x, y, width, height: Int; var flip: Double }
        var baseline: String
        var current: String
        var flip: Double
        var regions: [Region]?
    }

    static let references: [String: Reference] = {
        let data = FileManager.default.contents(atPath: fixtures + "/flip/flip-references.json") ?? Data()
        return (try? JSONDecoder().decode([String: Reference].self, from: data)) ?? [:]
    }()

    static var flip: ComparisonOptions {
        var options = ComparisonOptions()
        options.metric = .flip
        return options
    }

    @Test func theReferenceSetIsComplete() {
        #expect(Self.references.count == 7)
        #expect(Self.references.values.contains { $0.flip < 0.01 } && Self.references.values.contains { $0.flip > 0.1 })
    }

    @Test(arguments: references.keys.sorted())
    func sameMeanAsFlipEvaluator(name: String) throws {
        let reference = try #require(Self.references[name])
        let a = try RegionAndSSIMTests.load(reference.baseline), b = try RegionAndSSIMTests.load(reference.current)
        let result = ImageComparison.compare(a, b, options: Self.flip, premultiplied: false, diffImage: false)
        let mean = try #require(result.flip)
        #expect(abs(mean - reference.flip) < 0.001, "\(name): \(mean) against flip-evaluator's \(reference.flip)")
        for expected in reference.regions ?? [] {
            let box = Rect(x: expected.x, y: expected.y, width: expected.width, height: expected.height)
            let region = try #require(result.regions.first { $0.bounds == box }, "\(name): no region at \(box) in \(result.regions.map(\.bounds))")
            #expect(abs((region.flip ?? 2) - expected.flip) < 0.001, "\(name) \(box): \(region.flip ?? -1)")
        }
    }

    /// The pair's mean hides a changed button (0.047 over the page); its region's mean
    /// (0.87) fails the pair. A barely changed button passes.
    @Test func aRegionFailsThePairThatItsMeanWouldPass() throws {
        let a = try RegionAndSSIMTests.load("flip/page-a.png")
        let green = ImageComparison.compare(a, try RegionAndSSIMTests.load("flip/page-green-button-b.png"), options: Self.flip, premultiplied: false)
        #expect((green.flip ?? 1) < DiffTolerance().maximumFLIP)
        #expect((green.largestRegionFLIP ?? 0) > 0.5)
        #expect(!DiffTolerance().accepts(green))
        let slight = ImageComparison.compare(a, try RegionAndSSIMTests.load("flip/page-slight-button-b.png"), options: Self.flip, premultiplied: false)
        #expect(slight.differingPixels == 0 || DiffTolerance().accepts(slight), "\(slight.largestRegionFLIP ?? -1)")
    }

    /// The diff image is FLIP's error map in magma: black-purple where equal, bright where
    /// the button changed.
    @Test func theDiffImageIsTheErrorMap() throws {
        let a = try RegionAndSSIMTests.load("flip/page-a.png"), b = try RegionAndSSIMTests.load("flip/page-green-button-b.png")
        let image = try #require(ImageComparison.compare(a, b, options: Self.flip, premultiplied: false).diffImage)
        #expect(image[5, 5] == RGBA(red: 0, green: 0, blue: 4))
        let centre = image[150, 122]
        #expect(Int(centre.red) + Int(centre.green) > 300, "\(centre)")
    }

    /// Equal images: FLIP 0 and nothing computed.
    @Test func equalImagesScoreZero() throws {
        let a = try RegionAndSSIMTests.load("flip/page-a.png")
        let result = ImageComparison.compare(a, a, options: Self.flip, premultiplied: false)
        #expect(result.flip == 0 && result.largestRegionFLIP == 0 && DiffTolerance().accepts(result))
    }
}

extension FLIPTests {
    /// Through a folder comparison: a byte-identical pair scores 0 without decoding and
    /// passes; a changed pair fails by its region and its diff image is the error map.
    @Test func foldersInFLIPMode() throws {
        let dir = NSTemporaryDirectory() + "mosaic-flip-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for side in ["a", "b", "diff"] { try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true) }
        let page = Self.fixtures + "/flip/page-a.png"
        for side in ["a", "b"] { try FileManager.default.copyItem(atPath: page, toPath: dir + "/\(side)/same.png") }
        try FileManager.default.copyItem(atPath: page, toPath: dir + "/a/button.png")
        try FileManager.default.copyItem(atPath: Self.fixtures + "/flip/page-green-button-b.png", toPath: dir + "/b/button.png")
        let comparison = try FolderComparison.compare(baseline: dir + "/a", current: dir + "/b", options: Self.flip, diffImages: dir + "/diff")
        let same = try #require(comparison.results.first { $0.relativePath == "same.png" })
        #expect(same.status == .unchanged && same.difference?.flip == 0 && same.difference?.largestRegionFLIP == 0)
        let button = try #require(comparison.results.first { $0.relativePath == "button.png" })
        #expect(button.status == .changed)
        let path = try #require(button.diffImagePath)
        let image = try ImageDecoder().decode(path).bitmap
        #expect(image[5, 5] == RGBA(red: 0, green: 0, blue: 4))
    }
}
