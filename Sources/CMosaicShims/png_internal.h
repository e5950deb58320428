// What the PNG reader's files share (png_read.c, png_fast.c, png_stream.c, png_pair.c):
// libpng's reader over memory, the palette expansion, the transforms to RGBA8, the fast
// path's state and the stream's.
// Not part of the shim's interface.
#ifndef MOSAIC_PNG_INTERNAL_H
#define MOSAIC_PNG_INTERNAL_H

#include <isa-l/igzip_lib.h>
#include <png.h>

#include "CMosaicShims.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// Set by the read callback just before png_error longjmps, read after the jump:
    /// volatile, or an optimizing compiler keeps the value it had at setjmp (0), and a
    /// probe of a file with more than the prefix of metadata fails instead of asking for
    /// more bytes.
    volatile int starved;
} mosaic_png_reader;

/// libpng's read callback over a mosaic_png_reader (its io pointer).
void mosaic_png_read_fn(png_structp png, png_bytep out, size_t count);

/// A palette PNG expanded here rather than by libpng, so that its indices are seen on the
/// way: libpng 1.6.39 tracks the largest index itself but skips the last pixel of every
/// row, and an index past the palette is damage (drawn black, as libpng draws it).
typedef struct {
    /// Straight RGBA of each index; black (alpha from tRNS, else opaque) past the palette.
    uint8_t rgba[256][4];
    int entries;
    int largest;
} mosaic_png_palette;

/// Reads the palette and tRNS of a palette PNG into `palette` and asks libpng for one
/// index per byte. Returns 0 for any other colour type. Call before the other transforms.
int mosaic_png_take_palette(png_structp png, png_infop info, mosaic_png_palette *palette);
/// Expands a row of `width` indices into RGBA in place, noting the largest index.
void mosaic_png_expand_row(mosaic_png_palette *palette, uint8_t *row, int width);
/// After every row was read: an index past the palette's end is damage.
void mosaic_png_check_palette(const mosaic_png_palette *palette, mosaic_result *result);
/// The transforms to RGBA8 straight alpha, for the whole-image and the streaming reads.
void mosaic_png_to_rgba8(png_structp png, png_infop info);
/// A failure after every row was read becomes a damage warning (see png_read.c).
void mosaic_png_demote_to_warning(mosaic_result *result);

// MARK: The fast path (png_fast.c)

/// The image data of a non-interlaced 8-bit PNG without a palette or tRNS (the common photo
/// and screenshot PNG) read without libpng's row machinery: ISA-L's inflate (faster than
/// zlib's: docs/guide/benchmarks.md), each IDAT's CRC checked before its bytes are used, rows
/// unfiltered here (Paeth a pixel at a time in SSE2 lanes) and widened to RGBA as libpng's
/// transforms widen them. libpng still reads everything before the image data (and its
/// warnings), and everything after it (from a stand-in PNG that ends with the file's own
/// tail). Anything this reader does not expect in the image data (a bad CRC, a damaged or
/// short stream, bytes after it) sends the stream back to libpng from the start, which
/// skips the rows already given and meets the problem where it always did: the rows, the
/// errors and the warnings are libpng's.
typedef struct {
    const uint8_t *data;
    size_t size;
    /// The next IDAT's chunk header, once the current chunk's bytes are handed to inflate.
    size_t next_chunk;
    struct inflate_state inflate;
    /// Filtered rows (a filter byte and `row_bytes` each) as inflated, `start` to `end`.
    uint8_t *raw;
    size_t raw_capacity, raw_start, raw_end;
    /// The previous unfiltered row (zeros above the first) and the current one. Four-
    /// channel rows are unfiltered in the caller's rows: `previous` is then the last row of
    /// the previous read (copied back when a read ends).
    uint8_t *previous, *current;
    /// A third row, for two rows unfiltered at once (`mosaic_png_fast_two_rows`), and two
    /// more for four (`mosaic_png_fast_four_rows`).
    uint8_t *spare, *extra[2];
    size_t row_bytes;
    int channels;
} mosaic_png_fast;

/// Whether a file that libpng read to its first IDAT can be read by mosaic_png_fast.
int mosaic_png_fast_eligible(png_structp png, png_infop info, const mosaic_png_reader *reader);
/// Starts at the first IDAT's data (where libpng's png_read_info stopped); NULL when out of
/// memory or the first chunk's CRC is wrong (then libpng reads the file).
mosaic_png_fast *mosaic_png_fast_open(const mosaic_png_reader *reader, int width, int channels);
void mosaic_png_fast_free(mosaic_png_fast *fast);
/// The next row as RGBA8 into `rgba` (`above`: the caller's previous row, or NULL); 0 when
/// the image data is not what this reader expects (then libpng takes over).
int mosaic_png_fast_row(mosaic_png_fast *fast, uint8_t *rgba, const uint8_t *above, size_t width);
/// Two rows at once, as two calls of mosaic_png_fast_row would give them; 0 when it cannot.
int mosaic_png_fast_two_rows(mosaic_png_fast *fast, uint8_t *rgba0, uint8_t *rgba1, const uint8_t *above, size_t width);
/// Inflates until at least `wanted` filtered bytes are buffered (from `raw_start`); 0 when
/// the stream is damaged or ends first. Rows already buffered stay where they are.
int mosaic_png_fast_fill(mosaic_png_fast *fast, size_t wanted);
/// Sets the row above the next one (`previous`) from that row as RGBA8 (the reader's own
/// samples: RGBA, RGB, grey and alpha, or grey): for a row the caller made without it.
void mosaic_png_fast_set_previous(mosaic_png_fast *fast, const uint8_t *rgba, size_t width);
/// Four rows at once, as four calls of mosaic_png_fast_row would give them, into `rgba`
/// and the three rows after it (`stride` bytes apart); 0 when it cannot.
int mosaic_png_fast_four_rows(mosaic_png_fast *fast, uint8_t *rgba, size_t stride, const uint8_t *above, size_t width);
/// After the last row: the offset of the chunk after the image data, or 0.
size_t mosaic_png_fast_finish(mosaic_png_fast *fast);
/// What libpng's png_read_end makes of the chunks from `tail` on, into `result`.
void mosaic_png_read_tail(const uint8_t *data, size_t size, size_t tail, mosaic_result *result);

// MARK: The stream (png_stream.c)

/// A PNG read a band of rows at a time (mosaic_png_stream in mosaic_png.h).
struct mosaic_png_stream {
    png_structp png;
    png_infop info;
    /// Set while the image data is read by mosaic_png_fast (then `png` is NULL).
    mosaic_png_fast *fast;
    /// For a palette PNG (`indexed`): rows come as indices and are expanded here.
    int indexed;
    mosaic_png_palette palette;
    mosaic_png_reader reader;
    mosaic_result result;
    int width;
    int height;
    int rows_left;
};


#endif
