/// The largest length, inset or spacing accepted, in pixels (2^30): far beyond any sheet,
/// small enough that sums of them never overflow.
public let maximumLayoutLength = 1 << 30

func checkLength(_ value: Int, _ field: String, allowZero: Bool = true) throws(LayoutError) {
    if allowZero {
        if value < 0 { throw .negative(field: field, value: value) }
    } else if value < 1 {
        throw .notPositive(field: field, value: value)
    }
    if value > maximumLayoutLength { throw .tooLarge(field: field, value: value, limit: maximumLayoutLength) }
}

func checkInsets(_ insets: Insets, _ field: String) throws(LayoutError) {
    try checkLength(insets.top, field + ".top")
    try checkLength(insets.left, field + ".left")
    try checkLength(insets.bottom, field + ".bottom")
    try checkLength(insets.right, field + ".right")
}

extension BoardConfiguration {
    /// Throws the first field that is out of range.
    func validate() throws(LayoutError) {
        try checkLength(extent, "extent", allowZero: false)
        try checkInsets(contentInsets, "contentInsets")
        try checkLength(minimumContentLength, "minimumContentLength")
        try checkInsets(cellPadding, "cellPadding")
        try checkLength(captionSpacing, "captionSpacing")
        if let page = maximumPageLength { try checkLength(page, "maximumPageLength", allowZero: false) }
        try sectionStyle.validate("sectionStyle")
    }
}

extension SectionStyle {
    func validate(_ field: String) throws(LayoutError) {
        switch columns {
        case .count(let n):
            // A count, not a length: its limit is said without a unit.
            if n > maximumLayoutLength { throw .tooMany(field: field + ".columns.count", value: n, limit: maximumLayoutLength) }
            try checkLength(n, field + ".columns.count", allowZero: false)
        case .targetWidth(let w): try checkLength(w, field + ".columns.targetWidth", allowZero: false)
        }
        try checkLength(columnSpacing, field + ".columnSpacing")
        try checkLength(rowSpacing, field + ".rowSpacing")
        try checkInsets(insets, field + ".insets")
        if let header {
            try checkLength(header.length, field + ".header.length")
            try checkInsets(header.insets, field + ".header.insets")
        }
        if let footer {
            try checkLength(footer.length, field + ".footer.length")
            try checkInsets(footer.insets, field + ".footer.insets")
        }
        if let decoration { try checkInsets(decoration.insets, field + ".decoration.insets") }
    }
}
