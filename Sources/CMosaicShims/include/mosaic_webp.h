// WebP reading through libwebp (webp.c).
#ifndef MOSAIC_WEBP_H
#define MOSAIC_WEBP_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a WebP's headers (VP8/VP8L/VP8X, the animation's canvas and frame count, the
/// EXIF chunk's orientation). MOSAIC_NEED_MORE_DATA when they end first and
/// `is_whole_file` is 0. `color_space`: 1 lossy, 2 lossless, 0 mixed (an animation).
mosaic_result mosaic_webp_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole WebP held in memory into `out` as RGBA8 (straight alpha), scaled by
/// libwebp to `width` x `height` (at most the image's size); an animation's first frame
/// on its canvas (then `width` x `height` must be the canvas).
mosaic_result mosaic_webp_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// Frame `frame` of an animation composited on its canvas (`width` x `height`), as
/// `mosaic_webp_decode` the first.
mosaic_result mosaic_webp_decode_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int frame);

/// An animation's frames without decoding them: each frame's start in seconds (at most
/// `capacity`), their count and the total duration (a duration under 11 ms counts as a
/// tenth of a second, as browsers show it).
mosaic_result mosaic_webp_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration);

/// The ICC profile of the ICCP chunk, or NULL; free() it.
uint8_t *mosaic_webp_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

#ifdef __cplusplus
}
#endif

#endif
