// PNG's Paeth predictor (filter type 4), for the PNG writer's filter (png_deflate.c) and
// the PNG reader's unfiltering (png.c). Not part of the shim's interface.
#ifndef MOSAIC_PAETH_H
#define MOSAIC_PAETH_H

#include <stdint.h>
#include <stdlib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The predictor of a byte from its left (a), upper (b) and upper-left (c) neighbours.
static inline uint8_t mosaic_paeth(int a, int b, int c) {
    int p = a + b - c;
    int pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    if (pa <= pb && pa <= pc) return (uint8_t)a;
    return pb <= pc ? (uint8_t)b : (uint8_t)c;
}

#if defined(__SSE2__)
/// The predictor in each 16-bit lane (values 0 to 255): with p = a + b - c the three
/// distances are |b - c|, |a - c| and |a + b - 2c|; ties go to a, then b, as in
/// mosaic_paeth.
static inline __m128i mosaic_paeth_epi16(__m128i a, __m128i b, __m128i c) {
    const __m128i zero = _mm_setzero_si128();
    __m128i x = _mm_sub_epi16(b, c), y = _mm_sub_epi16(a, c), z = _mm_add_epi16(x, y);
    __m128i pa = _mm_max_epi16(x, _mm_sub_epi16(zero, x));
    __m128i pb = _mm_max_epi16(y, _mm_sub_epi16(zero, y));
    __m128i pc = _mm_max_epi16(z, _mm_sub_epi16(zero, z));
    // a when pa <= pb and pa <= pc; else b when pb <= pc; else c.
    __m128i notA = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    __m128i notB = _mm_cmpgt_epi16(pb, pc);
    __m128i bc = _mm_or_si128(_mm_andnot_si128(notB, b), _mm_and_si128(notB, c));
    return _mm_or_si128(_mm_andnot_si128(notA, a), _mm_and_si128(notA, bc));
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define MOSAIC_HAVE_AVX2_PAETH 1
/// mosaic_paeth_epi16 in sixteen lanes (AVX2, for code chosen at run time).
__attribute__((target("avx2"))) static inline __m256i mosaic_paeth_epi16x16(__m256i a, __m256i b, __m256i c) {
    __m256i x = _mm256_sub_epi16(b, c), y = _mm256_sub_epi16(a, c), z = _mm256_add_epi16(x, y);
    __m256i pa = _mm256_abs_epi16(x), pb = _mm256_abs_epi16(y), pc = _mm256_abs_epi16(z);
    __m256i notA = _mm256_or_si256(_mm256_cmpgt_epi16(pa, pb), _mm256_cmpgt_epi16(pa, pc));
    __m256i notB = _mm256_cmpgt_epi16(pb, pc);
    __m256i bc = _mm256_blendv_epi8(b, c, notB);
    return _mm256_blendv_epi8(a, bc, notA);
}
#endif
#endif

#endif
