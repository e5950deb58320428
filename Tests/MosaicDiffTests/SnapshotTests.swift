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
            guard case .mismatch(_, let actual, let diff, let pixels, _, nil) = error.failure else { throw error }
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
}
