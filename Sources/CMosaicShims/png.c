// libpng behind setjmp fences. png_error jumps back to the setjmp of the function that
// called into libpng; warnings are counted and the first kept; nothing is printed. Input
// is read from memory by a C callback; output goes to C stdio files.
#include "CMosaicShims.h"
#include "results.h"

#include <errno.h>

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <png.h>

#include "paeth.h"

static void mosaic_png_error_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    snprintf(result->message, MOSAIC_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

/// libpng's default writer says only "Write Error" when fwrite fails: this one keeps the
/// system's errno (ENOSPC: "No space left on device") for the message.
static void mosaic_png_write_fn(png_structp png, png_bytep data, size_t length) {
    FILE *file = (FILE *)png_get_io_ptr(png);
    if (fwrite(data, 1, length, file) != length) {
        mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
        result->system_errno = errno ? errno : EIO;
        png_error(png, "cannot write the file");
    }
}

static void mosaic_png_flush_fn(png_structp png) {
    FILE *file = (FILE *)png_get_io_ptr(png);
    if (fflush(file) != 0) {
        mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
        result->system_errno = errno ? errno : EIO;
        png_error(png, "cannot write the file");
    }
}

static void mosaic_png_warning_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
}

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

static void mosaic_png_read_fn(png_structp png, png_bytep out, size_t count) {
    mosaic_png_reader *reader = (mosaic_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) {
        reader->starved = 1;
        png_error(png, "the file ends early");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static void mosaic_png_fill_info(png_structp png, png_infop info, mosaic_image_info *out) {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    out->width = (int)width;
    out->height = (int)height;
    out->bit_depth = bit_depth;
    out->color_space = color_type;
    out->components = png_get_channels(png, info);
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    out->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    out->orientation = 1;
    png_textp texts = NULL;
    int text_count = 0;
    if (png_get_text(png, info, &texts, &text_count) > 0 && texts != NULL) {
        for (int i = 0; i < text_count; i++) {
            if (texts[i].key && texts[i].text && strcmp(texts[i].key, "Software") == 0) {
                snprintf(out->software, sizeof out->software, "%s", texts[i].text);
                break;
            }
        }
    }
#ifdef PNG_eXIf_SUPPORTED
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_size, &exif) != 0 && exif != NULL && exif_size > 0) {
        out->orientation = mosaic_exif_orientation(exif, exif_size);
    }
#endif
}

mosaic_result mosaic_png_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    mosaic_result result = mosaic_ok();
    memset(info, 0, sizeof *info);
    mosaic_png_reader reader = {data, size, 0, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    if (!png) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_infop png_info = png_create_info_struct(png);
    if (!png_info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, png_info ? &png_info : NULL, NULL);
        if (reader.starved && !is_whole_file) {
            result.status = MOSAIC_NEED_MORE_DATA;
        } else {
            result.status = MOSAIC_ERROR;
            if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        }
        return result;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, png_info);
    mosaic_png_fill_info(png, png_info, info);
    png_destroy_read_struct(&png, &png_info, NULL);
    return result;
}

uint8_t *mosaic_png_icc_profile(const uint8_t *data, size_t size, size_t *icc_size) {
    *icc_size = 0;
    mosaic_result result = mosaic_ok();
    mosaic_png_reader reader = {data, size, 0, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    if (!png) return NULL;
    png_infop png_info = png_create_info_struct(png);
    // volatile: read after a longjmp.
    uint8_t *volatile copy = NULL;
    if (!png_info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, png_info ? &png_info : NULL, NULL);
        free(copy);
        return NULL;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, png_info);
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(png, png_info, &name, &compression, &profile, &length) != 0) copy = mosaic_copy_bytes(profile, length, icc_size);
    png_destroy_read_struct(&png, &png_info, NULL);
    return copy;
}

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
static int mosaic_png_take_palette(png_structp png, png_infop info, mosaic_png_palette *palette) {
    if (png_get_color_type(png, info) != PNG_COLOR_TYPE_PALETTE) return 0;
    png_colorp colors = NULL;
    int entries = 0;
    png_get_PLTE(png, info, &colors, &entries);
    png_bytep trans = NULL;
    int trans_count = 0;
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_get_tRNS(png, info, &trans, &trans_count, NULL);
    memset(palette, 0, sizeof *palette);
    for (int i = 0; i < 256; i++) {
        if (i < entries && colors) {
            palette->rgba[i][0] = colors[i].red;
            palette->rgba[i][1] = colors[i].green;
            palette->rgba[i][2] = colors[i].blue;
        }
        palette->rgba[i][3] = (i < trans_count && trans) ? trans[i] : 255;
    }
    palette->entries = entries;
    palette->largest = -1;
    if (png_get_bit_depth(png, info) < 8) png_set_packing(png);
    return 1;
}

/// Expands a row of `width` indices at the start of `row` into RGBA in place (from the
/// end, so no index is overwritten before it is read), noting the largest index.
static void mosaic_png_expand_row(mosaic_png_palette *palette, uint8_t *row, int width) {
    for (int x = width - 1; x >= 0; x--) {
        uint8_t index = row[x];
        if (index > palette->largest) palette->largest = index;
        memcpy(row + 4 * (size_t)x, palette->rgba[index], 4);
    }
}

/// After every row was read: an index past the palette's end is damage.
static void mosaic_png_check_palette(const mosaic_png_palette *palette, mosaic_result *result) {
    if (palette->largest < palette->entries) return;
    char message[MOSAIC_MESSAGE_SIZE];
    snprintf(message, sizeof message, "palette index %d past the palette's %d entries", palette->largest, palette->entries);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    if (result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
    result->damage_count += 1;
}

/// The transforms to RGBA8 straight alpha, for the whole-image and the streaming reads.
static void mosaic_png_to_rgba8(png_structp png, png_infop info) {
    int bit_depth = png_get_bit_depth(png, info);
    int color_type = png_get_color_type(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
}

/// A failure after every row was read (a bad or missing IEND) becomes a warning: the
/// image itself is complete. The file is still truncated or corrupt, so it counts as
/// damage (strict mode refuses it).
static void mosaic_png_demote_to_warning(mosaic_result *result) {
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "after the image data: %s", result->message);
    if (result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "after the image data: %s", result->message);
    result->warning_count += 1;
    result->damage_count += 1;
    result->message[0] = 0;
    result->status = MOSAIC_OK;
}

mosaic_result mosaic_png_decode(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    mosaic_result result = mosaic_ok();
    mosaic_png_reader reader = {data, size, 0, 0};
    volatile int rows_done = 0;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    if (!png) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (rows_done) {
            mosaic_png_demote_to_warning(&result);
        } else {
            result.status = MOSAIC_ERROR;
            if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        }
        return result;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, info);
    png_uint_32 file_width = png_get_image_width(png, info), file_height = png_get_image_height(png, info);
    if ((int)file_width != width || (int)file_height != height || stride < (size_t)width * 4) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the image is %ux%u, not the %dx%d expected", file_width, file_height, width, height);
        png_destroy_read_struct(&png, &info, NULL);
        result.status = MOSAIC_ERROR;
        return result;
    }
    mosaic_png_palette palette;
    int indexed = mosaic_png_take_palette(png, info, &palette);
    if (!indexed) mosaic_png_to_rgba8(png, info);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * (indexed ? 1 : 4)) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "unexpected row size %zu for %d pixels", png_get_rowbytes(png, info), width);
        png_destroy_read_struct(&png, &info, NULL);
        result.status = MOSAIC_ERROR;
        return result;
    }
    for (int pass = 0; pass < passes; pass++) {
        for (int y = 0; y < height; y++) {
            png_read_row(png, out + (size_t)y * stride, NULL);
        }
    }
    rows_done = 1;
    if (indexed) {
        // After every pass: Adam7 fills the index rows pass by pass.
        for (int y = 0; y < height; y++) mosaic_png_expand_row(&palette, out + (size_t)y * stride, width);
        mosaic_png_check_palette(&palette, &result);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return result;
}

// MARK: Streaming reads

/// The image data of a non-interlaced 8-bit PNG without a palette or tRNS (the common
/// photo and screenshot PNG) read without libpng's row machinery: ISA-L's inflate (about
/// twice zlib's speed), each IDAT's CRC checked before its bytes are used, rows
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
    /// A third row, for two rows unfiltered at once (`mosaic_png_fast_two_rows`).
    uint8_t *spare;
    size_t row_bytes;
    int channels;
} mosaic_png_fast;

static uint32_t mosaic_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// Whether a file that libpng read to its first IDAT can be read by mosaic_png_fast: its
/// zlib header is one zlib reads without a dictionary.
static int mosaic_png_fast_eligible(png_structp png, png_infop info, const mosaic_png_reader *reader) {
    if (png_get_bit_depth(png, info) != 8 || png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) return 0;
    int type = png_get_color_type(png, info);
    if (type == PNG_COLOR_TYPE_PALETTE || png_get_valid(png, info, PNG_INFO_tRNS)) return 0;
    // libpng stops just after the first IDAT's length and type.
    size_t at = reader->offset;
    if (at < 8 || at + 2 > reader->size || memcmp(reader->data + at - 4, "IDAT", 4) != 0) return 0;
    if (mosaic_be32(reader->data + at - 8) < 2) return 0;
    uint8_t cmf = reader->data[at], flg = reader->data[at + 1];
    return (cmf & 0x0F) == 8 && (cmf >> 4) <= 7 && (flg & 0x20) == 0 && ((unsigned)cmf << 8 | flg) % 31 == 0;
}

static void mosaic_png_fast_free(mosaic_png_fast *fast) {
    if (!fast) return;
    free(fast->raw);
    free(fast->previous);
    free(fast->current);
    free(fast->spare);
    free(fast);
}

/// Hands the chunk at `next_chunk` to inflate if it is an IDAT whose CRC is right.
static int mosaic_png_fast_next_idat(mosaic_png_fast *fast) {
    size_t at = fast->next_chunk;
    if (at > fast->size || fast->size - at < 12) return 0;
    uint32_t length = mosaic_be32(fast->data + at);
    if (memcmp(fast->data + at + 4, "IDAT", 4) != 0 || length > 0x7FFFFFFFu || fast->size - at - 12 < length) return 0;
    uint32_t crc = crc32_gzip_refl(0, fast->data + at + 4, (uint64_t)length + 4);
    if (crc != mosaic_be32(fast->data + at + 8 + length)) return 0;
    fast->inflate.next_in = (uint8_t *)fast->data + at + 8;
    fast->inflate.avail_in = length;
    fast->next_chunk = at + 12 + length;
    return 1;
}

/// Starts at the first IDAT's data (where libpng's png_read_info stopped). NULL when out of
/// memory or the first chunk's CRC is wrong (then libpng reads the file).
static mosaic_png_fast *mosaic_png_fast_open(const mosaic_png_reader *reader, int width, int channels) {
    mosaic_png_fast *fast = calloc(1, sizeof *fast);
    if (!fast) return NULL;
    fast->data = reader->data;
    fast->size = reader->size;
    fast->channels = channels;
    fast->row_bytes = (size_t)width * (size_t)channels;
    // Room for many rows: what is left of a row when the buffer fills is moved to its
    // start, a copy that is rarer the larger the buffer.
    fast->raw_capacity = fast->row_bytes + 1 < 65536 ? 1048576 : 16 * (fast->row_bytes + 1);
    fast->raw = malloc(fast->raw_capacity);
    fast->previous = calloc(1, fast->row_bytes);
    fast->current = calloc(1, fast->row_bytes);
    fast->spare = calloc(1, fast->row_bytes);
    isal_inflate_init(&fast->inflate);
    fast->next_chunk = reader->offset - 8;
    if (!fast->raw || !fast->previous || !fast->current || !fast->spare || !mosaic_png_fast_next_idat(fast)) {
        mosaic_png_fast_free(fast);
        return NULL;
    }
    // Past the two-byte zlib header (checked by mosaic_png_fast_eligible); inflate checks
    // the Adler-32 that follows the deflate data. libpng lets zlib hold the stream to the
    // window the header gives; so does inflate (distance codes past 2^hist_bits are
    // invalid symbols: exactly the distances past the window).
    int window_bits = (fast->inflate.next_in[0] >> 4) + 8;
    fast->inflate.hist_bits = window_bits < 15 ? (uint32_t)window_bits : 0;
    fast->inflate.next_in += 2;
    fast->inflate.avail_in -= 2;
    fast->inflate.crc_flag = ISAL_ZLIB_NO_HDR_VER;
    return fast;
}

/// Inflates until at least `wanted` filtered bytes are buffered. 0 when the stream is
/// damaged or ends first.
static int mosaic_png_fast_fill(mosaic_png_fast *fast, size_t wanted) {
    while (fast->raw_end - fast->raw_start < wanted) {
        if (fast->raw_capacity - fast->raw_end < wanted) {
            memmove(fast->raw, fast->raw + fast->raw_start, fast->raw_end - fast->raw_start);
            fast->raw_end -= fast->raw_start;
            fast->raw_start = 0;
        }
        if (fast->inflate.block_state == ISAL_BLOCK_FINISH) return 0;
        if (fast->inflate.avail_in == 0 && !mosaic_png_fast_next_idat(fast)) return 0;
        fast->inflate.next_out = fast->raw + fast->raw_end;
        fast->inflate.avail_out = (uint32_t)(fast->raw_capacity - fast->raw_end);
        if (isal_inflate(&fast->inflate) != ISAL_DECOMP_OK) return 0;
        fast->raw_end = (size_t)(fast->inflate.next_out - fast->raw);
    }
    return 1;
}

#if defined(__SSE2__)
/// Paeth unfiltering a pixel at a time in SSE2 lanes (the left neighbour is the pixel just
/// made), from byte `bpp` on; returns where it stopped (the caller finishes the row). Four
/// bytes are loaded and stored a pixel: with `bpp` 3 the fourth is the next pixel's first
/// (stored again when that pixel is made), so it stops one pixel before the end. Inlined
/// with a constant `bpp`, so that every store is one 4-byte move.
static inline __attribute__((always_inline)) size_t mosaic_paeth_pixels(
    const uint8_t *raw, const uint8_t *above, uint8_t *out, size_t n, const int bpp) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i keep = bpp == 3 ? _mm_set_epi16(0, 0, 0, 0, 0, -1, -1, -1) : _mm_set1_epi16(-1);
    size_t i = (size_t)bpp;
    uint32_t aw = (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 | (bpp == 4 ? (uint32_t)out[3] << 24 : 0);
    __m128i a = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)aw), zero);
    for (; i + 4 <= n && (bpp == 4 || i + 4 < n); i += (size_t)bpp) {
        uint32_t bw, cw, rw;
        memcpy(&bw, above + i, 4);
        memcpy(&cw, above + i - bpp, 4);
        memcpy(&rw, raw + i, 4);
        __m128i b = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)bw), zero);
        __m128i c = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)cw), zero);
        __m128i predictor = mosaic_paeth_epi16(a, b, c);
        __m128i value = _mm_add_epi8(_mm_packus_epi16(predictor, zero), _mm_cvtsi32_si128((int)rw));
        uint32_t vw = (uint32_t)_mm_cvtsi128_si32(value);
        memcpy(out + i, &vw, 4);
        a = _mm_and_si128(_mm_unpacklo_epi8(value, zero), keep);
    }
    return i;
}
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// mosaic_paeth_epi16 with SSSE3's absolute value and SSE4.1's blend.
__attribute__((target("sse4.1"))) static inline __m128i mosaic_paeth_sse41(__m128i a, __m128i b, __m128i c) {
    __m128i x = _mm_sub_epi16(b, c), y = _mm_sub_epi16(a, c);
    __m128i pa = _mm_abs_epi16(x), pb = _mm_abs_epi16(y), pc = _mm_abs_epi16(_mm_add_epi16(x, y));
    __m128i notA = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i bc = _mm_blendv_epi8(b, c, _mm_cmpgt_epi16(pb, pc));
    return _mm_blendv_epi8(a, bc, notA);
}

/// Four bytes at `p` widened to 16-bit lanes.
__attribute__((target("sse4.1"))) static inline __m128i mosaic_load4_epi16(const uint8_t *p) {
    uint32_t w;
    memcpy(&w, p, 4);
    return _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)w));
}

/// The predictor plus the filtered bytes at `raw`, stored at `out` (four bytes).
__attribute__((target("sse4.1"))) static inline __m128i mosaic_paeth_store(__m128i predictor, const uint8_t *raw, uint8_t *out) {
    uint32_t rw;
    memcpy(&rw, raw, 4);
    __m128i value = _mm_add_epi8(_mm_packus_epi16(predictor, predictor), _mm_cvtsi32_si128((int)rw));
    uint32_t vw = (uint32_t)_mm_cvtsi128_si32(value);
    memcpy(out, &vw, 4);
    return _mm_cvtepu8_epi16(value);
}

/// mosaic_paeth_pixels with SSSE3's absolute value and SSE4.1's blend (chosen at run
/// time): a shorter chain from one pixel to the next.
__attribute__((target("sse4.1"))) static size_t mosaic_paeth_pixels_sse41(
    const uint8_t *raw, const uint8_t *above, uint8_t *out, size_t n, const int bpp) {
    const __m128i keep = bpp == 3 ? _mm_set_epi16(0, 0, 0, 0, 0, -1, -1, -1) : _mm_set1_epi16(-1);
    size_t i = (size_t)bpp;
    uint32_t aw = (uint32_t)out[0] | (uint32_t)out[1] << 8 | (uint32_t)out[2] << 16 | (bpp == 4 ? (uint32_t)out[3] << 24 : 0);
    __m128i a = _mm_cvtepu8_epi16(_mm_cvtsi32_si128((int)aw));
    for (; i + 4 <= n && (bpp == 4 || i + 4 < n); i += (size_t)bpp) {
        __m128i predictor = mosaic_paeth_sse41(a, mosaic_load4_epi16(above + i), mosaic_load4_epi16(above + i - bpp));
        a = _mm_and_si128(mosaic_paeth_store(predictor, raw + i, out + i), keep);
    }
    return i;
}

/// Two Paeth rows at once, the second a pixel behind the first: each pixel waits for the
/// one on its left, so one row is a chain; two rows are two chains the processor runs
/// side by side. `above` is the row before the first (`n` >= 4 `bpp` bytes, `bpp` 3 or
/// 4). Every byte of both rows is made.
__attribute__((target("sse4.1"))) static void mosaic_paeth_two_rows_sse41(
    const uint8_t *raw0, const uint8_t *raw1, const uint8_t *above, uint8_t *out0, uint8_t *out1, size_t n, const int bpp) {
    const __m128i keep = bpp == 3 ? _mm_set_epi16(0, 0, 0, 0, 0, -1, -1, -1) : _mm_set1_epi16(-1);
    // The first pixel of a row has only the one above (a = c = 0: the predictor is b).
    for (int k = 0; k < bpp; k++) out0[k] = (uint8_t)(raw0[k] + above[k]);
    for (int k = 0; k < bpp; k++) out1[k] = (uint8_t)(raw1[k] + out0[k]);
    __m128i a0 = _mm_and_si128(mosaic_load4_epi16(out0), keep), a1 = _mm_and_si128(mosaic_load4_epi16(out1), keep);
    __m128i c0 = mosaic_load4_epi16(above);
    size_t i = (size_t)bpp;
    for (; i + 4 <= n && (bpp == 4 || i + 4 < n); i += (size_t)bpp) {
        __m128i b0 = mosaic_load4_epi16(above + i);
        __m128i v0 = _mm_and_si128(mosaic_paeth_store(mosaic_paeth_sse41(a0, b0, c0), raw0 + i, out0 + i), keep);
        // The second row's pixel: above it the pixel just made, above-left the one before.
        __m128i v1 = mosaic_paeth_store(mosaic_paeth_sse41(a1, v0, a0), raw1 + i, out1 + i);
        c0 = b0;
        a0 = v0;
        a1 = _mm_and_si128(v1, keep);
    }
    for (size_t j = i; j < n; j++) out0[j] = (uint8_t)(raw0[j] + mosaic_paeth(out0[j - bpp], above[j], above[j - bpp]));
    for (size_t j = i; j < n; j++) out1[j] = (uint8_t)(raw1[j] + mosaic_paeth(out1[j - bpp], out0[j], out0[j - bpp]));
}
#define MOSAIC_HAVE_SSE41_PAETH 1
#endif

/// Undoes the row's filter: `raw` (after its filter byte) into `out`, `above` the row
/// before (zeros for the first). 0 for a filter type past 4.
static int mosaic_png_unfilter(int filter, const uint8_t *raw, const uint8_t *above, uint8_t *out, size_t n, int bpp) {
    size_t i = 0;
    switch (filter) {
    case 0:
        memcpy(out, raw, n);
        return 1;
    case 1:
        for (; i < (size_t)bpp && i < n; i++) out[i] = raw[i];
        for (; i < n; i++) out[i] = (uint8_t)(raw[i] + out[i - bpp]);
        return 1;
    case 2:
        for (; i < n; i++) out[i] = (uint8_t)(raw[i] + above[i]);
        return 1;
    case 3:
        for (; i < (size_t)bpp && i < n; i++) out[i] = (uint8_t)(raw[i] + (above[i] >> 1));
        for (; i < n; i++) out[i] = (uint8_t)(raw[i] + ((out[i - bpp] + above[i]) >> 1));
        return 1;
    case 4:
        for (; i < (size_t)bpp && i < n; i++) out[i] = (uint8_t)(raw[i] + above[i]);
#if defined(MOSAIC_HAVE_SSE41_PAETH)
        if (bpp >= 3 && __builtin_cpu_supports("sse4.1")) {
            i = mosaic_paeth_pixels_sse41(raw, above, out, n, bpp);
        } else
#endif
        {
#if defined(__SSE2__)
            if (bpp == 4) i = mosaic_paeth_pixels(raw, above, out, n, 4);
            else if (bpp == 3) i = mosaic_paeth_pixels(raw, above, out, n, 3);
#endif
        }
        for (; i < n; i++) out[i] = (uint8_t)(raw[i] + mosaic_paeth(out[i - bpp], above[i], above[i - bpp]));
        return 1;
    default:
        return 0;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/// RGB to RGBA (opaque), four pixels a step with SSSE3's byte shuffle (chosen at run
/// time); returns the pixels done (the rest are the caller's: the last 16-byte load must
/// stay inside the row).
__attribute__((target("ssse3"))) static size_t mosaic_rgb_to_rgba_ssse3(const uint8_t *row, uint8_t *rgba, size_t width) {
    const __m128i shuffle = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32((int)0xFF000000u);
    size_t x = 0;
    for (; x + 6 <= width; x += 4) {
        __m128i in = _mm_loadu_si128((const __m128i *)(row + 3 * x));
        _mm_storeu_si128((__m128i *)(rgba + 4 * x), _mm_or_si128(_mm_shuffle_epi8(in, shuffle), opaque));
    }
    return x;
}
#endif

/// An unfiltered row of `channels` samples a pixel as RGBA8 (libpng's transforms: grey
/// copied to red, green and blue, an opaque alpha added).
static void mosaic_png_widen(const uint8_t *row, uint8_t *rgba, size_t width, int channels) {
    switch (channels) {
    case 3: {
        size_t x = 0;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
        if (__builtin_cpu_supports("ssse3")) x = mosaic_rgb_to_rgba_ssse3(row, rgba, width);
#endif
        for (; x < width; x++) {
            rgba[4 * x] = row[3 * x];
            rgba[4 * x + 1] = row[3 * x + 1];
            rgba[4 * x + 2] = row[3 * x + 2];
            rgba[4 * x + 3] = 0xFF;
        }
        break;
    }
    case 2:
        for (size_t x = 0; x < width; x++) {
            rgba[4 * x] = rgba[4 * x + 1] = rgba[4 * x + 2] = row[2 * x];
            rgba[4 * x + 3] = row[2 * x + 1];
        }
        break;
    default:
        for (size_t x = 0; x < width; x++) {
            rgba[4 * x] = rgba[4 * x + 1] = rgba[4 * x + 2] = row[x];
            rgba[4 * x + 3] = 0xFF;
        }
    }
}

/// The next row as RGBA8 (libpng's transforms: grey copied to red, green and blue, an
/// opaque alpha added). `above` is the row before as RGBA8 when the caller still holds
/// it (a four-channel row is then unfiltered straight into `rgba`, with no copy), else
/// NULL. 0 when the stream is damaged or ends first.
static int mosaic_png_fast_row(mosaic_png_fast *fast, uint8_t *rgba, const uint8_t *above, size_t width) {
    size_t n = fast->row_bytes;
    if (!mosaic_png_fast_fill(fast, n + 1)) return 0;
    const uint8_t *raw = fast->raw + fast->raw_start;
    if (fast->channels == 4) {
        if (!mosaic_png_unfilter(raw[0], raw + 1, above ? above : fast->previous, rgba, n, 4)) return 0;
        fast->raw_start += n + 1;
        return 1;
    }
    if (!mosaic_png_unfilter(raw[0], raw + 1, fast->previous, fast->current, n, fast->channels)) return 0;
    fast->raw_start += n + 1;
    mosaic_png_widen(fast->current, rgba, width, fast->channels);
    uint8_t *swap = fast->previous;
    fast->previous = fast->current;
    fast->current = swap;
    return 1;
}

/// Two Paeth rows unfiltered at once (mosaic_paeth_two_rows_sse41), when the next two
/// rows are both Paeth and the processor has SSE4.1; `above` as for mosaic_png_fast_row.
/// 0 when not (nothing is taken: the caller reads a row at a time).
static int mosaic_png_fast_two_rows(mosaic_png_fast *fast, uint8_t *rgba0, uint8_t *rgba1, const uint8_t *above, size_t width) {
#if defined(MOSAIC_HAVE_SSE41_PAETH)
    size_t n = fast->row_bytes;
    int bpp = fast->channels;
    if (bpp < 3 || n < 4 * (size_t)bpp || !__builtin_cpu_supports("sse4.1")) return 0;
    if (!mosaic_png_fast_fill(fast, 2 * (n + 1))) return 0;
    const uint8_t *raw = fast->raw + fast->raw_start;
    if (raw[0] != 4 || raw[n + 1] != 4) return 0;
    if (bpp == 4) {
        mosaic_paeth_two_rows_sse41(raw + 1, raw + n + 2, above ? above : fast->previous, rgba0, rgba1, n, 4);
    } else {
        mosaic_paeth_two_rows_sse41(raw + 1, raw + n + 2, fast->previous, fast->current, fast->spare, n, 3);
        mosaic_png_widen(fast->current, rgba0, width, 3);
        mosaic_png_widen(fast->spare, rgba1, width, 3);
        uint8_t *free_row = fast->previous;
        fast->previous = fast->spare;
        fast->spare = free_row;
    }
    fast->raw_start += 2 * (n + 1);
    return 1;
#else
    (void)fast; (void)rgba0; (void)rgba1; (void)above; (void)width;
    return 0;
#endif
}


/// After the last row: the stream ends there (its Adler-32 right), in the last IDAT, with
/// no bytes to spare. Returns the offset of the chunk after the image data, or 0.
static size_t mosaic_png_fast_finish(mosaic_png_fast *fast) {
    if (fast->raw_end != fast->raw_start) return 0;
    uint8_t spare[64];
    while (fast->inflate.block_state != ISAL_BLOCK_FINISH) {
        if (fast->inflate.avail_in == 0 && !mosaic_png_fast_next_idat(fast)) return 0;
        fast->inflate.next_out = spare;
        fast->inflate.avail_out = sizeof spare;
        if (isal_inflate(&fast->inflate) != ISAL_DECOMP_OK || fast->inflate.next_out != spare) return 0;
    }
    if (fast->inflate.avail_in != 0) return 0;
    size_t at = fast->next_chunk;
    if (at + 8 <= fast->size && memcmp(fast->data + at + 4, "IDAT", 4) == 0) return 0;
    return at;
}

/// libpng's reader over two pieces: a stand-in PNG's start, then the file's tail.
typedef struct {
    mosaic_png_reader head;
    mosaic_png_reader tail;
} mosaic_png_spliced_reader;

static void mosaic_png_spliced_read_fn(png_structp png, png_bytep out, size_t count) {
    mosaic_png_spliced_reader *reader = (mosaic_png_spliced_reader *)png_get_io_ptr(png);
    size_t from_head = reader->head.size - reader->head.offset;
    if (from_head > count) from_head = count;
    memcpy(out, reader->head.data + reader->head.offset, from_head);
    reader->head.offset += from_head;
    if (count - from_head > reader->tail.size - reader->tail.offset) png_error(png, "the file ends early");
    memcpy(out + from_head, reader->tail.data + reader->tail.offset, count - from_head);
    reader->tail.offset += count - from_head;
}

static void mosaic_store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/// What libpng's png_read_end makes of the chunks from `tail` on (after the image data):
/// it reads a stand-in PNG (a 1x1 grey image) whose own image data is followed by them.
static void mosaic_png_read_tail(const uint8_t *data, size_t size, size_t tail, mosaic_result *result) {
    // Signature, IHDR (13 bytes), IDAT: a zlib stream of one stored block holding the
    // filter byte and the pixel (two zeros), then their Adler-32 (0x00020001).
    static const uint8_t stream[13] = {0x78, 0x01, 0x01, 0x02, 0x00, 0xFD, 0xFF, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01};
    uint8_t head[8 + 25 + 25] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    uint8_t *ihdr = head + 8;
    mosaic_store_be32(ihdr, 13);
    memcpy(ihdr + 4, "IHDR", 4);
    mosaic_store_be32(ihdr + 8, 1);
    mosaic_store_be32(ihdr + 12, 1);
    ihdr[16] = 8;
    mosaic_store_be32(ihdr + 21, crc32_gzip_refl(0, ihdr + 4, 17));
    uint8_t *idat = ihdr + 25;
    mosaic_store_be32(idat, sizeof stream);
    memcpy(idat + 4, "IDAT", 4);
    memcpy(idat + 8, stream, sizeof stream);
    mosaic_store_be32(idat + 8 + sizeof stream, crc32_gzip_refl(0, idat + 4, 4 + sizeof stream));
    mosaic_png_spliced_reader reader = {{head, sizeof head, 0, 0}, {data + tail, size - tail, 0, 0}};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, result, mosaic_png_error_fn, mosaic_png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        if (png) png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (result->message[0] != 0) mosaic_png_demote_to_warning(result);
        return;
    }
    png_set_read_fn(png, &reader, mosaic_png_spliced_read_fn);
    png_read_info(png, info);
    uint8_t pixel[1];
    png_read_row(png, pixel, NULL);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
}

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

/// Opens libpng on the stream's file and reads up to the image data. MOSAIC_OK, or the
/// error (libpng's message) with `png` freed.
static mosaic_result mosaic_png_stream_start(mosaic_png_stream *stream) {
    stream->reader.offset = 0;
    stream->reader.starved = 0;
    stream->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &stream->result, mosaic_png_error_fn, mosaic_png_warning_fn);
    stream->info = stream->png ? png_create_info_struct(stream->png) : NULL;
    if (!stream->png || !stream->info || setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        result.status = MOSAIC_ERROR;
        if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        if (stream->png) png_destroy_read_struct(&stream->png, stream->info ? &stream->info : NULL, NULL);
        stream->png = NULL;
        stream->info = NULL;
        return result;
    }
    png_set_read_fn(stream->png, &stream->reader, mosaic_png_read_fn);
    png_read_info(stream->png, stream->info);
    return mosaic_ok();
}

/// Sets libpng's transforms to RGBA8 rows (or palette indices) and checks the row size.
static mosaic_result mosaic_png_stream_transforms(mosaic_png_stream *stream) {
    if (setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        result.status = MOSAIC_ERROR;
        return result;
    }
    stream->indexed = mosaic_png_take_palette(stream->png, stream->info, &stream->palette);
    if (!stream->indexed) mosaic_png_to_rgba8(stream->png, stream->info);
    png_read_update_info(stream->png, stream->info);
    if (png_get_rowbytes(stream->png, stream->info) != (size_t)stream->width * (stream->indexed ? 1 : 4)) {
        return mosaic_error("unexpected row size");
    }
    return mosaic_ok();
}

static void mosaic_png_stream_free(mosaic_png_stream *stream) {
    if (stream->png) png_destroy_read_struct(&stream->png, &stream->info, NULL);
    mosaic_png_fast_free(stream->fast);
    free(stream);
}

mosaic_png_stream *mosaic_png_stream_open(const uint8_t *data, size_t size, int width, int height, mosaic_result *result) {
    *result = mosaic_ok();
    mosaic_png_stream *stream = calloc(1, sizeof *stream);
    if (!stream) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    stream->result = mosaic_ok();
    stream->reader.data = data;
    stream->reader.size = size;
    stream->width = width;
    stream->height = height;
    stream->rows_left = height;
    *result = mosaic_png_stream_start(stream);
    if (result->status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return NULL;
    }
    png_uint_32 file_width = png_get_image_width(stream->png, stream->info);
    png_uint_32 file_height = png_get_image_height(stream->png, stream->info);
    int interlaced = png_get_interlace_type(stream->png, stream->info) != PNG_INTERLACE_NONE;
    if ((int)file_width != width || (int)file_height != height || interlaced) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, interlaced ? "interlaced: decode it whole" : "the image is %ux%u, not the %dx%d expected",
                 file_width, file_height, width, height);
        mosaic_png_stream_free(stream);
        return NULL;
    }
    if (mosaic_png_fast_eligible(stream->png, stream->info, &stream->reader)) {
        stream->fast = mosaic_png_fast_open(&stream->reader, width, png_get_channels(stream->png, stream->info));
        if (stream->fast) {
            png_destroy_read_struct(&stream->png, &stream->info, NULL);
            stream->png = NULL;
            return stream;
        }
    }
    *result = mosaic_png_stream_transforms(stream);
    if (result->status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return NULL;
    }
    return stream;
}

int mosaic_png_stream_reads_itself(const mosaic_png_stream *stream) { return stream->fast != NULL; }

/// Hands a stream read by mosaic_png_fast back to libpng: opened again from the start,
/// the rows already given read and dropped (its warnings from before the image data are
/// made again, so the ones kept are forgotten).
static mosaic_result mosaic_png_stream_fall_back(mosaic_png_stream *stream) {
    mosaic_png_fast_free(stream->fast);
    stream->fast = NULL;
    stream->result = mosaic_ok();
    mosaic_result result = mosaic_png_stream_start(stream);
    if (result.status != MOSAIC_OK) return result;
    result = mosaic_png_stream_transforms(stream);
    if (result.status != MOSAIC_OK) return result;
    int done = stream->height - stream->rows_left;
    if (done == 0) return mosaic_ok();
    uint8_t *scratch = malloc((size_t)stream->width * 4);
    if (!scratch) return mosaic_error("out of memory");
    if (setjmp(png_jmpbuf(stream->png))) {
        free(scratch);
        result = stream->result;
        result.status = MOSAIC_ERROR;
        return result;
    }
    for (int y = 0; y < done; y++) png_read_row(stream->png, scratch, NULL);
    free(scratch);
    return mosaic_ok();
}

mosaic_result mosaic_png_stream_read(mosaic_png_stream *stream, uint8_t *rows, size_t stride, int count) {
    if (count > stream->rows_left) {
        mosaic_result result = mosaic_ok();
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%d rows asked, %d left", count, stream->rows_left);
        return result;
    }
    int y = 0;
    if (stream->fast) {
        mosaic_png_fast *fast = stream->fast;
        while (y < count) {
            const uint8_t *above = y > 0 ? rows + (size_t)(y - 1) * stride : NULL;
            uint8_t *row = rows + (size_t)y * stride;
            if (y + 1 < count && mosaic_png_fast_two_rows(fast, row, row + stride, above, (size_t)stream->width)) {
                y += 2;
                stream->rows_left -= 2;
                continue;
            }
            if (!mosaic_png_fast_row(fast, row, above, (size_t)stream->width)) break;
            y += 1;
            stream->rows_left -= 1;
        }
        // A four-channel row was unfiltered in place: the next read's first row needs it.
        if (y > 0 && fast->channels == 4) {
            memcpy(fast->previous, rows + (size_t)(y - 1) * stride, fast->row_bytes);
        }
        if (y == count) return stream->result;
        mosaic_result result = mosaic_png_stream_fall_back(stream);
        if (result.status != MOSAIC_OK) return result;
    }
    if (setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        result.status = MOSAIC_ERROR;
        return result;
    }
    for (; y < count; y++) {
        png_read_row(stream->png, rows + (size_t)y * stride, NULL);
        if (stream->indexed) mosaic_png_expand_row(&stream->palette, rows + (size_t)y * stride, stream->width);
        stream->rows_left -= 1;
    }
    return stream->result;
}

mosaic_result mosaic_png_stream_close(mosaic_png_stream *stream) {
    if (stream->fast && stream->rows_left == 0) {
        size_t tail = mosaic_png_fast_finish(stream->fast);
        if (tail != 0) {
            mosaic_result result = stream->result;
            mosaic_png_read_tail(stream->reader.data, stream->reader.size, tail, &result);
            mosaic_png_stream_free(stream);
            return result;
        }
        // libpng failing on rows this reader gave (it reads damaged streams further than
        // zlib does) fails the image, as it would have had libpng read them.
        mosaic_result fallen = mosaic_png_stream_fall_back(stream);
        if (fallen.status != MOSAIC_OK) {
            mosaic_png_stream_free(stream);
            return fallen;
        }
    }
    mosaic_result result = stream->result;
    if (stream->png && stream->rows_left == 0) {
        if (stream->indexed) mosaic_png_check_palette(&stream->palette, &stream->result);
        if (setjmp(png_jmpbuf(stream->png))) {
            result = stream->result;
            mosaic_png_demote_to_warning(&result);
            mosaic_png_stream_free(stream);
            return result;
        }
        png_read_end(stream->png, NULL);
        result = stream->result;
    }
    mosaic_png_stream_free(stream);
    return result;
}

mosaic_result mosaic_png_decode_streamed(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    mosaic_result result;
    mosaic_png_stream *stream = mosaic_png_stream_open(data, size, width, height, &result);
    if (!stream) return result;
    result = mosaic_png_stream_read(stream, out, stride, height);
    if (result.status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return result;
    }
    return mosaic_png_stream_close(stream);
}

// MARK: Writing

struct mosaic_png_writer {
    png_structp png;
    png_infop info;
    FILE *file;
    mosaic_result result;
    /// Segments (png_deflate.c): whether one was written, the last one was, and the
    /// Adler-32 of the filtered bytes so far.
    int segments;
    int ended;
    uint32_t adler;
};

static void mosaic_png_apply_params(png_structp png, png_infop info, const mosaic_png_params *params) {
    png_set_IHDR(png, info, (png_uint_32)params->width, (png_uint_32)params->height, params->bit_depth,
                 params->color_type, params->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, params->compression_level);
    if (params->filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, params->filters);
    if (params->palette && params->palette_count > 0) {
        png_color colors[256];
        int count = params->palette_count > 256 ? 256 : params->palette_count;
        for (int i = 0; i < count; i++) {
            colors[i].red = params->palette[3 * i];
            colors[i].green = params->palette[3 * i + 1];
            colors[i].blue = params->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, count);
    }
    if (params->trns && params->trns_count > 0) {
        png_set_tRNS(png, info, params->trns, params->trns_count, NULL);
    } else if (params->has_trns_color) {
        png_color_16 color;
        memset(&color, 0, sizeof color);
        color.gray = params->trns_gray;
        color.red = params->trns_red;
        color.green = params->trns_green;
        color.blue = params->trns_blue;
        png_set_tRNS(png, info, NULL, 0, &color);
    }
#ifdef PNG_eXIf_SUPPORTED
    if (params->exif && params->exif_size > 0) {
        png_set_eXIf_1(png, info, (png_uint_32)params->exif_size, (png_bytep)params->exif);
    }
#endif
    // The sheet's pixels are sRGB: say so, so that viewers do not reinterpret them.
    if (params->srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (params->icc && params->icc_size > 0) {
        png_set_iCCP(png, info, "embedded", PNG_COMPRESSION_TYPE_BASE, params->icc, (png_uint_32)params->icc_size);
    }
    if (params->software) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_TEXT_COMPRESSION_NONE;
        text.key = (png_charp) "Software";
        text.text = (png_charp)params->software;
        png_set_text(png, info, &text, 1);
    }
}

mosaic_png_writer *mosaic_png_writer_open(const char *path, const mosaic_png_params *params, mosaic_result *result) {
    *result = mosaic_ok();
    if (params->interlaced) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "a streaming writer cannot interlace");
        return NULL;
    }
    mosaic_png_writer *writer = calloc(1, sizeof *writer);
    if (!writer) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    writer->result = mosaic_ok();
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        result->status = MOSAIC_SYSTEM_ERROR;
        result->system_errno = errno;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "cannot create the file");
        free(writer);
        return NULL;
    }
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->result, mosaic_png_error_fn, mosaic_png_warning_fn);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (!writer->png || !writer->info) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        *result = writer->result;
        result->status = MOSAIC_ERROR;
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    png_set_write_fn(writer->png, writer->file, mosaic_png_write_fn, mosaic_png_flush_fn);
    mosaic_png_apply_params(writer->png, writer->info, params);
    png_write_info(writer->png, writer->info);
    return writer;
}

/// Frees libpng's state, closes the file (checking that everything reached it) and frees
/// the writer: the end of a finished PNG.
static mosaic_result mosaic_png_writer_close(mosaic_png_writer *writer) {
    mosaic_result result = writer->result;
    png_destroy_write_struct(&writer->png, &writer->info);
    int flushed = fflush(writer->file) == 0;
    int error = flushed ? 0 : errno;
    int closed = fclose(writer->file) == 0;
    if (!closed && error == 0) error = errno;
    writer->file = NULL;
    free(writer);
    if (!flushed || !closed) {
        result.status = MOSAIC_ERROR;
        result.system_errno = error ? error : EIO;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end");
    }
    return result;
}

mosaic_result mosaic_png_writer_write_segment(mosaic_png_writer *writer, const mosaic_png_segment *segment, int last) {
    if (writer->ended) {
        mosaic_result result = mosaic_ok();
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "a segment after the last one");
        return result;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        writer->result.status = MOSAIC_ERROR;
        return writer->result;
    }
    // zlib header: deflate with a 32 KiB window, no dictionary, (0x78 << 8 | 0x01) % 31 == 0.
    static const png_byte header[2] = {0x78, 0x01};
    int first = writer->segments == 0;
    writer->adler = first ? segment->adler : mosaic_adler32_combine(writer->adler, segment->adler, segment->raw_size);
    png_byte trailer[4] = {(png_byte)(writer->adler >> 24), (png_byte)(writer->adler >> 16), (png_byte)(writer->adler >> 8),
                           (png_byte)writer->adler};
    size_t length = segment->size + (first ? 2 : 0) + (last ? 4 : 0);
    png_write_chunk_start(writer->png, (png_const_bytep) "IDAT", (png_uint_32)length);
    if (first) png_write_chunk_data(writer->png, header, 2);
    png_write_chunk_data(writer->png, segment->data, segment->size);
    if (last) png_write_chunk_data(writer->png, trailer, 4);
    png_write_chunk_end(writer->png);
    writer->segments += 1;
    writer->ended = last;
    return writer->result;
}

mosaic_result mosaic_png_writer_finish(mosaic_png_writer *writer) {
    mosaic_result result = writer->result;
    // The stream is whole once the last segment is in.
    if (!writer->ended) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the image data was never ended");
        mosaic_png_writer_abort(writer);
        return result;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        result = writer->result;
        result.status = MOSAIC_ERROR;
        mosaic_png_writer_abort(writer);
        return result;
    }
    png_write_chunk(writer->png, (png_const_bytep) "IEND", NULL, 0);
    return mosaic_png_writer_close(writer);
}

void mosaic_png_writer_abort(mosaic_png_writer *writer) {
    if (!writer) return;
    if (writer->png) png_destroy_write_struct(&writer->png, writer->info ? &writer->info : NULL);
    if (writer->file) fclose(writer->file);
    free(writer);
}

mosaic_result mosaic_png_write_image(
    const char *path, const mosaic_png_params *params, const uint8_t *rows, size_t stride) {
    mosaic_result result = mosaic_ok();
    FILE *file = fopen(path, "wb");
    if (!file) {
        result.status = MOSAIC_SYSTEM_ERROR;
        result.system_errno = errno;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "cannot create the file");
        return result;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        fclose(file);
        result.status = MOSAIC_ERROR;
        if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_set_write_fn(png, file, mosaic_png_write_fn, mosaic_png_flush_fn);
    mosaic_png_apply_params(png, info, params);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (int y = 0; y < params->height; y++) png_write_row(png, rows + (size_t)y * stride);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (fclose(file) != 0) {
        result.status = MOSAIC_ERROR;
        result.system_errno = errno ? errno : EIO;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end");
    }
    return result;
}
