import Foundation
import MosaicImage
import MosaicSync

/// What a card needs from its file, kept between runs: the image decoded and reduced to
/// the card's size, with the decoder's warning.
///
/// Two stores in one folder (`$XDG_CACHE_HOME/mosaic`, else `~/.cache/mosaic`, or
/// `--cache DIR`), both one small file per entry renamed into place (no locks, so a folder
/// shared over NFS by many machines and processes is safe):
///
/// - `cards/`: the entries, named by a digest of their key: the file's content digest and
///   everything else that changes the pixels (the card's size and scaling, the filter, the
///   crop mode, colour management, the limits, the codec and its library's version, the
///   code's version). One machine's entries serve another whose files have other inodes
///   and times.
/// - `hosts/MACHINE-ID/identity/`: this machine's index from a file's identity (device,
///   inode, size, modification and change times in nanoseconds, path) to its content
///   digest, so an unchanged file is not read again. A file written less than
///   `ContentIdentity.settling` before it was indexed is digested by content again (git's
///   racy case).
///
/// Every entry ends in a checksum: one cut short (a killed writer, a full disk) or with a
/// flipped bit is ignored and made again. The cache can only save work: with it, every
/// output is byte-identical to a run without it.
public final class CardCache: Sendable {
    /// The folder.
    public let folder: String
    /// The most the `cards/` entries may hold together, bytes; the least recently used go
    /// first past it.
    public let sizeLimit: Int
    /// What the entries were made by: a different version never reads them.
    public let codeVersion: String
    let hostFolder: String
    /// Nanoseconds a file must be left unwritten before its identity is indexed
    /// (`ContentIdentity.settling`; tests shorten it).
    let settling: Int64

    struct State: Sendable {
        var hits = 0
        var misses = 0
        var stored = 0
        var storedBytes = 0
        /// The first write that failed: then the cache is read but no longer written.
        var failure: CacheError?
    }
    let state = Locked(State())
    /// The digests this process already took from the index (or indexed), by path, with
    /// the identity that vouched for them: the sheet's fingerprint and the card's decode
    /// ask for the same file, and the second asks only its status. Only settled identities
    /// (those the index itself would trust) are kept; at most `servedLimit` of them.
    let served = Locked([String: (identity: ContentIdentity, digest: CacheDigest)]())
    static let servedLimit = 1 << 16

    /// The default size limit: 10 GB.
    public static let defaultSizeLimit = 10_000_000_000

    /// Opens (making it if needed) the cache at `folder`.
    ///
    /// - Throws: `CacheError.untrusted` when another user can write the folder or owns it;
    ///   `.unusable` when it cannot be made or written.
    public convenience init(folder: String, sizeLimit: Int = CardCache.defaultSizeLimit, codeVersion: String) throws(CacheError) {
        try self.init(folder: folder, sizeLimit: sizeLimit, codeVersion: codeVersion, settling: ContentIdentity.settling)
    }

    init(folder: String, sizeLimit: Int = CardCache.defaultSizeLimit, codeVersion: String, settling: Int64) throws(CacheError) {
        self.settling = settling
        self.folder = folder
        self.sizeLimit = max(0, sizeLimit)
        self.codeVersion = codeVersion
        self.hostFolder = folder + "/hosts/" + Self.machineID()
        if FileNames.status(folder) == nil {
            for parent in CacheFiles.missingFolders(folder) {
                guard OutputFolders.makeFolder(parent, mode: 0o700) || errno == EEXIST else {
                    throw .unusable(path: folder, reason: String(cString: strerror(errno)))
                }
            }
        }
        try Self.checkTrust(folder)
        let tag = folder + "/CACHEDIR.TAG"
        if FileNames.status(tag) == nil {
            let text = "Signature: 8a477f597d28d172789f06886806bc55\n# This file is a cache directory tag created by mosaic (its card cache).\n"
            if let failure = CacheFiles.write(Array(text.utf8), to: tag) {
                throw .unusable(path: folder, reason: failure)
            }
        }
    }

    /// The same folder, already checked and tagged, for entries made by `codeVersion`.
    private init(checked other: CardCache, codeVersion: String) {
        folder = other.folder
        sizeLimit = other.sizeLimit
        hostFolder = other.hostFolder
        settling = other.settling
        self.codeVersion = codeVersion
    }

    /// This cache for entries made by `codeVersion` (the folder is not checked again).
    func made(by codeVersion: String) -> CardCache { CardCache(checked: self, codeVersion: codeVersion) }

    /// Where the cache lives by default: `$XDG_CACHE_HOME/mosaic`, else `$HOME/.cache/mosaic`;
    /// nil when neither is set.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/mosaic" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/mosaic" }
        return nil
    }

    /// True when the environment turns the cache off (`MOSAIC_CACHE=off`, as the benchmark
    /// harnesses set to time cold runs).
    public static func isOff(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["off", "0", "no", "false"].contains(environment["MOSAIC_CACHE"]?.lowercased() ?? "")
    }

    /// Refuses a folder that another user can write or owns, or that is not a folder.
    static func checkTrust(_ folder: String) throws(CacheError) {
        guard let status = FileNames.status(folder) else { throw .unusable(path: folder, reason: "it cannot be read") }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .unusable(path: folder, reason: "it is not a folder") }
        if status.st_uid != geteuid() { throw .untrusted(path: folder, reason: "it belongs to another user") }
        if status.st_mode & 0o022 != 0 { throw .untrusted(path: folder, reason: "other users can write it") }
    }

    /// This machine's id (systemd's `/etc/machine-id`, else the host name): the identity
    /// index is per machine, since inodes and devices are.
    static func machineID() -> String {
        if let (bytes, _) = CacheFiles.read("/etc/machine-id", limit: 4096) {
            let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty, text.allSatisfy({ $0.isHexDigit }) { return text }
        }
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, 255)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return CacheDigest(text: host).description
    }

    // MARK: Content digests

    /// The digest of the file at `path`'s content: from the identity index when the file is
    /// unchanged since it was indexed (no read), else read and digested (the bytes are
    /// returned so the decoder need not read them again). Nil when the file cannot be read
    /// (the decode names the problem).
    func contentDigest(of path: String) -> (digest: CacheDigest, bytes: [UInt8]?)? {
        contentDigestAndIdentity(of: path).map { ($0.digest, $0.bytes) }
    }

    /// As `contentDigest(of:)`, with the identity the index matched when it served the
    /// digest (nil when the bytes were read): a caller that reads the file afterwards checks
    /// that the identity still holds (`stillIdentical`) before storing what it made of them.
    func contentDigestAndIdentity(of path: String) -> (digest: CacheDigest, bytes: [UInt8]?, identity: ContentIdentity?)? {
        guard let before = FileNames.status(path), (before.st_mode & S_IFMT) == S_IFREG else { return nil }
        let identity = ContentIdentity(before)
        if let known = served.withLock({ $0[path] }), known.identity == identity { return (known.digest, nil, identity) }
        let indexPath = identityPath(identity, path: path)
        if let (entry, _) = CacheFiles.read(indexPath, limit: 1 << 16), var reader = EntryReader(sealed: entry, magic: Self.identityMagic),
            let stored = Self.readIdentity(&reader), stored == identity, let recordedPath = reader.data(),
            recordedPath == FileNames.bytes(of: path), let digest = reader.digest(), reader.isAtEnd
        {
            remember(path, identity, digest)
            return (digest, nil, identity)
        }
        guard let bytes = try? FileBytes.read(path).bytes, let after = FileNames.status(path) else { return nil }
        let digest = CacheDigest(of: bytes)
        // Indexed only when the file did not change while it was read and has settled.
        if ContentIdentity(after) == identity, identity.size == bytes.count, identity.isSettled(now: ContentIdentity.now(), after: settling) {
            var writer = EntryWriter(magic: Self.identityMagic)
            Self.writeIdentity(identity, into: &writer)
            writer.data(FileNames.bytes(of: path))
            writer.digest(digest)
            store(writer.sealed(), at: indexPath)
            remember(path, identity, digest)
        }
        return (digest, bytes, nil)
    }

    /// Keeps a settled identity's digest for this process's next question about `path`.
    private func remember(_ path: String, _ identity: ContentIdentity, _ digest: CacheDigest) {
        served.withLock { known in
            if known.count >= Self.servedLimit { known.removeAll(keepingCapacity: true) }
            known[path] = (identity, digest)
        }
    }

    /// True when the file at `path` still has `identity` (not written since): bytes read
    /// from it in between were the content the index names.
    func stillIdentical(_ path: String, _ identity: ContentIdentity) -> Bool {
        FileNames.status(path).map(ContentIdentity.init) == identity
    }

    static let identityMagic = "MOSAIC-I1"
    static let cardMagic = "MOSAIC-C1"

    func identityPath(_ identity: ContentIdentity, path: String) -> String {
        var writer = EntryWriter(magic: "")
        Self.writeIdentity(identity, into: &writer)
        writer.data(FileNames.bytes(of: path))
        return Self.fanOut(hostFolder + "/identity", CacheDigest(of: writer.bytes))
    }

    static func writeIdentity(_ identity: ContentIdentity, into writer: inout EntryWriter) {
        writer.u64(identity.device)
        writer.u64(identity.inode)
        writer.int(identity.size)
        writer.u64(UInt64(bitPattern: identity.modified))
        writer.u64(UInt64(bitPattern: identity.changed))
    }

    static func readIdentity(_ reader: inout EntryReader) -> ContentIdentity? {
        guard let device = reader.u64(), let inode = reader.u64(), let size = reader.int(), let modified = reader.u64(),
            let changed = reader.u64()
        else { return nil }
        return ContentIdentity(device: device, inode: inode, size: size, modified: Int64(bitPattern: modified), changed: Int64(bitPattern: changed))
    }

    /// `folder/ab/abcdef...`: 256 folders keep each one small.
    static func fanOut(_ folder: String, _ digest: CacheDigest) -> String {
        let name = digest.description
        return folder + "/" + name.prefix(2) + "/" + name
    }

    // MARK: Cards

    /// The card stored under `key`, or nil (missing, damaged, or made for another key).
    func card(_ key: CacheDigest) -> CachedCard? {
        let path = Self.fanOut(folder + "/cards", key)
        guard let (bytes, status) = CacheFiles.read(path) else {
            state.withLock { $0.misses += 1 }
            return nil
        }
        guard let card = CachedCard(entry: bytes, key: key) else {
            CacheFiles.remove(path)
            state.withLock { $0.misses += 1 }
            return nil
        }
        // Least recently used, to the day: a hit older than that is touched.
        if ContentIdentity.now() - (Int64(status.st_mtim.tv_sec) * 1_000_000_000) > 86_400_000_000_000 {
            _ = FileNames.withSystemPath(path) { utimensat(AT_FDCWD, $0, nil, 0) }
        }
        state.withLock { $0.hits += 1 }
        return card
    }

    /// Stores `card` under `key`; a write that fails is remembered (one warning) and the
    /// cache is not written again in this run.
    func store(_ card: CachedCard, for key: CacheDigest) {
        let bytes = card.entry(key: key)
        store(bytes, at: Self.fanOut(folder + "/cards", key), counted: true)
    }

    func store(_ bytes: [UInt8], at path: String, counted: Bool = false) {
        guard state.withLock({ $0.failure == nil }) else { return }
        if let failure = CacheFiles.write(bytes, to: path) {
            state.withLock { s in
                if s.failure == nil { s.failure = .unusable(path: folder, reason: failure) }
            }
            return
        }
        if counted {
            state.withLock { s in
                s.stored += 1
                s.storedBytes += bytes.count
            }
        }
    }

    /// What this run did with the cache.
    public struct Statistics: Sendable, Equatable {
        public var hits: Int
        public var misses: Int
        public var stored: Int
        /// Why writing stopped, to warn about once.
        public var failure: CacheError?
    }

    public var statistics: Statistics {
        state.withLock { Statistics(hits: $0.hits, misses: $0.misses, stored: $0.stored, failure: $0.failure) }
    }
}
