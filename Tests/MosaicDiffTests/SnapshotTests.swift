import Foundation
import MosaicSnapshotTesting
import Testing

/// The snapshot helper, on references of its own.
@Suite struct SnapshotTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("__Snapshots__").path

    static func picture(shift: Int = 0) -> Bitmap {
        var bitmap = Bitmap(width: 40, height: 30, fill: .white)
        for y in 8..<20 { for x in (10 + shift)..<(26 + shift) { bitmap[x, y] = RGBA(red: 200, green: 30, blue: 30) } }
        return bitmap
    }

    @Test func aMatchingBitmapPasses() throws {
        try assertSnapshot(of: Self.picture(), named: "square", record: .never)
    }

    @Test func aDifferentBitmapFailsWithArtifacts() throws {
        let artifacts = NSTemporaryDirectory() + "mosaic-snapshot-artifacts-\(getpid())"
        setenv("MOSAIC_ARTIFACTS", artifacts, 1)
        defer { unsetenv("MOSAIC_ARTIFACTS") }
        var failedAt: UInt = 0
        var images: [String] = []
        do {
            failedAt = #line + 1
            try assertSnapshot(of: Self.picture(shift: 3), named: "square", record: .never)
            Issue.record("a shifted square must not match")
        } catch let error as SnapshotAssertionFailure {
            guard case .mismatch(_, let actual, let diff, let pixels, _, nil, nil, nil) = error.failure else { throw error }
            #expect(pixels == 2 * 3 * 12)  // two 3-pixel columns of a 12-row square
            #expect(FileManager.default.fileExists(atPath: actual) && FileManager.default.fileExists(atPath: diff))
            images = [actual, diff]
            // The failure names the assertion's line (before: only the test's).
            #expect(error.line == failedAt && error.file.hasSuffix("SnapshotTests.swift"))
            #expect(error.description.hasPrefix("\(error.file):\(failedAt): snapshot does not match"))
        }
        // Within a tolerance stated in pixels, it passes, and the failure's images go
        // (before: they stayed, saying it still failed).
        try assertSnapshot(of: Self.picture(shift: 3), named: "square", tolerance: DiffTolerance(maximumPixels: 72), record: .never)
        #expect(!images.isEmpty && images.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    @Test func aMissingReferenceIsRecordedButStillFails() throws {
        let name = "recorded-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: Self.folder + "/\(name).png") }
        #expect(throws: SnapshotAssertionFailure.self) { try assertSnapshot(of: Self.picture(), named: name, record: .missing) }
        #expect(FileManager.default.fileExists(atPath: Self.folder + "/\(name).png"))
        try assertSnapshot(of: Self.picture(), named: name, record: .never)
        #expect(throws: SnapshotAssertionFailure.self) { try assertSnapshot(of: Self.picture(), named: "absent-\(getpid())", record: .never) }
    }

    /// An unknown MOSAIC_RECORD is an error (before: MOSAIC_RECORD=bogus recorded silently).
    /// (The environment is the process's, shared by tests running at once: the parsing
    /// is tested on its own.)
    @Test func anUnknownRecordModeFails() throws {
        do {
            _ = try SnapshotRecordMode.parse("bogus")
            Issue.record("bogus must not parse")
        } catch {
            #expect(error.description == "MOSAIC_RECORD=bogus is not a record mode (use missing, all, never)")
        }
        #expect(try SnapshotRecordMode.parse(nil) == .missing && SnapshotRecordMode.parse("all") == .all && SnapshotRecordMode.parse("never") == .never)
    }

    /// The perceptual mode: anti-aliasing noise passes by its SSIM where pixelmatch counts
    /// it; a moved button fails, the score in the message. (`button.png` is
    /// Fixtures/ssim/button-a.png.)
    @Test func thePerceptualModePassesNoiseAndFailsAMove() throws {
        let artifacts = NSTemporaryDirectory() + "mosaic-snapshot-ssim-\(getpid())"
        setenv("MOSAIC_ARTIFACTS", artifacts, 1)
        defer { unsetenv("MOSAIC_ARTIFACTS") }
        let fixtures = PixelmatchTests.fixtures + "/ssim/"
        #expect(throws: SnapshotAssertionFailure.self) {
            try assertSnapshot(ofImageAt: fixtures + "button-aa-noise-b.png", named: "button", record: .never)
        }
        try assertSnapshot(ofImageAt: fixtures + "button-aa-noise-b.png", named: "button", options: ComparisonOptions(metric: .ssim), record: .never)
        do {
            try assertSnapshot(ofImageAt: fixtures + "button-moved-b.png", named: "button", options: ComparisonOptions(metric: .ssim), record: .never)
            Issue.record("a moved button must fail by its SSIM")
        } catch let error as SnapshotAssertionFailure {
            guard case .mismatch(_, _, _, _, _, nil, let ssim?, _) = error.failure else { throw error }
            #expect(ssim < 0.99)
            #expect(error.description.contains("SSIM 0.8"))
        }
    }

    /// A mismatch's three images go to the test's attachments (the files stay too).
    @Test func aMismatchIsAttached() throws {
        let artifacts = NSTemporaryDirectory() + "mosaic-snapshot-attached-\(getpid())"
        setenv("MOSAIC_ARTIFACTS", artifacts, 1)
        defer { unsetenv("MOSAIC_ARTIFACTS") }
        do {
            try assertSnapshot(of: Self.picture(shift: 2), named: "square", record: .never)
            Issue.record("a shifted square must not match")
        } catch let error as SnapshotAssertionFailure {
            let files = SnapshotAttachments.files(for: error.failure)
            #expect(files.map(\.name) == ["square.png", "square.actual.png", "square.diff.png"])
            #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
            #expect(SnapshotAttachments.record(error.failure, file: #filePath, line: #line) == 3)
        }
        #expect(SnapshotAttachments.files(for: .missingReference(reference: "x.png")).isEmpty)
        #expect(SnapshotAttachments.files(for: .recorded(reference: "/a/x.png")).map(\.name) == ["x.png"])
    }
}

extension SnapshotTests {
    /// The helper's FLIP and aligned modes: a recoloured button fails by its region's FLIP
    /// (the message says it), a barely changed one passes; a 40 px banner above the page
    /// passes aligned with a tolerance of its own pixels, and fails unaligned.
    @Test func flipAndAlignedModes() throws {
        let artifacts = NSTemporaryDirectory() + "mosaic-snapshot-flip-\(getpid())"
        setenv("MOSAIC_ARTIFACTS", artifacts, 1)
        defer { unsetenv("MOSAIC_ARTIFACTS") }
        let fixtures = PixelmatchTests.fixtures + "/flip/"
        let flip = ComparisonOptions(metric: .flip)
        do {
            try assertSnapshot(ofImageAt: fixtures + "page-green-button-b.png", named: "flip-page", options: flip, record: .never)
            Issue.record("a recoloured button must fail by its FLIP")
        } catch let error as SnapshotAssertionFailure {
            #expect(error.description.contains("largest region FLIP 0.8"), "\(error)")
        }
        try assertSnapshot(ofImageAt: fixtures + "page-slight-button-b.png", named: "flip-page", options: flip, record: .never)
        let page = try ImageDecoder().decode(fixtures + "page-a.png").bitmap
        var banner = Bitmap(width: page.width, height: page.height + 40, fill: RGBA(red: 250, green: 200, blue: 40))
        for y in 0..<page.height { for x in 0..<page.width { banner[x, y + 40] = page[x, y] } }
        var aligned = ComparisonOptions()
        aligned.align = true
        try assertSnapshot(of: banner, named: "flip-page", options: aligned, tolerance: DiffTolerance(maximumPixels: page.width * 40), record: .never)
        do {
            try assertSnapshot(of: banner, named: "flip-page", options: aligned, record: .never)
            Issue.record("a banner must fail aligned without a tolerance")
        } catch let error as SnapshotAssertionFailure {
            #expect(error.description.contains("aligned: 40 px inserted at y 0, 8000 px counted"), "\(error)")
        }
        #expect(throws: SnapshotAssertionFailure.self) {
            try assertSnapshot(of: banner, named: "flip-page", tolerance: DiffTolerance(maximumPixels: page.width * 40), record: .never)
        }
    }
}
