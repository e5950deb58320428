// The allocator's settings (memory.c).
#ifndef MOSAIC_MEMORY_H
#define MOSAIC_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Makes the C allocator hand every block of at least `threshold` bytes back to the system
/// when it is freed (glibc: a fixed M_MMAP_THRESHOLD). By default glibc raises its
/// threshold after the first large free, and each decoding thread then keeps the decoder's
/// freed buffers in its own arena, which held several times the memory (docs/guide/benchmarks.md).
/// Returns 0 where it cannot be done.
int mosaic_return_large_allocations(size_t threshold);
/// Makes every thread allocate from one heap (glibc's M_ARENA_MAX 1); 0 when refused.
int mosaic_use_one_heap(void);
/// 1 when `bytes` can be allocated now (a block is taken and given back at once), 0 when
/// the system refuses: Swift's own allocations stop the process instead of failing.
int mosaic_can_allocate(size_t bytes);
/// Lets the heap keep up to `bytes` freed at its top before giving pages back (glibc's
/// M_TRIM_THRESHOLD); 0 when refused.
int mosaic_keep_freed_heap(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
