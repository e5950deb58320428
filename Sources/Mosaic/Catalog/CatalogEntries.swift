/// The entries of a catalog section, held compactly: a board may hold a million.
///
/// Each entry is one fixed record of 56 bytes (its path's place in one shared buffer of
/// path bytes, its size and date, its capture date, its image's header facts as small codes), the relative
/// path being the path's tail; what few entries have (a problem, pixels, manifest captions,
/// a header fact without a code, a relative path that is not the path's tail) is kept
/// beside them. Read as `CatalogEntry` values, made on access; written by packing them.
public struct CatalogEntries: Sendable {
    /// One record per entry, in order.
    var records: [Record] = []
    /// The paths' UTF-8 bytes, one after another (a replaced entry leaves its bytes).
    var bytes: [UInt8] = []
    /// What records point to with `Record.extra` (index + 1).
    var extras: [Extra] = []
    /// Set when `records` and `bytes` were moved to a temporary file (`spilled()`): they
    /// are empty then, and read from it.
    var spill: Spill?

    /// No entries.
    public init() {}

    /// `entries`, packed.
    public init(_ entries: some Sequence<CatalogEntry>) {
        for entry in entries { append(entry) }
    }

    /// An entry's fixed part.
    struct Record: Sendable {
        var pathStart: UInt32 = 0
        var pathLength: UInt16 = 0
        /// The relative path is the path's last `relativeLength` bytes (unless `extra` says
        /// otherwise).
        var relativeLength: UInt16 = 0
        var fileSize: Int = 0
        var modified: Double = 0
        /// `CaptureDate.packed`; 0: none (or not read).
        var captured: Int64 = 0
        var width: UInt32 = 0
        var height: UInt32 = 0
        var decodeMemory: UInt32 = 0
        /// Index into `extras` plus one; 0 for none.
        var extra: UInt32 = 0
        /// `Words` codes; 0: no packed header facts (none read, or kept in the extra).
        var format: UInt8 = 0
        var colorModel: UInt8 = 0
        /// 0: sequential.
        var interlacing: UInt8 = 0
        var orientation: UInt8 = 0
        var bitDepth: UInt8 = 0
        var hasAlpha = false

        /// The header facts packed into `self`; false (and nothing changed) when one of
        /// them has no code or does not fit.
        mutating func pack(_ info: ImageInfo) -> Bool {
            guard info.software == nil, info.camera == nil, info.previews == nil, info.video == nil, info.motionPhoto == nil, info.gainMap == nil, info.contentIdentifier == nil, info.shooting == nil, let format = Words.code(info.format.rawValue), let colorModel = Words.code(info.colorModel.name),
                let width = UInt32(exactly: info.width), let height = UInt32(exactly: info.height),
                let decodeMemory = UInt32(exactly: info.decodeMemory), let bitDepth = UInt8(exactly: info.bitDepth),
                let orientation = UInt8(exactly: info.orientation.rawValue)
            else { return false }
            var interlacing: UInt8 = 0
            if let name = info.interlacing?.rawValue {
                guard let code = Words.code(name) else { return false }
                interlacing = code
            }
            (self.format, self.colorModel, self.interlacing) = (format, colorModel, interlacing)
            (self.width, self.height, self.decodeMemory, self.bitDepth, self.orientation) = (width, height, decodeMemory, bitDepth, orientation)
            hasAlpha = info.hasAlpha
            captured = info.captured?.packed ?? 0
            return true
        }

        /// The header facts packed, or nil.
        var info: ImageInfo? {
            guard format != 0 else { return nil }
            var info = ImageInfo(
                format: Words.formats[Int(format)], width: Int(width), height: Int(height),
                orientation: Orientation(rawValue: Int(orientation)) ?? .up, hasAlpha: hasAlpha,
                interlacing: Words.interlacings[Int(interlacing)], bitDepth: Int(bitDepth),
                colorModel: Words.colorModels[Int(colorModel)], decodeMemory: Int(decodeMemory))
            if captured != 0 { info.captured = CaptureDate(packed: captured) }
            return info
        }
    }

    /// What does not fit a record.
    final class Extra: Sendable {
        /// The paths, when they are not in `bytes` (too long) or the relative one is not the
        /// path's tail.
        let path: String?
        let relativePath: String?
        /// Header facts that have no codes, boxed: most extras hold none (a manifest's
        /// captions), and held inline they made every extra 232 bytes, not 64.
        private let facts: Facts?
        let rare: CatalogEntry.Rare?

        final class Facts: Sendable {
            let info: ImageInfo
            init(_ info: ImageInfo) { self.info = info }
        }

        var info: ImageInfo? { facts?.info }

        init(path: String?, relativePath: String?, info: ImageInfo?, rare: CatalogEntry.Rare?) {
            self.path = path
            self.relativePath = relativePath
            facts = info.map(Facts.init)
            self.rare = rare
        }
    }

    /// The short names header facts use (formats, colour models, interlacing), coded in a
    /// byte; any other name is kept whole in an extra.
    enum Words {
        static let all = [
            "", "jpeg", "png", "gif", "webp", "tiff", "heif", "avif", "grey", "rgb", "ycbcr", "cmyk", "ycck", "palette", "grey+alpha", "rgba",
            "mask", "lab", "unknown", "progressive", "interlaced", "tiled", "rgb+alpha", "lossless", "lossy",
        ]
        static let codes: [String: UInt8] = Dictionary(uniqueKeysWithValues: all.enumerated().dropFirst().map { ($1, UInt8($0)) })
        /// Each word read as the fact it codes, once (an entry's facts are unpacked every
        /// time it is read: parsing the words again cost more than the rest).
        static let formats = all.map { ImageFormat(rawValue: $0) }
        static let colorModels = all.map { ColorModel(name: $0) }
        static let interlacings: [Interlacing?] = all.enumerated().map { $0.offset == 0 ? nil : Interlacing(rawValue: $0.element) }
        static func code(_ word: String) -> UInt8? { codes[word] }
    }

    // MARK: Packing

    /// The record of `entry`, its path bytes appended (or `reusing` a record's, when they
    /// are the same).
    mutating func pack(_ entry: CatalogEntry, reusing old: Record? = nil) -> Record {
        load()
        var record = Record()
        var path: String?
        var relative: String?
        let utf8 = entry.path.utf8
        if let old, old.extra == 0 || extras[Int(old.extra) - 1].path == nil, sameBytes(old, utf8) {
            (record.pathStart, record.pathLength) = (old.pathStart, old.pathLength)
        } else if let length = UInt16(exactly: utf8.count), let start = UInt32(exactly: bytes.count), UInt32(exactly: bytes.count + utf8.count) != nil {
            (record.pathStart, record.pathLength) = (start, length)
            bytes.append(contentsOf: utf8)
        } else {
            path = entry.path
        }
        let tail = entry.relativePath.utf8
        if path == nil, tail.count <= utf8.count, utf8.suffix(tail.count).elementsEqual(tail) {
            record.relativeLength = UInt16(tail.count)
        } else {
            relative = entry.relativePath
        }
        record.fileSize = entry.fileSize
        record.modified = entry.modified
        var info: ImageInfo?
        if let facts = entry.info, !record.pack(facts) { info = facts }
        if path != nil || relative != nil || info != nil || entry.rare != nil {
            extras.append(Extra(path: path, relativePath: relative, info: info, rare: entry.rare))
            record.extra = UInt32(extras.count)
        }
        return record
    }

    func sameBytes(_ record: Record, _ utf8: String.UTF8View) -> Bool {
        Int(record.pathLength) == utf8.count && bytes[Int(record.pathStart)..<Int(record.pathStart) + Int(record.pathLength)].elementsEqual(utf8)
    }

    func extra(_ record: Record) -> Extra? { record.extra == 0 ? nil : extras[Int(record.extra) - 1] }

    /// Record `i`.
    func record(_ i: Int) -> Record { spill?.record(i) ?? records[i] }

    /// The path of `record`.
    func path(_ record: Record) -> String { extra(record)?.path ?? string(record.pathStart, record.pathLength) }

    /// The entry of `record`.
    func unpack(_ record: Record) -> CatalogEntry {
        let extra = extra(record)
        let path = path(record)
        let relative = extra?.relativePath
            ?? (extra?.path == nil && record.relativeLength == record.pathLength ? path
                : String(decoding: path.utf8.suffix(Int(record.relativeLength)), as: UTF8.self))
        var entry = CatalogEntry(path: path, relativePath: relative, info: record.info ?? extra?.info, fileSize: record.fileSize, modified: record.modified)
        entry.rare = extra?.rare
        return entry
    }

    func string(_ start: UInt32, _ length: UInt16) -> String {
        if let spill { return spill.string(Int(start), Int(length)) }
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(start) + Int(length)]), as: UTF8.self) }
    }

    // MARK: Without making entries

    /// The path of entry `i`.
    public func path(at i: Int) -> String { path(record(i)) }

    /// Appends an entry known by its paths only.
    public mutating func append(path: String, relativePath: String) {
        records.append(pack(CatalogEntry(path: path, relativePath: relativePath)))
    }

    /// The entries that have a problem, by index, in order, read from the records and
    /// their extras alone (a problem is always kept in an extra): no entry is made.
    var problems: [(index: Int, problem: CardProblem)] {
        var found: [(index: Int, problem: CardProblem)] = []
        guard !extras.isEmpty else { return found }
        for i in indices {
            let record = record(i)
            if record.extra != 0, let problem = extras[Int(record.extra) - 1].rare?.problem { found.append((i, problem)) }
        }
        return found
    }

    /// Sorts by a key made once per entry (not once per comparison).
    mutating func sort<Key>(on key: (CatalogEntry) -> Key, by less: (Key, Key) -> Bool) {
        load()
        let keys = map(key)
        let order = keys.indices.sorted { less(keys[$0], keys[$1]) }
        records = order.map { records[$0] }
    }

    /// The entries at `indices`, in that order (their path bytes shared, not copied).
    func picking(_ indices: [Int]) -> CatalogEntries {
        var kept = self
        kept.load()
        kept.records = indices.map { kept.records[$0] }
        return kept
    }

    /// The entries whose index `keep` accepts.
    func filtered(_ keep: (Int) -> Bool) -> CatalogEntries {
        var kept = self
        kept.load()
        kept.records = records.indices.filter(keep).map { records[$0] }
        return kept
    }
}

extension CatalogEntries: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { spill?.count ?? records.count }

    public subscript(i: Int) -> CatalogEntry {
        get { unpack(record(i)) }
        set {
            load()
            records[i] = pack(newValue, reusing: records[i])
        }
    }

    public mutating func replaceSubrange(_ range: Range<Int>, with entries: some Collection<CatalogEntry>) {
        load()
        var packed: [Record] = []
        packed.reserveCapacity(entries.count)
        for entry in entries { packed.append(pack(entry)) }
        records.replaceSubrange(range, with: packed)
    }

    public mutating func reserveCapacity(_ n: Int) {
        load()
        records.reserveCapacity(n)
    }

    public mutating func removeAll(where shouldBeRemoved: (CatalogEntry) throws -> Bool) rethrows {
        load()
        var kept: [Record] = []
        kept.reserveCapacity(records.count)
        for record in records where !(try shouldBeRemoved(unpack(record))) { kept.append(record) }
        records = kept
    }

    public mutating func reverse() {
        load()
        records.reverse()
    }
}

extension CatalogEntries: ExpressibleByArrayLiteral, Hashable, CustomStringConvertible {
    public init(arrayLiteral elements: CatalogEntry...) { self.init(elements) }

    public static func == (a: CatalogEntries, b: CatalogEntries) -> Bool { a.elementsEqual(b) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for entry in self { hasher.combine(entry) }
    }

    public var description: String { Array(self).description }
}
