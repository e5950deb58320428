// The PNG reader's own image-data path (see mosaic_png_fast in png_internal.h): ISA-L's
// inflate, each IDAT's CRC checked, rows unfiltered here (Paeth in SSE2 lanes) and widened
// to RGBA; and the stand-in PNG through which libpng still reads the file's tail.
#include "CMosaicShims.h"
#include "fence.h"
#include "png_internal.h"
#include "results.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <png.h>

#include "paeth.h"

static uint32_t mosaic_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/// Whether a file that libpng read to its first IDAT can be read by mosaic_png_fast: its
/// zlib header is one zlib reads without a dictionary.
int mosaic_png_fast_eligible(png_structp png, png_infop info, const mosaic_png_reader *reader) {
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

void mosaic_png_fast_free(mosaic_png_fast *fast) {
    if (!fast) return;
    free(fast->raw);
    free(fast->previous);
    free(fast->current);
    free(fast->spare);
    free(fast->extra[0]);
    free(fast->extra[1]);
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
mosaic_png_fast *mosaic_png_fast_open(const mosaic_png_reader *reader, int width, int channels) {
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
    fast->extra[0] = calloc(1, fast->row_bytes);
    fast->extra[1] = calloc(1, fast->row_bytes);
    isal_inflate_init(&fast->inflate);
    fast->next_chunk = reader->offset - 8;
    if (!fast->raw || !fast->previous || !fast->current || !fast->spare || !fast->extra[0] || !fast->extra[1] ||
        !mosaic_png_fast_next_idat(fast)) {
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
int mosaic_png_fast_fill(mosaic_png_fast *fast, size_t wanted) {
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
/// Four Paeth rows at once, in two registers: [row 0's pixel p | row 1's p - 1] and
/// [row 2's p - 2 | row 3's p - 3], the predictor and sum in 16-bit lanes (no round trip
/// through bytes on the chain). A register's pixels need only the step before's (the row
/// above's pixels a step behind), so each step is two independent chains of two rows:
/// about twice mosaic_paeth_two_rows_sse41's speed, which is one chain a row. `above` is
/// the row before the first; `n` >= 8 `bpp` bytes, `bpp` 3 or 4.
__attribute__((target("sse4.1"))) static void mosaic_paeth_four_rows_sse41(
    const uint8_t *raw[4], const uint8_t *above, uint8_t *out[4], size_t n, const int bpp) {
    const __m128i mask = bpp == 3 ? _mm_set_epi16(0, 0xFF, 0xFF, 0xFF, 0, 0xFF, 0xFF, 0xFF) : _mm_set1_epi16(0xFF);
    const size_t s = (size_t)bpp;
    // Row r's first 5 - r pixels bytewise (row 0 pixels 0-4, ..., row 3 pixels 0-1).
    for (int r = 0; r < 4; r++) {
        const uint8_t *up = r == 0 ? above : out[r - 1];
        size_t end = (size_t)(5 - r) * s;
        for (size_t j = 0; j < end; j++) {
            out[r][j] = (uint8_t)(raw[r][j] + (j < s ? up[j] : mosaic_paeth(out[r][j - s], up[j], up[j - s])));
        }
    }
    size_t p = 5;  // row 0's next pixel
    // The registers as of the step before (p - 1) and the one before that (p - 2).
    __m128i v01 = _mm_unpacklo_epi64(mosaic_load4_epi16(out[0] + (p - 1) * s), mosaic_load4_epi16(out[1] + (p - 2) * s));
    __m128i v01b = _mm_unpacklo_epi64(mosaic_load4_epi16(out[0] + (p - 2) * s), mosaic_load4_epi16(out[1] + (p - 3) * s));
    __m128i v23 = _mm_unpacklo_epi64(mosaic_load4_epi16(out[2] + (p - 3) * s), mosaic_load4_epi16(out[3] + (p - 4) * s));
    __m128i v23b = _mm_unpacklo_epi64(mosaic_load4_epi16(out[2] + (p - 4) * s), mosaic_load4_epi16(out[3] + (p - 5) * s));
    for (; p * s + 4 <= n && (bpp == 4 || p * s + 4 < n); p++) {
        size_t i = p * s;
        __m128i b01 = _mm_unpacklo_epi64(mosaic_load4_epi16(above + i), v01);
        __m128i c01 = _mm_unpacklo_epi64(mosaic_load4_epi16(above + i - s), v01b);
        __m128i r01 = _mm_unpacklo_epi64(mosaic_load4_epi16(raw[0] + i), mosaic_load4_epi16(raw[1] + i - s));
        __m128i b23 = _mm_alignr_epi8(v23, v01, 8);
        __m128i c23 = _mm_alignr_epi8(v23b, v01b, 8);
        __m128i r23 = _mm_unpacklo_epi64(mosaic_load4_epi16(raw[2] + i - 2 * s), mosaic_load4_epi16(raw[3] + i - 3 * s));
        __m128i n01 = _mm_and_si128(_mm_add_epi16(mosaic_paeth_sse41(v01, b01, c01), r01), mask);
        __m128i n23 = _mm_and_si128(_mm_add_epi16(mosaic_paeth_sse41(v23, b23, c23), r23), mask);
        v01b = v01; v01 = n01;
        v23b = v23; v23 = n23;
        __m128i packed = _mm_packus_epi16(n01, n23);
        uint32_t w0 = (uint32_t)_mm_cvtsi128_si32(packed), w1 = (uint32_t)_mm_extract_epi32(packed, 1);
        uint32_t w2 = (uint32_t)_mm_extract_epi32(packed, 2), w3 = (uint32_t)_mm_extract_epi32(packed, 3);
        memcpy(out[0] + i, &w0, 4);
        memcpy(out[1] + i - s, &w1, 4);
        memcpy(out[2] + i - 2 * s, &w2, 4);
        memcpy(out[3] + i - 3 * s, &w3, 4);
    }
    // Each row's rest bytewise, in order (a row needs the one above it whole).
    for (int r = 0; r < 4; r++) {
        const uint8_t *up = r == 0 ? above : out[r - 1];
        for (size_t j = (p - (size_t)r) * s; j < n; j++) out[r][j] = (uint8_t)(raw[r][j] + mosaic_paeth(out[r][j - s], up[j], up[j - s]));
    }
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

void mosaic_png_fast_set_previous(mosaic_png_fast *fast, const uint8_t *rgba, size_t width) {
    uint8_t *row = fast->previous;
    switch (fast->channels) {
    case 4:
        memcpy(row, rgba, 4 * width);
        break;
    case 3:
        for (size_t x = 0; x < width; x++) memcpy(row + 3 * x, rgba + 4 * x, 3);
        break;
    case 2:
        for (size_t x = 0; x < width; x++) {
            row[2 * x] = rgba[4 * x];
            row[2 * x + 1] = rgba[4 * x + 3];
        }
        break;
    default:
        for (size_t x = 0; x < width; x++) row[x] = rgba[4 * x];
    }
}

/// The next row as RGBA8 (libpng's transforms: grey copied to red, green and blue, an
/// opaque alpha added). `above` is the row before as RGBA8 when the caller still holds
/// it (a four-channel row is then unfiltered straight into `rgba`, with no copy), else
/// NULL. 0 when the stream is damaged or ends first.
int mosaic_png_fast_row(mosaic_png_fast *fast, uint8_t *rgba, const uint8_t *above, size_t width) {
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
int mosaic_png_fast_two_rows(mosaic_png_fast *fast, uint8_t *rgba0, uint8_t *rgba1, const uint8_t *above, size_t width) {
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


/// Four Paeth rows unfiltered at once (mosaic_paeth_four_rows_sse41), when the next four
/// rows are all Paeth and the processor has SSE4.1; `above` as for mosaic_png_fast_row.
/// 0 when not (nothing is taken: the caller reads fewer at a time).
int mosaic_png_fast_four_rows(mosaic_png_fast *fast, uint8_t *rgba, size_t stride, const uint8_t *above, size_t width) {
#if defined(MOSAIC_HAVE_SSE41_PAETH)
    size_t n = fast->row_bytes;
    int bpp = fast->channels;
    if (bpp < 3 || n < 8 * (size_t)bpp || !__builtin_cpu_supports("sse4.1")) return 0;
    if (!mosaic_png_fast_fill(fast, 4 * (n + 1))) return 0;
    const uint8_t *raw = fast->raw + fast->raw_start;
    for (int r = 0; r < 4; r++) {
        if (raw[(size_t)r * (n + 1)] != 4) return 0;
    }
    const uint8_t *rows[4] = {raw + 1, raw + n + 2, raw + 2 * (n + 1) + 1, raw + 3 * (n + 1) + 1};
    if (bpp == 4) {
        uint8_t *out[4] = {rgba, rgba + stride, rgba + 2 * stride, rgba + 3 * stride};
        mosaic_paeth_four_rows_sse41(rows, above ? above : fast->previous, out, n, 4);
    } else {
        uint8_t *out[4] = {fast->current, fast->spare, fast->extra[0], fast->extra[1]};
        mosaic_paeth_four_rows_sse41(rows, fast->previous, out, n, 3);
        for (int r = 0; r < 4; r++) mosaic_png_widen(out[r], rgba + (size_t)r * stride, width, 3);
        uint8_t *free_row = fast->previous;
        fast->previous = fast->extra[1];
        fast->extra[1] = free_row;
    }
    fast->raw_start += 4 * (n + 1);
    return 1;
#else
    (void)fast; (void)rgba; (void)stride; (void)above; (void)width;
    return 0;
#endif
}

/// After the last row: the stream ends there (its Adler-32 right), in the last IDAT, with
/// no bytes to spare. Returns the offset of the chunk after the image data, or 0.
size_t mosaic_png_fast_finish(mosaic_png_fast *fast) {
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
void mosaic_png_read_tail(const uint8_t *data, size_t size, size_t tail, mosaic_result *result) {
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
    png_structp png = MOSAIC_PNG_READ_STRUCT(result);
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
