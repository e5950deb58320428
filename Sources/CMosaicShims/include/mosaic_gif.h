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

/// A GIF to write, for fixtures: one image (`frames` times; the later ones with inverted
/// indices) at (`left`, `top`) on a `screen_width` x `screen_height` screen.
typedef struct {
    int screen_width, screen_height;
    int left, top, width, height;
    int interlaced;
    /// `palette_count` (a power of two, 2 to 256) RGB triples.
    const uint8_t *palette;
    int palette_count;
    /// `width * height` indices.
    const uint8_t *indices;
    /// A transparent index, or -1.
    int transparent;
    int frames;
} mosaic_gif_fixture;

mosaic_result mosaic_gif_encode_file(const char *path, const mosaic_gif_fixture *fixture);

#ifdef __cplusplus
}
#endif

#endif
