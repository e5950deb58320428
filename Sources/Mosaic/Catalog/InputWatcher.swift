import Foundation
import MosaicImage

#if canImport(Glibc)
import Glibc
#endif

/// Waits for the inputs of a render to change (`mosaic render --watch`), through Linux's
/// inotify: a folder named (and, with `recursive`, every folder below it), and the folder
/// of each file named (a manifest, a list, a caption file: editors save by renaming a new
/// file over the old, which a watch on the file itself would miss). A burst of changes
/// (a copy of many photos) is one change: `wait` returns once the folders have been quiet
/// for `quiet` seconds. Changes to the outputs and to hidden files (temporary files, an
/// editor's swap file) are not changes.
public final class InputWatcher {
    private let descriptor: Int32
    /// Watched folder by watch descriptor; the names watched in it (nil: every name).
    private var folders: [Int32: (path: String, names: Set<String>?)] = [:]
    private let ignored: Set<String>
    /// Seconds of quiet that end a burst of changes.
    public var quiet = 0.3

    /// Why inputs cannot be watched.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Watches `inputs` (folders and files); `outputs` are the files the render writes
    /// (their changes are the render's own).
    public init(inputs: [String], outputs: [String], recursive: Bool) throws(Failure) {
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw Failure(description: "inotify: \(String(cString: strerror(errno)))") }
        ignored = Set(outputs.map { Self.absolute($0) })
        var byFolder: [String: Set<String>?] = [:]
        for input in inputs where input != "-" {
            if FileNames.isFolder(input) {
                byFolder[Self.absolute(input)] = .some(nil)
                if recursive, let walker = FileManager.default.enumerator(atPath: input) {
                    while let next = walker.nextObject() as? String {
                        let path = input + "/" + next
                        if FileNames.isFolder(path), !(next as NSString).lastPathComponent.hasPrefix(".") { byFolder[Self.absolute(path)] = .some(nil) }
                    }
                }
            } else {
                let path = Self.absolute(input)
                let folder = (path as NSString).deletingLastPathComponent
                let name = (path as NSString).lastPathComponent
                if case .some(.some(var names)) = byFolder[folder] {
                    names.insert(name)
                    byFolder[folder] = .some(names)
                } else if byFolder[folder] == nil {
                    byFolder[folder] = .some([name])
                }
            }
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
        for (folder, names) in byFolder {
            let watch = FileNames.withSystemPath(folder) { inotify_add_watch(descriptor, $0, mask) }
            guard watch >= 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw Failure(description: "\(FileNames.display(folder)): cannot be watched: \(reason)")
            }
            folders[watch] = (folder, names ?? nil)
        }
    }

    deinit { close(descriptor) }

    static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return (joined as NSString).standardizingPath
    }

    /// Blocks until an input changes (then until the changes have stopped for `quiet`
    /// seconds); returns the paths that changed, in the order first seen.
    public func wait() -> [String] {
        var changed: [String] = []
        while changed.isEmpty {
            guard poll(timeout: -1) else { continue }
            changed = read()
        }
        while poll(timeout: Int32(quiet * 1000)) {
            for path in read() where !changed.contains(path) { changed.append(path) }
        }
        return changed
    }

    /// True when events are waiting (after up to `timeout` milliseconds; -1: no limit).
    private func poll(timeout: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&entry, 1, timeout)
        return ready > 0
    }

    /// The relevant paths of the events waiting now.
    private func read() -> [String] {
        var paths: [String] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watch, length, mask) = buffer.withUnsafeBytes { raw -> (Int32, Int, UInt32) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, Int(event.len), event.mask)
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(count, nameStart + length)].prefix { $0 != 0 }
                offset = nameStart + length
                guard let folder = folders[watch] else { continue }
                let name = FileNames.string(fromBytes: nameBytes)
                if name.hasPrefix(".") { continue }
                // The folder itself: only its removal or move matters.
                if name.isEmpty && mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) == 0 { continue }
                if let names = folder.names, !name.isEmpty, !names.contains(name) { continue }
                let path = name.isEmpty ? folder.path : folder.path + "/" + name
                if ignored.contains(path) { continue }
                paths.append(path)
            }
        }
        return paths
    }
}
