import Foundation
@_exported import MosaicDiff
@_exported import MosaicImage

/// Asserts that `bitmap` matches the reference PNG `__Snapshots__/<name>.png` beside the
/// test file, by pixelmatch's perceptual comparison.
///
/// - Parameters:
///   - name: the reference's file name, without extension.
///   - options: the comparison (threshold, anti-aliasing, ignored regions).
///   - tolerance: how many differing pixels (or what fraction) still pass; counted in
///     pixels, not bytes.
///   - file: the test's source file (the reference sits beside it).
/// - Throws: `SnapshotFailure`; on a mismatch the actual image and the diff image are
///   written to `__Snapshots__/Failures/` (or `$MOSAIC_ARTIFACTS` when set) for the CI to keep.
public func assertSnapshot(
    of bitmap: Bitmap, named name: String, options: ComparisonOptions = ComparisonOptions(),
    tolerance: DiffTolerance = DiffTolerance(), record: SnapshotRecordMode = .current, file: StaticString = #filePath
) throws {
    let folder = (String(describing: file) as NSString).deletingLastPathComponent + "/__Snapshots__"
    let reference = folder + "/\(name).png"
    let exists = FileManager.default.fileExists(atPath: reference)
    if record == .all || (!exists && record == .missing) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try bitmap.writePNG(to: reference, hasAlpha: !bitmap.isOpaque, compressionLevel: 9, software: nil)
        throw SnapshotFailure.recorded(reference: reference)
    }
    guard exists else { throw SnapshotFailure.missingReference(reference: reference) }
    let expected = try ImageDecoder().decode(reference).bitmap
    let difference = ImageComparison.compare(expected, bitmap, options: options)
    if tolerance.accepts(difference) { return }
    let artifacts = ProcessInfo.processInfo.environment["MOSAIC_ARTIFACTS"] ?? (folder + "/Failures")
    try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
    let actualPath = artifacts + "/\(name).actual.png", diffPath = artifacts + "/\(name).diff.png"
    try bitmap.writePNG(to: actualPath)
    try difference.diffImage.writePNG(to: diffPath)
    let size = difference.sizeMismatch.map { "the size is \($0.current), the reference \($0.baseline)" }
    throw SnapshotFailure.mismatch(
        reference: reference, actual: actualPath, diff: diffPath, differingPixels: difference.differingPixels,
        fraction: difference.fraction, sizeMismatch: size)
}

/// The same for a PNG (or JPEG) file, e.g. one a command wrote.
public func assertSnapshot(
    ofImageAt path: String, named name: String, options: ComparisonOptions = ComparisonOptions(),
    tolerance: DiffTolerance = DiffTolerance(), record: SnapshotRecordMode = .current, file: StaticString = #filePath
) throws {
    let bitmap = try ImageDecoder().decode(path).bitmap
    try assertSnapshot(of: bitmap, named: name, options: options, tolerance: tolerance, record: record, file: file)
}
