/// A background element behind a section, framing its header to its footer.
public struct Decoration: Hashable, Codable, Sendable {
    /// How far the background stays inside the section's outer frame, in pixels.
    public var insets: Insets

    public init(insets: Insets = .zero) {
        self.insets = insets
    }
}
