// The AVIF sheet encoder (heif_write.c): libheif with its AV1 encoder (libaom in Debian 12).
#ifndef MOSAIC_HEIF_WRITE_H
#define MOSAIC_HEIF_WRITE_H

#include <stdio.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// An AVIF page being gathered (see heif_write.c).
typedef struct mosaic_avif_writer mosaic_avif_writer;

/// 1 when libheif has an AV1 encoder (a plugin such as aom or rav1e), else 0.
int mosaic_avif_encoder_available(void);

/// The name of libheif's AV1 encoder ("AOMedia Project AV1 Encoder v3.6.0"), or "".
const char *mosaic_avif_encoder_name(void);

/// Allocates the page's picture: `width` x `height` (at most 32768 a side, what libheif
/// reads back), RGB, or RGBA when `has_alpha`. NULL on failure, with `result` saying why.
mosaic_avif_writer *mosaic_avif_writer_open(int width, int height, int has_alpha, mosaic_result *result);

/// Copies `rows` rows of premultiplied RGBA8, `stride` bytes apart, into the picture
/// (straight alpha, or the colour alone when opaque).
mosaic_result mosaic_avif_writer_write(mosaic_avif_writer *writer, const uint8_t *rgba, size_t stride, int rows);

/// Encodes the picture (every row written) at `quality` (0...100) or lossless, at the
/// encoder's `speed` (aom: 0 slowest ... 9 fastest), with `xmp` (or NULL) as XMP metadata,
/// tagged sRGB (nclx), into `file`, which stays open; frees the writer.
mosaic_result mosaic_avif_writer_finish(mosaic_avif_writer *writer, FILE *file, int quality, int lossless, int speed, const char *xmp);

/// Frees a writer that will not be finished.
void mosaic_avif_writer_free(mosaic_avif_writer *writer);

/// The XMP metadata of the primary image of the HEIF or AVIF file at `path`, NUL-terminated,
/// or NULL when there is none (or the file cannot be read); free() it.
char *mosaic_heif_xmp(const char *path);

#ifdef __cplusplus
}
#endif

#endif
