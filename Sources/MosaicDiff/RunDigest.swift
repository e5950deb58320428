import Foundation
import MosaicImage
import MosaicSync

/// What every shard of one sharded comparison computes alike, and a shard of another run
/// (other bytes under the same names, yesterday's screenshots) differently: the CRC-64 of
/// the pairs dealt, in the dealing order (`DiffShard`), each as its name's bytes and the
/// digest (`ContentDigest`) of the file on each side (or that there is none, or that it
/// cannot be read). A shard reads the files of the other shards' pairs for it (without
/// decoding them), and takes its own pairs' digests from the bytes it compared, so that a
/// file changed while the shards ran makes their parts disagree.
public enum RunDigest {
    /// The digest of the pairs `names` (in any order), whose files are at `baseline(name)`
    /// and `current(name)` (nil: none on that side); the digests of `known` results'
    /// files are taken as they are, the others read on `jobs` threads.
    public static func of(
        names: [String], baseline: (String) -> String?, current: (String) -> String?, known: [PairResult], jobs: Int?
    ) -> UInt64 {
        let order = DiffShard.dealingOrder(names)
        var digests: [[UInt8]: (ContentDigest?, ContentDigest?)] = [:]
        for result in known { digests[FileNames.bytes(of: result.relativePath)] = (result.baselineDigest, result.currentDigest) }
        // (position in `order`, side, path) of each file still to read.
        var reads: [(Int, Int, String)] = []
        var sides = [[Side]](repeating: [.none, .none], count: order.count)
        for (i, name) in order.enumerated() {
            let had = digests[FileNames.bytes(of: name)]
            for (side, path) in [baseline(name), current(name)].enumerated() {
                guard let path else { continue }
                if let digest = side == 0 ? had?.0 : had?.1 {
                    sides[i][side] = .read(digest)
                } else {
                    reads.append((i, side, path))
                }
            }
        }
        let paths = reads.map(\.2)
        let read = Locked([Side](repeating: .unreadable, count: paths.count))
        let threads = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, paths.count))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for k in stride(from: thread, to: paths.count, by: threads) {
                guard let digest = try? ContentDigest.ofFile(paths[k]) else { continue }
                read.withLock { $0[k] = .read(digest) }
            }
        }
        for (k, side) in read.withLock({ $0 }).enumerated() { sides[reads[k].0][reads[k].1] = side }
        var crc: UInt64 = 0
        func add(_ bytes: [UInt8]) { crc = bytes.withUnsafeBytes { CRC64.checksum($0, continuing: crc) } }
        func add(_ value: UInt64) { add(withUnsafeBytes(of: value.littleEndian) { Array($0) }) }
        for (i, name) in order.enumerated() {
            let bytes = FileNames.bytes(of: name)
            add(UInt64(bytes.count))
            add(bytes)
            for side in sides[i] {
                switch side {
                case .none: add([0])
                case .unreadable: add([2])
                case .read(let digest):
                    add([1])
                    add(UInt64(digest.byteCount))
                    add(digest.crc64)
                }
            }
        }
        return crc
    }

    /// What stands on one side of a pair.
    enum Side {
        case none, unreadable
        case read(ContentDigest)
    }
}
