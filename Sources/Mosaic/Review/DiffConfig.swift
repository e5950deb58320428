import Foundation

/// A review's per-path settings (`mosaic diff --config FILE`, or `mosaic-diff.json` beside
/// BASELINE when present): rules, each a glob over the pairs' relative paths with its own
/// threshold, metric, tolerance and rectangles to ignore. The first rule whose glob
/// matches a pair compares and judges it (`PairRule`); the other pairs take the command's
/// settings.
///
/// ```json
/// { "rules": [
///     { "glob": "dashboard/*.png", "ignore": [[1700, 10, 200, 30]] },
///     { "glob": "charts/**", "metric": "ssim", "minSSIM": 0.98 },
///     { "glob": "**/*-icon.png", "threshold": 0.05, "maxDiffPixels": 4 } ] }
/// ```
///
/// An unknown key is a warning (ignored); a value of the wrong kind or out of range is an
/// error naming the file and the key's path (`rules[1].threshold`).
public struct DiffConfig: Sendable {
    /// The file read.
    public let path: String
    public let rules: [Rule]
    /// The unknown keys, for people: `mosaic-diff.json: unknown key rules[0].treshold (ignored)`.
    public let warnings: [String]
    /// The CRC-64 of the file's bytes (16 hexadecimal digits): a sharded run's parts must
    /// have read the same file.
    public let digest: String

    /// One rule as the file gives it: what it sets, nothing for what it leaves to the command.
    public struct Rule: Codable, Hashable, Sendable {
        public var glob: String
        public var threshold: Double?
        public var metric: String?
        public var maxDiffPixels: Int?
        public var maxDiffRatio: Double?
        public var minSSIM: Double?
        public var maxDeltaE: Double?
        public var maxFLIP: Double?
        /// Rectangles left out, `[x, y, width, height]` each, besides the command's `--ignore`.
        public var ignore: [[Int]]?
    }

    /// The file looked for when no `--config` is given: `mosaic-diff.json` in the folder
    /// that holds BASELINE.
    public static let defaultName = "mosaic-diff.json"

    /// `mosaic-diff.json` beside `baseline` (in its parent folder).
    public static func defaultPath(beside baseline: String) -> String {
        // By hand: Foundation's deletingLastPathComponent traps on a one-component path
        // ("b") on Linux.
        var trimmed = baseline
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return defaultName }
        return slash == trimmed.startIndex ? "/" + defaultName : String(trimmed[..<slash]) + "/" + defaultName
    }

    /// The largest config file read (a config is a few rules).
    public static let sizeLimit = 1 << 20

    static let ruleKeys: Set<String> = ["glob", "threshold", "metric", "maxDiffPixels", "maxDiffRatio", "minSSIM", "maxDeltaE", "maxFLIP", "ignore"]

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: `DiffConfigError` naming the file (and the key).
    public static func read(_ path: String) throws(DiffConfigError) -> DiffConfig {
        var status = stat()
        guard FileNames.withSystemPath(path, { stat($0, &status) }) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw .cannotRead(path: path, reason: "not a regular file") }
        guard Int(status.st_size) <= sizeLimit else { throw .cannotRead(path: path, reason: "larger than \(sizeLimit >> 10) KiB") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .cannotRead(path: path, reason: (error as NSError).localizedDescription)
        }
        return try parse(data, path: path)
    }

    /// The config in `data`, read from `path`.
    public static func parse(_ data: Data, path: String) throws(DiffConfigError) -> DiffConfig {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .notJSON(path: path, reason: DiffMerge.decodingProblem(error))
        }
        guard case .object(let top) = value else { throw .badValue(path: path, key: "(the file)", reason: "an object { \"rules\": [...] } is expected") }
        var warnings: [String] = []
        for key in top.keys.sorted() where key != "rules" { warnings.append("\(FileNames.display(path)): unknown key \(key) (ignored)") }
        guard let rulesValue = top["rules"] else { throw .badValue(path: path, key: "rules", reason: "missing: the file lists its rules under \"rules\"") }
        guard case .array(let list) = rulesValue else { throw .badValue(path: path, key: "rules", reason: "a list of rules is expected") }
        var rules: [Rule] = []
        for (index, item) in list.enumerated() {
            let at = "rules[\(index)]"
            guard case .object(let fields) = item else { throw .badValue(path: path, key: at, reason: "a rule is an object with a \"glob\"") }
            for key in fields.keys.sorted() where !ruleKeys.contains(key) {
                warnings.append("\(FileNames.display(path)): unknown key \(at).\(key) (ignored)")
            }
            func bad(_ key: String, _ reason: String) -> DiffConfigError { .badValue(path: path, key: at + "." + key, reason: reason) }
            func number(_ key: String, _ range: ClosedRange<Double>) throws(DiffConfigError) -> Double? {
                guard let field = fields[key] else { return nil }
                guard case .number(let v) = field, v.isFinite, range.contains(v) else {
                    throw bad(key, range.upperBound.isInfinite ? "a number, 0 or more, is expected" : "a number from \(range.lowerBound) to \(range.upperBound) is expected")
                }
                return v
            }
            guard case .string(let glob)? = fields["glob"], !glob.isEmpty else { throw bad("glob", "a glob (a non-empty string) is expected") }
            var rule = Rule(glob: glob)
            rule.threshold = try number("threshold", 0...1)
            if let field = fields["metric"] {
                guard case .string(let metric) = field, DiffMetric(rawValue: metric) != nil else {
                    throw bad("metric", "one of \(DiffMetric.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")) is expected")
                }
                rule.metric = metric
            }
            if let pixels = try number("maxDiffPixels", 0...Double(Int32.max)) {
                guard pixels.rounded() == pixels else { throw bad("maxDiffPixels", "a whole number is expected") }
                rule.maxDiffPixels = Int(pixels)
            }
            rule.maxDiffRatio = try number("maxDiffRatio", 0...1)
            rule.minSSIM = try number("minSSIM", 0...1)
            rule.maxDeltaE = try number("maxDeltaE", 0...Double.infinity)
            rule.maxFLIP = try number("maxFLIP", 0...1)
            if let field = fields["ignore"] {
                guard case .array(let rects) = field else { throw bad("ignore", "a list of [x, y, width, height] is expected") }
                rule.ignore = []
                for (k, rect) in rects.enumerated() {
                    guard case .array(let numbers) = rect, numbers.count == 4 else { throw bad("ignore[\(k)]", "[x, y, width, height] is expected") }
                    var ints: [Int] = []
                    for n in numbers {
                        guard case .number(let v) = n, v.isFinite, v.rounded() == v, abs(v) <= Double(Int32.max) else {
                            throw bad("ignore[\(k)]", "[x, y, width, height] in whole numbers is expected")
                        }
                        ints.append(Int(v))
                    }
                    guard ints[2] >= 0, ints[3] >= 0 else { throw bad("ignore[\(k)]", "the width and height must not be negative") }
                    rule.ignore?.append(ints)
                }
            }
            if rule.maxDiffPixels != nil && rule.maxDiffRatio != nil { throw bad("maxDiffRatio", "give maxDiffPixels or maxDiffRatio, not both") }
            rules.append(rule)
        }
        return DiffConfig(path: path, rules: rules, warnings: warnings, digest: CRC64.hex(ContentDigest(of: [UInt8](data)).crc64))
    }

    init(path: String, rules: [Rule], warnings: [String], digest: String) {
        (self.path, self.rules, self.warnings, self.digest) = (path, rules, warnings, digest)
    }

    /// The rules on top of the command's `options` and `tolerance`: each as it compares
    /// and judges its pairs.
    ///
    /// - Throws: `DiffConfigError.badValue` for a limit that does not go with the rule's
    ///   metric (`minSSIM` in a pixelmatch rule), naming `path` and the key.
    public func pairRules(options: ComparisonOptions, tolerance: DiffTolerance) throws(DiffConfigError) -> [PairRule] {
        var resolved: [PairRule] = []
        for (index, rule) in rules.enumerated() {
            do {
                resolved.append(try rule.pairRule(options: options, tolerance: tolerance))
            } catch let error {
                throw .badValue(path: path, key: "rules[\(index)].\(error.key)", reason: error.reason)
            }
        }
        return resolved
    }
}

extension DiffConfig.Rule {
    init(glob: String) { self.glob = glob }

    struct Mismatch: Error {
        var key: String
        var reason: String
    }

    /// The rule over the command's settings.
    func pairRule(options base: ComparisonOptions, tolerance base2: DiffTolerance) throws(Mismatch) -> PairRule {
        var options = base, tolerance = base2
        if let threshold { options.threshold = threshold }
        if let metric, let m = DiffMetric(rawValue: metric) { options.metric = m }
        options.ignoreRegions += (ignore ?? []).map { Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
        let metric = options.metric
        if let maxDiffPixels { (tolerance.maximumPixels, tolerance.maximumFraction) = (maxDiffPixels, nil) }
        if let maxDiffRatio { (tolerance.maximumPixels, tolerance.maximumFraction) = (0, maxDiffRatio) }
        if metric != .pixelmatch, let key = maxDiffPixels != nil ? "maxDiffPixels" : maxDiffRatio != nil ? "maxDiffRatio" : nil {
            throw Mismatch(key: key, reason: "the \(metric.rawValue) metric passes pairs by its score, not by differing pixels")
        }
        if let minSSIM {
            guard metric == .ssim else { throw Mismatch(key: "minSSIM", reason: "goes with the ssim metric; this rule compares with \(metric.rawValue)") }
            tolerance.minimumSSIM = minSSIM
        }
        if let maxDeltaE {
            guard metric == .ssim else { throw Mismatch(key: "maxDeltaE", reason: "goes with the ssim metric; this rule compares with \(metric.rawValue)") }
            tolerance.maximumDeltaE = maxDeltaE
        }
        if let maxFLIP {
            guard metric == .flip else { throw Mismatch(key: "maxFLIP", reason: "goes with the flip metric; this rule compares with \(metric.rawValue)") }
            tolerance.maximumFLIP = maxFLIP
        }
        return PairRule(glob: PathGlob(glob), options: options, tolerance: tolerance)
    }
}

/// A config file that cannot be used: nothing is compared.
public enum DiffConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file cannot be read (missing, not a regular file, too large).
    case cannotRead(path: String, reason: String)
    /// The file is not JSON.
    case notJSON(path: String, reason: String)
    /// A value of the wrong kind or out of range: `key` is its path (`rules[1].threshold`).
    case badValue(path: String, key: String, reason: String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): return "\(FileNames.display(path)): cannot read the review config: \(reason)"
        case .notJSON(let path, let reason): return "\(FileNames.display(path)): not a JSON review config: \(reason)"
        case .badValue(let path, let key, let reason): return "\(FileNames.display(path)): \(key): \(reason)"
        }
    }
}

/// Any JSON value, read strictly (a number is not a Boolean): what the config's keys hold
/// before they are checked one by one.
enum JSONValue: Decodable {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let v = try? container.decode(Bool.self) {
            self = .bool(v)
        } else if let v = try? container.decode(Double.self) {
            self = .number(v)
        } else if let v = try? container.decode(String.self) {
            self = .string(v)
        } else if let v = try? container.decode([JSONValue].self) {
            self = .array(v)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
