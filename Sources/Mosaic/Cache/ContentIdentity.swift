#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a file's content on this machine without reading it (as git's index
/// does): device, inode, size, and the modification and change times in nanoseconds. The
/// change time moves on every write and cannot be set back by a program.
struct ContentIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int64
    var changed: Int64

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        changed = Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    /// How long after its last write a file's identity is trusted to stand for its content:
    /// a file written again within its time stamps' granularity (git's "racy" case; coarse
    /// file systems keep seconds, ext4 a clock tick) could keep the same identity. A file
    /// younger than this is digested by content on every run until it is older.
    static let settling: Int64 = 3_000_000_000

    /// True when the file was last written long enough before `now` (nanoseconds since
    /// 1970) for its identity to stand for its content.
    func isSettled(now: Int64, after settling: Int64 = ContentIdentity.settling) -> Bool { now - max(modified, changed) > settling }

    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
