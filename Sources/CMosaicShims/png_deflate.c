// The PNG writer's IDAT stream, deflated in segments that can be compressed on several
// threads and joined into one zlib stream: each segment is raw deflate that ends with a
// sync flush (an empty stored block: byte-aligned, not final), the last one with the
// final block; the zlib header goes before the first, the Adler-32 of all segments
// (combined with zlib's adler32_combine) after the last. Segment boundaries depend only
// on the image's width, so the bytes are the same however many threads compress.
//
// Levels 1 to 3 use ISA-L's igzip (several times zlib's speed at level 1, and smaller on
// contact sheets); 0 and 4 to 9 use zlib.
#include "CMosaicShims.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include "paeth.h"

#if defined(MOSAIC_HAVE_AVX2_PAETH)
/// Paeth-filters bytes `i..` of `row` (the row above `up`) into `o`, sixteen a step, up to
/// the last whole step; returns where it stopped. AVX2, chosen at run time.
__attribute__((target("avx2"))) static size_t mosaic_paeth_span_avx2(const uint8_t *row, const uint8_t *up, uint8_t *o, int bpp, size_t i,
                                                                     size_t row_bytes) {
    for (; i + 16 <= row_bytes; i += 16) {
        __m256i a = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(row + i - bpp)));
        __m256i b = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(up + i)));
        __m256i c = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(up + i - bpp)));
        __m256i pred = mosaic_paeth_epi16x16(a, b, c);
        // packus works within each 128-bit half: gather the two halves' bytes.
        __m128i bytes = _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi16(pred, pred), 0x08));
        __m128i raw = _mm_loadu_si128((const __m128i *)(row + i));
        _mm_storeu_si128((__m128i *)(o + i), _mm_sub_epi8(raw, bytes));
    }
    return i;
}
#endif

/// `count` rows filtered with Paeth, each behind its filter-type byte, into `out`.
static void mosaic_paeth_rows(const uint8_t *rows, size_t stride, size_t row_bytes, int bpp, int count, const uint8_t *above,
                              uint8_t *out) {
    for (int y = 0; y < count; y++) {
        const uint8_t *row = rows + (size_t)y * stride;
        const uint8_t *up = y == 0 ? above : rows + (size_t)(y - 1) * stride;
        uint8_t *o = out + (size_t)y * (row_bytes + 1);
        o[0] = 4;
        o++;
        if (up) {
            for (int i = 0; i < bpp; i++) o[i] = (uint8_t)(row[i] - up[i]);
            size_t i = (size_t)bpp;
#if defined(MOSAIC_HAVE_AVX2_PAETH)
            if (__builtin_cpu_supports("avx2")) i = mosaic_paeth_span_avx2(row, up, o, bpp, i, row_bytes);
#endif
#if defined(__SSE2__)
            // Eight bytes a step: encoding predicts from the raw row (not the filtered
            // one), so nothing carries from byte to byte.
            const __m128i zero = _mm_setzero_si128();
            for (; i + 8 <= row_bytes; i += 8) {
                __m128i a = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(row + i - bpp)), zero);
                __m128i b = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(up + i)), zero);
                __m128i c = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(up + i - bpp)), zero);
                __m128i pred = mosaic_paeth_epi16(a, b, c);
                __m128i raw = _mm_loadl_epi64((const __m128i *)(row + i));
                _mm_storel_epi64((__m128i *)(o + i), _mm_sub_epi8(raw, _mm_packus_epi16(pred, zero)));
            }
#endif
            for (; i < row_bytes; i++) {
                o[i] = (uint8_t)(row[i] - mosaic_paeth(row[i - bpp], up[i], up[i - bpp]));
            }
        } else {
            // The image's first row: the row above is zeros, so Paeth predicts the left.
            for (int i = 0; i < bpp; i++) o[i] = row[i];
            for (size_t i = (size_t)bpp; i < row_bytes; i++) o[i] = (uint8_t)(row[i] - row[i - bpp]);
        }
    }
}

static int mosaic_deflate_isal(const uint8_t *in, size_t size, int level, int last, uint8_t **out, size_t *out_size) {
    static const uint32_t buffers[4] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT, ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};
    struct isal_zstream stream;
    isal_deflate_init(&stream);
    stream.level = (uint32_t)level;
    stream.level_buf_size = buffers[level];
    stream.level_buf = malloc(stream.level_buf_size);
    size_t capacity = size + size / 8 + 1024;
    uint8_t *buffer = malloc(capacity);
    if (!stream.level_buf || !buffer) {
        free(stream.level_buf);
        free(buffer);
        return 0;
    }
    stream.next_in = (uint8_t *)in;
    stream.avail_in = (uint32_t)size;
    stream.end_of_stream = (uint16_t)(last ? 1 : 0);
    stream.flush = last ? NO_FLUSH : SYNC_FLUSH;
    stream.next_out = buffer;
    stream.avail_out = (uint32_t)capacity;
    int ok = 1;
    for (;;) {
        if (isal_deflate(&stream) != COMP_OK) {
            ok = 0;
            break;
        }
        int done = last ? stream.internal_state.state == ZSTATE_END
                        : (stream.avail_in == 0 && stream.internal_state.state == ZSTATE_NEW_HDR);
        if (done) break;
        if (stream.avail_out == 0) {
            size_t used = (size_t)(stream.next_out - buffer);
            uint8_t *grown = realloc(buffer, capacity * 2);
            if (!grown) {
                ok = 0;
                break;
            }
            buffer = grown;
            capacity *= 2;
            stream.next_out = buffer + used;
            stream.avail_out = (uint32_t)(capacity - used);
        }
    }
    free(stream.level_buf);
    if (!ok) {
        free(buffer);
        return 0;
    }
    *out = buffer;
    *out_size = (size_t)(stream.next_out - buffer);
    return 1;
}

static int mosaic_deflate_zlib(const uint8_t *in, size_t size, int level, int last, uint8_t **out, size_t *out_size) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return 0;
    size_t capacity = deflateBound(&stream, (uLong)size) + 16;
    uint8_t *buffer = malloc(capacity);
    if (!buffer) {
        deflateEnd(&stream);
        return 0;
    }
    stream.next_in = (Bytef *)in;
    stream.avail_in = (uInt)size;
    stream.next_out = buffer;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH);
    int ok = last ? status == Z_STREAM_END : (status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0);
    *out_size = stream.total_out;
    deflateEnd(&stream);
    if (!ok) {
        free(buffer);
        return 0;
    }
    *out = buffer;
    return 1;
}

mosaic_result mosaic_png_deflate_segment(const uint8_t *rows, size_t stride, int width, int channels, int count,
                                         const uint8_t *above, int level, int last, mosaic_png_segment *segment) {
    memset(segment, 0, sizeof *segment);
    if (width < 1 || count < 1 || (channels != 3 && channels != 4) || level < 0 || level > 9) {
        return mosaic_error("invalid segment");
    }
    size_t row_bytes = (size_t)width * (size_t)channels;
    size_t size = (row_bytes + 1) * (size_t)count;
    uint8_t *filtered = malloc(size);
    if (!filtered) return mosaic_error("out of memory");
    mosaic_paeth_rows(rows, stride, row_bytes, channels, count, above, filtered);
    // ISA-L's Adler-32 (vectorized; zlib 1.2.13's is not), from zlib's initial value 1.
    segment->adler = isal_adler32(1, filtered, size);
    segment->raw_size = size;
    int ok = (level >= 1 && level <= 3) ? mosaic_deflate_isal(filtered, size, level, last, &segment->data, &segment->size)
                                        : mosaic_deflate_zlib(filtered, size, level, last, &segment->data, &segment->size);
    free(filtered);
    if (!ok) return mosaic_error("the deflate library failed (out of memory?)");
    return mosaic_ok();
}

void mosaic_png_segment_free(mosaic_png_segment *segment) {
    free(segment->data);
    segment->data = NULL;
    segment->size = 0;
}

uint32_t mosaic_adler32_combine(uint32_t first, uint32_t second, size_t second_size) {
    return (uint32_t)adler32_combine(first, second, (z_off_t)second_size);
}
