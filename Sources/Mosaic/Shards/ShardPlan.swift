import Foundation

/// How a pyramid's base is split among `count` shards: horizontal strips of whole tile rows
/// at every level a shard builds. A shard draws its strip with `overlap` rows more above
/// and below (at the base, scaled by the levels it builds: the cards crossing its edges
/// are drawn by both neighbours), cuts the tiles of levels 0 (the base) to `levels - 1`
/// whose first row is in its strip, and hands over its strip of the last of those levels
/// (exact pixels); `mosaic assemble` builds the levels above from the hand-overs. The same
/// plan for the same board, tile size, overlap and count, whoever computes it.
public struct ShardPlan: Hashable, Sendable, Codable {
    /// From 0.
    public var index: Int
    public var count: Int
    /// The base's height.
    public var height: Int
    /// Levels each shard builds (the base and `levels - 1` halvings).
    public var levels: Int
    /// The base rows whose tiles this shard cuts.
    public var strip: Range<Int>
    /// The base rows this shard draws: its strip and the overlap around it.
    public var drawn: Range<Int>

    /// The plan for shard `index` of `count` of a board `height` rows tall, whose pyramid
    /// has `maximumLevels` levels.
    public init(index: Int, count: Int, height: Int, tileSize: Int, overlap: Int, maximumLevels: Int = 8) {
        self.index = index
        self.count = count
        self.height = height
        // As many levels as leave every shard a strip at least one tile row tall at the
        // last of them (at most 8: above, the hand-over is small enough for one machine).
        var levels = 1
        while levels < min(8, maximumLevels), (height + (tileSize << levels) - 1) / (tileSize << levels) >= count { levels += 1 }
        self.levels = levels
        let unit = tileSize << (levels - 1)
        let units = (height + unit - 1) / unit
        let first = index * units / count, last = (index + 1) * units / count
        strip = min(height, first * unit)..<min(height, last * unit)
        let margin = overlap << (levels - 1)
        drawn = strip.isEmpty ? strip : max(0, strip.lowerBound - margin)..<min(height, strip.upperBound + margin)
    }

    /// The rows of the last level this shard builds that it hands over.
    public var handedOver: Range<Int> {
        let k = levels - 1
        return (strip.lowerBound >> k)..<((strip.upperBound + (1 << k) - 1) >> k)
    }

    /// The most shards a pyramid is cut into.
    public static let maximumCount = 10_000

    /// "K/N" as `--shard` takes it: K from 0 (as Kubernetes Indexed Jobs' and Slurm arrays'
    /// indices come), N from 1 to `maximumCount`.
    public static func parse(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= maximumCount, (0..<count).contains(index) else {
            return nil
        }
        return (index, count)
    }
}
