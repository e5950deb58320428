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
        do {
            try assertSnapshot(of: Self.picture(shift: 3), named: "square", record: .never)
            Issue.record("a shifted square must not match")
        } catch let failure as SnapshotFailure {
            guard case .mismatch(_, let actual, let diff, let pixels, _, nil) = failure else { throw failure }
            #expect(pixels == 2 * 3 * 12)  // two 3-pixel columns of a 12-row square
            #expect(FileManager.default.fileExists(atPath: actual) && FileManager.default.fileExists(atPath: diff))
        }
        // Within a tolerance stated in pixels, it passes.
        try assertSnapshot(of: Self.picture(shift: 3), named: "square", tolerance: DiffTolerance(maximumPixels: 72), record: .never)
    }

    @Test func aMissingReferenceIsRecordedButStillFails() throws {
        let name = "recorded-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: Self.folder + "/\(name).png") }
        #expect(throws: SnapshotFailure.self) { try assertSnapshot(of: Self.picture(), named: name, record: .missing) }
        #expect(FileManager.default.fileExists(atPath: Self.folder + "/\(name).png"))
        try assertSnapshot(of: Self.picture(), named: name, record: .never)
        #expect(throws: SnapshotFailure.self) { try assertSnapshot(of: Self.picture(), named: "absent-\(getpid())", record: .never) }
    }
}
