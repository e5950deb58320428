/// Resource limits, checked from the headers before any pixel memory is taken, and while
/// decoding untrusted files.
public struct ImageLimits: Hashable, Sendable {
    /// The most pixels an input image may have (default 16384 x 16384).
    public var maximumInputPixels: Int
    /// The most pixels an image made by mosaic may have (default 16384 x 16384 x 4).
    public var maximumOutputPixels: Int
    /// The most scans a progressive JPEG may have (default 200; ordinary files have about
    /// 10, and each scan is a pass over the whole image, so a hostile 38 kB file with
    /// thousands can take minutes).
    public var maximumScans: Int
    /// The most bytes a decoder may allocate for one image (default 1 GiB: the
    /// coefficients of a progressive 16384 x 16384 JPEG fit).
    public var maximumDecodeMemory: Int

    public init(
        maximumInputPixels: Int = 16384 * 16384, maximumOutputPixels: Int = 16384 * 16384 * 4, maximumScans: Int = 200,
        maximumDecodeMemory: Int = 1 << 30
    ) {
        self.maximumInputPixels = maximumInputPixels
        self.maximumOutputPixels = maximumOutputPixels
        self.maximumScans = maximumScans
        self.maximumDecodeMemory = maximumDecodeMemory
    }
}
