import Foundation

/// Writes `data` beside `path` and renames it into place.
func writeAtomically(_ data: Data, to path: String) throws {
    let temporary = (path as NSString).deletingLastPathComponent.appending((path as NSString).deletingLastPathComponent.isEmpty ? "" : "/")
        + ".\((path as NSString).lastPathComponent).mosaic-\(getpid()).tmp"
    guard FileManager.default.createFile(atPath: temporary, contents: data) else {
        throw Failure(description: "\(path): cannot write the file")
    }
    guard rename(temporary, path) == 0 else {
        unlink(temporary)
        throw Failure(description: "\(path): cannot move the file into place")
    }
}
