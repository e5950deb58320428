/// "Did you mean ...?": the known name closest to one that was mistyped (a caption mode, a
/// placeholder, a manifest key or column).
enum NearestName {
    /// The candidate closest to `text` by edit distance, when it is close (two edits, or a third
    /// of its letters off).
    static func nearest(_ text: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(Array(text.lowercased()), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, best.0.count / 3) else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
