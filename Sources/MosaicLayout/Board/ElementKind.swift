/// What an element of a board is.
public enum ElementKind: String, Codable, Sendable, CaseIterable {
    /// A section's background, below everything (z 0).
    case decoration
    /// An image with its caption (z 1).
    case card
    /// A section's header (z 2).
    case header
    /// A section's footer (z 2).
    case footer

    /// The z index of the kind: decoration < card < header and footer.
    public var zIndex: Int {
        switch self {
        case .decoration: return 0
        case .card: return 1
        case .header, .footer: return 2
        }
    }
}
