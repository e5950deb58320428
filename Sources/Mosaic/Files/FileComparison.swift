import Foundation
import MosaicImage

/// Whether two files hold the same bytes, for outputs left as they were when a run would
/// write them again unchanged (`PendingFile.keepsAnIdenticalFile`, `StagedFolder.keepUnchanged`).
enum FileComparison {
    /// `b`'s status when `a` and `b` are regular files (never followed through a link) of
    /// the same bytes, read a block at a time through the descriptors the status is of;
    /// nil otherwise.
    static func sameBytes(_ a: String, _ b: String) -> stat? {
        let fa = FileNames.withSystemPath(a) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fa >= 0 else { return nil }
        defer { close(fa) }
        let fb = FileNames.withSystemPath(b) { open($0, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard fb >= 0 else { return nil }
        defer { close(fb) }
        var sa = stat(), sb = stat()
        guard fstat(fa, &sa) == 0, fstat(fb, &sb) == 0, (sa.st_mode & S_IFMT) == S_IFREG, (sb.st_mode & S_IFMT) == S_IFREG,
            sa.st_size == sb.st_size
        else { return nil }
        var ba = [UInt8](repeating: 0, count: 1 << 16), bb = ba
        while true {
            let na = ba.withUnsafeMutableBytes { read(fa, $0.baseAddress!, $0.count) }
            guard na >= 0 else { return nil }
            if na == 0 { return sb }
            var got = 0
            while got < na {
                let nb = bb.withUnsafeMutableBytes { read(fb, $0.baseAddress! + got, na - got) }
                guard nb > 0 else { return nil }
                got += nb
            }
            guard ba.prefix(na) == bb.prefix(na) else { return nil }
        }
    }
}
