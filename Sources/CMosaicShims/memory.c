// The C allocator's handling of large blocks: see mosaic_return_large_allocations.
#include "CMosaicShims.h"

#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int mosaic_return_large_allocations(size_t threshold) {
#if defined(__GLIBC__)
    return mallopt(M_MMAP_THRESHOLD, (int)threshold);
#else
    (void)threshold;
    return 0;
#endif
}

int mosaic_keep_freed_heap(size_t bytes) {
#if defined(__GLIBC__)
    return mallopt(M_TRIM_THRESHOLD, (int)bytes);
#else
    (void)bytes;
    return 0;
#endif
}

int mosaic_use_one_heap(void) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, 1);
#else
    return 0;
#endif
}

int mosaic_can_allocate(size_t bytes) {
    void *block = malloc(bytes);
    if (!block) return 0;
    free(block);
    return 1;
}
