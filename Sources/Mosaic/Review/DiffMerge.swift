import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why the parts of a sharded run cannot be merged. Each names the file; nothing is written.
public enum DiffMergeError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// Not a mosaic diff JSON report, or one cut short or edited (`reason` says where).
    case damaged(path: String, reason: String)
    /// A report of a run in one piece.
    case notAPart(path: String)
    case otherSchema(path: String, version: Int)
    case differentRuns(path: String, other: String, what: String)
    case duplicate(path: String, other: String, index: Int, count: Int)
    case missing(indices: [Int], count: Int)
    /// `--html`, and a part whose shard wrote no HTML report (or whose images are not beside it).
    case noDiffImages(path: String, reason: String)
    /// A part larger than `DiffMerge.partLimit` bytes (not read past it).
    case tooLarge(path: String, limit: Int)
    /// A string of more than `DiffMerge.stringLimit` bytes (a message), at `offset`.
    case longString(path: String, offset: Int, limit: Int)
    /// A name (of a pair, a folder, a file) longer than `DiffMerge.nameLimit` bytes, at
    /// `offset`: found by the scan, unread past the cap.
    case longName(path: String, offset: Int, limit: Int)
    /// An object with `key` twice: JSON readers differ on which one counts.
    case duplicateKey(path: String, key: String, offset: Int)
    /// A pair whose status is not the one its figures and the run's options give: an
    /// edited part.
    case verdict(path: String, pair: String, stated: String, reason: String)
    /// A part without the run's fingerprint (written by an older mosaic).
    case noFingerprint(path: String)
    /// `--html`: a file listed as a shard's diff image that is not one mosaic wrote there
    /// (a link, a file of other bytes, not a PNG); nothing is copied.
    case notADiffImage(path: String, file: String, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(FileNames.display(path)): cannot read the part: \(reason)"
        case .damaged(let path, let reason): return "\(FileNames.display(path)): not a whole part of a sharded mosaic diff: \(reason)"
        case .notAPart(let path):
            return "\(FileNames.display(path)): a report of a run in one piece, not a shard's part (write parts with mosaic diff --shard K/N --json FILE)"
        case .otherSchema(let path, let version):
            return "\(FileNames.display(path)): written with schemaVersion \(version); this mosaic merges parts of schemaVersion \(DiffReport.schemaVersion)"
        case .differentRuns(let path, let other, let what):
            return "\(FileNames.display(path)) and \(FileNames.display(other)) are parts of different runs: \(what) differ"
        case .duplicate(let path, let other, let index, let count):
            return "\(FileNames.display(path)) and \(FileNames.display(other)) are both shard \(index)/\(count)"
        case .missing(let indices, let count):
            let list = indices.prefix(10).map { "\($0)/\(count)" }.joined(separator: ", ") + (indices.count > 10 ? " and \(indices.count - 10) more" : "")
            return "shard\(indices.count == 1 ? "" : "s") \(list) missing: give every shard's part (K from 0 to \(count - 1))"
        case .noDiffImages(let path, let reason): return "\(FileNames.display(path)): no diff images for --html: \(reason)"
        case .tooLarge(let path, let limit): return "\(FileNames.display(path)): larger than \(limit >> 20) MiB, more than any part of a sharded mosaic diff"
        case .longString(let path, let offset, let limit):
            return "\(FileNames.display(path)): not a part of a sharded mosaic diff: a string of more than \(limit >> 10) KiB at byte \(offset)"
        case .longName(let path, let offset, let limit):
            return "\(FileNames.display(path)): not a part of a sharded mosaic diff: a name of more than \(limit) bytes (more than a path can hold) at byte \(offset)"
        case .duplicateKey(let path, let key, let offset):
            return "\(FileNames.display(path)): not a part as mosaic writes it: \"\(FileNames.display(key))\" twice in one object (at byte \(offset))"
        case .verdict(let path, let pair, let stated, let reason):
            return "\(FileNames.display(path)): pair \(FileNames.display(pair)) says \"\(stated)\", but \(reason): an edited part"
        case .noFingerprint(let path):
            return "\(FileNames.display(path)): a part without the run's fingerprint (from an older mosaic): run the shards again with this one"
        case .notADiffImage(let path, let file, let reason):
            return "\(FileNames.display(path)): \(FileNames.display(file)) is not the diff image its shard wrote: \(reason); nothing copied"
        }
    }
}

/// `mosaic diff --merge part-0.json part-1.json ...`: the parts of a sharded run
/// (`--shard K/N --json FILE`) read back into the one comparison the whole run would have
/// made, for every report writer (terminal, JSON, JUnit, HTML) and the exit status.
///
/// Every part is checked before anything is written: each a whole JSON report of
/// `DiffReport.schemaVersion` with its `"shard"` record; all of the same run (folders,
/// options, shard count, pairs found); each shard once, none missing; every pair dealt to
/// the shard holding it, none twice, as many as the run found. The pairs' JSON objects
/// are kept as the shards wrote them and written back verbatim, so the merged JSON is
/// byte for byte the one-piece run's, fields added to pairs later included.
public struct DiffMerge: Sendable {
    /// The merged comparison, options and tolerance, for every writer.
    public let report: DiffReport
    /// The folders compared, as the shards were given them.
    public let baseline: String
    public let current: String
    /// Each part's file and bytes, and its pairs' JSON objects (byte ranges in it).
    let parts: [(path: String, data: Data, pairs: [Range<Int>])]
    /// For each result of `report.comparison`: its part and pair there.
    let origins: [(part: Int, pair: Int)]
    /// For each result: its diff image in its shard's HTML report's folder and the CRC-64
    /// the shard recorded of it, when there is one.
    let diffImageSources: [DiffImageSource?]
    /// The first part without diff images (and why), when there is one.
    let diffImagesProblem: DiffMergeError?

    /// One part as read: what the report says, for checking and rebuilding the pairs.
    struct Part: Decodable {
        var schemaVersion: Int
        var threshold: Double
        var includeAntialiasing: Bool
        /// "pixelmatch", "ssim" (schema 2) or "flip" (schema 3), and SSIM's pass threshold.
        var metric: String
        var minSSIM: Double?
        /// Schema 3: the colour and FLIP limits, and whether the pairs were aligned.
        var maxDeltaE: Double?
        var maxFLIP: Double?
        var align: Bool?
        var shard: DiffPartRecord?
        var pairs: [DiffReport.JSONPair]
    }

    /// Reads and checks the parts at `paths`.
    ///
    /// - Throws: `DiffMergeError` naming the file (and the other file, for two parts that
    ///   do not belong together).
    public static func read(_ paths: [String]) throws(DiffMergeError) -> DiffMerge {
        // Each part's figures are rebuilt as it is read and its decoded pairs dropped: a
        // run of 100,000 pairs is held once, as results, beside the parts' bytes.
        var read: [(path: String, data: Data, part: Part, record: DiffPartRecord, pairs: [Range<Int>])] = []
        var shards: [Int: String] = [:]
        var results: [PairResult] = []
        var origins: [(part: Int, pair: Int)] = []
        var sources: [[UInt8]: DiffImageSource] = [:]  // by the pair's name's bytes
        var problem: DiffMergeError?
        let decoder = JSONDecoder()
        for path in paths {
            // Read in chunks and scanned as it comes: a string or name past its cap is
            // refused before the rest is read; the decoder takes the pairs in batches.
            let (data, scan) = try Self.readPart(path)
            let spans = scan.spans
            var part = try Self.decode(data, scan, path: path, decoder: decoder)
            guard part.schemaVersion == DiffReport.schemaVersion else { throw .otherSchema(path: path, version: part.schemaVersion) }
            guard let record = part.shard else { throw .notAPart(path: path) }
            guard record.fingerprint != nil else { throw .noFingerprint(path: path) }
            guard (1...ShardPlan.maximumCount).contains(record.count), (0..<record.count).contains(record.index) else {
                throw .damaged(path: path, reason: "shard \(record.index)/\(record.count) is not a shard")
            }
            guard (0..<(1 << 40)).contains(record.pairsInRun) else { throw .damaged(path: path, reason: "a run of \(record.pairsInRun) pairs") }
            if let first = read.first {
                let what =
                    first.part.threshold != part.threshold || first.part.includeAntialiasing != part.includeAntialiasing
                        || first.part.metric != part.metric || first.part.minSSIM != part.minSSIM || first.part.maxDeltaE != part.maxDeltaE
                        || first.part.maxFLIP != part.maxFLIP || first.part.align != part.align
                    ? "the comparison (--threshold, --include-aa, --metric, --min-ssim, --max-delta-e, --max-flip, --align)"
                    : record.runDifference(from: first.record)
                if let what { throw .differentRuns(path: path, other: first.path, what: what) }
            }
            if let other = shards[record.index] { throw .duplicate(path: path, other: other, index: record.index, count: record.count) }
            shards[record.index] = path
            // A part cut short (or with pairs taken out) holds fewer than its share.
            let share = (record.pairsInRun - record.index + record.count - 1) / record.count
            if part.pairs.count != share {
                throw .damaged(path: path, reason: "it holds \(part.pairs.count) pairs; shard \(record.index)/\(record.count) of a run of \(record.pairsInRun) pairs has \(share)")
            }
            let (options, tolerance) = try Self.settings(part, record, in: path)
            let rules = try Self.rules(record, options: options, tolerance: tolerance, in: path)
            for (k, pair) in part.pairs.enumerated() {
                // A pair compared by a per-path rule is judged by it.
                var settings = (options, tolerance)
                if let rule = pair.rule {
                    guard rules.indices.contains(rule.index), rules[rule.index].glob.pattern == rule.glob else {
                        throw .damaged(path: path, reason: "pair \(pair.path): rule \(rule.index) (\(rule.glob)) is not one of the part's rules")
                    }
                    settings = (rules[rule.index].options, rules[rule.index].tolerance)
                }
                var result = try Self.result(pair, in: path, options: settings.0, tolerance: settings.1)
                result.rule = pair.rule?.index
                results.append(result)
                origins.append((read.count, k))
            }
            part.pairs = []
            if let images = record.diffImages {
                let folder = (path as NSString).deletingLastPathComponent
                // The part's own images: a `_files` folder inside the part's folder, named
                // by a relative path without `..` (opened without following links, `diffImage`).
                let inside = DiffImageSource.components(of: images.folder)
                if inside == nil, problem == nil {
                    problem = .noDiffImages(
                        path: path,
                        reason: "its images' folder \"\(FileNames.display(images.folder))\" is not a _files folder inside the part's folder (write each shard's --json beside its --html)")
                }
                for file in images.files {
                    // A name the shard gave it (00001.png), never a path: nothing outside
                    // the images' folder is taken for one.
                    guard Self.isDiffImageName(file.file) else {
                        throw .damaged(path: path, reason: "\"\(file.file)\" is not the name of a diff image")
                    }
                    let name = FileNames.bytes(of: try Self.name(file.path, bytes: file.pathBytes, in: path))
                    if let inside { sources[name] = DiffImageSource(partFolder: folder.isEmpty ? "." : folder, folder: inside, name: file.file, digest: file.digest) }
                }
            } else if problem == nil {
                problem = .noDiffImages(path: path, reason: "its shard wrote no HTML report (run every shard with --html)")
            }
            read.append((path, data, part, record, spans))
        }
        guard let first = read.first else { throw .missing(indices: [0], count: 1) }
        let count = first.record.count
        let missing = (0..<count).filter { shards[$0] == nil }
        guard missing.isEmpty else { throw .missing(indices: missing, count: count) }

        // In the run's order (as `FolderComparison.compare` lists them), in place; each
        // pair checked against the dealing.
        let order = results.indices.sorted { FileNames.precedes(results[$0].relativePath, results[$1].relativePath) }
        Self.permute(&results, by: order)
        origins = order.map { origins[$0] }
        // Each name's bytes once: the key of the checks below and of the diff images.
        let keys = results.map { FileNames.bytes(of: $0.relativePath) }
        var position: [[UInt8]: Int] = [:]
        for (i, path) in DiffShard.dealingOrder(results.map(\.relativePath)).enumerated() { position[FileNames.bytes(of: path)] = i }
        for (i, result) in results.enumerated() {
            let part = read[origins[i].part]
            if i > 0, keys[i - 1] == keys[i] {
                throw .damaged(path: part.path, reason: "pair \(FileNames.display(result.relativePath)) is in \(FileNames.display(read[origins[i - 1].part].path)) too")
            }
            guard let at = position[keys[i]], DiffShard(index: part.record.index, count: count).holds(position: at) else {
                throw .damaged(path: part.path, reason: "pair \(FileNames.display(result.relativePath)) is not shard \(part.record.index)/\(count)'s")
            }
        }

        var skipped: [(path: String, kind: String)] = []
        for file in first.record.skipped { skipped.append((try Self.name(file.path, bytes: file.pathBytes, in: first.path), file.kind)) }
        let diffImageSources = keys.map { sources[$0] }
        let comparison = FolderComparison(results: results, skippedSpecialFiles: skipped)
        results = []
        let (options, tolerance) = try Self.settings(first.part, first.record, in: first.path)
        var report = DiffReport(comparison: comparison, options: options, tolerance: tolerance)
        report.rules = try Self.rules(first.record, options: options, tolerance: tolerance, in: first.path)
        report.baselineCommit = first.record.fingerprint?.baselineCommit
        if let rules = first.record.rules {
            report.config = DiffConfig(path: first.record.config ?? "", rules: rules, warnings: [], digest: first.record.fingerprint?.config ?? "")
        }
        return DiffMerge(
            report: report,
            baseline: try Self.name(first.record.baseline, bytes: first.record.baselineBytes, in: first.path),
            current: try Self.name(first.record.current, bytes: first.record.currentBytes, in: first.path),
            parts: read.map { ($0.path, $0.data, $0.pairs) }, origins: origins,
            diffImageSources: diffImageSources, diffImagesProblem: problem)
    }

    /// Puts `values[order[i]]` at `i`, in place (cycle by cycle): no second copy of
    /// 100,000 results.
    static func permute<T>(_ values: inout [T], by order: [Int]) {
        var placed = [Bool](repeating: false, count: values.count)
        for start in values.indices where !placed[start] {
            var i = start
            while true {
                placed[i] = true
                let from = order[i]
                if from == start { break }
                values.swapAt(i, from)
                i = from
            }
        }
    }

    /// The files read.
    public var paths: [String] { parts.map(\.path) }

    /// The shards' diff images the merge would copy (for `--html`), for the check that the
    /// report's folder holds none of them.
    public var diffImageFiles: [String] { diffImageSources.compactMap { $0?.file } }

    /// The merged JSON report: the one-piece run's, its pairs' objects as the shards wrote
    /// them.
    public func json() throws(OutputError) -> Data {
        let stream = JSONStream()
        try writeJSON(to: stream)
        try stream.flush()
        return stream.data
    }

    /// Writes the merged JSON report into `stream` as it goes (never whole in memory).
    public func writeJSON(to stream: JSONStream) throws(OutputError) {
        let order = report.reportOrder
        // The report around one marker pair, which the pairs' objects replace.
        let marker = "@mosaic-merged-pairs@"
        let frame = try report.json(board: nil, shard: nil, pairs: [marker])
        guard !order.isEmpty, let at = frame.range(of: Data("\"\(marker)\"".utf8)) else { return try stream.write(data: report.json()) }
        let lineStart = frame[..<at.lowerBound].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? frame.startIndex
        let separator = Data(",\n".utf8) + frame[lineStart..<at.lowerBound]
        try stream.write(data: frame[..<at.lowerBound])
        for (n, index) in order.enumerated() {
            if n > 0 { try stream.write(data: separator) }
            let origin = origins[index], part = parts[origin.part]
            try stream.write(data: part.data[part.pairs[origin.pair]])
        }
        try stream.write(data: frame[at.upperBound...])
    }

    /// `--html`: checks that every diff image the page links is beside its part.
    ///
    /// - Throws: `DiffMergeError.noDiffImages` for a part whose shard wrote no HTML report,
    ///   or an image that is not there.
    public func checkDiffImages() throws(DiffMergeError) {
        let results = report.comparison.results
        // Each part's images folder, by device and inode: no two parts may share one.
        var folders: [FileIdentity: String] = [:]
        for (index, source) in diffImageSources.enumerated() {
            guard results[index].difference.map({ !$0.isMatch }) ?? false else { continue }
            if let diffImagesProblem { throw diffImagesProblem }
            let part = parts[origins[index].part].path
            guard let source else {
                throw .noDiffImages(path: part, reason: "no diff image listed for \(FileNames.display(results[index].relativePath))")
            }
            let folder = try source.openFolder(part: part)
            defer { close(folder.fd) }
            if let other = folders[folder.identity], other != part {
                throw .noDiffImages(path: part, reason: "its images' folder \(FileNames.display(source.folderPath)) is \(FileNames.display(other))'s too")
            }
            folders[folder.identity] = part
            _ = try Self.diffImage(source, part: part)
        }
    }

    /// The largest diff image copied: 256 MiB (a 16384x16384 diff image compresses to far
    /// less).
    public static let diffImageLimit = 256 << 20

    /// The bytes of a shard's diff image `source`, checked: a regular file of one link
    /// (`st_nlink` 1: not a hard link to a file elsewhere) in its part's own images
    /// folder, reached from the part's folder one name at a time without following a link,
    /// at most `diffImageLimit` bytes, a PNG, with the CRC-64 its part recorded.
    ///
    /// - Throws: `.noDiffImages` when it is not there, `.notADiffImage` otherwise.
    static func diffImage(_ source: DiffImageSource, part: String) throws(DiffMergeError) -> [UInt8] {
        let file = source.file
        let folder = try source.openFolder(part: part)
        defer { close(folder.fd) }
        let fd = FileNames.withSystemPath(source.name) { openat(folder.fd, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT { throw .noDiffImages(path: part, reason: "\(FileNames.display(file)) is not there") }
            throw .notADiffImage(path: part, file: file, reason: errno == ELOOP ? "a symbolic link" : String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw .notADiffImage(path: part, file: file, reason: FileNames.specialKind(status.st_mode) ?? "not a regular file")
        }
        guard status.st_nlink == 1 else { throw .notADiffImage(path: part, file: file, reason: "a hard link (\(status.st_nlink) names for one file)") }
        guard Int(status.st_size) <= diffImageLimit else { throw .notADiffImage(path: part, file: file, reason: "larger than \(diffImageLimit >> 20) MiB") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let got = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + done, $0.count - done) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw .notADiffImage(path: part, file: file, reason: got == 0 ? "it shrank while read" : String(cString: strerror(errno))) }
            done += got
        }
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw .notADiffImage(path: part, file: file, reason: "not a PNG") }
        guard let digest = source.digest else { throw .notADiffImage(path: part, file: file, reason: "its part records no digest of it") }
        guard CRC64.hex(ContentDigest(of: bytes).crc64) == digest else {
            throw .notADiffImage(path: part, file: file, reason: "its bytes are not those its shard wrote")
        }
        return bytes
    }

    /// `00001.png`: the name `FolderComparison.diffImageName` gives, digits and `.png`.
    static func isDiffImageName(_ name: String) -> Bool {
        name.hasSuffix(".png") && name.count > 4 && name.dropLast(4).allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The merged report with its diff images copied into `folder` (the page's staging
    /// folder), numbered as the one-piece run numbers them. Each is copied from the bytes
    /// read and checked (`diffImage`): never a link, never by a hard link (which would
    /// share the shard's file with the report).
    ///
    /// - Throws: `DiffMergeError` for an image that is not its shard's;
    ///   `OutputError.write(.cannotCreate)` when one cannot be written.
    public func reportWithDiffImages(in folder: String) throws -> DiffReport {
        var comparison = report.comparison
        var count = 0
        for (index, source) in diffImageSources.enumerated() {
            guard let source, comparison.results[index].difference.map({ !$0.isMatch }) ?? false else { continue }
            let bytes = try Self.diffImage(source, part: parts[origins[index].part].path)
            count += 1
            let name = FolderComparison.diffImageName(count, in: folder)
            let fd = FileNames.withSystemPath(name) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644) }
            guard fd >= 0 else { throw OutputError.write(.cannotCreate(path: name, reason: String(cString: strerror(errno)))) }
            var done = 0
            while done < bytes.count {
                let wrote = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
                if wrote < 0 && errno == EINTR { continue }
                guard wrote > 0 else {
                    let reason = wrote == 0 ? "no byte could be written" : String(cString: strerror(errno))
                    close(fd)
                    throw OutputError.write(.cannotCreate(path: name, reason: reason))
                }
                done += wrote
            }
            guard close(fd) == 0 else { throw OutputError.write(.cannotCreate(path: name, reason: String(cString: strerror(errno)))) }
            comparison.results[index].diffImagePath = name
        }
        var withImages = DiffReport(comparison: comparison, options: report.options, tolerance: report.tolerance)
        (withImages.rules, withImages.config, withImages.baselineCommit) = (report.rules, report.config, report.baselineCommit)
        return withImages
    }

    // MARK: Reading

    /// A name as the report writes it: `bytes` (base64) when the name is not UTF-8; at
    /// most `nameLimit` bytes.
    static func name(_ display: String, bytes: String?, in path: String) throws(DiffMergeError) -> String {
        let name: String
        if let bytes {
            guard let data = Data(base64Encoded: bytes) else { throw .damaged(path: path, reason: "\"\(bytes.prefix(40))\" is not base64") }
            name = FileNames.string(fromBytes: data)
        } else {
            name = display
        }
        let count = FileNames.bytes(of: name).count
        guard count <= nameLimit else { throw .damaged(path: path, reason: "a name of \(count) bytes, more than a path can hold (\(nameLimit))") }
        return name
    }

    /// The per-path rules a part's record lists, over its settings.
    static func rules(_ record: DiffPartRecord, options: ComparisonOptions, tolerance: DiffTolerance, in path: String) throws(DiffMergeError) -> [PairRule] {
        guard let rules = record.rules else { return [] }
        do {
            return try DiffConfig(path: record.config ?? "", rules: rules, warnings: [], digest: "").pairRules(options: options, tolerance: tolerance)
        } catch {
            throw .damaged(path: path, reason: "its rules: \(error)")
        }
    }

    /// How a part's pairs were compared and when they pass, as its report and record say.
    static func settings(_ part: Part, _ record: DiffPartRecord, in path: String) throws(DiffMergeError) -> (ComparisonOptions, DiffTolerance) {
        var options = ComparisonOptions(threshold: part.threshold, includeAntialiasing: part.includeAntialiasing, ignoreRegions: record.ignore.map(\.rect))
        guard let metric = DiffMetric(rawValue: part.metric) else { throw .damaged(path: path, reason: "\"\(part.metric)\" is not a metric") }
        options.metric = metric
        var tolerance = DiffTolerance(maximumPixels: record.maxDiffPixels, maximumFraction: record.maxDiffRatio)
        if let minSSIM = part.minSSIM { tolerance.minimumSSIM = minSSIM }
        if let maxDeltaE = part.maxDeltaE { tolerance.maximumDeltaE = maxDeltaE }
        if let maxFLIP = part.maxFLIP { tolerance.maximumFLIP = maxFLIP }
        options.align = part.align == true
        return (options, tolerance)
    }

    /// A pair of a part, as the comparison made it, its status checked against its
    /// figures, `options` and `tolerance` (the merge recomputes every verdict).
    static func result(
        _ pair: DiffReport.JSONPair, in path: String, options: ComparisonOptions, tolerance: DiffTolerance
    ) throws(DiffMergeError) -> PairResult {
        let relative = try name(pair.path, bytes: pair.pathBytes, in: path)
        guard let status = PairResult.Status(rawValue: pair.status) else {
            throw .damaged(path: path, reason: "pair \(FileNames.display(relative)): \"\(pair.status)\" is not a status")
        }
        var result = PairResult(
            relativePath: relative, status: status,
            baselinePath: try pair.baseline.map { (display) throws(DiffMergeError) in try name(display, bytes: pair.baselineBytes, in: path) },
            currentPath: try pair.current.map { (display) throws(DiffMergeError) in try name(display, bytes: pair.currentBytes, in: path) })
        if let differing = pair.differingPixels {
            guard let antialiased = pair.antialiasedPixels, let compared = pair.comparedPixels, let size = pair.size, let largestDelta = pair.largestDelta else {
                throw .damaged(path: path, reason: "pair \(FileNames.display(relative)): its figures are incomplete")
            }
            // Scores outside their scales (an edited part) would reach the verdicts.
            func check(_ value: Double?, _ field: String, _ range: ClosedRange<Double>) throws(DiffMergeError) {
                guard let value, !(value.isFinite && range.contains(value)) else { return }
                throw .damaged(
                    path: path,
                    reason: "pair \(FileNames.display(relative)): its \(field) \(value) is not a number from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound))")
            }
            try check(largestDelta, "largestDelta", 0...1)
            try check(pair.ssim, "ssim", -1...1)
            try check(pair.flip, "flip", 0...1)
            for (n, region) in (pair.regions ?? []).enumerated() {
                try check(region.ssim, "regions[\(n)].ssim", -1...1)
                try check(region.flip, "regions[\(n)].flip", 0...1)
                try check(region.deltaE, "regions[\(n)].deltaE", 0...Double.greatestFiniteMagnitude)
            }
            var mismatch: (baseline: Size, current: Size)?
            if let baselineSize = pair.baselineSize, let currentSize = pair.currentSize { mismatch = (baselineSize, currentSize) }
            result.difference = ImageDifference(
                differingPixels: differing, antialiasedPixels: antialiased, comparedPixels: compared, bounds: pair.bounds?.rect,
                regions: pair.regions ?? [], regionCount: pair.regionCount ?? 0, ssim: pair.ssim,
                lowestRegionSSIM: pair.regions?.compactMap(\.ssim).min(),
                largestDelta: largestDelta, size: size, diffImage: nil, sizeMismatch: mismatch)
            // Schema 3: the listed regions' colour shifts and FLIP means, the alignment.
            result.difference?.largestRegionDeltaE = pair.regions?.compactMap(\.deltaE).max()
            result.difference?.flip = pair.flip
            if pair.flip != nil { result.difference?.largestRegionFLIP = pair.regions?.compactMap(\.flip).max() ?? 0 }
            result.difference?.alignment = pair.alignment
            result.difference?.alignedDifferingPixels = pair.alignedDifferingPixels
        }
        if let error = pair.error { result.error = .reported(path: result.baselinePath ?? relative, message: error) }
        try checkVerdict(result, pair, in: path, metric: options.metric, tolerance: tolerance)
        return result
    }

    /// Refuses a pair whose status does not follow from the rest of it: figures for the
    /// pairs compared (sound ones, giving that status under the tolerance, and a
    /// `fraction` that is theirs), none for an added, removed or failed pair, each with
    /// the sides and the message its status has.
    static func checkVerdict(
        _ result: PairResult, _ pair: DiffReport.JSONPair, in path: String, metric: DiffMetric, tolerance: DiffTolerance
    ) throws(DiffMergeError) {
        func refuse(_ reason: String) -> DiffMergeError { .verdict(path: path, pair: result.relativePath, stated: pair.status, reason: reason) }
        let (hasBaseline, hasCurrent) = (result.baselinePath != nil, result.currentPath != nil)
        guard let difference = result.difference else {
            switch result.status {
            case .added: if hasBaseline || !hasCurrent || pair.error != nil { throw refuse("an added pair has a current image only") }
            case .removed: if !hasBaseline || hasCurrent || pair.error != nil { throw refuse("a removed pair has a baseline only") }
            case .failed: if pair.error == nil || !hasCurrent && !hasBaseline { throw refuse("a failed pair says why") }
            default: throw refuse("it has no figures")
            }
            return
        }
        guard hasBaseline && hasCurrent, result.status != .added, result.status != .removed, result.status != .failed else {
            throw refuse("it has the figures of a pair compared")
        }
        let d = difference
        // Sides checked before their product: a height of 2^62 trapped on the overflow.
        for (name, side) in [("width", d.size.width), ("height", d.size.height)] where !(0...sideLimit).contains(side) {
            throw refuse("its size's \(name) \(side) is not a whole number \(range(of: name))")
        }
        guard d.differingPixels >= 0, d.antialiasedPixels >= 0, d.comparedPixels >= 0, d.differingPixels <= d.comparedPixels,
            d.comparedPixels <= d.size.width * d.size.height
        else { throw refuse("its figures do not add up (\(d.differingPixels) of \(d.comparedPixels) pixels compared in \(d.size))") }
        // Every rectangle and row it states lies in the images compared (a bounds at 2^63
        // was printed as it was, and an edge past Int.max would trap wherever it is drawn).
        func inside(_ r: Rect) -> Bool {
            r.minX >= 0 && r.minY >= 0 && r.width >= 0 && r.height >= 0 && r.minX <= d.size.width - r.width && r.minY <= d.size.height - r.height
        }
        if let bounds = d.bounds, !inside(bounds) { throw refuse("its bounds \(bounds) are not inside its \(d.size) pixels") }
        if let region = d.regions.first(where: { !inside($0.bounds) }) { throw refuse("a region's bounds \(region.bounds) are not inside its \(d.size) pixels") }
        guard d.regionCount >= d.regions.count else { throw refuse("it counts \(d.regionCount) regions and lists \(d.regions.count)") }
        for shift in d.alignment ?? [] {
            guard [shift.baselineY, shift.currentY, shift.height].allSatisfy({ (0...sideLimit).contains($0) }) else {
                throw refuse("an aligned run of rows (\(shift.baselineY), \(shift.currentY), \(shift.height)) is not inside the images")
            }
        }
        if let aligned = d.alignedDifferingPixels, !(0...d.comparedPixels).contains(aligned) {
            throw refuse("its \(aligned) differing pixels aligned are not from 0 to the \(d.comparedPixels) compared")
        }
        if metric == .pixelmatch && d.ssim != nil { throw refuse("it has an SSIM score in a run compared with pixelmatch") }
        if metric == .ssim && d.ssim == nil && d.sizeMismatch == nil { throw refuse("it has no SSIM score in a run compared with SSIM") }
        if let fraction = pair.fraction, fraction != d.fraction { throw refuse("its fraction \(fraction) is not \(d.differingPixels) of \(d.comparedPixels)") }
        let verdict = tolerance.status(of: d)
        guard verdict == result.status else {
            let rule = metric == .ssim
                ? "SSIM \(d.ssim.map { "\($0)" } ?? "none") against --min-ssim \(tolerance.minimumSSIM)"
                : tolerance.maximumFraction.map { "a fraction of \(d.fraction) against --max-diff-ratio \($0)" }
                    ?? "\(d.differingPixels) differing pixels against --max-diff-pixels \(tolerance.maximumPixels)"
            throw refuse("its figures make it \"\(verdict.rawValue)\" (\(rule)\(d.sizeMismatch == nil ? "" : ", sizes differ"))")
        }
    }

    /// The decoder's complaint for people: what is wrong, and where. Valid JSON whose
    /// number no field holds (`"comparedPixels": 2.5`, `1e400`, 2^64), which Foundation
    /// calls "not valid JSON" without a place, is found in `bytes` and named with its range.
    ///
    /// `firstPair`: `bytes` is a batch of pairs (an array) from that pair on, and the
    /// places are said in the part (`pairs[N]`).
    static func decodingProblem(_ error: Error, in bytes: [UInt8] = [], firstPair: Int? = nil) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context):
            if context.codingPath.isEmpty, let found = JSONNumbers.firstUnfitting(in: bytes, isWhole: wholeKeys.contains) {
                var place = found.path
                if let firstPair, place.hasPrefix("["), let close = place.firstIndex(of: "]"), let k = Int(place[place.index(after: place.startIndex)..<close]) {
                    place = "pairs[\(firstPair + k)]" + place[place.index(after: close)...]
                }
                guard wholeKeys.contains(found.key) else { return "\(place) is \(found.literal), more than a number holds" }
                return "\(place) is \(found.literal), not a whole number \(Self.range(of: found.key))"
            }
            return "not JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" missing" + Self.location(context.codingPath, firstPair: firstPair)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.debugDescription)" + Self.location(context.codingPath, firstPair: firstPair)
        default: return "\(error)"
        }
    }

    /// The fields of a part that hold whole numbers (the others hold any finite number).
    static let wholeKeys: Set<String> = [
        "schemaVersion", "added", "changed", "failed", "removed", "unchanged", "withinTolerance", "index", "count",
        "maxDiffPixels", "pairsInRun", "differingPixels", "antialiasedPixels", "comparedPixels", "alignedDifferingPixels",
        "regionCount", "width", "height", "x", "y", "baselineY", "currentY",
    ]

    /// The largest side of an image a part may state (the side of the largest image a
    /// codec reads is far smaller): its area is an Int without overflow.
    static let sideLimit = Int(Int32.max)

    /// The values a part holds in the whole-number field `key`.
    static func range(of key: String) -> String {
        switch key {
        case "width", "height", "x", "y", "baselineY", "currentY": return "from 0 to \(sideLimit)"
        case "index": return "from 0 to \(ShardPlan.maximumCount - 1)"
        case "count": return "from 1 to \(ShardPlan.maximumCount)"
        default: return "from 0 to \(Int.max)"
        }
    }

    static func location(_ path: [CodingKey], firstPair: Int? = nil) -> String {
        var names = path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }
        if let firstPair, let k = path.first?.intValue { names[0] = ".pairs[\(firstPair + k)]" }
        return names.isEmpty ? "" : " at " + names.joined()
    }

    /// The longest part read: 1 GiB (a million pairs of about 1 KB each).
    public static let partLimit = 1 << 30

    /// The longest name of a pair or folder in a part: 4 KiB (`PATH_MAX`), as the system
    /// takes a path.
    public static let nameLimit = 4096

    /// The longest string in a part: 64 KiB (a name is at most 4 KiB, `PATH_MAX`, and
    /// base64 makes its bytes a third longer; a message is a line).
    public static let stringLimit = 64 << 10

    /// The deepest nesting of a part (a report nests 5 deep).
    static let depthLimit = 64

    /// What the scan of a part found: the byte ranges of the objects in the top-level
    /// object's `"pairs"` array, as written, and that array's brackets.
    struct Scan {
        var spans: [Range<Int>] = []
        /// The offsets of the `"pairs"` array's `[` and `]`.
        var pairsOpen: Int?
        var pairsClose: Int?
        /// Something in the `"pairs"` array that is not an object.
        var pairsHoldOther = false
    }

    /// Scans a part as its bytes come, strings and nesting followed, resumable where the
    /// bytes end: refuses a string longer than `stringLimit` (a name longer than
    /// `nameLimit`) as soon as that many bytes of it are there, nesting deeper than
    /// `depthLimit`, and an object with a key twice (keys compared as decoded, so
    /// `"\u0073tatus"` is `"status"`).
    struct Scanner {
        let path: String
        var found = Scan()
        /// The next byte to look at.
        var i = 0
        // One frame per open object or array: an object's keys, whether a key comes next,
        // and the last key read.
        var frames: [(isObject: Bool, keys: Set<[UInt8]>, expectKey: Bool, key: [UInt8])] = []
        var inPairs = false, elementStart = -1

        init(path: String) { self.path = path }

        /// The keys whose values are names: a pair's, its sides', the folders', a diff
        /// image's, as text or as base64 bytes.
        static let nameKeys: Set<[UInt8]> = Set(
            ["path", "pathBytes", "baseline", "baselineBytes", "current", "currentBytes", "file", "folder"].map { Array($0.utf8) })

        /// Scans `bytes[i..<bytes.count]`, stopping at a string not yet closed (it is
        /// scanned again when more bytes are there).
        mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>) throws(DiffMergeError) {
            while i < bytes.count {
                let byte = bytes[i]
                switch byte {
                case UInt8(ascii: "\""):
                    let start = i + 1
                    let isKey = frames.last.map { $0.isObject && $0.expectKey } ?? false
                    // A name's bytes are at most 6 bytes each as JSON writes them (`\u0001`):
                    // a longer string is a name longer than `nameLimit`.
                    let isName = !isKey && (frames.last.map { $0.isObject && Self.nameKeys.contains($0.key) } ?? false)
                    let limit = isName ? 6 * nameLimit : stringLimit
                    var j = start, escaped = false
                    while j < bytes.count {
                        if bytes[j] == UInt8(ascii: "\\") {
                            escaped = true
                            j += 2
                            continue
                        }
                        if bytes[j] == UInt8(ascii: "\"") { break }
                        j += 1
                    }
                    let end = min(j, bytes.count)
                    if end - start > limit {
                        throw isName ? .longName(path: path, offset: start, limit: nameLimit) : .longString(path: path, offset: start, limit: stringLimit)
                    }
                    guard j < bytes.count else { return }  // not closed yet
                    if inPairs, frames.count == 2 { found.pairsHoldOther = true }
                    if isKey, let top = frames.indices.last {
                        let raw = Array(bytes[start..<end])
                        let key = escaped ? DiffMerge.unescaped(raw) : raw
                        guard frames[top].keys.insert(key).inserted else {
                            throw .duplicateKey(path: path, key: FileNames.string(fromBytes: key), offset: start - 1)
                        }
                        frames[top].expectKey = false
                        frames[top].key = key
                    }
                    i = end + 1
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if frames.count == 1, byte == UInt8(ascii: "["), frames[0].key == Array("pairs".utf8), found.pairsOpen == nil {
                        inPairs = true
                        found.pairsOpen = i
                    } else if inPairs, frames.count == 2 {
                        elementStart = i
                        if byte == UInt8(ascii: "[") { found.pairsHoldOther = true }
                    }
                    guard frames.count < depthLimit else { throw .damaged(path: path, reason: "nested more than \(depthLimit) deep") }
                    frames.append((byte == UInt8(ascii: "{"), [], byte == UInt8(ascii: "{"), []))
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    frames.removeLast(frames.isEmpty ? 0 : 1)
                    if inPairs, frames.count == 2, elementStart >= 0 {
                        found.spans.append(elementStart..<(i + 1))
                        elementStart = -1
                    } else if inPairs, frames.count == 1 {
                        inPairs = false
                        found.pairsClose = i
                    }
                case UInt8(ascii: ","):
                    if let top = frames.indices.last, frames[top].isObject { frames[top].expectKey = true }
                case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): break
                default:
                    // A number, true, false or null among the pairs.
                    if inPairs, frames.count == 2 { found.pairsHoldOther = true }
                }
                i += 1
            }
        }
    }

    /// Reads the part at `path` in chunks of 1 MiB, scanning each as it comes: at most
    /// `partLimit` bytes (a larger file is refused from its size, unread; one that grows
    /// past it while read is refused there), and a string or name over its cap refused
    /// with no more of the file read than its cap and a chunk.
    static func readPart(_ path: String) throws(DiffMergeError) -> (Data, Scan) {
        let fd: Int32, size: Int
        do {
            (fd, size) = try FileBytes.openRegular(path)
        } catch {
            throw .unreadable(path: path, reason: error.reason)
        }
        defer { close(fd) }
        guard size <= partLimit else { throw .tooLarge(path: path, limit: partLimit) }
        var data = Data()
        // Room for what the file says it holds, up to 64 MiB (more as it comes): a file
        // refused early costs no more than it gave.
        data.reserveCapacity(min(size, 64 << 20))
        var scanner = Scanner(path: path)
        let chunk = 1 << 20
        var buffer = [UInt8](repeating: 0, count: chunk)
        while true {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, chunk) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if got == 0 { break }
            guard data.count + got <= partLimit else { throw .tooLarge(path: path, limit: partLimit) }
            data.append(contentsOf: buffer[0..<got])
            let outcome = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Void, DiffMergeError> in
                do throws(DiffMergeError) {
                    try scanner.advance(raw.bindMemory(to: UInt8.self))
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            try outcome.get()
        }
        return (data, scanner.found)
    }

    /// Decodes a part: its report without the pairs, then the pairs in batches of about
    /// 1 MiB (the decoder never holds the whole part's values at once).
    static func decode(_ data: Data, _ scan: Scan, path: String, decoder: JSONDecoder) throws(DiffMergeError) -> Part {
        guard !scan.pairsHoldOther else { throw .damaged(path: path, reason: "\"pairs\" holds something that is not a pair") }
        var part: Part
        // The report with `"pairs": []`, when the scan found the array whole.
        var head = data
        if let open = scan.pairsOpen, let close = scan.pairsClose {
            head = data[..<(open + 1)] + data[close...]
        }
        do {
            part = try decoder.decode(Part.self, from: head)
        } catch {
            throw .damaged(path: path, reason: Self.decodingProblem(error, in: [UInt8](head)))
        }
        guard scan.pairsOpen != nil, scan.pairsClose != nil else { return part }
        var first = 0
        while first < scan.spans.count {
            var last = first, bytes = 0
            while last < scan.spans.count, last == first || bytes + scan.spans[last].count <= 1 << 20 {
                bytes += scan.spans[last].count
                last += 1
            }
            var batch = Data([UInt8(ascii: "[")])
            batch.reserveCapacity(bytes + last - first + 1)
            for k in first..<last {
                if k > first { batch.append(UInt8(ascii: ",")) }
                batch.append(data[scan.spans[k]])
            }
            batch.append(UInt8(ascii: "]"))
            do {
                part.pairs += try decoder.decode([DiffReport.JSONPair].self, from: batch)
            } catch {
                throw .damaged(path: path, reason: Self.decodingProblem(error, in: [UInt8](batch), firstPair: first))
            }
            first = last
        }
        return part
    }

    /// A JSON string's bytes with its escapes decoded (`\n`, `\u0073`, surrogate pairs);
    /// an escape that is not one is kept as written.
    static func unescaped(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count, let text = String(bytes: raw[at..<(at + 4)], encoding: .ascii) else { return nil }
            return UInt32(text, radix: 16)
        }
        while i < raw.count {
            guard raw[i] == UInt8(ascii: "\\"), i + 1 < raw.count else {
                out.append(raw[i])
                i += 1
                continue
            }
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
            ]
            if let plain = simple[raw[i + 1]] {
                out.append(plain)
                i += 2
            } else if raw[i + 1] == UInt8(ascii: "u"), var value = hex(i + 2) {
                i += 6
                if (0xD800..<0xDC00).contains(value), i + 1 < raw.count, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u"),
                    let low = hex(i + 2), (0xDC00..<0xE000).contains(low)
                {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                UTF8.encode(Unicode.Scalar(value) ?? "\u{FFFD}") { out.append($0) }
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return out
    }
}

/// Where a part says one of its diff images is: the file `name` of the folder `folder`
/// (components, none `..`, `.` or empty, the last ending in `_files`) inside the part's
/// folder `partFolder`.
struct DiffImageSource {
    var partFolder: String
    var folder: [String]
    var name: String
    /// The CRC-64 (hex) the shard recorded.
    var digest: String?

    /// The images folder's path, for messages and for the check that the report's folder
    /// is none of them.
    var folderPath: String { (partFolder == "." ? "" : partFolder + "/") + folder.joined(separator: "/") }
    /// The file's path.
    var file: String { folderPath + "/" + name }

    /// The components of a part's images folder `path`, or nil when it is no `_files`
    /// folder inside the part's (absolute, empty, or with a `.`, `..` or empty component).
    static func components(of path: String) -> [String]? {
        guard !path.isEmpty, !path.hasPrefix("/") else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), let last = parts.last, last.hasSuffix("_files") else { return nil }
        return parts
    }

    /// Opens the images folder from the part's folder, one name at a time, never through
    /// a link: its descriptor (the caller closes it) and identity.
    ///
    /// - Throws: `.noDiffImages` when it is missing, `.notADiffImage` for a link or a file
    ///   on the way.
    func openFolder(part: String) throws(DiffMergeError) -> (fd: Int32, identity: FileIdentity) {
        var fd = FileNames.withSystemPath(partFolder) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw .noDiffImages(path: part, reason: "\(FileNames.display(partFolder)): \(String(cString: strerror(errno)))") }
        for component in folder {
            let next = FileNames.withSystemPath(component) { openat(fd, $0, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
            let code = errno
            // What stands there instead of a folder (O_NOFOLLOW with O_DIRECTORY says ENOTDIR for a link).
            var status = stat()
            let looked = next < 0 && FileNames.withSystemPath(component) { fstatat(fd, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0
            close(fd)
            guard next >= 0 else {
                if code == ENOENT { throw .noDiffImages(path: part, reason: "\(FileNames.display(folderPath)) is not there") }
                let kind = looked ? ((status.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link" : FileNames.specialKind(status.st_mode) ?? "not a folder") : nil
                throw .notADiffImage(path: part, file: file, reason: kind.map { "\(FileNames.display(component)) is \($0)" } ?? String(cString: strerror(code)))
            }
            fd = next
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .notADiffImage(path: part, file: file, reason: reason)
        }
        return (fd, FileIdentity(status: status))
    }
}
