/// Horizontal placement of each line inside the layout width: `start` and `end` follow the
/// paragraph's direction (an Arabic or Hebrew caption starts at the right), `left` and
/// `right` are literal.
public enum TextAlignment: String, Hashable, Sendable, Codable, CaseIterable {
    case start, end, left, center, right
}
