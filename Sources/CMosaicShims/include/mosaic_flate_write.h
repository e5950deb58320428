// The PDF writer's FlateDecode image streams (flate_write.c): zlib fed a band of rows at a
// time.
#ifndef MOSAIC_FLATE_WRITE_H
#define MOSAIC_FLATE_WRITE_H

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

#ifdef __cplusplus
}
#endif

#endif
