// The shim's own helpers for building results (not part of its interface).
#ifndef MOSAIC_RESULTS_H
#define MOSAIC_RESULTS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CMosaicShims.h"

/// A result with status MOSAIC_OK and nothing else.
static inline mosaic_result mosaic_ok(void) {
    mosaic_result result;
    memset(&result, 0, sizeof result);
    result.status = MOSAIC_OK;
    return result;
}

/// A MOSAIC_ERROR result with `message`.
static inline mosaic_result mosaic_error(const char *message) {
    mosaic_result result = mosaic_ok();
    result.status = MOSAIC_ERROR;
    snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s", message);
    return result;
}

/// A MOSAIC_OUT_OF_MEMORY result: `what` could not be allocated.
static inline mosaic_result mosaic_out_of_memory(const char *what) {
    mosaic_result result = mosaic_error(what);
    result.status = MOSAIC_OUT_OF_MEMORY;
    return result;
}

/// A MOSAIC_NEED_MORE_DATA result (a probe ran out of bytes).
static inline mosaic_result mosaic_need_more_data(void) {
    mosaic_result result = mosaic_ok();
    result.status = MOSAIC_NEED_MORE_DATA;
    return result;
}

/// Copies up to `count` bytes of `data` (`size` bytes) from `*offset` into `buffer` and
/// moves the offset; sets `*starved` when fewer than `count` were left. Returns the bytes
/// copied. The read callback of the libraries that pull their input (giflib, libtiff).
static inline size_t mosaic_read_memory(const uint8_t *data, size_t size, size_t *offset, int *starved, void *buffer, size_t count) {
    size_t left = *offset < size ? size - *offset : 0;
    if (count > left) {
        count = left;
        *starved = 1;
    }
    memcpy(buffer, data + *offset, count);
    *offset += count;
    return count;
}

/// A malloc'd copy of `size` bytes a library owns (an embedded profile), `*copied` set to
/// `size`; NULL (and 0) when there are none or memory runs out.
static inline uint8_t *mosaic_copy_bytes(const void *bytes, size_t size, size_t *copied) {
    *copied = 0;
    uint8_t *copy = bytes && size > 0 ? malloc(size) : NULL;
    if (!copy) return NULL;
    memcpy(copy, bytes, size);
    *copied = size;
    return copy;
}

#endif
