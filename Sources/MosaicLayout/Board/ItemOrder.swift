/// How cards are dealt to the columns (rows, when horizontal) of a section.
public enum ItemOrder: String, Codable, Sendable, CaseIterable {
    /// Each card goes to the column whose bottom is highest up (the shortest one);
    /// ties go to the lowest column index.
    case shortestFirst
    /// Item `i` goes to column `i mod n`.
    case leftToRight
    /// Item `i` goes to column `n - 1 - (i mod n)`.
    case rightToLeft
}
