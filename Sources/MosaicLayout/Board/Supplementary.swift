/// A header or footer: a fixed length along the flow (its height on a vertical board, its
/// width on a horizontal one) spanning the content across, less its insets.
public struct Supplementary: Hashable, Codable, Sendable {
    /// The length along the flow in pixels (at least 0).
    public var length: Int
    /// Space around the element, in pixels; on a horizontal board `top`/`bottom` stay
    /// across the flow and `left`/`right` along it, as on the page.
    public var insets: Insets

    public init(length: Int, insets: Insets = .zero) {
        self.length = length
        self.insets = insets
    }
}
