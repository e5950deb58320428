import Foundation

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
    /// For each result: its diff image in its shard's HTML report's folder, when there is one.
    let diffImageSources: [String?]
    /// The first part without diff images (and why), when there is one.
    let diffImagesProblem: DiffMergeError?

    /// One part as read: what the report says, for checking and rebuilding the pairs.
    struct Part: Decodable {
        var schemaVersion: Int
        var threshold: Double
        var includeAntialiasing: Bool
        /// "pixelmatch" or "ssim" (schema 2), and SSIM's pass threshold.
        var metric: String
        var minSSIM: Double?
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
        var sources: [[UInt8]: String] = [:]  // by the pair's name's bytes
        var problem: DiffMergeError?
        let decoder = JSONDecoder()
        for path in paths {
            let data: Data
            do {
                data = Data(try FileBytes.read(path).bytes)
            } catch {
                throw .unreadable(path: path, reason: error.reason)
            }
            var part: Part
            do {
                part = try decoder.decode(Part.self, from: data)
            } catch {
                throw .damaged(path: path, reason: Self.decodingProblem(error))
            }
            guard part.schemaVersion == DiffReport.schemaVersion else { throw .otherSchema(path: path, version: part.schemaVersion) }
            guard let record = part.shard else { throw .notAPart(path: path) }
            guard (1...ShardPlan.maximumCount).contains(record.count), (0..<record.count).contains(record.index) else {
                throw .damaged(path: path, reason: "shard \(record.index)/\(record.count) is not a shard")
            }
            guard (0..<(1 << 40)).contains(record.pairsInRun) else { throw .damaged(path: path, reason: "a run of \(record.pairsInRun) pairs") }
            let spans = Self.pairSpans(data)
            guard spans.count == part.pairs.count else { throw .damaged(path: path, reason: "its pairs cannot be told apart") }
            if let first = read.first {
                let what =
                    first.part.threshold != part.threshold || first.part.includeAntialiasing != part.includeAntialiasing
                        || first.part.metric != part.metric || first.part.minSSIM != part.minSSIM
                    ? "the comparison (--threshold, --include-aa, --metric, --min-ssim)" : record.runDifference(from: first.record)
                if let what { throw .differentRuns(path: path, other: first.path, what: what) }
            }
            if let other = shards[record.index] { throw .duplicate(path: path, other: other, index: record.index, count: record.count) }
            shards[record.index] = path
            // A part cut short (or with pairs taken out) holds fewer than its share.
            let share = (record.pairsInRun - record.index + record.count - 1) / record.count
            if part.pairs.count != share {
                throw .damaged(path: path, reason: "it holds \(part.pairs.count) pairs; shard \(record.index)/\(record.count) of a run of \(record.pairsInRun) pairs has \(share)")
            }
            for (k, pair) in part.pairs.enumerated() {
                results.append(try Self.result(pair, in: path))
                origins.append((read.count, k))
            }
            part.pairs = []
            if let images = record.diffImages {
                let folder = (path as NSString).deletingLastPathComponent
                let root = (folder.isEmpty ? "" : folder + "/") + images.folder
                for file in images.files {
                    sources[FileNames.bytes(of: try Self.name(file.path, bytes: file.pathBytes, in: path))] = root + "/" + file.file
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
        var options = ComparisonOptions(
            threshold: first.part.threshold, includeAntialiasing: first.part.includeAntialiasing, ignoreRegions: first.record.ignore.map(\.rect))
        guard let metric = DiffMetric(rawValue: first.part.metric) else {
            throw .damaged(path: first.path, reason: "\"\(first.part.metric)\" is not a metric")
        }
        options.metric = metric
        var tolerance = DiffTolerance(maximumPixels: first.record.maxDiffPixels, maximumFraction: first.record.maxDiffRatio)
        if let minSSIM = first.part.minSSIM { tolerance.minimumSSIM = minSSIM }
        return DiffMerge(
            report: DiffReport(comparison: comparison, options: options, tolerance: tolerance),
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

    /// The merged JSON report: the one-piece run's, its pairs' objects as the shards wrote
    /// them.
    public func json() throws(SheetError) -> Data {
        let stream = JSONStream()
        try writeJSON(to: stream)
        try stream.flush()
        return stream.data
    }

    /// Writes the merged JSON report into `stream` as it goes (never whole in memory).
    public func writeJSON(to stream: JSONStream) throws(SheetError) {
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
        for (index, source) in diffImageSources.enumerated() {
            guard results[index].difference.map({ !$0.isMatch }) ?? false else { continue }
            if let diffImagesProblem { throw diffImagesProblem }
            let part = parts[origins[index].part].path
            guard let source else {
                throw .noDiffImages(path: part, reason: "no diff image listed for \(FileNames.display(results[index].relativePath))")
            }
            guard FileNames.status(source) != nil else { throw .noDiffImages(path: part, reason: "\(FileNames.display(source)) is not there") }
        }
    }

    /// The merged report with its diff images linked (copied across file systems) into
    /// `folder`, numbered as the one-piece run numbers them.
    ///
    /// - Throws: `SheetError.output(.cannotCreate)` when one cannot be linked or copied.
    public func reportWithDiffImages(in folder: String) throws(SheetError) -> DiffReport {
        var comparison = report.comparison
        var count = 0
        for (index, source) in diffImageSources.enumerated() {
            guard let source, comparison.results[index].difference.map({ !$0.isMatch }) ?? false else { continue }
            count += 1
            let name = FolderComparison.diffImageName(count, in: folder)
            if link(source, name) != 0 {
                do {
                    try FileManager.default.copyItem(atPath: source, toPath: name)
                } catch {
                    throw .output(.cannotCreate(path: name, reason: (error as NSError).localizedDescription))
                }
            }
            comparison.results[index].diffImagePath = name
        }
        return DiffReport(comparison: comparison, options: report.options, tolerance: report.tolerance)
    }

    // MARK: Reading

    /// A name as the report writes it: `bytes` (base64) when the name is not UTF-8.
    static func name(_ display: String, bytes: String?, in path: String) throws(DiffMergeError) -> String {
        guard let bytes else { return display }
        guard let data = Data(base64Encoded: bytes) else { throw .damaged(path: path, reason: "\"\(bytes)\" is not base64") }
        return FileNames.string(fromBytes: data)
    }

    /// A pair of a part, as the comparison made it.
    static func result(_ pair: DiffReport.JSONPair, in path: String) throws(DiffMergeError) -> PairResult {
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
            var mismatch: (baseline: Size, current: Size)?
            if let baselineSize = pair.baselineSize, let currentSize = pair.currentSize { mismatch = (baselineSize, currentSize) }
            result.difference = ImageDifference(
                differingPixels: differing, antialiasedPixels: antialiased, comparedPixels: compared, bounds: pair.bounds?.rect,
                regions: pair.regions ?? [], regionCount: pair.regionCount ?? 0, ssim: pair.ssim,
                lowestRegionSSIM: pair.regions?.compactMap(\.ssim).min(),
                largestDelta: largestDelta, size: size, diffImage: nil, sizeMismatch: mismatch)
        }
        if let error = pair.error { result.error = .reported(path: result.baselinePath ?? relative, message: error) }
        return result
    }

    /// The decoder's complaint for people: what is wrong, and where.
    static func decodingProblem(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return "not JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" missing" + Self.location(context.codingPath)
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "\(context.debugDescription)" + Self.location(context.codingPath)
        default: return "\(error)"
        }
    }

    static func location(_ path: [CodingKey]) -> String {
        path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
    }

    /// The byte ranges of the objects in the top-level object's `"pairs"` array, as
    /// written: the JSON is scanned once, strings and nesting followed.
    static func pairSpans(_ data: Data) -> [Range<Int>] {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Range<Int>] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var spans: [Range<Int>] = []
            var depth = 0, inString = false, escaped = false
            var lastKeyStart = -1, lastKeyEnd = -1
            var stringStart = 0
            var inPairs = false, elementStart = -1
            for i in 0..<bytes.count {
                let byte = bytes[i]
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                        if depth == 1 { (lastKeyStart, lastKeyEnd) = (stringStart, i) }
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    stringStart = i + 1
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    if depth == 1, byte == UInt8(ascii: "["), lastKeyEnd - lastKeyStart == 5,
                        UnsafeRawBufferPointer(rebasing: raw[lastKeyStart..<lastKeyEnd]).elementsEqual("pairs".utf8)
                    {
                        inPairs = true
                    } else if inPairs, depth == 2 {
                        elementStart = i
                    }
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if inPairs, depth == 2, elementStart >= 0 {
                        spans.append(elementStart..<(i + 1))
                        elementStart = -1
                    } else if inPairs, depth == 1 {
                        inPairs = false
                    }
                default: break
                }
            }
            return spans
        }
    }
}
