import Foundation
import MosaicSync

extension CatalogEntries {
    /// The records and path bytes of a catalog moved to a temporary file (removed from the
    /// folder as soon as it is made: nothing is left behind, whatever ends the run), read
    /// back with `pread` an entry at a time. A board's entries are read a few times each,
    /// in order, while it is drawn and mapped; held in memory they would grow with it.
    final class Spill: Sendable {
        let descriptor: Int32
        let count: Int
        /// Where the path bytes start in the file (after the records).
        let bytesOffset: Int
        let byteCount: Int
        /// The last two 64 KiB blocks read (entries are read mostly in order, a record and
        /// its path from two places in the file), most recent first.
        private let blocks = Locked<[(start: Int, bytes: [UInt8])]>([])
        static let blockSize = 1 << 16

        /// The file of `records` and `bytes`; nil when it cannot be made (the entries
        /// then stay in memory).
        init?(records: [Record], bytes: [UInt8]) {
            var template = Array((NSTemporaryDirectory() + "/mosaic-catalog-XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { return nil }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            let written = records.withUnsafeBytes { Self.write(descriptor, $0) } && bytes.withUnsafeBytes { Self.write(descriptor, $0) }
            guard written else {
                close(descriptor)
                return nil
            }
            self.descriptor = descriptor
            count = records.count
            bytesOffset = records.count * MemoryLayout<Record>.stride
            byteCount = bytes.count
        }

        deinit { close(descriptor) }

        static func write(_ descriptor: Int32, _ data: UnsafeRawBufferPointer) -> Bool {
            var done = 0
            while done < data.count {
                let n = Glibc.write(descriptor, data.baseAddress! + done, data.count - done)
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
                    let length = Swift.min(Self.blockSize, bytesOffset + byteCount - start)
                    guard length > 0 else { return false }
                    var block = [UInt8](repeating: 0, count: length)
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
            var done = 0
            while done < buffer.count {
                let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }

        /// Record `i` (an empty one if the file cannot be read).
        func record(_ i: Int) -> Record {
            var record = Record()
            guard withUnsafeMutableBytes(of: &record, { read(into: $0, at: i * MemoryLayout<Record>.stride) }) else { return Record() }
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
            _ = records.withUnsafeMutableBytes { read(into: $0, at: 0) }
            _ = bytes.withUnsafeMutableBytes { read(into: $0, at: bytesOffset) }
            return (records, bytes)
        }
    }

    /// The same entries with their records and path bytes in a temporary file: what a
    /// sheet keeps while it is drawn. Unchanged when the file cannot be written.
    public func spilled() -> CatalogEntries {
        guard spill == nil, !records.isEmpty, let file = Spill(records: records, bytes: bytes) else { return self }
        var moved = CatalogEntries()
        moved.extras = extras
        moved.spill = file
        return moved
    }

    /// Records and bytes back in memory, before a change.
    mutating func load() {
        guard let spill else { return }
        (records, bytes) = spill.load()
        self.spill = nil
    }
}
