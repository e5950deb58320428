/// The base direction of a paragraph: from its first strong character (`auto`, as the
/// Unicode Bidirectional Algorithm's rules P2 and P3 say; left to right when it has
/// none), or forced.
public enum TextDirection: String, Hashable, Sendable, Codable, CaseIterable {
    case auto, ltr, rtl
}
