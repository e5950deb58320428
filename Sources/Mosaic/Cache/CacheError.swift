/// Why the card cache cannot be used. A cache named with `--cache` that cannot be trusted
/// stops the run; any other problem is one warning, and the run goes on without it.
public enum CacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another user can write the folder (or owns it): its entries could hold any pixels.
    case untrusted(path: String, reason: String)
    /// The folder cannot be made, read or written (a read-only or full file system).
    case unusable(path: String, reason: String)
    /// `--cache-size` (or `MOSAIC_CACHE`) is not a size.
    case invalidSize(String)

    public var description: String {
        switch self {
        case .untrusted(let path, let reason):
            return "\(path): not used as a cache: \(reason) (a cache is trusted like the inputs; use a folder only you can write)"
        case .unusable(let path, let reason): return "\(path): the card cache cannot be used: \(reason); going on without it"
        case .invalidSize(let text): return "not a size: \(text) (give bytes, or a number with K, M, G or T, as 10G)"
        }
    }
}
