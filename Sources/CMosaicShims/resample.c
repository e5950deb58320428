// The two passes of the separable resampling filter (Resampler.swift computes the taps).
//
// Fixed point: 8-bit samples, 14-bit signed weights, 32-bit sums that cannot overflow.
// On x86-64 two taps go through one multiply-add of 16-bit pairs (SSE2 `pmaddwd`, in
// every x86-64 processor): the samples of two taps interleaved as 16-bit lanes against
// their two weights gives the four channels' sums at once. Swift's generic vectors
// multiply 32-bit lanes, which plain x86-64 has no instruction for. The integer arithmetic
// is exact, so the plain C loop (other processors) gives the same bytes.
#include "CMosaicShims.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// Weights have 14 fractional bits; sums start at half of one, so the shift rounds.
enum { PRECISION = 14, ROUNDING = 1 << (PRECISION - 1) };

// Drops the fractional bits, clamps alpha to 0...255 and each colour to at most alpha
// (Lanczos overshoots), so the pixel stays valid premultiplied RGBA.
static inline void store_premultiplied(const int32_t sum[4], uint8_t *out) {
    int32_t alpha = sum[3] >> PRECISION;
    alpha = alpha < 0 ? 0 : (alpha > 255 ? 255 : alpha);
    for (int c = 0; c < 3; c++) {
        int32_t v = sum[c] >> PRECISION;
        out[c] = (uint8_t)(v < 0 ? 0 : (v > alpha ? alpha : v));
    }
    out[3] = (uint8_t)alpha;
}

#if defined(__SSE2__)
static inline __m128i load_pixel(const uint8_t *p) {
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128(v);
}

// store_premultiplied on a pixel's four sums in lanes: shifted, narrowed to 16 bits
// (exact: a sum is within a few times 255 << 14), alpha clamped to 0...255, each colour
// to 0...alpha (alpha's lane to itself), packed to bytes. The same bytes.
static inline void store_premultiplied_lanes(__m128i sum, uint8_t *out) {
    const __m128i zero = _mm_setzero_si128();
    __m128i v = _mm_srai_epi32(sum, PRECISION);
    v = _mm_packs_epi32(v, v);
    __m128i alpha = _mm_min_epi16(_mm_max_epi16(_mm_shufflelo_epi16(v, 0xFF), zero), _mm_set1_epi16(255));
    __m128i clamped = _mm_min_epi16(_mm_max_epi16(v, zero), alpha);
    int32_t word = _mm_cvtsi128_si32(_mm_packus_epi16(clamped, zero));
    memcpy(out, &word, 4);
}

static inline __m128i weight_pair(int16_t a, int16_t b) {
    return _mm_set1_epi32((int32_t)((uint32_t)(uint16_t)a | ((uint32_t)(uint16_t)b << 16)));
}

// Taps `t..<n` of the pixels at `p` with the weights `w` added to `acc` two at a time (the
// last alone), and the pixel stored at `out`: the horizontal pass's SSE2 step, and the
// AVX2 pass's outputs near a row's end.
static inline void finish_taps(const uint8_t *p, const int16_t *w, ptrdiff_t t, ptrdiff_t n, __m128i acc, uint8_t *out) {
    const __m128i zero = _mm_setzero_si128();
    for (; t + 1 < n; t += 2) {
        __m128i pair = _mm_unpacklo_epi8(_mm_unpacklo_epi8(load_pixel(p + t * 4), load_pixel(p + t * 4 + 4)), zero);
        acc = _mm_add_epi32(acc, _mm_madd_epi16(pair, weight_pair(w[t], w[t + 1])));
    }
    if (t < n) {
        __m128i single = _mm_unpacklo_epi8(_mm_unpacklo_epi8(load_pixel(p + t * 4), zero), zero);
        acc = _mm_add_epi32(acc, _mm_madd_epi16(single, weight_pair(w[t], 0)));
    }
    store_premultiplied_lanes(acc, out);
}
#endif

#if defined(__x86_64__) && defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define MOSAIC_HAVE_AVX2_PATH 1

// Four taps at once where the processor has AVX2 (chosen at run time: the build stays
// plain x86-64): the four pixels are contiguous, one shuffle pairs their bytes as the
// SSE2 loop does, and one 256-bit multiply-add sums two pairs. Each output's weights are
// laid out once per call as those multiply-add operands, zero-padded to a multiple of
// four taps (the rows share them); an output whose padded taps would read past the row
// takes the SSE2 step. Integer and exact: the same bytes as the other paths. Returns 0,
// having done nothing, when the table cannot be allocated.
__attribute__((target("avx2"))) static int horizontal_avx2(const uint8_t *src, size_t src_stride, int rows,
                                                            const ptrdiff_t *starts, const ptrdiff_t *counts,
                                                            const int16_t *weights, ptrdiff_t weight_stride, uint8_t *dst,
                                                            int width) {
    const __m128i pairing = _mm_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
    size_t groups = 0;
    for (int x = 0; x < width; x++) groups += (size_t)(counts[x] + 3) / 4;
    __m256i *laid = groups ? aligned_alloc(32, groups * sizeof(__m256i)) : NULL;
    ptrdiff_t *first = malloc(sizeof(ptrdiff_t) * (size_t)(width + 1));
    if ((groups && !laid) || !first) {
        free(laid);
        free(first);
        return 0;
    }
    size_t g = 0;
    for (int x = 0; x < width; x++) {
        const int16_t *w = weights + (ptrdiff_t)x * weight_stride;
        ptrdiff_t n = counts[x];
        first[x] = (ptrdiff_t)g;
        for (ptrdiff_t t = 0; t < n; t += 4) {
            int16_t w0 = w[t], w1 = t + 1 < n ? w[t + 1] : 0, w2 = t + 2 < n ? w[t + 2] : 0, w3 = t + 3 < n ? w[t + 3] : 0;
            laid[g++] = _mm256_set_m128i(weight_pair(w2, w3), weight_pair(w0, w1));
        }
    }
    first[width] = (ptrdiff_t)g;
    const ptrdiff_t row_pixels = (ptrdiff_t)(src_stride / 4);
    // Two rows at a time: each step's weights and the loop's bookkeeping serve both.
    int row = 0;
    for (; row + 1 < rows; row += 2) {
        const uint8_t *line = src + (size_t)row * src_stride;
        uint8_t *out = dst + (size_t)row * (size_t)width * 4;
        uint8_t *out_next = out + (size_t)width * 4;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = line + starts[x] * 4, *q = p + src_stride;
            ptrdiff_t steps = first[x + 1] - first[x];
            if (starts[x] + steps * 4 > row_pixels) {
                const int16_t *w = weights + (ptrdiff_t)x * weight_stride;
                finish_taps(p, w, 0, counts[x], _mm_set1_epi32(ROUNDING), out + (size_t)x * 4);
                finish_taps(q, w, 0, counts[x], _mm_set1_epi32(ROUNDING), out_next + (size_t)x * 4);
                continue;
            }
            const __m256i *ww = laid + first[x];
            __m256i wide = _mm256_setzero_si256(), wide_next = _mm256_setzero_si256();
            for (ptrdiff_t k = 0; k < steps; k++) {
                __m256i w = _mm256_load_si256(ww + k);
                __m128i four = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + k * 16)), pairing);
                __m128i four_next = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(q + k * 16)), pairing);
                wide = _mm256_add_epi32(wide, _mm256_madd_epi16(_mm256_cvtepu8_epi16(four), w));
                wide_next = _mm256_add_epi32(wide_next, _mm256_madd_epi16(_mm256_cvtepu8_epi16(four_next), w));
            }
            __m128i acc = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1)),
                                        _mm_set1_epi32(ROUNDING));
            __m128i acc_next = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(wide_next), _mm256_extracti128_si256(wide_next, 1)),
                                             _mm_set1_epi32(ROUNDING));
            store_premultiplied_lanes(acc, out + (size_t)x * 4);
            store_premultiplied_lanes(acc_next, out_next + (size_t)x * 4);
        }
    }
    for (; row < rows; row++) {
        const uint8_t *line = src + (size_t)row * src_stride;
        uint8_t *out = dst + (size_t)row * (size_t)width * 4;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = line + starts[x] * 4;
            ptrdiff_t steps = first[x + 1] - first[x];
            if (starts[x] + steps * 4 > row_pixels) {
                finish_taps(p, weights + (ptrdiff_t)x * weight_stride, 0, counts[x], _mm_set1_epi32(ROUNDING), out + (size_t)x * 4);
                continue;
            }
            const __m256i *ww = laid + first[x];
            __m256i wide = _mm256_setzero_si256();
            for (ptrdiff_t k = 0; k < steps; k++) {
                __m128i four = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + k * 16)), pairing);
                wide = _mm256_add_epi32(wide, _mm256_madd_epi16(_mm256_cvtepu8_epi16(four), _mm256_load_si256(ww + k)));
            }
            __m128i acc = _mm_add_epi32(_mm_add_epi32(_mm256_castsi256_si128(wide), _mm256_extracti128_si256(wide, 1)),
                                        _mm_set1_epi32(ROUNDING));
            store_premultiplied_lanes(acc, out + (size_t)x * 4);
        }
    }
    free(laid);
    free(first);
    return 1;
}

// The vertical pass where the processor has AVX2: 32 bytes of a row (eight pixels) at a
// time, their sums kept in four registers over all the output's taps (two rows per
// multiply-add, as the SSE2 loop below pairs them), then stored once: no round trip of
// every tap's sums through memory. The bytes past the last whole 32 are summed one by one.
// Integer and exact: the same bytes as the other paths.
__attribute__((target("avx2"))) static void vertical_avx2(const uint8_t *src, size_t src_stride, size_t first_byte,
                                                          size_t row_bytes, ptrdiff_t first_row, int outputs,
                                                          const ptrdiff_t *starts, const ptrdiff_t *counts,
                                                          const int16_t *weights, ptrdiff_t weight_stride, uint8_t *dst) {
    const __m256i zero = _mm256_setzero_si256();
    const size_t whole = row_bytes - row_bytes % 32;
    for (int i = 0; i < outputs; i++) {
        const uint8_t *rowp = src + (size_t)(starts[i] - first_row) * src_stride + first_byte;
        const int16_t *w = weights + (ptrdiff_t)i * weight_stride;
        const ptrdiff_t n = counts[i];
        uint8_t *out = dst + (size_t)i * row_bytes;
        for (size_t b = 0; b < whole; b += 32) {
            // acc0: bytes 0-3 and 16-19 (in-lane unpacking), acc1: 4-7 and 20-23, acc2:
            // 8-11 and 24-27, acc3: 12-15 and 28-31.
            __m256i acc0 = _mm256_set1_epi32(ROUNDING), acc1 = acc0, acc2 = acc0, acc3 = acc0;
            for (ptrdiff_t t = 0; t < n; t += 2) {
                const uint8_t *a = rowp + (size_t)t * src_stride + b;
                int pair = t + 1 < n;
                __m256i ra = _mm256_loadu_si256((const __m256i *)a);
                __m256i rc = pair ? _mm256_loadu_si256((const __m256i *)(a + src_stride)) : zero;
                __m256i ww = _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)w[t] | ((uint32_t)(uint16_t)(pair ? w[t + 1] : 0) << 16)));
                __m256i low = _mm256_unpacklo_epi8(ra, rc), high = _mm256_unpackhi_epi8(ra, rc);
                acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(_mm256_unpacklo_epi8(low, zero), ww));
                acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(_mm256_unpackhi_epi8(low, zero), ww));
                acc2 = _mm256_add_epi32(acc2, _mm256_madd_epi16(_mm256_unpacklo_epi8(high, zero), ww));
                acc3 = _mm256_add_epi32(acc3, _mm256_madd_epi16(_mm256_unpackhi_epi8(high, zero), ww));
            }
            store_premultiplied_lanes(_mm256_castsi256_si128(acc0), out + b);
            store_premultiplied_lanes(_mm256_castsi256_si128(acc1), out + b + 4);
            store_premultiplied_lanes(_mm256_castsi256_si128(acc2), out + b + 8);
            store_premultiplied_lanes(_mm256_castsi256_si128(acc3), out + b + 12);
            store_premultiplied_lanes(_mm256_extracti128_si256(acc0, 1), out + b + 16);
            store_premultiplied_lanes(_mm256_extracti128_si256(acc1, 1), out + b + 20);
            store_premultiplied_lanes(_mm256_extracti128_si256(acc2, 1), out + b + 24);
            store_premultiplied_lanes(_mm256_extracti128_si256(acc3, 1), out + b + 28);
        }
        for (size_t b = whole; b + 4 <= row_bytes; b += 4) {
            int32_t sum[4] = {ROUNDING, ROUNDING, ROUNDING, ROUNDING};
            for (ptrdiff_t t = 0; t < n; t++) {
                const uint8_t *a = rowp + (size_t)t * src_stride + b;
                for (int c = 0; c < 4; c++) sum[c] += (int32_t)w[t] * a[c];
            }
            store_premultiplied(sum, out + b);
        }
    }
}
#endif

void mosaic_resample_horizontal(const uint8_t *src, size_t src_stride, int rows, const ptrdiff_t *starts,
                                const ptrdiff_t *counts, const int16_t *weights, ptrdiff_t weight_stride, uint8_t *dst,
                                int width) {
#if defined(MOSAIC_HAVE_AVX2_PATH)
    // Without AVX2, or without memory for its table: the SSE2 step below.
    if (__builtin_cpu_supports("avx2") && horizontal_avx2(src, src_stride, rows, starts, counts, weights, weight_stride, dst, width)) return;
#endif
    for (int row = 0; row < rows; row++) {
        const uint8_t *line = src + (size_t)row * src_stride;
        uint8_t *out = dst + (size_t)row * (size_t)width * 4;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = line + starts[x] * 4;
            const int16_t *w = weights + (ptrdiff_t)x * weight_stride;
#if defined(__SSE2__)
            finish_taps(p, w, 0, counts[x], _mm_set1_epi32(ROUNDING), out + (size_t)x * 4);
#else
            int32_t sum[4] = {ROUNDING, ROUNDING, ROUNDING, ROUNDING};
            for (ptrdiff_t t = 0; t < counts[x]; t++) {
                for (int c = 0; c < 4; c++) sum[c] += (int32_t)w[t] * p[t * 4 + c];
            }
            store_premultiplied(sum, out + (size_t)x * 4);
#endif
        }
    }
}

void mosaic_resample_vertical(const uint8_t *src, size_t src_stride, size_t first_byte, size_t row_bytes, ptrdiff_t first_row,
                              int outputs, const ptrdiff_t *starts, const ptrdiff_t *counts, const int16_t *weights,
                              ptrdiff_t weight_stride, int32_t *sums, uint8_t *dst) {
#if defined(MOSAIC_HAVE_AVX2_PATH)
    if (__builtin_cpu_supports("avx2")) {
        vertical_avx2(src, src_stride, first_byte, row_bytes, first_row, outputs, starts, counts, weights, weight_stride, dst);
        return;
    }
#endif
    for (int i = 0; i < outputs; i++) {
        for (size_t b = 0; b < row_bytes; b++) sums[b] = ROUNDING;
        const uint8_t *rowp = src + (size_t)(starts[i] - first_row) * src_stride + first_byte;
        const int16_t *w = weights + (ptrdiff_t)i * weight_stride;
        ptrdiff_t n = counts[i], t = 0;
#if defined(__SSE2__)
        const __m128i zero = _mm_setzero_si128();
        for (; t + 1 < n; t += 2) {
            const uint8_t *a = rowp + (size_t)t * src_stride, *c = a + src_stride;
            __m128i ww = weight_pair(w[t], w[t + 1]);
            size_t b = 0;
            for (; b + 8 <= row_bytes; b += 8) {
                __m128i pa = _mm_loadl_epi64((const __m128i *)(a + b)), pc = _mm_loadl_epi64((const __m128i *)(c + b));
                __m128i mixed = _mm_unpacklo_epi8(pa, pc);  // a0 c0 a1 c1 ... a7 c7
                __m128i low = _mm_madd_epi16(_mm_unpacklo_epi8(mixed, zero), ww);
                __m128i high = _mm_madd_epi16(_mm_unpackhi_epi8(mixed, zero), ww);
                __m128i *s = (__m128i *)(sums + b);
                _mm_storeu_si128(s, _mm_add_epi32(_mm_loadu_si128(s), low));
                _mm_storeu_si128(s + 1, _mm_add_epi32(_mm_loadu_si128(s + 1), high));
            }
            for (; b < row_bytes; b++) sums[b] += (int32_t)w[t] * a[b] + (int32_t)w[t + 1] * c[b];
        }
#endif
        for (; t < n; t++) {
            const uint8_t *a = rowp + (size_t)t * src_stride;
            int32_t weight = w[t];
            for (size_t b = 0; b < row_bytes; b++) sums[b] += weight * a[b];
        }
        uint8_t *out = dst + (size_t)i * row_bytes;
#if defined(__SSE2__)
        for (size_t x = 0; x + 4 <= row_bytes; x += 4) store_premultiplied_lanes(_mm_loadu_si128((const __m128i *)(sums + x)), out + x);
#else
        for (size_t x = 0; x + 4 <= row_bytes; x += 4) store_premultiplied(sums + x, out + x);
#endif
    }
}

void mosaic_premultiply_rgba(uint8_t *pixels, size_t count) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
    const __m128i alpha_lanes = _mm_set_epi16((short)0xFFFF, 0, 0, 0, (short)0xFFFF, 0, 0, 0);
    for (; i + 4 <= count; i += 4) {
        __m128i four = _mm_loadu_si128((const __m128i *)(pixels + 4 * i));
        // All four opaque: nothing changes.
        if ((_mm_movemask_epi8(_mm_cmpeq_epi8(four, _mm_set1_epi8((char)0xFF))) & 0x8888) == 0x8888) continue;
        __m128i halves[2] = {_mm_unpacklo_epi8(four, zero), _mm_unpackhi_epi8(four, zero)};
        for (int h = 0; h < 2; h++) {
            __m128i v = halves[h];
            __m128i alpha = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xFF), 0xFF);
            __m128i t = _mm_add_epi16(_mm_mullo_epi16(v, alpha), half);
            __m128i p = _mm_srli_epi16(_mm_add_epi16(t, _mm_srli_epi16(t, 8)), 8);
            // Alpha's own lane keeps alpha.
            halves[h] = _mm_or_si128(_mm_andnot_si128(alpha_lanes, p), _mm_and_si128(alpha_lanes, v));
        }
        _mm_storeu_si128((__m128i *)(pixels + 4 * i), _mm_packus_epi16(halves[0], halves[1]));
    }
#endif
    for (; i < count; i++) {
        uint8_t *p = pixels + 4 * i;
        uint32_t alpha = p[3];
        if (alpha == 255) continue;
        for (int c = 0; c < 3; c++) {
            uint32_t t = (uint32_t)p[c] * alpha + 128;
            p[c] = (uint8_t)((t + (t >> 8)) >> 8);
        }
    }
}
