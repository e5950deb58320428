// GIF reading through giflib (gif.c).
#ifndef MOSAIC_GIF_H
#define MOSAIC_GIF_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a GIF's headers up to its first image's descriptor: the logical screen's size,
/// alpha (a transparent index, or a first image that does not cover the screen),
/// interlacing. MOSAIC_NEED_MORE_DATA when they end first and `is_whole_file` is 0.
mosaic_result mosaic_gif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a GIF's first image onto its `width` x `height` logical screen as RGBA8
/// (straight alpha; transparent where the image does not cover it). A truncated or
/// corrupt file is an error; a colour index past the table is a damage warning.
mosaic_result mosaic_gif_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

#ifdef __cplusplus
}
#endif

#endif
