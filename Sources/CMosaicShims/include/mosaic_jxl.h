// JPEG XL reading and writing through libjxl 0.7 (jxl.c).
#ifndef MOSAIC_JXL_H
#define MOSAIC_JXL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What a JPEG XL's headers say.
typedef struct {
    /// The size as stored (before the orientation).
    int width, height;
    /// 1 to 8, the codestream's own orientation field.
    int orientation;
    int has_alpha;
    /// 1: the colour is grey.
    int is_grey;
    /// Bits per sample of the colour channels.
    int bits;
    /// 1: the pixels are coded in their own colour space (lossless, or lossy without XYB);
    /// 0: XYB (lossy).
    int original_colour;
    /// Frames of an animation (counted to the end of the file); 0 for a still image.
    int frames;
    /// The embedded preview's size as stored, or 0 x 0 when there is none.
    int preview_width, preview_height;
    /// 1: in the ISO BMFF container (boxes), 0: a bare codestream.
    int container;
} mosaic_jxl_info;

/// Reads a JPEG XL's headers (codestream or container) without decoding pixels.
/// MOSAIC_NEED_MORE_DATA when they end first and `is_whole_file` is 0 (for an animation,
/// until every frame's header was seen: its frame count).
mosaic_result mosaic_jxl_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_jxl_info *info);

/// Decodes a whole JPEG XL held in memory into `out` as RGBA8 (straight alpha, opaque when
/// the image has none, grey as R = G = B), as stored (not turned by its orientation): the
/// image (`width` x `height`: its size), an animation's first frame, or with `preview` 1
/// the embedded preview (`width` x `height`: the preview's size). `stride` must be
/// `width` * 4. The colour of the pixels: sRGB when `*icc` is left NULL, else the ICC
/// profile set there (malloc'd, `*icc_size` bytes; free() it): lossy (XYB) images are
/// asked of libjxl in sRGB, the others come in their own colour space. A file that ends
/// early is an error ("the file ends early").
mosaic_result mosaic_jxl_decode(const uint8_t *data, size_t size, int preview, uint8_t *out, size_t stride, int width, int height,
                                uint8_t **icc, size_t *icc_size);

/// `mosaic_jxl_decode` of frame `frame` (0 the first) of an animation, as shown (blended
/// onto the frames before it): libjxl skips the frames before it, decoding only those it
/// blends onto. `preview` must be 0 when `frame` is not. An error ("the animation has no
/// frame N") when the file has fewer frames.
mosaic_result mosaic_jxl_decode_frame(const uint8_t *data, size_t size, int preview, int frame, uint8_t *out, size_t stride, int width,
                                      int height, uint8_t **icc, size_t *icc_size);

/// The timeline of a JPEG XL animation, from its frame headers alone (no pixels decoded):
/// each shown frame's start in seconds (at most `capacity`, in `starts`), their count
/// and the seconds they play (the sum of their durations, in the animation header's ticks
/// per second). A count of 0 for a still image; a file cut short, or a damaged frame
/// header, keeps the frames before it.
mosaic_result mosaic_jxl_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration);

/// The colour profile of the pixels `mosaic_jxl_decode` gives, from the headers alone, or
/// NULL when they are sRGB; free() it.
uint8_t *mosaic_jxl_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

// MARK: Writing

/// A JPEG XL being written: libjxl 0.7 encodes whole frames (no chunked input), so the
/// page's rows are gathered here (3 bytes a pixel, 4 with alpha) and encoded by `finish`.
typedef struct mosaic_jxl_writer mosaic_jxl_writer;

/// Allocates the picture; NULL (and `result` saying why) when it cannot.
mosaic_jxl_writer *mosaic_jxl_writer_open(int width, int height, int has_alpha, mosaic_result *result);

/// Takes the next `rows` rows of premultiplied RGBA8 (`stride` bytes apart), stored as
/// straight colour.
mosaic_result mosaic_jxl_writer_write(mosaic_jxl_writer *writer, const uint8_t *rgba, size_t stride, int rows);

/// Encodes the picture (tagged sRGB) into `file`: lossy at butteraugli `distance` (0.1 to
/// 25) or lossless, at libjxl's `effort` (1 to 9), on `threads` threads (1: the caller's),
/// with an `xml ` box holding `xmp` when not NULL. Frees the writer, whatever happens.
/// MOSAIC_SYSTEM_ERROR when writing the file failed.
mosaic_result mosaic_jxl_writer_finish(mosaic_jxl_writer *writer, FILE *file, float distance, int lossless, int effort, int threads,
                                       const char *xmp);

/// Frees a writer that will not be finished.
void mosaic_jxl_writer_free(mosaic_jxl_writer *writer);

/// The `xml ` box's contents (an XMP packet) of the JPEG XL at `path`, or NULL (not a
/// container, no such box, unreadable); free() it. Reads the top-level boxes only.
char *mosaic_jxl_xmp(const char *path);

#ifdef __cplusplus
}
#endif

#endif
