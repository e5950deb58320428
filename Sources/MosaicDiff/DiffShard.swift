import MosaicImage

/// One part of a comparison split over machines (`mosaic diff --shard K/N`): the pairs in
/// the order of their relative paths' bytes, the i-th (from 0) to shard i mod `count`.
/// Interleaved rather than in strips, so that each shard gets its share of every folder
/// (of a folder of large screenshots as much as of one of icons); added and removed pairs
/// are dealt the same way. The same order on every machine: by the names' bytes, not by
/// how a locale or Unicode collates them.
public struct DiffShard: Hashable, Sendable {
    /// From 0, as render's `--shard` counts.
    public var index: Int
    public var count: Int

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// `paths` in the order shards are dealt: by their bytes (`FileNames.bytes`).
    public static func dealingOrder(_ paths: some Collection<String>) -> [String] {
        paths.map { (path: $0, bytes: FileNames.bytes(of: $0)) }
            .sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
            .map(\.path)
    }

    /// The shard the pair at `position` of the dealing order goes to.
    public func holds(position: Int) -> Bool {
        position % count == index
    }

    /// This shard's paths of `paths` (names whose bytes differ, even if Swift's String
    /// takes them for equal, are each dealt their own place), in the dealing order.
    public func select(_ paths: some Collection<String>) -> [String] {
        Self.dealingOrder(paths).enumerated().filter { holds(position: $0.offset) }.map(\.element)
    }
}
