import Foundation
@_exported import MosaicDiff
@_exported import MosaicImage

/// When references are written instead of compared, from the environment variable
/// `MOSAIC_RECORD`: `missing` (the default: write a reference that does not exist yet),
/// `all` (rewrite every reference), `never` (a missing reference is a failure, as on CI).
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    case missing, all, never

    /// `MOSAIC_RECORD`'s mode; `.missing` when it is not set.
    ///
    /// - Throws: `SnapshotFailure.invalidRecordMode` for any other value (before, a typo
    ///   such as `MOSAIC_RECORD=al` silently meant `missing`).
    public static func fromEnvironment() throws(SnapshotFailure) -> SnapshotRecordMode {
        try parse(ProcessInfo.processInfo.environment["MOSAIC_RECORD"])
    }

    /// The mode `value` names; `.missing` for nil or empty.
    public static func parse(_ value: String?) throws(SnapshotFailure) -> SnapshotRecordMode {
        guard let value, !value.isEmpty else { return .missing }
        guard let mode = SnapshotRecordMode(rawValue: value) else { throw .invalidRecordMode(value) }
        return mode
    }
}
