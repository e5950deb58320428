/// What a render did.
public struct RenderSummary: Sendable {
    /// The files written, one per page (empty for a sink that writes no files).
    public var files: [String]
    /// The pages drawn.
    public var pageCount: Int
    /// Cards drawn from their image.
    public var rendered: Int
    /// Inputs that became placeholder cards, with why, in the order they were drawn.
    public var failures: [CardProblem]
    /// Inputs decoded with a warning (damaged data worked around).
    public var warnings: [DecodingWarning]
    /// Characters no font has (drawn as boxes).
    public var missingCharacters: [Unicode.Scalar]
    /// True when the sheet's files were left as they were: a card cache knew them to be
    /// what this render would write (`RenderJob.cache`).
    public var unchanged = false
}

/// Progress of a render: cards composited so far, of all.
public struct RenderProgress: Sendable {
    /// Cards finished.
    public var done: Int
    /// Cards in the sheet.
    public var total: Int
}
