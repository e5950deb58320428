import Foundation
import MosaicLayout

/// How a page's rows map from the baseline to the current image: bands inserted, bands
/// deleted, blocks moved. `ImageComparison` (with `ComparisonOptions.align`) compares what
/// corresponds, row against row.
///
/// The method, in three steps, on rows (a page flows down):
/// 1. Each row of both images is hashed (the overlap's width; 64 bits, four lanes of
///    multiply-xor over 8-byte words: memory speed) and flagged when it is uniform (one
///    colour, as a page's margins and gaps are).
/// 2. Repeated rows (blank ones above all) are keyed by where they stand (`keyed`), and
///    the two hash sequences are matched by Myers' diff (the longest common subsequence,
///    O((N + M) D) for D rows inserted or deleted, after the common top and bottom are cut
///    off, so an edit in place costs nothing more). Runs of equal rows correspond; between
///    them, a stretch present on both sides is paired row by row (an edit in place,
///    compared pixel by pixel), and what is left is inserted (current) or deleted
///    (baseline). Past `maximumEdits` the pages are taken as unrelated and paired in place.
/// 3. Moves: a deleted stretch whose rows (its uniform margins trimmed) appear as one run
///    among the inserted rows is a block that moved; the match is grown up and down over
///    equal rows. A run of equal rows whose offset is not what the rows inserted and
///    deleted above it explain (the other half of a swap) has moved too.
///
/// Why rows and not a 2-D search: pages (documents, screens) flow down, and a change
/// upstream moves everything below it by whole rows; hashing rows makes the search a 1-D
/// sequence match that costs a few milliseconds on a 4K page, where a block search over
/// offsets would cost a full image comparison per offset tried.
public enum PageAlignment {
    /// More inserted plus deleted rows than this: the pages are not taken as shifted copies
    /// of each other (the match's memory grows with its square: 4,096 costs 64 MiB).
    public static let maximumEdits = 4096
    /// A moved block has at least this many rows that are not uniform.
    static let minimumMoveRows = 2

    /// What each row of the current image corresponds to.
    enum RowKind: UInt8 {
        /// Equal rows matched in the page's flow.
        case flow
        /// An edit in place: the row is compared with the baseline row paired to it.
        case paired
        /// A block that moved.
        case moved
        /// No baseline row.
        case inserted
    }

    /// The result of matching: for each current row, its baseline row (or -1) and how.
    struct RowMap {
        var baselineRow: [Int]
        var kind: [RowKind]
        /// Baseline rows that no current row takes.
        var deleted: [Bool]
        /// Runs of equal rows that moved against the flow (current rows).
        var shiftedRuns: [Range<Int>] = []
        /// For each run of deleted baseline rows' first row, the current row where the
        /// stretch was taken out.
        var deletedAt: [Int: Int] = [:]

        /// Every current row maps to the same baseline row and nothing was deleted.
        var isIdentity: Bool {
            deleted.allSatisfy { !$0 } && baselineRow.indices.allSatisfy { baselineRow[$0] == $0 && kind[$0] != .inserted }
        }
    }

    /// 64-bit hashes of each row's first `width` pixels (`width * 4` bytes), and whether
    /// each row is one colour.
    static func rowHashes(_ plane: ImageComparison.Plane, width: Int, height: Int) -> (hashes: [UInt64], uniform: [Bool]) {
        var hashes = [UInt64](repeating: 0, count: height)
        var uniform = [Bool](repeating: false, count: height)
        let bytes = width &* 4
        let words = bytes >> 3
        for y in 0..<height {
            let row = UnsafeRawPointer(plane.base + plane.offset(0, y))
            var h0: UInt64 = 0x9E37_79B9_7F4A_7C15, h1: UInt64 = 0xC2B2_AE3D_27D4_EB4F
            var h2: UInt64 = 0x1656_67B1_9E37_79F9, h3: UInt64 = 0x85EB_CA77_C2B2_AE63
            var i = 0
            while i &+ 4 <= words {
                h0 = (h0 ^ row.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                h1 = (h1 ^ row.loadUnaligned(fromByteOffset: (i &+ 1) &* 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                h2 = (h2 ^ row.loadUnaligned(fromByteOffset: (i &+ 2) &* 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                h3 = (h3 ^ row.loadUnaligned(fromByteOffset: (i &+ 3) &* 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                h0 ^= h0 >> 29
                h1 ^= h1 >> 29
                h2 ^= h2 >> 29
                h3 ^= h3 >> 29
                i &+= 4
            }
            while i < words {
                h0 = (h0 ^ row.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)) &* 0x9FB2_1C65_1E98_DF25
                h0 ^= h0 >> 29
                i &+= 1
            }
            if bytes & 7 != 0 {
                h1 = (h1 ^ UInt64(row.loadUnaligned(fromByteOffset: words &* 8, as: UInt32.self))) &* 0x9FB2_1C65_1E98_DF25
            }
            var h = h0 ^ (h1 &* 3) ^ (h2 &* 5) ^ (h3 &* 7) ^ UInt64(bytes)
            h = (h ^ (h >> 31)) &* 0xD6E8_FEB8_6659_FD93
            hashes[y] = h ^ (h >> 32)
            uniform[y] = width <= 1 || memcmp(row, row + 4, (width &- 1) &* 4) == 0
        }
        return (hashes, uniform)
    }

    /// Equal runs (baseline row, current row, length), in order, of a longest common
    /// subsequence of `a` and `b` (Myers 1986, the greedy forward search with its trace);
    /// nil when more than `maximumEdits` rows are inserted or deleted.
    static func equalRuns(_ a: [UInt64], _ b: [UInt64], maximumEdits: Int = PageAlignment.maximumEdits) -> [(a: Int, b: Int, length: Int)]? {
        var prefix = 0
        while prefix < a.count && prefix < b.count && a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < a.count - prefix && suffix < b.count - prefix && a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        let n = a.count - prefix - suffix, m = b.count - prefix - suffix
        var runs: [(a: Int, b: Int, length: Int)] = []
        if prefix > 0 { runs.append((0, 0, prefix)) }
        if n > 0 && m > 0 {
            guard let middle = myers(a, b, from: prefix, n, m, maximumEdits: maximumEdits) else { return nil }
            runs += middle
        } else if n + m > maximumEdits {
            return nil
        }
        if suffix > 0 { runs.append((a.count - suffix, b.count - suffix, suffix)) }
        return runs
    }

    /// Myers' search over `a[offset..<offset+n]` and `b[offset..<offset+m]`.
    static func myers(_ a: [UInt64], _ b: [UInt64], from offset: Int, _ n: Int, _ m: Int, maximumEdits: Int) -> [(a: Int, b: Int, length: Int)]? {
        let limit = min(n + m, maximumEdits)
        let centre = limit + 1
        var v = [Int32](repeating: 0, count: 2 * limit + 3)
        // The trace: after step d, v[-d...d], stored from index d * d.
        var trace: [Int32] = []
        var found = -1
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                let sa = pa.baseAddress! + offset, sb = pb.baseAddress! + offset
                search: for d in 0...limit {
                    var k = -d
                    while k <= d {
                        var x: Int
                        if k == -d || (k != d && v[centre + k - 1] < v[centre + k + 1]) {
                            x = Int(v[centre + k + 1])
                        } else {
                            x = Int(v[centre + k - 1]) + 1
                        }
                        var y = x - k
                        while x < n && y < m && sa[x] == sb[y] {
                            x += 1
                            y += 1
                        }
                        v[centre + k] = Int32(x)
                        k += 2
                    }
                    trace.append(contentsOf: v[(centre - d)...(centre + d)])
                    // Done when the diagonal n - m reached the end.
                    let end = n - m
                    if abs(end) <= d && (end + d) % 2 == 0 && Int(v[centre + end]) >= n {
                        found = d
                        break search
                    }
                }
            }
        }
        guard found >= 0 else { return nil }
        // Back from (n, m): each step's snake is an equal run.
        var runs: [(a: Int, b: Int, length: Int)] = []
        var x = n, y = m
        var d = found
        func stored(_ d: Int, _ k: Int) -> Int { Int(trace[d * d + (k + d)]) }
        while d > 0 {
            let k = x - y
            let previousK = (k == -d || (k != d && stored(d - 1, k - 1) < stored(d - 1, k + 1))) ? k + 1 : k - 1
            let previousX = stored(d - 1, previousK), previousY = previousX - previousK
            // The snake starts after the step's one insertion (down) or deletion (right).
            let startX = previousK == k + 1 ? previousX : previousX + 1
            let length = x - startX
            if length > 0 { runs.append((offset + startX, offset + (startX - k), length)) }
            x = previousX
            y = previousY
            d -= 1
        }
        if x > 0 { runs.append((offset, offset, x)) }
        return runs.reversed()
    }

    /// Hashes that tell repeated rows apart by where they stand: a row that is one colour,
    /// or one of a run of equal rows, is keyed by its distance to the end of its run and the
    /// row after the run. A page's blank rows (between lines, between sections) are all
    /// alike; keyed, the blank rows above a section match only blank rows above that same
    /// section, so the match cannot weave two different sections together through their
    /// blank rows (as a plain longest common subsequence does).
    static func keyed(_ hashes: [UInt64], uniform: [Bool]) -> [UInt64] {
        var keyed = hashes
        var start = 0
        while start < hashes.count {
            var end = start + 1
            while end < hashes.count && hashes[end] == hashes[start] { end += 1 }
            if end - start >= 2 || uniform[start] {
                let next = end < hashes.count ? hashes[end] : 0x5EED_0F_E11D
                for k in start..<end {
                    var h = hashes[k] ^ (UInt64(end - k) &* 0x9E37_79B9_7F4A_7C15) ^ (next &* 0xC2B2_AE3D_27D4_EB4F)
                    h = (h ^ (h >> 29)) &* 0xBF58_476D_1CE4_E5B9
                    keyed[k] = h ^ (h >> 32)
                }
            }
            start = end
        }
        return keyed
    }

    /// Maps the current image's rows onto the baseline's (see the type's comment).
    static func map(baseline rawA: [UInt64], uniformA: [Bool], current rawB: [UInt64], uniformB: [Bool]) -> RowMap {
        let a = keyed(rawA, uniform: uniformA), b = keyed(rawB, uniform: uniformB)
        var map = RowMap(
            baselineRow: [Int](repeating: -1, count: b.count), kind: [RowKind](repeating: .inserted, count: b.count),
            deleted: [Bool](repeating: true, count: a.count))
        guard let runs = equalRuns(a, b) else {
            // Unrelated pages: every row in place.
            for y in 0..<min(a.count, b.count) {
                map.baselineRow[y] = y
                map.kind[y] = .paired
                map.deleted[y] = false
            }
            if a.count > b.count { map.deletedAt[b.count] = b.count }
            return map
        }
        // The runs, then what lies between them: paired in place, the rest inserted or deleted.
        var i = 0, j = 0
        var deletedStretches: [Range<Int>] = []
        func gap(to nextA: Int, _ nextB: Int) {
            let paired = min(nextA - i, nextB - j)
            for k in 0..<paired {
                map.baselineRow[j + k] = i + k
                map.kind[j + k] = .paired
                map.deleted[i + k] = false
            }
            if nextA - i > paired {
                deletedStretches.append((i + paired)..<nextA)
                map.deletedAt[i + paired] = j + paired
            }
        }
        for run in runs {
            gap(to: run.a, run.b)
            for k in 0..<run.length {
                map.baselineRow[run.b + k] = run.a + k
                map.kind[run.b + k] = .flow
                map.deleted[run.a + k] = false
            }
            (i, j) = (run.a + run.length, run.b + run.length)
        }
        gap(to: a.count, b.count)
        findMoves(&map, deletedStretches, a, uniformA, b)
        pairMovedMargins(&map, rawA, uniformA, rawB, uniformB)
        findShiftedRuns(&map, runs)
        return map
    }

    /// Deleted stretches found again among the inserted rows: moved blocks.
    static func findMoves(_ map: inout RowMap, _ stretches: [Range<Int>], _ a: [UInt64], _ uniformA: [Bool], _ b: [UInt64]) {
        // Where each hash stands among the inserted rows.
        var inserted: [UInt64: [Int]] = [:]
        for y in b.indices where map.kind[y] == .inserted { inserted[b[y], default: []].append(y) }
        guard !inserted.isEmpty else { return }
        for stretch in stretches {
            var lower = stretch.lowerBound, upper = stretch.upperBound
            while lower < upper && uniformA[lower] { lower += 1 }
            while upper > lower && uniformA[upper - 1] { upper -= 1 }
            guard upper - lower >= minimumMoveRows, (lower..<upper).filter({ !uniformA[$0] }).count >= minimumMoveRows else { continue }
            // The first place among the inserted rows where the whole core appears.
            let candidates = inserted[a[lower]] ?? []
            guard
                let start = candidates.first(where: { s in
                    s + (upper - lower) <= b.count && (0..<(upper - lower)).allSatisfy { map.kind[s + $0] == .inserted && b[s + $0] == a[lower + $0] }
                })
            else { continue }
            var from = start, to = start + (upper - lower)
            var baseline = lower
            // Grow the match over equal rows still unclaimed on both sides.
            while from > 0, baseline > 0, map.kind[from - 1] == .inserted, map.deleted[baseline - 1], b[from - 1] == a[baseline - 1] {
                from -= 1
                baseline -= 1
            }
            var end = lower + (upper - lower)
            while to < b.count, end < a.count, map.kind[to] == .inserted, map.deleted[end], b[to] == a[end] {
                to += 1
                end += 1
            }
            for k in 0..<(to - from) {
                map.baselineRow[from + k] = baseline + k
                map.kind[from + k] = .moved
                map.deleted[baseline + k] = false
            }
        }
        // Deleted stretches' positions, again (a move may have taken a stretch's top).
        var positions: [Int: Int] = [:]
        var y = 0
        while y < a.count {
            guard map.deleted[y] else {
                y += 1
                continue
            }
            let first = y
            while y < a.count && map.deleted[y] { y += 1 }
            positions[first] = map.deletedAt[first] ?? map.deletedAt.filter { $0.key <= first }.max { $0.key < $1.key }?.value ?? 0
        }
        map.deletedAt = positions
    }

    /// A moved block's blank margins: its new neighbours may leave a row or two more blank
    /// above it, and its old ones a row or two more below where it was (a section moved
    /// under one whose last line has no descender). Such a stretch of inserted rows that
    /// are one colour, touching a moved block, and a stretch of deleted rows of that colour
    /// touching a moved block's rows in the baseline, are paired row by row (compared in
    /// place: equal), not told as a band inserted and another deleted.
    static func pairMovedMargins(_ map: inout RowMap, _ a: [UInt64], _ uniformA: [Bool], _ b: [UInt64], _ uniformB: [Bool]) {
        var movedInBaseline = [Bool](repeating: false, count: a.count)
        for y in map.kind.indices where map.kind[y] == .moved { movedInBaseline[map.baselineRow[y]] = true }
        // Blank stretches (one colour throughout) touching a moved block.
        func stretches(count: Int, isFree: (Int) -> Bool, hash: [UInt64], uniform: [Bool], touches: (Int) -> Bool) -> [Range<Int>] {
            var found: [Range<Int>] = []
            var y = 0
            while y < count {
                guard isFree(y) else {
                    y += 1
                    continue
                }
                let first = y
                while y < count && isFree(y) { y += 1 }
                let rows = first..<y
                guard rows.allSatisfy({ uniform[$0] && hash[$0] == hash[first] }), touches(first - 1) || touches(y) else { continue }
                found.append(rows)
            }
            return found
        }
        let kind = map.kind, deleted = map.deleted
        let inserted = stretches(
            count: b.count, isFree: { kind[$0] == .inserted }, hash: b, uniform: uniformB,
            touches: { $0 >= 0 && $0 < kind.count && kind[$0] == .moved })
        guard !inserted.isEmpty else { return }
        var removed = stretches(
            count: a.count, isFree: { deleted[$0] }, hash: a, uniform: uniformA,
            touches: { $0 >= 0 && $0 < movedInBaseline.count && movedInBaseline[$0] })
        for stretch in inserted {
            guard let index = removed.firstIndex(where: { !$0.isEmpty && a[$0.lowerBound] == b[stretch.lowerBound] }) else { continue }
            let taken = removed[index]
            let count = min(stretch.count, taken.count)
            for k in 0..<count {
                map.baselineRow[stretch.lowerBound + k] = taken.lowerBound + k
                map.kind[stretch.lowerBound + k] = .paired
                map.deleted[taken.lowerBound + k] = false
            }
            // What is left of the deleted stretch keeps where it was taken out.
            if let at = map.deletedAt.removeValue(forKey: taken.lowerBound), count < taken.count {
                map.deletedAt[taken.lowerBound + count] = at
            }
            removed[index] = (taken.lowerBound + count)..<taken.upperBound
        }
    }

    /// Runs of equal rows whose offset is not explained by the rows inserted and deleted
    /// above them (on both sides): they moved (a swap's other half).
    static func findShiftedRuns(_ map: inout RowMap, _ runs: [(a: Int, b: Int, length: Int)]) {
        var insertedBefore = [Int](repeating: 0, count: map.kind.count + 1)
        for y in map.kind.indices { insertedBefore[y + 1] = insertedBefore[y] + (map.kind[y] == .inserted ? 1 : 0) }
        var deletedBefore = [Int](repeating: 0, count: map.deleted.count + 1)
        for y in map.deleted.indices { deletedBefore[y + 1] = deletedBefore[y] + (map.deleted[y] ? 1 : 0) }
        for run in runs {
            let expected = insertedBefore[run.b] - deletedBefore[run.a]
            if run.b - run.a != expected { map.shiftedRuns.append(run.b..<(run.b + run.length)) }
        }
    }
}

/// What a region's change is, in the aligned comparison (`ComparisonOptions.align`).
public enum RegionChange: String, Hashable, Sendable, Codable, CaseIterable {
    /// Rows (or columns) of the current image with no counterpart in the baseline: bounds in
    /// the current image.
    case inserted
    /// Rows (or columns) of the baseline with no counterpart in the current image: bounds in
    /// the baseline; `offset` says where, in the current image, they were taken out.
    case deleted
    /// A block that moved, equal otherwise: rows that moved against the page's flow, or
    /// content that moved within its rows (across, or up and down by up to 32 pixels):
    /// bounds in the current image, `offset` from the baseline.
    case shifted
    /// Corresponding pixels differ, but the shapes are the same (each pixel equals its right
    /// and lower neighbours in one image where it does in the other, 99% or more).
    case recoloured
    /// Corresponding pixels differ and the shapes do too.
    case modified
}

/// An offset from the baseline to the current image, pixels (x right, y down).
public struct RegionOffset: Hashable, Sendable, Codable {
    public var dx: Int
    public var dy: Int
    public init(dx: Int, dy: Int) {
        self.dx = dx
        self.dy = dy
    }
}

/// A run of the current image's rows that correspond to the baseline's, one to one:
/// current rows `currentY..<currentY+height` are baseline rows `baselineY...`, shifted by
/// `currentY - baselineY`.
public struct RowShift: Hashable, Sendable, Codable {
    public var baselineY: Int
    public var currentY: Int
    public var height: Int

    public init(baselineY: Int, currentY: Int, height: Int) {
        self.baselineY = baselineY
        self.currentY = currentY
        self.height = height
    }

    /// current - baseline, pixels.
    public var dy: Int { currentY - baselineY }
}
