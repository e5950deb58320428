/// What happens to an image whose aspect ratio lies outside the clamp.
public enum ClampMode: String, Codable, Sendable, CaseIterable {
    /// The image is scaled to cover its clamped frame and cropped.
    case fill
    /// The image is scaled to fit inside its clamped frame and letterboxed.
    case fit
}

/// Keeps extreme images (a 1x10000 strip) from making extreme cards: the frame given to an
/// image has an aspect ratio (width / height) within `minimum...maximum`.
public struct AspectClamp: Hashable, Codable, Sendable {
    public var minimum: Double
    public var maximum: Double
    public var mode: ClampMode

    public init(minimum: Double, maximum: Double, mode: ClampMode = .fill) {
        self.minimum = minimum
        self.maximum = maximum
        self.mode = mode
    }
}
