import Foundation
import MosaicImage

/// Which card cache a run uses, as the command line and a program say it: the default
/// folder, another one, or none; and how large it may grow.
public struct CacheSettings: Sendable, Equatable {
    /// The folder; nil for the default (`CardCache.defaultFolder`).
    public var folder: String?
    /// False: no cache (`--no-cache`).
    public var enabled = true
    /// Bytes the entries may hold together.
    public var sizeLimit = CardCache.defaultSizeLimit

    public init(folder: String? = nil, enabled: Bool = true, sizeLimit: Int = CardCache.defaultSizeLimit) {
        self.folder = folder
        self.enabled = enabled
        self.sizeLimit = sizeLimit
    }

    /// The cache to use, or nil (turned off here or by `MOSAIC_CACHE=off`, or no home
    /// folder); with the problem to warn of when the cache exists but cannot be used (a
    /// read-only or full file system): then the run goes on without it.
    ///
    /// - Parameter codeVersion: what made the entries (a release and commit; the
    ///   executable's digest is added, so two builds of different code never share).
    /// - Throws: `CacheError.untrusted` for a folder another user can write or owns, named
    ///   with `folder` (the default folder's problems are warnings).
    public func open(codeVersion: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CacheError) -> (cache: CardCache?, warning: CacheError?) {
        guard enabled, !CardCache.isOff(environment: environment) else { return (nil, nil) }
        guard let path = folder ?? CardCache.defaultFolder(environment: environment) else { return (nil, nil) }
        do {
            let cache = try CardCache(folder: path, sizeLimit: sizeLimit, codeVersion: codeVersion)
            guard let executable = cache.contentDigest(of: "/proc/self/exe") else { return (cache, nil) }
            return (cache.made(by: codeVersion + " executable " + executable.digest.description), nil)
        } catch {
            if case .untrusted = error, folder != nil { throw error }
            return (nil, error)
        }
    }

    /// A size as people write it: bytes, or a number with K, M, G or T (powers of 1000;
    /// KiB, MiB, GiB, TiB for powers of 1024), as `10G`.
    public static func size(_ text: String) throws(CacheError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("TiB", 1_099_511_627_776),
            ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("K", 1e3), ("M", 1e6), ("G", 1e9), ("T", 1e12), ("B", 1),
        ]
        var number = trimmed
        var scale = 1.0
        for (suffix, factor) in units where trimmed.uppercased().hasSuffix(suffix.uppercased()) {
            number = String(trimmed.dropLast(suffix.count)).trimmingCharacters(in: .whitespaces)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale < 9e18 else { throw .invalidSize(text) }
        return Int(value * scale)
    }
}
