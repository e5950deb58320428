/// Resource limits, checked from the headers before any pixel memory is taken.
public struct ImageLimits: Hashable, Sendable {
    /// The most pixels an input image may have (default 16384 x 16384).
    public var maximumInputPixels: Int
    /// The most pixels an image made by mosaic may have (default 16384 x 16384 x 4).
    public var maximumOutputPixels: Int

    public init(maximumInputPixels: Int = 16384 * 16384, maximumOutputPixels: Int = 16384 * 16384 * 4) {
        self.maximumInputPixels = maximumInputPixels
        self.maximumOutputPixels = maximumOutputPixels
    }
}
