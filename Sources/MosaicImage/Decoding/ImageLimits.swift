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
    /// The most bytes a decoder may allocate for one image: by default the pixels of the
    /// largest input (16384 x 16384 RGBA, 1 GiB) and 64 MiB of the decoder's own buffers,
    /// so that every input `maximumInputPixels` admits decodes whole in every codec (a
    /// PNG's 1 GiB, a GIF's screen and a row of indices, a TIFF page and a strip), while
    /// what holds more (an animated WebP's canvas, three times) is refused from its header.
    /// libjpeg and LibRaw take it as the limit of their own buffers, the pixels apart (the
    /// coefficients of a progressive 16384 x 16384 JPEG, 768 MB, fit).
    public var maximumDecodeMemory: Int

    /// The default `maximumDecodeMemory`: 1 GiB of pixels and 64 MiB (1088 MiB).
    public static let defaultDecodeMemory = 16384 * 16384 * 4 + (64 << 20)

    public init(
        maximumInputPixels: Int = 16384 * 16384, maximumOutputPixels: Int = 16384 * 16384 * 4, maximumScans: Int = 200,
        maximumDecodeMemory: Int = defaultDecodeMemory
    ) {
        self.maximumInputPixels = maximumInputPixels
        self.maximumOutputPixels = maximumOutputPixels
        self.maximumScans = maximumScans
        self.maximumDecodeMemory = maximumDecodeMemory
    }
}
