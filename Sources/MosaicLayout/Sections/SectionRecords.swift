// The compact records a MasonryLayout keeps; attributes are made from them on demand.

/// A card in flow terms, kept small (48 bytes) because a board may hold millions: every
/// length but the position along the flow fits 32 bits (`maximumLayoutLength` is 2^30).
struct CardRecord: Sendable {
    /// Where the card starts along the flow.
    var main: Int
    var mainLength: Int32
    var cross: Int32
    var crossLength: Int32
    /// The image's length along and across the flow.
    var imageLength: Int32
    var imageCross: Int32
    /// The caption's height (the reserved block on a horizontal board).
    var captionLength: Int32
    var section: Int32
    var item: Int32
    var page: Int32
    var hasCaption: Bool
    var scaling: ImageScaling

    var mainEnd: Int { main + Int(mainLength) }
}

/// A card's place in its column: its end along the flow beside its index, so that a binary
/// search over a column touches one array only.
struct LaneEntry: Sendable {
    var start: Int
    var length: Int32
    /// The card's global index (boards hold at most 2^31 cards).
    var card: Int32

    var end: Int { start + Int(length) }
}

struct SupplementaryRecord: Sendable {
    var kind: ElementKind
    var section: Int
    var page: Int
    var frame: Rect
}

/// The part of one section on one page: its extent along the flow and its elements.
/// Blocks of a page are disjoint and sorted, and so are the cards of each lane.
struct SectionBlock: Sendable {
    var section: Int
    var mainStart: Int
    var mainEnd: Int
    /// Per column, its cards in flow order.
    var lanes: [[LaneEntry]]
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
        lanes[lane].append(LaneEntry(start: start, length: Int32(end - start), card: Int32(truncatingIfNeeded: card)))
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

    /// The position in column `lane` of its first card ending after `low`: between the
    /// hints of `low`'s stripe and of the next one, bisected.
    func firstCard(inLane lane: Int, endingAfter low: Int) -> Int {
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
            if entries[mid].end > low { upper = mid } else { lower = mid + 1 }
        }
        return lower
    }
}

struct PageRecord: Sendable {
    var blocks: [SectionBlock]
    /// The end of the last element along the flow (before the content's end inset).
    var usedEnd: Int
}

/// A column (a row, when horizontal): where it starts across the flow and how wide it is.
struct LaneGeometry: Hashable, Sendable {
    var start: Int
    var length: Int
}

/// The resolved geometry of a section.
struct SectionGeometry: Sendable {
    var lanes: [LaneGeometry]
    var sectionInsets: FlowInsets
    var rowSpacing: Int
    var order: ItemOrder

    var laneCount: Int { lanes.count }
    /// The narrowest column's length across (the last: remainder pixels go to the first).
    var narrowestLane: Int { lanes[lanes.count - 1].length }

    init(
        section: Int, style: SectionStyle, configuration: BoardConfiguration, axis: FlowAxis, padding: FlowInsets
    ) throws(LayoutError) {
        let content = axis.flow(configuration.contentInsets)
        sectionInsets = axis.flow(style.insets)
        rowSpacing = style.rowSpacing
        order = style.order
        let spacing = style.columnSpacing
        let base = configuration.extent - content.cross - sectionInsets.cross
        let count: Int
        switch style.columns {
        case .count(let n): count = n
        case .targetWidth(let target): count = max(1, (base + spacing) / (target + spacing))
        }
        let available = base - (count - 1) * spacing
        guard available >= count * (padding.cross + 1) else {
            throw .columnsTooNarrow(section: section, available: available, columns: count, padding: padding.cross)
        }
        let narrow = available / count
        let wider = available % count
        var start = content.crossStart + sectionInsets.crossStart
        var lanes: [LaneGeometry] = []
        lanes.reserveCapacity(count)
        for lane in 0..<count {
            let length = narrow + (lane < wider ? 1 : 0)
            lanes.append(LaneGeometry(start: start, length: length))
            start += length + spacing
        }
        self.lanes = lanes
    }
}

/// A section that is still taking cards.
struct OpenSection: Sendable {
    var section: Int
    var geometry: SectionGeometry
    var page: Int
    /// Where the section's block begins on the current page.
    var sectionTop: Int
    /// Where the first card of each column goes on the current page.
    var itemTop: Int
    /// Per column: where its next card goes.
    var laneNext: [Int]
    /// Per column: the end of its last card (or `itemTop`).
    var laneEnd: [Int]
    var itemCount: Int
    var pageHasContent: Bool
    /// The section's block on the current page, put on the page when it is finished.
    var block: SectionBlock
}

/// What closing a section added, so that `append` can take it back.
struct CloseMark: Sendable {
    var supplementaryCount: Int
    var pageCount: Int
    /// The last block's fields that closing changes (never its lanes: holding them here
    /// would make appending copy them).
    var blockMainEnd: Int
    var blockSupplementaryCount: Int
    var blockDecoration: Int?
    var usedEnd: Int
}
