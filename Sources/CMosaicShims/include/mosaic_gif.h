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

/// Decodes a GIF's images 0 to `frame` composited on the logical screen (each frame's
/// disposal applied before the next is drawn), as `mosaic_gif_decode` the first.
mosaic_result mosaic_gif_decode_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int frame);

/// An animation's frames without decoding them: each frame's start in seconds (at most
/// `capacity`), their count and the total duration (a delay of 0 or 1 hundredth counts as
/// a tenth of a second, as browsers show it). A file cut short keeps its whole frames.
mosaic_result mosaic_gif_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration);

#ifdef __cplusplus
}
#endif

#endif
