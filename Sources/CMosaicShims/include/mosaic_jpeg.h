// JPEG reading through libjpeg(-turbo) (jpeg.c, jpeg_dc.c) and the JPEG file encoder of
// the tile pyramid.
#ifndef MOSAIC_JPEG_H
#define MOSAIC_JPEG_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a JPEG's headers (up to the first scan) from the first `size` bytes of a file.
/// MOSAIC_NEED_MORE_DATA when they end before the headers do and `is_whole_file` is 0.
/// No scan data is read or decoded.
mosaic_result mosaic_jpeg_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole JPEG file held in memory at `scale_num`/8 of its size (1...8) into
/// `out`, RGBA8 with alpha 255, rows `stride` bytes apart. `width`/`height` are the sizes
/// the caller expects after scaling (ceil(size * scale_num / 8)); another size is an
/// error. Grey, RGB, YCbCr, CMYK and YCCK (Adobe-inverted) come out as RGB; with
/// `raw_cmyk`, CMYK and YCCK come out as C M Y K bytes (0 = no ink) for a CMYK profile.
/// A truncated or corrupt file decodes with warnings (grey where data is missing).
/// `max_scans` (0: no cap) and `max_memory` (bytes libjpeg may allocate; 0: no cap) guard
/// against hostile files: past either, the decode fails with a message naming the cap.
mosaic_result mosaic_jpeg_decode(
    const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
    int max_scans, size_t max_memory, int raw_cmyk);

/// mosaic_jpeg_decode that also reads the ICC profile in the same libjpeg session (its
/// headers parsed once): `*icc` (malloc'd, free() it; NULL when none), `*icc_size` and
/// `*icc_damage` as mosaic_jpeg_icc_profile gives them; `*gave_inks` (or NULL) 1 when the
/// pixels came out as inks (`raw_cmyk` and the file is CMYK or YCCK). The caller decides
/// after the decode what the profile does: for inks whose profile turns out unusable,
/// mosaic_jpeg_inks_to_rgba gives the pixels a decode without `raw_cmyk` would have.
mosaic_result mosaic_jpeg_decode_with_icc(
    const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
    int max_scans, size_t max_memory, int raw_cmyk, uint8_t **icc, size_t *icc_size, mosaic_result *icc_damage, int *gave_inks);

/// C M Y K bytes (0 = no ink), as a `raw_cmyk` decode gives them, to RGBA with alpha 255
/// through the uncalibrated formula, in place: the pixels of a decode without `raw_cmyk`.
void mosaic_jpeg_inks_to_rgba(uint8_t *pixels, size_t stride, int width, int height);

/// A progressive JPEG at 1/8 scale from its DC coefficients only (1/64 of libjpeg's
/// coefficient buffer), into `out` as mosaic_jpeg_decode would. Returns 0 when the file is
/// not one it reads exactly (not progressive Huffman, not 8-bit, not 1 or 3 components,
/// another size than `width` x `height`): then decode with libjpeg. Returns 1 when it
/// decoded (or refused, with `result` saying why).
int mosaic_jpeg_decode_dc(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height,
                          int max_scans, mosaic_result *result);

typedef struct {
    int quality;
    int progressive;
    int arithmetic;
    /// In MCU rows; 0 for none.
    int restart_interval;
    /// Write the data as YCCK rather than CMYK (4-component input only).
    int ycck;
    /// An APP1 payload to write first (e.g. "Exif\0\0" + TIFF), or NULL.
    const uint8_t *app1;
    size_t app1_size;
    /// An ICC profile to embed (APP2 chunks), or NULL.
    const uint8_t *icc;
    size_t icc_size;
} mosaic_jpeg_encode_options;

/// Encodes pixels to a JPEG file at `path`: `components` 1 (grey), 3 (RGB) or 4 (CMYK,
/// written as given, with an Adobe marker). For test fixtures and tools.
mosaic_result mosaic_jpeg_encode_file(
    const char *path, const uint8_t *pixels, int width, int height, int components,
    const mosaic_jpeg_encode_options *options);

/// The ICC profile of a JPEG (its APP2 chunks joined, in any order), or NULL; `*size` its
/// length. The caller frees it with free(). When the file has ICC_PROFILE chunks that do
/// not make one profile (one missing or repeated, a count that disagrees), NULL and
/// `*damage` MOSAIC_ERROR with libjpeg's warning; else `*damage` is MOSAIC_OK.
uint8_t *mosaic_jpeg_icc_profile(const uint8_t *data, size_t size, size_t *icc_size, mosaic_result *damage);

#ifdef __cplusplus
}
#endif

#endif
