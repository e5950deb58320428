// The compact records a MasonryLayout keeps; attributes are made from them on demand.

struct CardRecord: Sendable {
    var frame: Rect
    /// The image's length along the flow.
    var imageLength: Int
    /// The image's length across the flow.
    var imageCross: Int
    /// The caption's height (the reserved block on a horizontal board).
    var captionLength: Int
    var hasCaption: Bool
    var clamped: Bool
    var section: Int
    var item: Int
    var page: Int
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
    /// Per column, the global indices of its cards, in flow order.
    var lanes: [[Int]]
    /// Header and footer, indices into `supplementaries`.
    var supplementaries: [Int] = []
    var decoration: Int?

    init(section: Int, mainStart: Int, laneCount: Int) {
        self.section = section
        self.mainStart = mainStart
        self.mainEnd = mainStart
        self.lanes = Array(repeating: [], count: laneCount)
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

    init(
        section: Int, style: SectionStyle, configuration: MasonryConfiguration, axis: FlowAxis, padding: FlowInsets
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

struct CardSize: Sendable {
    var length: Int
    var imageLength: Int
    var imageCross: Int
    var captionLength: Int
    var hasCaption: Bool
    var clamped: Bool
}
