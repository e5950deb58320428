// Digests for the card cache: XXH3-128 from xxHash's header (inlined, so the binary links
// no libxxhash). Fast (several GB/s) and 128 bits wide: a content digest that two files
// share by accident is not a practical concern; the cache is not a defence against
// crafted collisions (its trust model: a cache is trusted like the inputs).
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "mosaic_hash.h"

mosaic_digest mosaic_hash128(const void *bytes, size_t count) {
    XXH128_hash_t hash = XXH3_128bits(bytes, bytes ? count : 0);
    mosaic_digest digest = {hash.low64, hash.high64};
    return digest;
}

void *mosaic_hash_begin(void) {
    XXH3_state_t *state = XXH3_createState();
    if (state) XXH3_128bits_reset(state);
    return state;
}

void mosaic_hash_add(void *state, const void *bytes, size_t count) {
    if (state && bytes && count) XXH3_128bits_update((XXH3_state_t *)state, bytes, count);
}

mosaic_digest mosaic_hash_end(void *state) {
    mosaic_digest digest = {0, 0};
    if (!state) return digest;
    XXH128_hash_t hash = XXH3_128bits_digest((XXH3_state_t *)state);
    XXH3_freeState((XXH3_state_t *)state);
    digest.low = hash.low64;
    digest.high = hash.high64;
    return digest;
}
