import CMosaicShims

/// The C allocator, as decoding needs it.
public enum Allocator {
    /// Makes every freed block of at least 32 MiB (glibc's largest M_MMAP_THRESHOLD) go back
    /// to the system at once, the threshold fixed. Smaller blocks (a photo's bytes, its decode
    /// at 2/8, the 24 MB coefficient buffer libjpeg holds for a 12 MP progressive file's
    /// luma) are reused from the heap: as fresh mappings, each one's pages were faulted in
    /// and zeroed by the kernel, then zeroed again by libjpeg (at a 16 MiB threshold, 36
    /// progressive photos of corpus M cost 150,000 page faults, 0.4 s of system time).
    /// glibc otherwise raises its threshold after the first large free, and each decoding
    /// thread keeps the decoders' freed buffers in an arena of its own: with eight workers,
    /// large decodes one at a time held several times the memory. The heap keeps up to 64
    /// MiB freed at its top (glibc trims above 128 KiB, and fixing the mmap threshold stops
    /// it raising that): a card's decode and resampling buffers come and go a thousand
    /// times a sheet, and each trim made the next one fault in zeroed pages again, in
    /// system time, for no lower peak. The figures: docs/guide/benchmarks.md, "Memory".
    /// Process-wide; done once, by the first render.
    public static let returnLargeBlocks: Void = {
        _ = useOneHeap
        _ = mosaic_return_large_allocations(32 << 20)
        _ = mosaic_keep_freed_heap(64 << 20)
    }()

    /// Keeps freed blocks of up to 32 MiB (a 3840x2160 RGBA bitmap) in the heap, and up to
    /// `keepFreed` bytes of freed heap, for a run that decodes images of the same sizes
    /// again and again (`mosaic diff`): each pair's two bitmaps then reuse the pages the
    /// pair before freed instead of faulting in fresh zeroed ones (glibc's mmap threshold
    /// cannot go past 32 MiB). Process-wide, like `returnLargeBlocks`, which it undoes.
    public static func reuseLargeBlocks(keepFreed: Int) {
        _ = useOneHeap
        _ = mosaic_return_large_allocations(32 << 20)
        _ = mosaic_keep_freed_heap(max(0, min(keepFreed, Int(Int32.max))))
    }

    /// Makes every thread allocate from one heap (glibc's M_ARENA_MAX = 1). By default each
    /// thread that allocates gets an arena of its own and keeps what it freed there: the
    /// decoders' large tables (libde265's for a HEIC) stayed once per worker. One heap
    /// holds them once, and costs no time (docs/guide/benchmarks.md, "Memory"). Must come before
    /// other threads allocate:
    /// `mosaic` sets it first thing; a library user gets it with `returnLargeBlocks`.
    public static let useOneHeap: Void = {
        _ = mosaic_use_one_heap()
    }()
}
