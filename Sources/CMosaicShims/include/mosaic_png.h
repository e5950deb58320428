// PNG through libpng: reading (png_read.c), the fast image-data path (png_fast.c),
// streaming reads (png_stream.c), a diff's pair read together (png_pair.c), writing
// (png_write.c) and the writer's deflated segments (png_deflate.c).
#ifndef MOSAIC_PNG_H
#define MOSAIC_PNG_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a PNG's signature and chunks up to the first IDAT from the first `size` bytes.
/// MOSAIC_NEED_MORE_DATA when they end first and `is_whole_file` is 0.
mosaic_result mosaic_png_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole PNG held in memory into `out` as RGBA8 (straight alpha): every colour
/// type, bit depths 1 to 16 (16 scaled to 8), palette with tRNS, Adam7. A file that ends
/// after the last row but before IEND decodes with a warning.
mosaic_result mosaic_png_decode(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// mosaic_png_decode for a non-interlaced PNG, through the stream below (whose own
/// reader is faster for 8-bit PNGs without palette or tRNS; the same rows, errors and
/// warnings).
mosaic_result mosaic_png_decode_streamed(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// A PNG read a few rows at a time (non-interlaced only): memory for a band of rows, not
/// the whole image. Rows come as RGBA8 straight alpha, as from mosaic_png_decode.
typedef struct mosaic_png_stream mosaic_png_stream;

/// Starts reading a whole PNG held in memory (which must outlive the stream). NULL on
/// failure (or for an interlaced PNG: decode it whole), with `result` saying why.
mosaic_png_stream *mosaic_png_stream_open(const uint8_t *data, size_t size, int width, int height, mosaic_result *result);

/// 1 while the stream reads the image data itself (an 8-bit, non-interlaced PNG without a
/// palette or tRNS), 0 while libpng does: for tests.
int mosaic_png_stream_reads_itself(const mosaic_png_stream *stream);

/// Reads the next `count` rows into `rows`, `stride` bytes apart.
mosaic_result mosaic_png_stream_read(mosaic_png_stream *stream, uint8_t *rows, size_t stride, int count);

/// Reads what follows the image data (a problem there is a warning) and frees the stream.
mosaic_result mosaic_png_stream_close(mosaic_png_stream *stream);

/// Decodes two non-interlaced PNGs of `width` x `height` (a diff's pair) into `out_a` and
/// `out_b`, as mosaic_png_decode_streamed decodes each, but together: a row of `b` whose
/// filtered bytes are `a`'s (below a row that is the same in both) is copied from `a`'s
/// row rather than unfiltered (png_pair.c). `result_a` is always what decoding `a` alone
/// gives (its rows in `out_a` when it worked). Returns 1 when `result_b` is likewise `b`'s
/// outcome; 0 when `a` failed first and `b` was left unread. `copied_rows` (or NULL): the
/// rows of `b` copied.
int mosaic_png_decode_pair(
    const uint8_t *data_a, size_t size_a, uint8_t *out_a, mosaic_result *result_a,
    const uint8_t *data_b, size_t size_b, uint8_t *out_b, mosaic_result *result_b,
    size_t stride, int width, int height, int *copied_rows);

typedef struct {
    int width;
    int height;
    /// libpng's PNG_COLOR_TYPE_*: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int color_type;
    int bit_depth;
    int interlaced;
    /// zlib level 0 to 9.
    int compression_level;
    /// libpng's PNG_FILTER_* mask, or 0 for libpng's default choice.
    int filters;
    /// Palette: `palette_count` RGB triples; tRNS: `trns_count` alpha values (palette) or
    /// one grey/RGB sample value as 16-bit (`trns_gray`, `trns_red`...).
    const uint8_t *palette;
    int palette_count;
    const uint8_t *trns;
    int trns_count;
    int has_trns_color;
    uint16_t trns_gray, trns_red, trns_green, trns_blue;
    /// An eXIf payload (TIFF header first), or NULL.
    const uint8_t *exif;
    size_t exif_size;
    /// A tEXt "Software" value, or NULL.
    const char *software;
    /// Write an sRGB chunk (perceptual intent).
    int srgb;
    /// An ICC profile for an iCCP chunk (fixtures), or NULL.
    const uint8_t *icc;
    size_t icc_size;
} mosaic_png_params;

typedef struct mosaic_png_writer mosaic_png_writer;

/// A piece of a PNG's IDAT stream: rows filtered (Paeth) and deflated on their own (see
/// png_deflate.c). `data` is malloc'd: free it with mosaic_png_segment_free.
typedef struct {
    uint8_t *data;
    size_t size;
    /// The filtered bytes' count and Adler-32, for the zlib trailer.
    size_t raw_size;
    uint32_t adler;
} mosaic_png_segment;

/// Filters `count` rows of `width` pixels of `channels` (3 or 4) bytes, `stride` apart,
/// with Paeth (`above` is the row before the first, or NULL for the image's first row)
/// and deflates them at zlib-style `level` (0 to 9): ending with a sync flush, or the
/// final block when `last`. Touches only its arguments: callable from any thread.
mosaic_result mosaic_png_deflate_segment(const uint8_t *rows, size_t stride, int width, int channels, int count,
                                         const uint8_t *above, int level, int last, mosaic_png_segment *segment);
void mosaic_png_segment_free(mosaic_png_segment *segment);
/// zlib's adler32_combine.
uint32_t mosaic_adler32_combine(uint32_t first, uint32_t second, size_t second_size);

/// Appends the next segment, in order, as an IDAT chunk (the zlib header before the
/// first; the Adler-32 of them all after the last, when `last`).
mosaic_result mosaic_png_writer_write_segment(mosaic_png_writer *writer, const mosaic_png_segment *segment, int last);

/// Opens `path` for writing (created or truncated) and writes the header chunks.
/// Non-interlaced only: the image data then comes as segments
/// (mosaic_png_writer_write_segment). NULL on failure, with `result` saying why.
mosaic_png_writer *mosaic_png_writer_open(const char *path, const mosaic_png_params *params, mosaic_result *result);

/// Writes IEND, closes the file and frees the writer (also on failure).
mosaic_result mosaic_png_writer_finish(mosaic_png_writer *writer);

/// Closes the file and frees the writer without finishing the PNG.
void mosaic_png_writer_abort(mosaic_png_writer *writer);

/// Writes a whole image (interlaced or not) to `path`: for fixtures and small images.
mosaic_result mosaic_png_write_image(
    const char *path, const mosaic_png_params *params, const uint8_t *rows, size_t stride);


/// The ICC profile of a PNG's iCCP chunk (inflated), or NULL; free() it.
uint8_t *mosaic_png_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

/// Tests: every libpng allocation of more than `bytes` made on the calling thread fails, as
/// one the system refuses would (0, the default: none is refused). Per thread, so tests
/// running beside it are not touched.
void mosaic_png_refuse_allocations_over(size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
