import Foundation

/// What a shard wrote, in its folder's `shard.json`: enough for `assemble` to check that
/// the shards belong together, that each one's files are the bytes it wrote, and to finish
/// the pyramid without the inputs. The same bytes for the same shard of the same board.
public struct ShardRecord: Codable, Hashable, Sendable {
    public var plan: ShardPlan
    /// The board's size.
    public var width: Int
    public var height: Int
    /// The whole pyramid's levels.
    public var levelCount: Int
    public var tileSize: Int
    public var overlap: Int
    /// "png", or "jpeg" with `quality`.
    public var tileFormat: String
    public var quality: Int?
    public var skipBlankTiles: Bool
    /// The pyramid format's name ("dzi", "iiif": `PyramidFormat.name`).
    public var kind: String
    /// What the format keeps of its own settings (`PyramidFormat.id`: IIIF's id).
    public var formatID: String?
    /// A digest of the board's layout and inputs: every shard's must be the same.
    public var boardDigest: String
    /// The hand-over's width (its rows: `plan.handedOver`).
    public var handOverWidth: Int
    /// Tiles the shard wrote.
    public var tiles: Int
    /// Whether the tiles hold alpha (a transparent background).
    public var hasAlpha: Bool
    /// The background a blank tile holds, premultiplied RGBA.
    public var blank: [UInt8]
    /// Every file the shard wrote but this record (its tiles, the hand-over, shard 0's
    /// viewer), by its path in the shard's folder: the CRC-32 of its bytes, 8 lowercase
    /// hexadecimal digits.
    public var files: [String: String]

    /// The background a blank tile holds.
    var background: RGBA? {
        blank.count == 4 ? RGBA(red: blank[0], green: blank[1], blue: blank[2], alpha: blank[3]) : nil
    }

    init(
        plan: ShardPlan, width: Int, height: Int, levelCount: Int, options: PyramidOptions, kind: String, formatID: String?,
        boardDigest: String, handOverWidth: Int, tiles: Int, hasAlpha: Bool, background: RGBA, files: [String: String]
    ) {
        self.hasAlpha = hasAlpha
        blank = [background.red, background.green, background.blue, background.alpha]
        self.plan = plan
        self.width = width
        self.height = height
        self.levelCount = levelCount
        tileSize = options.tileSize
        overlap = options.overlap
        switch options.format {
        case .png: tileFormat = "png"
        case .jpeg(let q):
            tileFormat = "jpeg"
            quality = q
        }
        skipBlankTiles = options.skipBlankTiles
        self.kind = kind
        self.formatID = formatID
        self.boardDigest = boardDigest
        self.handOverWidth = handOverWidth
        self.tiles = tiles
        self.files = files
    }

    /// The tile options the shard used.
    public var options: PyramidOptions {
        PyramidOptions(
            tileSize: tileSize, overlap: overlap, format: tileFormat == "png" ? .png : .jpeg(quality: quality ?? 85), skipBlankTiles: skipBlankTiles)
    }

    /// Everything but the shard's own part: equal for shards of one board.
    var board: [String] {
        [String(width), String(height), String(levelCount), String(tileSize), String(overlap), tileFormat, String(quality ?? 0), String(skipBlankTiles), kind, formatID ?? "", boardDigest, String(plan.count), String(hasAlpha), blank.map(String.init).joined(separator: ",")]
    }

    /// The record as `shard.json` holds it: compact JSON, keys sorted.
    public var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data()  // a struct of strings and numbers: never fails
    }

    /// The CRC-32 of `data` as a record lists it.
    static func checksum(_ data: Data) -> String {
        CRC32.hex(data.withUnsafeBytes { CRC32.checksum($0) })
    }

    /// The CRC-32 of the regular file at `path`, read in pieces; nil when it cannot be read.
    static func checksum(ofFile path: String) -> String? {
        let file = FileNames.withSystemPath(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard file >= 0 else { return nil }
        defer { close(file) }
        var crc: UInt32 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { return CRC32.hex(crc) }
            crc = buffer.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[..<count]), continuing: crc) }
        }
    }

    /// The bytes of a record's file: only a regular file is opened (a FIFO would block).
    ///
    /// - Throws: `ShardRecordError.absent`, `.cannotRead`.
    static func contents(of path: String) throws(ShardRecordError) -> Data {
        var status = stat()
        guard FileNames.withSystemPath(path, { lstat($0, &status) }) == 0 else {
            throw errno == ENOENT ? .absent : .cannotRead(reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .cannotRead(reason: "not a regular file") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .cannotRead(reason: (error as NSError).localizedDescription)
        }
    }

    /// Reads a `shard.json`: JSON of a record whose values a render writes (a plan that
    /// is the board's, sizes in range, safe relative paths, the tiles counted).
    ///
    /// - Throws: `ShardRecordError` saying what is wrong with it.
    public static func decode(_ data: Data) throws(ShardRecordError) -> ShardRecord {
        if data.isEmpty { throw .empty }
        if data.allSatisfy({ $0 == 0 }) { throw .zeroed(bytes: data.count) }
        let record: ShardRecord
        do {
            record = try JSONDecoder().decode(ShardRecord.self, from: data)
        } catch let error as DecodingError {
            // Valid JSON whose number no field holds ("count": 1e300, a width of 2^64):
            // Foundation says "not valid JSON" without a place; the field is named.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let found = JSONNumbers.firstUnfitting(in: [UInt8](data), isWhole: { _ in true })
            {
                throw .field(field: found.path, problem: "is \(found.literal), not a whole number \(Self.range(of: found.key))")
            }
            throw ShardRecordError(error, bytes: data.count)
        } catch {
            throw .notJSON(bytes: data.count, message: "\(error)")
        }
        try record.validate()
        return record
    }

    /// The values a render writes in a field (every number in a record is whole).
    static func range(of key: String) -> String {
        switch key {
        case "count": return "from 1 to 10000"
        case "index": return "from 0 to 9999"
        case "width", "height": return "from 1 to \(1 << 24)"
        case "tileSize": return "from 16 to 8192"
        case "quality": return "from 1 to 100"
        case "blank": return "from 0 to 255"
        default: return "from 0 to \(Int.max)"
        }
    }

    /// Checks the values against what a render writes.
    func validate() throws(ShardRecordError) {
        func require(_ condition: Bool, _ detail: @autoclosure () -> String) throws(ShardRecordError) {
            if !condition { throw .inconsistent(detail: detail()) }
        }
        try require((1...(1 << 24)).contains(width) && (1...(1 << 24)).contains(height), "a board of \(width)x\(height) px")
        try require((16...8192).contains(tileSize), "tiles of \(tileSize) px")
        try require(overlap >= 0 && overlap * 2 < tileSize, "an overlap of \(overlap) px")
        try require(tileFormat == "png" || (tileFormat == "jpeg" && (1...100).contains(quality ?? 85)), "tile format \"\(tileFormat)\"")
        guard let format = PyramidFormats.restored(name: kind, id: formatID) else { throw .inconsistent(detail: "kind \"\(kind)\"") }
        try require(format.allowsOverlap || overlap == 0, "an overlap of \(overlap) px in a \(kind) pyramid")
        try require(blank.count == 4, "a background of \(blank.count) bytes")
        try require((1...10_000).contains(plan.count) && (0..<plan.count).contains(plan.index), "shard \(plan.index) of \(plan.count)")
        let sizes = TilePyramid.levelSizes(width: width, height: height) { format.isLastLevel(width: $0, height: $1, tileSize: tileSize) }
        try require(levelCount == sizes.count, "\(levelCount) levels, where the board has \(sizes.count)")
        let expected = ShardPlan(index: plan.index, count: plan.count, height: height, tileSize: tileSize, overlap: overlap, maximumLevels: levelCount)
        try require(plan == expected, "a plan that is not shard \(plan.index)/\(plan.count)'s of this board")
        let handOverLevel = sizes[plan.levels - 1]
        try require(handOverWidth == handOverLevel.width, "a hand-over \(handOverWidth) px wide, where level \(plan.levels - 1) is \(handOverLevel.width)")
        for (path, checksum) in files {
            try require(Self.isSafe(path), "the file name \(path.debugDescription)")
            let hexadecimal = checksum.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            try require(checksum.utf8.count == 8 && hexadecimal, "the checksum \(checksum.debugDescription) of \(path.debugDescription)")
        }
        try require(files[PyramidFiles.handOver] != nil, "no hand-over listed")
        let listed = files.keys.filter(PyramidFiles.isTile).count
        try require(tiles == listed, "\(tiles) tiles, \(listed) listed")
    }

    /// A relative path inside the shard's folder: no empty, "." or ".." part, not the
    /// record or the marker.
    static func isSafe(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && !path.contains("\0") && path != PyramidFiles.shardRecord && path != PyramidFiles.marker
            && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    /// What is wrong with a shard's folder that holds `found` (path in the folder: CRC-32
    /// as the record lists them, or nil for what is not a regular file), in path order.
    public func damage(found: [String: String?]) -> [ShardDamage] {
        Set(files.keys).union(found.keys).sorted().compactMap { path in
            switch (files[path], found[path]) {
            case (nil, _): return .stray(path)
            case (_, nil): return .missing(path)
            case (let expected?, let actual?): return expected == actual ? nil : .corrupt(path)
            }
        }
    }

    /// The files in a shard's `folder` (not the record, nor the marker), at any depth and
    /// without following links: path in the folder, CRC-32 of those the record lists (nil
    /// for what is not a regular file, never opened: a FIFO would block; "" for a file the
    /// record does not list, which is not read).
    func found(in folder: String) -> [String: String?] {
        var out: [String: String?] = [:]
        func walk(_ relative: String) {
            for name in FileNames.contentsOfDirectory(relative.isEmpty ? folder : folder + "/" + relative) ?? [] {
                let path = relative.isEmpty ? name : relative + "/" + name
                if path == PyramidFiles.shardRecord || path == PyramidFiles.marker { continue }
                var status = stat()
                guard FileNames.withSystemPath(folder + "/" + path, { lstat($0, &status) }) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR: walk(path)
                case S_IFREG: out.updateValue(files[path] == nil ? "" : Self.checksum(ofFile: folder + "/" + path), forKey: path)
                default: out.updateValue(nil, forKey: path)
                }
            }
        }
        walk("")
        return out
    }
}

/// Why a `shard.json` cannot be used.
public enum ShardRecordError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The shard's folder holds no record.
    case absent
    /// It cannot be read (the system's reason).
    case cannotRead(reason: String)
    case empty
    /// `bytes` bytes, every one zero (a file system that lost its data).
    case zeroed(bytes: Int)
    /// Not JSON (the decoder's message).
    case notJSON(bytes: Int, message: String)
    /// JSON with a field missing or of the wrong type (`field`: its path, "plan.index").
    case field(field: String, problem: String)
    /// Values no render writes.
    case inconsistent(detail: String)

    init(_ error: DecodingError, bytes: Int) {
        func name(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context): self = .field(field: name(context.codingPath + [key]), problem: "missing")
        case .typeMismatch(let type, let context): self = .field(field: name(context.codingPath), problem: "not \(type)")
        case .valueNotFound(let type, let context): self = .field(field: name(context.codingPath), problem: "null, not \(type)")
        case .dataCorrupted(let context):
            self = context.codingPath.isEmpty
                ? .notJSON(bytes: bytes, message: context.debugDescription)
                : .field(field: name(context.codingPath), problem: context.debugDescription)
        @unknown default: self = .notJSON(bytes: bytes, message: "\(error)")
        }
    }

    public var description: String {
        let file = PyramidFiles.shardRecord
        switch self {
        case .absent: return "no \(file)"
        case .cannotRead(let reason): return "\(file) cannot be read: \(reason)"
        case .empty: return "\(file) is empty"
        case .zeroed(let bytes): return "\(file) is \(bytes) zero bytes"
        case .notJSON(let bytes, let message): return "\(file) is not JSON (\(bytes) bytes: \(message))"
        case .field(let field, let problem): return "\(file): \"\(field)\" \(problem)"
        case .inconsistent(let detail): return "\(file) describes no shard a render writes: \(detail)"
        }
    }
}

/// A file in a shard's folder that is not what its record says.
public enum ShardDamage: Hashable, Sendable, CustomStringConvertible {
    /// Listed in the record, not in the folder.
    case missing(String)
    /// Not the bytes the shard wrote (their CRC-32 differs), or not a regular file.
    case corrupt(String)
    /// In the folder, not in the record.
    case stray(String)

    public var description: String {
        switch self {
        case .missing(let path): return "\(FileNames.display(path)) missing"
        case .corrupt(let path): return "\(FileNames.display(path)) corrupt (not the bytes the shard wrote)"
        case .stray(let path): return "\(FileNames.display(path)) stray (the shard did not write it)"
        }
    }
}
