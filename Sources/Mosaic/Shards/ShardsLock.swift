import Foundation

/// The lock on a shards' folder (`board.shards/`): `flock` on the folder itself, so no
/// lock file is left behind. `mosaic assemble` holds it exclusively, a shard being rendered
/// shares it; nobody waits: a second assembly, a shard started during an assembly, or an
/// assembly started while a shard is being rendered, is refused with `shardsBusy`. The
/// system releases it when the process ends, however it ends. On a file system that offers
/// no locks, none is taken.
public final class ShardsLock {
    private var descriptor: Int32 = -1

    /// Takes the lock on `folder` (none when there is no such folder: nothing to guard).
    ///
    /// - Throws: `AssemblyError.shardsBusy` when another process holds it (or the folder was
    ///   replaced meanwhile), `.incompleteShards` (none found) when `folder` is no folder,
    ///   `.output` (`.write(.cannotCreate)`) with the system's reason.
    public init(_ folder: String, exclusive: Bool) throws(AssemblyError) {
        let opened = FileNames.withSystemPath(folder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK) }
        guard opened >= 0 else {
            if errno == ENOENT { return }
            if errno == ENOTDIR { throw .incompleteShards(path: folder, missing: [], count: 0) }
            throw .output(.write(.cannotCreate(path: folder, reason: String(cString: strerror(errno)))))
        }
        descriptor = opened
        guard flock(opened, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) == 0 else {
            let code = errno
            release()
            if code == EWOULDBLOCK { throw .shardsBusy(path: folder) }
            // A file system that offers no locks (some network and cluster file systems):
            // the shards are used unlocked, as before locks.
            if [ENOLCK, EOPNOTSUPP, ENOTSUP, EINVAL].contains(code) { return }
            throw .output(.write(.cannotCreate(path: folder, reason: String(cString: strerror(code)))))
        }
        // An assembly that finished meanwhile renamed the folder away: this lock guards nothing.
        var held = stat(), named = stat()
        guard fstat(opened, &held) == 0, FileNames.withSystemPath(folder, { stat($0, &named) }) == 0,
            held.st_ino == named.st_ino, held.st_dev == named.st_dev
        else {
            release()
            throw .shardsBusy(path: folder)
        }
    }

    /// Lets the lock go (also when the value is dropped).
    public func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
