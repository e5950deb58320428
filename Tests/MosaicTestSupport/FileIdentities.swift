import Foundation

/// Every regular file under `folder` (at any depth, links not followed) with its inode and
/// modification time: two calls compare equal when no file was written in between.
public func fileIdentities(_ folder: String) -> [String: [Int]] {
    var out: [String: [Int]] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while let relative = enumerator?.nextObject() as? String {
        var status = stat()
        guard lstat(folder + "/" + relative, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { continue }
        out[relative] = [Int(status.st_ino), status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }
    return out
}
