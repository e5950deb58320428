import Foundation
import MosaicSync

extension CatalogEntries {
    /// One temporary file (removed from the folder as soon as it is made: nothing is left
    /// behind, whatever ends the run) that holds the records and path bytes of every section
    /// of a catalog, one after another, read back with `pread`. One descriptor per catalog,
    /// however many sections it has: a file per section ran out of descriptors at a thousand
    /// one-image albums.
    final class SpillFile: Sendable {
        let descriptor: Int32
        /// Bytes written so far (where the next section goes).
        private let length = Locked(0)
        /// The last two 64 KiB blocks read (entries are read mostly in order, a record and
        /// its path from two places in the file), most recent first.
        private let blocks = Locked<[(start: Int, bytes: [UInt8])]>([])
        static let blockSize = 1 << 16

        /// A new, empty file; nil when it cannot be made (entries then stay in memory).
        init?() {
            var template = Array((NSTemporaryDirectory() + "/mosaic-catalog-XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                let descriptor = mkstemp(base)
                if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
                return descriptor
            }
            guard descriptor >= 0 else { return nil }
            template.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress { _ = unlink(base) }
            }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Appends `parts` one after another; the offset of the first, or nil when the
        /// file could not take them all (the disk is full).
        func append(_ parts: [UnsafeRawBufferPointer]) -> Int? {
            length.withLock { length -> Int? in
                let start = length
                var offset = start
                for part in parts {
                    guard Self.write(descriptor, part, at: offset) else { return nil }
                    offset += part.count
                }
                length = offset
                return start
            }
        }

        static func write(_ descriptor: Int32, _ data: UnsafeRawBufferPointer, at offset: Int) -> Bool {
            guard let base = data.baseAddress else { return true }
            var done = 0
            while done < data.count {
                let n = pwrite(descriptor, base + done, data.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }

        /// Fills `buffer` from `offset`, through the block cache when it lies in one block;
        /// false on a read error (a temporary file that cannot be read back: the disk failed).
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
            let start = offset / Self.blockSize * Self.blockSize
            guard offset + buffer.count <= start + Self.blockSize else { return readFile(into: buffer, at: offset) }
            return blocks.withLock { blocks -> Bool in
                if let hit = blocks.firstIndex(where: { $0.start == start }) {
                    if hit > 0 { blocks.swapAt(0, hit) }
                } else {
                    let end = length.withLock { $0 }
                    let blockLength = Swift.min(Self.blockSize, end - start)
                    guard blockLength > 0 else { return false }
                    var block = [UInt8](repeating: 0, count: blockLength)
                    guard block.withUnsafeMutableBytes({ readFile(into: $0, at: start) }) else { return false }
                    blocks.insert((start, block), at: 0)
                    if blocks.count > 2 { blocks.removeLast() }
                }
                let block = blocks[0].bytes
                guard offset - start + buffer.count <= block.count else { return false }
                block.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[(offset - start)..<(offset - start + buffer.count)])) }
                return true
            }
        }

        /// Fills `buffer` from the file at `offset`.
        func readFile(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
            guard let base = buffer.baseAddress else { return true }
            var done = 0
            while done < buffer.count {
                let n = pread(descriptor, base + done, buffer.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    /// One section's records and path bytes in a `SpillFile`, read back an entry at a time.
    /// A board's entries are read a few times each, in order, while it is drawn and mapped;
    /// held in memory they would grow with it.
    struct Spill: Sendable {
        let file: SpillFile
        let count: Int
        /// Where the records start in the file.
        let recordsOffset: Int
        /// Where the path bytes start in the file (after the records).
        let bytesOffset: Int
        let byteCount: Int

        /// `records` and `bytes` appended to `file`; nil when they cannot be written.
        init?(records: [Record], bytes: [UInt8], in file: SpillFile) {
            let start = records.withUnsafeBytes { recordBytes in
                bytes.withUnsafeBytes { pathBytes in file.append([recordBytes, pathBytes]) }
            }
            guard let start else { return nil }
            self.file = file
            count = records.count
            recordsOffset = start
            bytesOffset = start + records.count * MemoryLayout<Record>.stride
            byteCount = bytes.count
        }

        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
            file.read(into: buffer, at: offset)
        }

        /// Record `i` (an empty one if the file cannot be read).
        func record(_ i: Int) -> Record {
            var record = Record()
            guard withUnsafeMutableBytes(of: &record, { read(into: $0, at: recordsOffset + i * MemoryLayout<Record>.stride) }) else { return Record() }
            return record
        }

        /// `length` path bytes from `start`, as a string.
        func string(_ start: Int, _ length: Int) -> String {
            guard length > 0 else { return "" }
            return String(unsafeUninitializedCapacity: length) { buffer in
                read(into: UnsafeMutableRawBufferPointer(buffer), at: bytesOffset + start) ? length : 0
            }
        }

        /// Everything, back in memory.
        func load() -> (records: [Record], bytes: [UInt8]) {
            var records = [Record](repeating: Record(), count: count)
            var bytes = [UInt8](repeating: 0, count: byteCount)
            _ = records.withUnsafeMutableBytes { read(into: $0, at: recordsOffset) }
            _ = bytes.withUnsafeMutableBytes { read(into: $0, at: bytesOffset) }
            return (records, bytes)
        }
    }

    /// The same entries with their records and path bytes in a temporary file of their
    /// own: what a sheet keeps while it is drawn. Unchanged when the file cannot be written.
    public func spilled() -> CatalogEntries {
        guard spill == nil, !records.isEmpty, let file = SpillFile() else { return self }
        return spilled(into: file)
    }

    /// The same entries with their records and path bytes appended to `file` (shared by
    /// every section of a catalog). Unchanged when the file cannot take them.
    func spilled(into file: SpillFile) -> CatalogEntries {
        guard spill == nil, !records.isEmpty, let moved = Spill(records: records, bytes: bytes, in: file) else { return self }
        var entries = CatalogEntries()
        entries.extras = extras
        entries.spill = moved
        return entries
    }

    /// Records and bytes back in memory, before a change.
    mutating func load() {
        guard let spill else { return }
        (records, bytes) = spill.load()
        self.spill = nil
    }
}
