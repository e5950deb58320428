/// Why `mosaic assemble` (`PyramidAssembly`) cannot make the shards one pyramid: each
/// names the shards' folder (or the file that could not be written); nothing is written.
/// A shard's render meets it as `RenderError.assembly` (the shards' lock).
public enum AssemblyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Shards of the `count` are missing from `path` (none found: `count` 0).
    case incompleteShards(path: String, missing: [Int], count: Int)
    /// The shards in `path` rendered different boards.
    case shardsDisagree(path: String, detail: String)
    /// Shard `shard` of `count`'s record in `path` cannot be used.
    case unreadableShard(path: String, shard: Int, count: Int, problem: ShardRecordError)
    /// Shard `shard` of `count`'s files in `path` are not what its record lists.
    case damagedShard(path: String, shard: Int, count: Int, damage: [ShardDamage])
    /// Another process holds the lock on the shards' folder `path` (an
    /// assembly, or a shard being rendered).
    case shardsBusy(path: String)
    /// The pyramid's files could not be checked or written.
    case output(OutputError)

    /// A call that writes, its error as the assembly's.
    static func output<T>(_ body: () throws(OutputError) -> T) throws(AssemblyError) -> T {
        do { return try body() } catch { throw .output(error) }
    }

    public var description: String {
        switch self {
        case .incompleteShards(let path, let missing, let count):
            if count == 0 { return "\(path): no shard's record found (render the shards first: --shard K/N)" }
            let listed = missing.prefix(20).map { "\($0)/\(count)" }.joined(separator: ", ") + (missing.count > 20 ? " and \(missing.count - 20) more" : "")
            return "\(path): \(missing.count) of \(count) shards missing (\(listed)); render \(missing.count == 1 ? "it" : "them") with --shard, then assemble again"
        case .shardsDisagree(let path, let detail): return "\(path): the shards do not belong together: \(detail)"
        case .unreadableShard(let path, let shard, let count, let problem):
            return "\(path): shard \(shard) unreadable: \(problem); render it again with --shard \(shard)/\(count), then assemble again"
        case .damagedShard(let path, let shard, let count, let damage):
            let listed = damage.prefix(10).map(\.description).joined(separator: ", ") + (damage.count > 10 ? " and \(damage.count - 10) more" : "")
            return "\(path): shard \(shard) damaged: \(listed); render it again with --shard \(shard)/\(count), then assemble again"
        case .output(let error): return error.description
        case .shardsBusy(let path):
            return "\(path): another mosaic is assembling these shards or rendering one of them (it holds the folder's lock); assemble when it is done"
        }
    }
}
