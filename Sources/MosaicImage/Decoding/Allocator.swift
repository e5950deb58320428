import CMosaicShims

/// The C allocator, as decoding needs it.
public enum Allocator {
    /// Makes every freed block of at least 8 MiB go back to the system at once (glibc's
    /// M_MMAP_THRESHOLD, fixed). Smaller blocks (a photo's bytes, its decode at 2/8) are
    /// reused from the heap: at 1 MiB every one was a fresh mapping of zeroed pages, 15%
    /// of a render's CPU in the kernel on the corpus M. glibc otherwise raises its threshold after the first large
    /// free, and each decoding thread keeps the decoders' freed buffers in an arena of its
    /// own: with eight workers, eight progressive 8000x6000 JPEGs decoded one at a time
    /// held 516 MB instead of 182 MB. Process-wide; done once, by the first render.
    public static let returnLargeBlocks: Void = {
        _ = mosaic_return_large_allocations(8 << 20)
    }()

    /// Gives the free memory of every thread's heap back to the system. After a decode
    /// whose library allocated many blocks under the mmap threshold (libheif's and
    /// libde265's planes and tables: 100 phone HEICs held 182 MB with two workers, 135 MB
    /// with one), so that each worker's arena does not keep the last one's.
    public static func returnFreeMemory() {
        mosaic_return_free_memory()
    }
}
