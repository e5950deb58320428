/// A per-path rule of a review (`mosaic diff --config`): the pairs whose relative path
/// matches `glob` are compared with `options` and judged by `tolerance` instead of the
/// run's. The first rule that matches a pair is its rule.
public struct PairRule: Sendable {
    public var glob: PathGlob
    public var options: ComparisonOptions
    public var tolerance: DiffTolerance

    public init(glob: PathGlob, options: ComparisonOptions, tolerance: DiffTolerance) {
        (self.glob, self.options, self.tolerance) = (glob, options, tolerance)
    }

    /// The index of the first of `rules` whose glob matches `path`.
    public static func index(in rules: [PairRule], matching path: String) -> Int? {
        rules.firstIndex { $0.glob.matches(path) }
    }
}

/// A glob over a pair's relative path, `/` between folders: `*` any characters but `/`,
/// `?` one of them, `**` as a whole component any number of folders (none too:
/// `**/*.png` matches `a.png` and `a/b/c.png`), `[abc]`, `[a-z]` and `[!a]` one character
/// of a set. Everything else stands for itself (a `\` before a character makes it literal).
/// Matched against the whole path, character by character (Unicode scalars).
public struct PathGlob: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    let scalars: [Unicode.Scalar]

    public init(_ pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    public var description: String { pattern }

    public func matches(_ path: String) -> Bool {
        let text = Array(path.unicodeScalars)
        // Memo of (pattern index, text index) already known not to match.
        var failed = Set<Int>()
        func match(_ p: Int, _ t: Int) -> Bool {
            let key = p * (text.count + 1) + t
            if failed.contains(key) { return false }
            var (p, t) = (p, t)
            while p < scalars.count {
                let c = scalars[p]
                if c == "*" {
                    let double = p + 1 < scalars.count && scalars[p + 1] == "*"
                    if double && (p == 0 || scalars[p - 1] == "/") && (p + 2 == scalars.count || scalars[p + 2] == "/") {
                        // `**/`: zero folders, or any run of whole ones.
                        if p + 2 == scalars.count { return true }
                        if match(p + 3, t) { return true }
                        var u = t
                        while u < text.count {
                            if text[u] == "/" && match(p + 3, u + 1) { return true }
                            u += 1
                        }
                        failed.insert(key)
                        return false
                    }
                    var q = p
                    while q < scalars.count && scalars[q] == "*" { q += 1 }
                    var u = t
                    while true {
                        if match(q, u) { return true }
                        guard u < text.count, text[u] != "/" else { break }
                        u += 1
                    }
                    failed.insert(key)
                    return false
                }
                guard t < text.count else { return false }
                if c == "?" {
                    guard text[t] != "/" else { return false }
                } else if c == "[", let (set, end) = characterSet(at: p) {
                    guard text[t] != "/", set(text[t]) else { return false }
                    p = end
                    t += 1
                    continue
                } else if c == "\\" && p + 1 < scalars.count {
                    p += 1
                    guard text[t] == scalars[p] else { return false }
                } else {
                    guard text[t] == c else { return false }
                }
                p += 1
                t += 1
            }
            return t == text.count
        }
        return match(0, 0)
    }

    /// The set `[...]` opening at `start`: its test and the index after `]`; nil when it
    /// does not close (then `[` is itself).
    func characterSet(at start: Int) -> ((Unicode.Scalar) -> Bool, Int)? {
        var i = start + 1
        let negated = i < scalars.count && (scalars[i] == "!" || scalars[i] == "^")
        if negated { i += 1 }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while i < scalars.count && (scalars[i] != "]" || first) {
            first = false
            let low = scalars[i]
            if i + 2 < scalars.count && scalars[i + 1] == "-" && scalars[i + 2] != "]" {
                let high = scalars[i + 2]
                if low.value <= high.value { ranges.append(low.value...high.value) }
                i += 3
            } else {
                ranges.append(low.value...low.value)
                i += 1
            }
        }
        guard i < scalars.count else { return nil }
        let found = ranges
        return ({ scalar in found.contains { $0.contains(scalar.value) } != negated }, i + 1)
    }
}
