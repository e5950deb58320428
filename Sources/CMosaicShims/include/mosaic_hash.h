// The card cache's digests: XXH3 with 128 bits (xxHash, used header-only, nothing linked).
#ifndef MOSAIC_HASH_H
#define MOSAIC_HASH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A 128-bit digest, the low and high halves.
typedef struct {
    uint64_t low;
    uint64_t high;
} mosaic_digest;

/// XXH3-128 of `count` bytes (none when `bytes` is NULL).
mosaic_digest mosaic_hash128(const void *bytes, size_t count);

/// An incremental XXH3-128: `mosaic_hash_begin`, any number of `mosaic_hash_add`, then
/// `mosaic_hash_end`, which frees the state. NULL when memory runs out.
void *mosaic_hash_begin(void);
void mosaic_hash_add(void *state, const void *bytes, size_t count);
mosaic_digest mosaic_hash_end(void *state);

#ifdef __cplusplus
}
#endif

#endif
