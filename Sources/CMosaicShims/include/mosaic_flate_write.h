// The PDF writer's FlateDecode image streams (flate_write.c): zlib fed a band of rows at a
// time.
#ifndef MOSAIC_FLATE_WRITE_H
#define MOSAIC_FLATE_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// RGB rows being deflated into a file (see flate_write.c).
typedef struct mosaic_flate_writer mosaic_flate_writer;

/// Starts a zlib stream of `width`-pixel RGB rows, each Paeth-filtered with its PNG filter
/// byte first (PDF's /Predictor 15), at zlib `level` (0...9), into `file`, which stays the
/// caller's. NULL on failure, with `result` saying why.
mosaic_flate_writer *mosaic_flate_writer_open(FILE *file, int width, int level, mosaic_result *result);

/// Filters and deflates `rows` rows of premultiplied RGBA8, `stride` bytes apart,
/// composited over white (the image has no alpha).
mosaic_result mosaic_flate_writer_write(mosaic_flate_writer *writer, const uint8_t *rgba, size_t stride, int rows);

/// Ends the zlib stream and frees the writer; the file stays open.
mosaic_result mosaic_flate_writer_finish(mosaic_flate_writer *writer);

/// Frees a writer that will not be finished.
void mosaic_flate_writer_free(mosaic_flate_writer *writer);

/// Deflates `size` bytes at once into a zlib stream (a PDF's FlateDecode font programs and
/// content streams) at `level`: MOSAIC_OK with `*out` (malloc'd, the caller frees it) of
/// `*out_size` bytes, or MOSAIC_OUT_OF_MEMORY / MOSAIC_ERROR with zlib's message.
mosaic_result mosaic_flate_compress(const uint8_t *bytes, size_t size, int level, uint8_t **out, size_t *out_size);

#ifdef __cplusplus
}
#endif

#endif
