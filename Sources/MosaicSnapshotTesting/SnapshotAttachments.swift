import Foundation

#if canImport(Testing)
import Testing
#endif

/// A failed snapshot's images as the test's attachments, beside the files: the reference,
/// the actual image and the diff (Swift 6.2's `Attachment.record`), so that a CI keeping
/// Swift Testing's attachments (`swift test --attachments-path DIR`) or an IDE showing
/// them has the three images without looking for `__Snapshots__/Failures/`.
///
/// The helper throws its failures rather than calling a test framework, so it works from
/// XCTest and Swift Testing alike; the one thing it takes from Swift Testing is this, and
/// only where the toolchain has the module (`#if canImport(Testing)`, true for Swift 6.2
/// and later on every platform mosaic builds on) and only inside a Swift Testing test
/// (`Test.current`): from XCTest, or outside a test, nothing is recorded.
public enum SnapshotAttachments {
    /// The files a failure leaves, each with the name its attachment takes (the file's
    /// own: `NAME.png` for the reference, `NAME.actual.png`, `NAME.diff.png`): a mismatch's
    /// three; a new reference's one (so a CI run that records shows what it recorded).
    public static func files(for failure: SnapshotFailure) -> [(name: String, path: String)] {
        let paths: [String]
        switch failure {
        case .mismatch(let reference, let actual, let diff, _, _, _, _, _): paths = [reference, actual, diff]
        case .recorded(let reference): paths = [reference]
        case .missingReference, .invalidRecordMode: paths = []
        }
        return paths.map { ((($0 as NSString).lastPathComponent), $0) }
    }

    /// Records `failure`'s files as attachments of the running Swift Testing test, at the
    /// assertion's place; the count recorded (0 outside such a test, or without Swift
    /// Testing). A file that cannot be read is left out (the failure still names it).
    @discardableResult
    public static func record(_ failure: SnapshotFailure, file: StaticString, line: UInt) -> Int {
        #if canImport(Testing)
        guard Test.current != nil else { return 0 }
        let path = String(describing: file)
        // The test target's folder names its module, as #fileID would.
        let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
        let location = SourceLocation(
            fileID: (folder.isEmpty ? "Tests" : folder) + "/" + (path as NSString).lastPathComponent, filePath: path, line: Int(line), column: 1)
        var count = 0
        for (name, file) in files(for: failure) {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            Attachment.record([UInt8](data), named: name, sourceLocation: location)
            count += 1
        }
        return count
        #else
        return 0
        #endif
    }
}
