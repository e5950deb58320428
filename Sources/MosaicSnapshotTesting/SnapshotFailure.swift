import Foundation
@_exported import MosaicDiff
@_exported import MosaicImage

/// Why a snapshot did not pass. Thrown, so that it fails a test in XCTest and in
/// swift-testing alike (Swift Testing, where the toolchain has it, only receives the
/// failure's images as attachments: `SnapshotAttachments`).
public enum SnapshotFailure: Error, CustomStringConvertible, Sendable {
    /// The reference was missing (or re-recording was asked for) and has been written:
    /// check it and run again. Recording always fails the test, so nothing passes unseen.
    case recorded(reference: String)
    /// There is no reference and recording is off (`MOSAIC_RECORD=never`).
    case missingReference(reference: String)
    /// The images differ beyond the tolerance; the actual image and the diff are saved
    /// (and attached to the Swift Testing test that failed). `ssim`: the score, in the
    /// perceptual mode.
    /// `judged`: what the comparison that judged said besides the pixels: with
    /// `options.align`, what changed ("40 px inserted at y 0; 1 region changed"); in FLIP
    /// mode, the largest region's mean FLIP; in SSIM mode, the largest colour shift.
    case mismatch(
        reference: String, actual: String, diff: String, differingPixels: Int, fraction: Double, sizeMismatch: String?, ssim: Double? = nil,
        judged: String? = nil)
    /// `MOSAIC_RECORD` holds something else than missing, all or never.
    case invalidRecordMode(String)

    public var description: String {
        switch self {
        case .recorded(let reference):
            return "recorded a new reference at \(reference); check it and run the test again"
        case .missingReference(let reference):
            return "no reference at \(reference) (MOSAIC_RECORD=never); record it with MOSAIC_RECORD=missing"
        case .mismatch(let reference, let actual, let diff, let pixels, let fraction, let size, let ssim, let judged):
            var what = size ?? "\(pixels) pixels differ (\(String(format: "%.4f", fraction * 100))%)"
            if let ssim, size == nil { what += ", SSIM \(String(format: "%.4f", ssim))" }
            if let judged { what += "; " + judged }
            return "snapshot does not match \(reference): \(what); actual: \(actual), diff: \(diff)"
        case .invalidRecordMode(let value):
            return "MOSAIC_RECORD=\(value) is not a record mode (use \(SnapshotRecordMode.allCases.map(\.rawValue).joined(separator: ", ")))"
        }
    }
}

/// A `SnapshotFailure` at the assertion that raised it: its description starts with the
/// file and line, so that a test report points at the assertion, not at the test.
public struct SnapshotAssertionFailure: Error, CustomStringConvertible, Sendable {
    public var failure: SnapshotFailure
    public var file: String
    public var line: UInt

    public var description: String { "\(file):\(line): \(failure)" }
}
