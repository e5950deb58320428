import ArgumentParser
import Mosaic

/// The card cache a render uses (`render`; `mosaic cache` shows and clears it).
struct CacheArguments: ParsableArguments {
    @Option(help: ArgumentHelp("The card cache's folder, which machines may share (default: $XDG_CACHE_HOME/mosaic, else ~/.cache/mosaic).", valueName: "dir"))
    var cache: String?
    @Flag(help: "Use no card cache (also MOSAIC_CACHE=off).")
    var noCache = false
    @Option(help: ArgumentHelp("The most the card cache may hold, least recently used first out (default: 10G).", valueName: "size"))
    var cacheSize: String?

    func validate() throws {
        if noCache && cache != nil { throw ValidationError("--no-cache and --cache go not together") }
        if let cacheSize {
            do throws(CacheError) { _ = try CacheSettings.size(cacheSize) } catch { throw ValidationError("--cache-size: \(error)") }
        }
    }

    var settings: CacheSettings {
        CacheSettings(folder: cache, enabled: !noCache, sizeLimit: cacheSize.flatMap { try? CacheSettings.size($0) } ?? CardCache.defaultSizeLimit)
    }

    /// The cache to render with, its problem warned of (unless `quiet`); nil for none.
    func open(quiet: Bool) throws -> CardCache? {
        let (cache, warning) = try settings.open(codeVersion: MosaicCommand.versionLine)
        if let warning, !quiet { printError("warning: \(warning)") }
        return cache
    }

    /// After the run: the one warning of a cache that could not be written, and the trim.
    static func finish(_ cache: CardCache?, quiet: Bool) {
        guard let cache else { return }
        if let failure = cache.statistics.failure, !quiet { printError("warning: \(failure)") }
        cache.trimIfNeeded()
    }
}
