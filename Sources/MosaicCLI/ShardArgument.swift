import ArgumentParser
import Mosaic

/// `--shard K/N` as render (pyramids) and diff take it: K from 0, N at most
/// `ShardPlan.maximumCount`; one parser, one set of messages.
enum ShardArgument {
    /// K and N, or a usage error that says which part is wrong: the form, K, or N past the limit.
    static func parse(_ shard: String) throws -> (index: Int, count: Int) {
        if let parsed = ShardPlan.parse(shard) { return parsed }
        let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) {
            if count > ShardPlan.maximumCount { throw ValidationError("--shard: at most \(ShardPlan.maximumCount) shards, got \(count)") }
            if count >= 1 { throw ValidationError("--shard \(shard): K must be 0 to \(count - 1) (K counts from 0), got \(index)") }
        }
        throw ValidationError("--shard must be K/N with 0 <= K < N (K from 0) and N at most \(ShardPlan.maximumCount), got \"\(shard)\"")
    }
}
