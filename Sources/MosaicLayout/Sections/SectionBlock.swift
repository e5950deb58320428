/// The part of one section on one page: its extent along the flow and its elements.
/// Blocks of a page are disjoint and sorted, and so are the cards of each lane.
struct SectionBlock: Sendable {
    var section: Int
    var mainStart: Int
    var mainEnd: Int
    /// Per column, its cards in flow order: their indices into the layout's card records
    /// (four bytes a card; where each starts and ends is the record's).
    var lanes: [[Int32]]
    /// Per column, where it lies across the flow (the same for all its cards).
    var laneGeometry: [LaneGeometry]
    /// Header and footer, indices into `supplementaries`.
    var supplementaries: [Int] = []
    var decoration: Int?

    /// A coarse index for band queries: the block is cut into stripes of `1 << stripeShift`
    /// pixels along the flow; `stripes[s * laneCount + l]` is the position in column `l` of
    /// its first card ending after stripe `s` begins (-1: none yet). A query reads one row
    /// of it, then a card or two per column. Stripes double in length when they would
    /// outnumber twice the cards, so the index never outgrows the cards it indexes.
    var stripeShift = 9
    var stripes: [Int32] = []
    var entryCount = 0

    init(section: Int, mainStart: Int, lanes: [LaneGeometry]) {
        self.section = section
        self.mainStart = mainStart
        self.mainEnd = mainStart
        self.lanes = Array(repeating: [], count: lanes.count)
        self.laneGeometry = lanes
    }

    /// Adds a card that runs from `start` to `end` along the flow to column `lane`, whose
    /// previous card (or the block's top) ended at `previousEnd`.
    mutating func add(card: Int, lane: Int, start: Int, end: Int, previousEnd: Int) {
        let position = lanes[lane].count
        lanes[lane].append(Int32(truncatingIfNeeded: card))
        entryCount += 1
        guard end > previousEnd else { return }
        let laneCount = lanes.count
        // Coarse enough that the stripes do not outnumber twice the cards.
        while ((end - 1 - mainStart) >> stripeShift) >= 2 * (entryCount + 64) { coarsen() }
        // Every stripe that begins in previousEnd..<end now has its first card here; for a
        // column's first card, every stripe from the block's top.
        let stripeLength = 1 << stripeShift
        let first = position == 0 ? 0 : (previousEnd - mainStart + stripeLength - 1) >> stripeShift
        let last = (end - 1 - mainStart) >> stripeShift
        guard first <= last else { return }
        let needed = (last + 1) * laneCount
        if stripes.count < needed {
            stripes.append(contentsOf: repeatElement(-1, count: needed - stripes.count))
        }
        for stripe in first...last { stripes[stripe * laneCount + lane] = Int32(truncatingIfNeeded: position) }
    }

    /// Takes the last `count` cards of column `lane` back out, and their stripe hints.
    mutating func removeLast(_ count: Int, lane: Int) {
        guard count > 0 else { return }
        lanes[lane].removeLast(count)
        entryCount -= count
        let laneCount = lanes.count
        let remaining = lanes[lane].count
        var stripe = stripes.count / laneCount - 1
        while stripe >= 0 {
            let slot = stripe * laneCount + lane
            if stripes[slot] >= Int32(remaining) {
                stripes[slot] = -1
            } else if stripes[slot] >= 0 {
                break
            }
            stripe -= 1
        }
    }

    /// Doubles the stripes' length: stripe s of the new index is stripe 2s of the old.
    mutating func coarsen() {
        let laneCount = lanes.count
        let rows = stripes.count / laneCount
        var halved: [Int32] = []
        halved.reserveCapacity((rows + 1) / 2 * laneCount)
        for row in stride(from: 0, to: rows, by: 2) {
            halved.append(contentsOf: stripes[(row * laneCount)..<((row + 1) * laneCount)])
        }
        stripes = halved
        stripeShift += 1
    }

    /// The position in column `lane` of its first card ending after `low` (`end` gives a
    /// card's end): between the hints of `low`'s stripe and of the next one, bisected.
    func firstCard(inLane lane: Int, endingAfter low: Int, end: (Int32) -> Int) -> Int {
        let entries = lanes[lane]
        let laneCount = lanes.count
        let stripe = max(0, low - mainStart) >> stripeShift
        func hint(_ stripe: Int) -> Int? {
            let slot = stripe * laneCount + lane
            guard slot < stripes.count, stripes[slot] >= 0 else { return nil }
            return Int(stripes[slot])
        }
        guard var lower = hint(stripe) else { return entries.count }
        var upper = hint(stripe + 1) ?? entries.count
        while lower < upper {
            let mid = (lower + upper) / 2
            if end(entries[mid]) > low { upper = mid } else { lower = mid + 1 }
        }
        return lower
    }
}
