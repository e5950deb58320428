/// The resolved geometry of a section.
struct SectionGeometry: Sendable {
    var lanes: [LaneGeometry]
    var sectionInsets: FlowInsets
    var rowSpacing: Int
    var columnSpacing: Int
    var order: ItemOrder
    /// The section's items across the flow: from the first column's start to the last
    /// one's end (left to right, whatever the order of the columns).
    var crossStart: Int
    var crossEnd: Int
    /// The columns run right to left (`SectionStyle.isRightToLeft`, vertical boards).
    var isMirrored: Bool

    var laneCount: Int { lanes.count }
    /// The narrowest column's length across (the last: remainder pixels go to the first).
    var narrowestLane: Int { lanes[lanes.count - 1].length }

    init(
        section: Int, style: SectionStyle, configuration: BoardConfiguration, axis: FlowAxis, padding: FlowInsets,
        laneCount: Int? = nil
    ) throws(LayoutError) {
        let content = axis.flow(configuration.contentInsets)
        sectionInsets = axis.flow(style.insets)
        rowSpacing = style.rowSpacing
        order = style.order
        let spacing = style.columnSpacing
        columnSpacing = spacing
        let base = configuration.extent - content.cross - sectionInsets.cross
        let count: Int
        switch (laneCount, style.columns) {
        case (let fixed?, _): count = fixed
        case (nil, .count(let n)): count = n
        case (nil, .targetWidth(let target)): count = max(1, (base + spacing) / (target + spacing))
        }
        let available = base - (count - 1) * spacing
        guard available >= count * (padding.cross + 1) else {
            throw .columnsTooNarrow(section: section, available: available, columns: count, padding: padding.cross)
        }
        let narrow = available / count
        let wider = available % count
        var start = content.crossStart + sectionInsets.crossStart
        crossStart = start
        crossEnd = start + available + (count - 1) * spacing
        isMirrored = style.isRightToLeft && axis.isVertical
        var lanes: [LaneGeometry] = []
        lanes.reserveCapacity(count)
        for lane in 0..<count {
            let length = narrow + (lane < wider ? 1 : 0)
            // Mirrored: column 0 at the right edge, each next one to its left.
            lanes.append(LaneGeometry(start: isMirrored ? crossStart + crossEnd - start - length : start, length: length))
            start += length + spacing
        }
        self.lanes = lanes
    }
}
