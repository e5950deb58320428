import CMosaicShims

/// The C allocator, as decoding needs it.
public enum Allocator {
    /// Makes every freed block of at least 16 MiB go back to the system at once (glibc's
    /// M_MMAP_THRESHOLD, fixed). Smaller blocks (a photo's bytes, its decode at 2/8) are
    /// reused from the heap: at 1 MiB every one was a fresh mapping of zeroed pages, 15%
    /// of a render's CPU in the kernel on the corpus M. glibc otherwise raises its threshold after the first large
    /// free, and each decoding thread keeps the decoders' freed buffers in an arena of its
    /// own: with eight workers, eight progressive 8000x6000 JPEGs decoded one at a time
    /// held 516 MB instead of 182 MB. The heap keeps up to 32 MiB freed at its top (glibc
    /// trims above 128 KiB, and fixing the mmap threshold stops it raising that): a card's
    /// decode and resampling buffers come and go a thousand times a sheet, and each trim
    /// made the next one fault in zeroed pages again (corpus L: 0.86 s of system time,
    /// 0.21 s kept; wall 0.95x; peak the same). Process-wide; done once, by the first render.
    public static let returnLargeBlocks: Void = {
        _ = useOneHeap
        _ = mosaic_return_large_allocations(16 << 20)
        _ = mosaic_keep_freed_heap(32 << 20)
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
    /// decoders' large tables (libde265's for a HEIC: 100 phone photos held 182 MB with two
    /// workers, 135 MB with one) stayed twice over. One heap: 130 MB, and no difference in
    /// time on corpus M (4.14 s either way). Must come before other threads allocate:
    /// `mosaic` sets it first thing; a library user gets it with `returnLargeBlocks`.
    public static let useOneHeap: Void = {
        _ = mosaic_use_one_heap()
    }()
}
