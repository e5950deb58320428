// The WebP sheet encoder (webp_write.c): libwebp encodes whole pictures, so the page is
// gathered first, band by band, into libwebp's own ARGB picture.
#ifndef MOSAIC_WEBP_WRITE_H
#define MOSAIC_WEBP_WRITE_H

#include <stdio.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A WebP page being gathered (see webp_write.c).
typedef struct mosaic_webp_writer mosaic_webp_writer;

/// Allocates the page's picture: `width` x `height` (at most 16383 a side) ARGB, 4 bytes a
/// pixel. NULL on failure, with `result` saying why.
mosaic_webp_writer *mosaic_webp_writer_open(int width, int height, mosaic_result *result);

/// Copies `rows` rows of premultiplied RGBA8, `stride` bytes apart, into the picture as
/// straight alpha (WebP's).
mosaic_result mosaic_webp_writer_write(mosaic_webp_writer *writer, const uint8_t *rgba, size_t stride, int rows);

/// Encodes the picture (every row written) lossy at `quality` (0...100) or lossless, with
/// `xmp` (or NULL) as an XMP chunk, into `file`, which stays open; frees the writer.
/// libwebp holds the encoded file in memory until it is written.
mosaic_result mosaic_webp_writer_finish(mosaic_webp_writer *writer, FILE *file, int quality, int lossless, const char *xmp);

/// Frees a writer that will not be finished.
void mosaic_webp_writer_free(mosaic_webp_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
