/// One glyph placed on a line: x in 1/64 pixel from the line's start, y in 1/64 pixel down
/// from the baseline (marks placed above or below their base).
public struct PlacedGlyph: Hashable, Sendable {
    /// Index into the typesetter's face table.
    var face: Int32
    var glyph: UInt32
    var x: Int32
    var y: Int32
    /// Where the glyph's cluster starts in its line's `text`, in Unicode scalars (what the
    /// glyph reads as, for a PDF's ToUnicode map and search).
    var cluster: Int32
    /// The glyph belongs to a right-to-left run (an odd bidi level).
    var isRightToLeft: Bool
}
