import Foundation
@_exported import MosaicDiff
@_exported import MosaicImage

/// When references are written instead of compared, from the environment variable
/// `MOSAIC_RECORD`: `missing` (the default: write a reference that does not exist yet),
/// `all` (rewrite every reference), `never` (a missing reference is a failure, as on CI).
public enum SnapshotRecordMode: String, Sendable {
    case missing, all, never

    public static var current: SnapshotRecordMode {
        ProcessInfo.processInfo.environment["MOSAIC_RECORD"].flatMap(SnapshotRecordMode.init(rawValue:)) ?? .missing
    }
}
