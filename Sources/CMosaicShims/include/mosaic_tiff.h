// TIFF reading through libtiff (tiff.c).
#ifndef MOSAIC_TIFF_H
#define MOSAIC_TIFF_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a TIFF's first directory through libtiff: size, Orientation tag, alpha (extra
/// samples), samples, photometric (`color_space`), bits, tiled (`interlaced`), pages
/// (`frames`). MOSAIC_NEED_MORE_DATA when the prefix ends first and `is_whole_file` is 0.
mosaic_result mosaic_tiff_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes the first page, as stored (the caller applies the orientation), into `out` as
/// RGBA8 with straight alpha; `stride` must be `width * 4`. With `raw_cmyk`, a contiguous
/// 8- or 16-bit CMYK page comes out as C M Y K bytes (0 = no ink) for a CMYK profile.
mosaic_result mosaic_tiff_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int raw_cmyk);

/// The ICC profile of the first directory (tag 34675), or NULL; free() it.
uint8_t *mosaic_tiff_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

#ifdef __cplusplus
}
#endif

#endif
