import Foundation
@testable import Mosaic
import MosaicImage
import MosaicSync
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The card cache can only save work: every output with it is byte-identical to the same
/// run without it, whatever happened to the cache (damaged, cut short, written by two
/// processes at once, unwritable, made by another version) or to the files (rewritten
/// within their time stamps' granularity).
@Suite(.serialized) struct CardCacheTests {
    static let samples = CatalogTests.samples


    /// A fresh folder with a few sample photos (a JPEG with orientation 6, PNGs) and a
    /// truncated JPEG (a warning, which a hit must give again).
    static func folder(_ name: String) throws -> String {
        let dir = NSTemporaryDirectory() + "mosaic-card-cache-\(name)-\(getpid())"
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        for file in ["coffee.jpg", "coins.png", "astronaut-portrait-exif6.jpg", "camera.png", "chelsea.jpg"] {
            try FileManager.default.copyItem(atPath: samples + "/" + file, toPath: dir + "/photos/" + file)
        }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: samples + "/rocket.jpg"))
        try jpeg.prefix(jpeg.count * 2 / 3).write(to: URL(fileURLWithPath: dir + "/photos/truncated.jpg"))
        return dir
    }

    static func options(_ layout: SheetLayout = .masonry) -> SheetOptions {
        var options = SheetOptions()
        options.width = 700
        options.columns = 3
        options.layout = layout
        options.style.font = .file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        options.jobs = 2
        return options
    }

    /// Renders `photos` to `output` with `cache` (none: nil); the summary's warnings.
    @discardableResult
    static func render(_ photos: String, to output: String, options: SheetOptions = options(), cache: CardCache?) throws -> RenderSummary {
        var job = try RenderJob(request: OutputRequest(destination: output), options: options, inputs: [photos])
        job.cache = cache
        let sheet = try ContactSheet(catalog: try Catalog.folder(photos, sort: .natural), options: job.sheetOptions, typesetter: Typesetter(fonts: FontLibrary()))
        return try job.render(sheet).summary
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func cards(_ cacheFolder: String) -> [String] { CacheUsage.files(in: cacheFolder + "/cards").map(\.path).sorted() }

    @Test(arguments: ["png", "jpg", "webp", "pdf"], ["masonry", "grid", "justified"])
    func outputWithTheCacheIsByteIdenticalToOutputWithout(format: String, layoutName: String) throws {
        let dir = try Self.folder("same-\(format)-\(layoutName)")
        let layout = try #require(SheetLayout.named(layoutName))
        var options = Self.options(layout)
        if layoutName == "grid" { options.cropMode = .entropy }
        try Self.render(dir + "/photos", to: dir + "/plain.\(format)", options: options, cache: nil)
        let cold = try CardCache(folder: dir + "/cache", codeVersion: "test")
        let first = try Self.render(dir + "/photos", to: dir + "/cold.\(format)", options: options, cache: cold)
        #expect(cold.statistics.hits == 0 && cold.statistics.stored == 6)
        let warm = try CardCache(folder: dir + "/cache", codeVersion: "test")
        let second = try Self.render(dir + "/photos", to: dir + "/warm.\(format)", options: options, cache: warm)
        #expect(warm.statistics.hits == 6 && warm.statistics.stored == 0)
        #expect(try Self.bytes(dir + "/plain.\(format)") == Self.bytes(dir + "/cold.\(format)"))
        #expect(try Self.bytes(dir + "/plain.\(format)") == Self.bytes(dir + "/warm.\(format)"))
        // The truncated JPEG's warning comes again from the cache, word for word.
        #expect(first.warnings.map(\.description) == second.warnings.map(\.description))
        #expect(second.warnings.contains { $0.path.hasSuffix("truncated.jpg") })
    }

    @Test func aFlippedByteOrAnEntryCutShortIsDetectedAndMadeAgain() throws {
        let dir = try Self.folder("damaged")
        try Self.render(dir + "/photos", to: dir + "/plain.png", cache: nil)
        try Self.render(dir + "/photos", to: dir + "/cold.png", cache: try CardCache(folder: dir + "/cache", codeVersion: "test"))
        let entries = Self.cards(dir + "/cache")
        #expect(entries.count == 6)
        // One bit flipped in the pixels of one entry, another entry cut short (a writer
        // killed after the rename could not leave one, but a full disk or a copy can).
        var flipped = try Data(contentsOf: URL(fileURLWithPath: entries[0]))
        flipped[flipped.count / 2] ^= 0x10
        try flipped.write(to: URL(fileURLWithPath: entries[0]))
        let cut = try Data(contentsOf: URL(fileURLWithPath: entries[1]))
        try cut.prefix(cut.count - 100).write(to: URL(fileURLWithPath: entries[1]))
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test")
        try Self.render(dir + "/photos", to: dir + "/warm.png", cache: cache)
        #expect(cache.statistics.hits == 4 && cache.statistics.stored == 2)
        #expect(try Self.bytes(dir + "/plain.png") == Self.bytes(dir + "/warm.png"))
        // Made again: whole.
        #expect(try Data(contentsOf: URL(fileURLWithPath: entries[1])).count == cut.count)
    }

    @Test func aKilledWritersTemporaryFileIsNeverRead() throws {
        let dir = try Self.folder("killed")
        try Self.render(dir + "/photos", to: dir + "/plain.png", cache: nil)
        try Self.render(dir + "/photos", to: dir + "/cold.png", cache: try CardCache(folder: dir + "/cache", codeVersion: "test"))
        // What a writer killed before its rename leaves: a temporary name beside the entry,
        // and no entry (here: the entry removed, its bytes half written under the temporary name).
        let entry = Self.cards(dir + "/cache")[0]
        let half = try Data(contentsOf: URL(fileURLWithPath: entry))
        let name = (entry as NSString).lastPathComponent
        let folder = (entry as NSString).deletingLastPathComponent
        try half.prefix(half.count / 2).write(to: URL(fileURLWithPath: folder + "/.\(name).tmp-99999-1"))
        try FileManager.default.removeItem(atPath: entry)
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test")
        try Self.render(dir + "/photos", to: dir + "/warm.png", cache: cache)
        #expect(cache.statistics.hits == 5 && cache.statistics.stored == 1)
        #expect(try Self.bytes(dir + "/plain.png") == Self.bytes(dir + "/warm.png"))
    }

    @Test func twoWritersFillingOneCacheAtOnceBothDrawTheSheet() throws {
        let dir = try Self.folder("two")
        try Self.render(dir + "/photos", to: dir + "/plain.png", cache: nil)
        let caches = try (0..<2).map { _ in try CardCache(folder: dir + "/cache", codeVersion: "test") }
        let errors = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { n in
            do {
                try Self.render(dir + "/photos", to: dir + "/out\(n).png", cache: caches[n])
            } catch {
                errors.withLock { $0.append("\(error)") }
            }
        }
        #expect(errors.withLock { $0 } == [])
        for n in 0..<2 { #expect(try Self.bytes(dir + "/plain.png") == Self.bytes(dir + "/out\(n).png")) }
        let third = try CardCache(folder: dir + "/cache", codeVersion: "test")
        try Self.render(dir + "/photos", to: dir + "/third.png", cache: third)
        #expect(third.statistics.hits == 6)
        #expect(try Self.bytes(dir + "/plain.png") == Self.bytes(dir + "/third.png"))
    }

    @Test func aCacheThatCannotBeWrittenIsOneWarningAndTheSheetIsDrawn() throws {
        let dir = try Self.folder("unwritable")
        try Self.render(dir + "/photos", to: dir + "/plain.png", cache: nil)
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test")
        // A file where the entries' folder goes: every write fails (as on a full or
        // read-only file system; the tests run as root, whom permissions do not stop).
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/cache/cards"))
        try Self.render(dir + "/photos", to: dir + "/out.png", cache: cache)
        #expect(try Self.bytes(dir + "/plain.png") == Self.bytes(dir + "/out.png"))
        guard case .unusable(let path, _)? = cache.statistics.failure else {
            Issue.record("no warning: \(String(describing: cache.statistics.failure))")
            return
        }
        #expect(path == dir + "/cache")
        #expect(cache.statistics.stored == 0)
    }

    @Test func aCacheInAFolderThatCannotBeMadeIsAWarningNotAnError() throws {
        let dir = try Self.folder("unmakeable")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir + "/file"))
        let (cache, warning) = try CacheSettings(folder: nil).open(codeVersion: "test", environment: ["XDG_CACHE_HOME": dir + "/file/below"])
        #expect(cache == nil)
        guard case .unusable(let path, _)? = warning else {
            Issue.record("expected .unusable, got \(String(describing: warning))")
            return
        }
        #expect(path == dir + "/file/below/mosaic")
    }

    @Test func anEntryMadeByAnotherVersionIsNeverUsed() throws {
        let dir = try Self.folder("versions")
        try Self.render(dir + "/photos", to: dir + "/a.png", cache: try CardCache(folder: dir + "/cache", codeVersion: "0.6.0 (aaaaaaa)"))
        let other = try CardCache(folder: dir + "/cache", codeVersion: "0.6.0 (bbbbbbb)")
        try Self.render(dir + "/photos", to: dir + "/b.png", cache: other)
        #expect(other.statistics.hits == 0 && other.statistics.stored == 6)
        // Nor one made with other options that change the pixels (another filter).
        var box = Self.options()
        box.filter = .box
        let third = try CardCache(folder: dir + "/cache", codeVersion: "0.6.0 (bbbbbbb)")
        try Self.render(dir + "/photos", to: dir + "/c.png", options: box, cache: third)
        #expect(third.statistics.hits == 0)
    }

    @Test func aFolderOtherUsersCanWriteIsRefused() throws {
        let dir = try Self.folder("untrusted")
        try FileManager.default.createDirectory(atPath: dir + "/shared", withIntermediateDirectories: true)
        chmod(dir + "/shared", 0o777)
        #expect(throws: CacheError.untrusted(path: dir + "/shared", reason: "other users can write it")) {
            _ = try CardCache(folder: dir + "/shared", codeVersion: "test")
        }
        // Named with --cache: an error; the default folder: a warning, and no cache.
        #expect(throws: CacheError.self) { _ = try CacheSettings(folder: dir + "/shared").open(codeVersion: "test", environment: [:]) }
        let (cache, warning) = try CacheSettings().open(codeVersion: "test", environment: ["XDG_CACHE_HOME": dir + "/shared/.."])
        #expect(cache != nil && warning == nil)
    }

    @Test func offInTheEnvironmentMeansNoCache() throws {
        let dir = try Self.folder("off")
        let (cache, warning) = try CacheSettings(folder: dir + "/cache").open(codeVersion: "test", environment: ["MOSAIC_CACHE": "off"])
        #expect(cache == nil && warning == nil)
        #expect(FileNames.status(dir + "/cache") == nil)
    }

    /// git's "racy" case: a file rewritten (same size) within its time stamps' granularity
    /// keeps its identity (device, inode, size, times), so an index made right after its
    /// first write would give the first content's digest for the second. A file written
    /// less than `ContentIdentity.settling` ago is therefore never indexed: it is read and
    /// digested on every run until it has settled.
    @Test func aFileWrittenJustNowIsDigestedByContentEveryTime() throws {
        let dir = try Self.folder("racy")
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test")
        let path = dir + "/racy.bin"
        let first = [UInt8](repeating: 7, count: 4096)
        var second = first
        second[100] ^= 0xFF
        try Data(first).write(to: URL(fileURLWithPath: path))
        #expect(cache.contentDigest(of: path)?.digest == CacheDigest(of: first))
        // Read again by content, not from the index.
        let again = try #require(cache.contentDigest(of: path))
        #expect(again.bytes?.count == first.count)
        // Rewritten in place (the same inode and size) at once: the new content's digest.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(second))
        try handle.close()
        #expect(cache.contentDigest(of: path)?.digest == CacheDigest(of: second))
        #expect(CacheUsage(folder: dir + "/cache").indexed == 0)
    }

    @Test func anUnchangedSettledFileIsNotReadAgain() throws {
        let dir = try Self.folder("settled")
        let path = dir + "/photos/coffee.jpg"
        // Old enough: its identity stands for its content once indexed.
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test", settling: 0)
        let first = try #require(cache.contentDigest(of: path))
        #expect(first.bytes != nil)
        let second = try #require(cache.contentDigest(of: path))
        #expect(second.bytes == nil && second.digest == first.digest)
    }

    /// The sheet's fingerprint and the card's decode both ask for a file's digest: the
    /// second question costs a status, not another read of the index; a file written
    /// since is read again.
    @Test func aProcessReadsTheIndexOncePerFile() throws {
        let dir = try Self.folder("served")
        let path = dir + "/photos/coffee.jpg"
        let cache = try CardCache(folder: dir + "/cache", codeVersion: "test", settling: 0)
        let first = try #require(cache.contentDigest(of: path))
        #expect(first.bytes != nil && CacheUsage(folder: dir + "/cache").indexed == 1)
        // The index on disk is gone: the process still knows the digest.
        CacheUsage.clear(folder: dir + "/cache")
        let second = try #require(cache.contentDigest(of: path))
        #expect(second.bytes == nil && second.digest == first.digest)
        // Written since: read and digested again.
        var bytes = try #require(second.bytes ?? first.bytes)
        bytes.append(0)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let third = try #require(cache.contentDigest(of: path))
        #expect(third.bytes == bytes && third.digest == CacheDigest(of: bytes))
    }

    @Test func sizesAsPeopleWriteThem() throws {
        #expect(try CacheSettings.size("10G") == 10_000_000_000)
        #expect(try CacheSettings.size("512MiB") == 512 * 1_048_576)
        #expect(try CacheSettings.size("1500") == 1500)
        #expect(try CacheSettings.size("2.5 GB") == 2_500_000_000)
        #expect(throws: CacheError.invalidSize("ten")) { try CacheSettings.size("ten") }
        #expect(throws: CacheError.invalidSize("-1G")) { try CacheSettings.size("-1G") }
    }

    @Test func trimmingKeepsTheMostRecentlyUsedWithinTheLimit() throws {
        let dir = try Self.folder("trim")
        try Self.render(dir + "/photos", to: dir + "/a.png", cache: try CardCache(folder: dir + "/cache", codeVersion: "test"))
        let usage = CacheUsage(folder: dir + "/cache")
        #expect(usage.entries == 6)
        let removed = CacheUsage.trim(folder: dir + "/cache", limit: usage.bytes / 2)
        #expect(removed >= 3)
        #expect(CacheUsage(folder: dir + "/cache").bytes <= usage.bytes / 2)
        #expect(CacheUsage.clear(folder: dir + "/cache") > 0)
        #expect(CacheUsage(folder: dir + "/cache").entries == 0)
    }
}

/// Incremental outputs: a sheet whose inputs, options and files are as this machine last
/// wrote them is left as it is; anything else draws it again, byte-identical to a run
/// without the cache.
@Suite(.serialized) struct UnchangedSheetTests {
    static func inode(_ path: String) -> (UInt64, Int) {
        let status = FileNames.status(path)
        return (UInt64(status?.st_ino ?? 0), Int(status?.st_mtim.tv_nsec ?? 0) + Int(status?.st_mtim.tv_sec ?? 0) * 1_000_000_000)
    }

    static func cache(_ dir: String) throws -> CardCache { try CardCache(folder: dir + "/cache", codeVersion: "test", settling: 0) }

    @Test func anUnchangedSheetIsLeftAsItIs() throws {
        let dir = try CardCacheTests.folder("unchanged")
        try FileManager.default.removeItem(atPath: dir + "/photos/truncated.jpg")  // a warning: never recorded
        let first = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(!first.unchanged)
        let before = Self.inode(dir + "/sheet.png")
        let second = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(second.unchanged && second.rendered == 5 && second.files == [dir + "/sheet.png"])
        #expect(Self.inode(dir + "/sheet.png") == before)
    }

    @Test func aSheetWithAWarningIsAlwaysDrawn() throws {
        let dir = try CardCacheTests.folder("warned")
        try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        let second = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(!second.unchanged && second.warnings.count == 1)
    }

    /// A video is never read whole to be digested: its identity, once settled, stands for
    /// it. Before: a sheet holding a clip was drawn again on every run.
    @Test func aSheetWithAVideoIsLeftAsItIsUntilTheVideoChanges() throws {
        let dir = try CardCacheTests.folder("video")
        try FileManager.default.removeItem(atPath: dir + "/photos/truncated.jpg")
        try VideoSheetTests.clip(dir + "/photos/clip.mp4")
        let first = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(!first.unchanged && first.rendered == 6 && first.warnings.isEmpty)
        let before = Self.inode(dir + "/sheet.png")
        let second = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(second.unchanged && second.rendered == 6)
        #expect(Self.inode(dir + "/sheet.png") == before)
        // The clip written again (another clip, same name): the sheet is drawn again.
        try FileManager.default.removeItem(atPath: dir + "/photos/clip.mp4")
        try VideoSheetTests.clip(dir + "/photos/clip.mp4", black: 30)
        let third = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        #expect(!third.unchanged)
        // A clip written just now (not settled) never lets the sheet be left as it is.
        let young = try CardCache(folder: dir + "/cache", codeVersion: "test", settling: 3_600_000_000_000)
        #expect(!(try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: young).unchanged))
    }

    @Test(arguments: ["photo replaced", "photo added", "option changed", "output edited", "output removed", "caption changed"])
    func aChangeDrawsTheSheetAgain(change: String) throws {
        let dir = try CardCacheTests.folder("change-\(change.split(separator: " ").joined(separator: "-"))")
        try FileManager.default.removeItem(atPath: dir + "/photos/truncated.jpg")
        try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", cache: try Self.cache(dir))
        var options = CardCacheTests.options()
        switch change {
        case "photo replaced":
            try FileManager.default.removeItem(atPath: dir + "/photos/coins.png")
            try FileManager.default.copyItem(atPath: CardCacheTests.samples + "/horse.png", toPath: dir + "/photos/coins.png")
        case "photo added": try FileManager.default.copyItem(atPath: CardCacheTests.samples + "/horse.png", toPath: dir + "/photos/horse.png")
        case "option changed": options.style.cornerRadius += 3
        case "output edited": try Data("not the sheet".utf8).write(to: URL(fileURLWithPath: dir + "/sheet.png"))
        case "output removed": try FileManager.default.removeItem(atPath: dir + "/sheet.png")
        default: options.caption = .none
        }
        let again = try CardCacheTests.render(dir + "/photos", to: dir + "/sheet.png", options: options, cache: try Self.cache(dir))
        #expect(!again.unchanged)
        try CardCacheTests.render(dir + "/photos", to: dir + "/plain.png", options: options, cache: nil)
        #expect(try CardCacheTests.bytes(dir + "/sheet.png") == CardCacheTests.bytes(dir + "/plain.png"))
    }
}
