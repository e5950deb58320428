/// How many columns (rows, when horizontal) a section has.
public enum ColumnRule: Hashable, Codable, Sendable {
    /// Exactly this many (at least 1).
    case count(Int)
    /// As many columns as fit with at least this width in pixels (at least 1 column).
    case targetWidth(Int)
}
