// The JPEG sheet encoder (jpeg_write.c): libjpeg-turbo fed a band of rows at a time.
#ifndef MOSAIC_JPEG_WRITE_H
#define MOSAIC_JPEG_WRITE_H

#include <stdio.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A baseline JPEG being written row by row (see jpeg_write.c).
typedef struct mosaic_jpeg_writer mosaic_jpeg_writer;

/// Starts a baseline JPEG of `width` x `height` (at most 65500 a side) into `file`, which
/// stays the caller's (it is neither flushed nor closed here), at `quality` (1...100):
/// 4:4:4 chroma at 90 and above, 4:2:0 below; libjpeg's standard Huffman tables (an
/// optimized table would make libjpeg hold the whole image). `comment` (or NULL) is
/// written as a COM segment. NULL on failure, with `result` saying why.
mosaic_jpeg_writer *mosaic_jpeg_writer_open(FILE *file, int width, int height, int quality, const char *comment, mosaic_result *result);

/// Compresses `rows` rows of premultiplied RGBA8, `stride` bytes apart. With `flatten`
/// the pixels are composited over white first (JPEG has no alpha); without, alpha is
/// ignored (the rows are opaque).
mosaic_result mosaic_jpeg_writer_write(mosaic_jpeg_writer *writer, const uint8_t *rgba, size_t stride, int rows, int flatten);

/// Ends the JPEG (every row written) and frees the writer; the file stays open.
mosaic_result mosaic_jpeg_writer_finish(mosaic_jpeg_writer *writer);

/// Frees a writer that will not be finished (after a failure, or to give up).
void mosaic_jpeg_writer_free(mosaic_jpeg_writer *writer);

#ifdef __cplusplus
}
#endif

#endif
