/// The text under a card's image: a bold title line over a wrapped description.
public struct Caption: Hashable, Codable, Sendable {
    public var title: String
    public var description: String

    public init(title: String = "", description: String = "") {
        self.title = title
        self.description = description
    }

    /// True when there is nothing to draw.
    public var isEmpty: Bool { title.isEmpty && description.isEmpty }
}
