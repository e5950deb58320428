import CMosaicShims

/// The C allocator, as decoding needs it.
public enum Allocator {
    /// Makes every freed block of at least 1 MiB go back to the system at once (glibc's
    /// M_MMAP_THRESHOLD, fixed). glibc otherwise raises its threshold after the first large
    /// free, and each decoding thread keeps the decoders' freed buffers in an arena of its
    /// own: with eight workers, eight progressive 8000x6000 JPEGs decoded one at a time
    /// held 516 MB instead of 182 MB. Process-wide; done once, by the first render.
    public static let returnLargeBlocks: Void = {
        _ = mosaic_return_large_allocations(1 << 20)
    }()
}
