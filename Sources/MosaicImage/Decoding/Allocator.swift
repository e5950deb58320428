import CMosaicShims

/// The C allocator, as decoding needs it.
public enum Allocator {
    /// Makes every freed block of at least 16 MiB go back to the system at once (glibc's
    /// M_MMAP_THRESHOLD, fixed). Smaller blocks (a photo's bytes, its decode at 2/8) are
    /// reused from the heap: at 1 MiB every one was a fresh mapping of zeroed pages, 15%
    /// of a render's CPU in the kernel on the corpus M. glibc otherwise raises its threshold after the first large
    /// free, and each decoding thread keeps the decoders' freed buffers in an arena of its
    /// own: with eight workers, eight progressive 8000x6000 JPEGs decoded one at a time
    /// held 516 MB instead of 182 MB. Process-wide; done once, by the first render.
    public static let returnLargeBlocks: Void = {
        _ = useOneHeap
        _ = mosaic_return_large_allocations(16 << 20)
    }()

    /// Makes every thread allocate from one heap (glibc's M_ARENA_MAX = 1). By default each
    /// thread that allocates gets an arena of its own and keeps what it freed there: the
    /// decoders' large tables (libde265's for a HEIC: 100 phone photos held 182 MB with two
    /// workers, 135 MB with one) stayed twice over. One heap: 130 MB, and no difference in
    /// time on corpus M (4.14 s either way). Must come before other threads allocate:
    /// `mosaic` sets it first thing; a library user gets it with `returnLargeBlocks`.
    public static let useOneHeap: Void = {
        _ = mosaic_use_one_heap()
    }()
}
