import Foundation
@_exported import MosaicDiff
@_exported import MosaicImage

/// Asserts that `bitmap` matches the reference PNG `__Snapshots__/<name>.png` beside the
/// test file, by pixelmatch's perceptual comparison, by SSIM and colour (`metric: .ssim`)
/// or by NVIDIA FLIP (`metric: .flip`), aligned or not (`align`: a band inserted above
/// the content counts only its own pixels; see `PageAlignment`).
///
/// - Parameters:
///   - name: the reference's file name, without extension.
///   - options: the comparison (threshold, anti-aliasing, ignored regions; `metric`,
///     `align`).
///   - tolerance: how many differing pixels (or what fraction) still pass; counted in
///     pixels, not bytes (with `align`, the aligned count). With `metric: .ssim`, the
///     lowest SSIM that passes (`minimumSSIM`, default 0.99), for the image and each
///     changed region, and the largest colour shift (`maximumDeltaE`, default 2); with
///     `metric: .flip`, the largest mean FLIP of a region (`maximumFLIP`, default 0.05).
///   - record: when to write the reference instead; nil: `MOSAIC_RECORD` (an unknown value
///     fails).
///   - file, line: the assertion's place (the reference sits beside the file); failures
///     name them.
/// - Throws: `SnapshotAssertionFailure` (a `SnapshotFailure` at `file`:`line`); on a
///   mismatch the actual image and the diff image are written to `__Snapshots__/Failures/`
///   (or `$MOSAIC_ARTIFACTS` when set) for the CI to keep, and removed again once the
///   snapshot matches; in a Swift Testing test the reference, the actual image and the
///   diff are also recorded as the test's attachments (`SnapshotAttachments`).
public func assertSnapshot(
    of bitmap: Bitmap, named name: String, options: ComparisonOptions = ComparisonOptions(),
    tolerance: DiffTolerance = DiffTolerance(), record: SnapshotRecordMode? = nil, file: StaticString = #filePath, line: UInt = #line
) throws {
    do {
        try compareSnapshot(bitmap, named: name, options: options, tolerance: tolerance, record: record ?? SnapshotRecordMode.fromEnvironment(), file: file)
    } catch let failure as SnapshotFailure {
        SnapshotAttachments.record(failure, file: file, line: line)
        throw SnapshotAssertionFailure(failure: failure, file: String(describing: file), line: line)
    }
}

func compareSnapshot(
    _ bitmap: Bitmap, named name: String, options: ComparisonOptions, tolerance: DiffTolerance, record: SnapshotRecordMode,
    file: StaticString
) throws {
    let folder = (String(describing: file) as NSString).deletingLastPathComponent + "/__Snapshots__"
    let reference = folder + "/\(name).png"
    let exists = FileManager.default.fileExists(atPath: reference)
    if record == .all || (!exists && record == .missing) {
        try OutputFolders.make(folder)
        try bitmap.writePNG(to: reference, hasAlpha: !bitmap.isOpaque, compressionLevel: 9, software: nil)
        throw SnapshotFailure.recorded(reference: reference)
    }
    guard exists else { throw SnapshotFailure.missingReference(reference: reference) }
    let expected = try ImageDecoder().decode(reference).bitmap
    let difference = ImageComparison.compare(expected, bitmap, options: options)
    let artifacts = ProcessInfo.processInfo.environment["MOSAIC_ARTIFACTS"] ?? (folder + "/Failures")
    let actualPath = artifacts + "/\(name).actual.png", diffPath = artifacts + "/\(name).diff.png"
    if tolerance.accepts(difference) {
        // A failure's images from an earlier run would say it still fails.
        for stale in [actualPath, diffPath] where FileManager.default.fileExists(atPath: stale) { try? FileManager.default.removeItem(atPath: stale) }
        return
    }
    try OutputFolders.make(artifacts)
    try bitmap.writePNG(to: actualPath)
    try (difference.diffImage ?? Bitmap(width: 1, height: 1)).writePNG(to: diffPath)
    let size = difference.sizeMismatch.map { "the size is \($0.current), the reference \($0.baseline)" }
    var judged: [String] = []
    if let summary = difference.alignmentSummary { judged.append("aligned: \(summary), \(difference.alignedDifferingPixels ?? 0) px counted") }
    if let deltaE = difference.largestRegionDeltaE { judged.append("largest colour shift \(String(format: "%.1f", deltaE)) (CIEDE2000)") }
    if let flip = difference.largestRegionFLIP { judged.append("largest region FLIP \(String(format: "%.3f", flip))") }
    throw SnapshotFailure.mismatch(
        reference: reference, actual: actualPath, diff: diffPath, differingPixels: difference.differingPixels,
        fraction: difference.fraction, sizeMismatch: difference.alignment == nil ? size : nil, ssim: difference.ssim,
        judged: judged.isEmpty ? nil : judged.joined(separator: ", "))
}

/// The same for a PNG (or JPEG) file, e.g. one a command wrote.
public func assertSnapshot(
    ofImageAt path: String, named name: String, options: ComparisonOptions = ComparisonOptions(),
    tolerance: DiffTolerance = DiffTolerance(), record: SnapshotRecordMode? = nil, file: StaticString = #filePath, line: UInt = #line
) throws {
    let bitmap = try ImageDecoder().decode(path).bitmap
    try assertSnapshot(of: bitmap, named: name, options: options, tolerance: tolerance, record: record, file: file, line: line)
}
