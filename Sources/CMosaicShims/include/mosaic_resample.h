// The resampler's hot loops (resample.c).
#ifndef MOSAIC_RESAMPLE_H
#define MOSAIC_RESAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The horizontal pass of a separable filter: each of `rows` rows of `src` (RGBA, rows
/// `src_stride` bytes apart) into `width` pixels of `dst` (rows `width * 4` bytes):
/// output x sums `counts[x]` pixels from `starts[x]` with the 14-bit `weights` from
/// `x * weight_stride`; premultiplied RGBA out (colours clamped to alpha).
void mosaic_resample_horizontal(const uint8_t *src, size_t src_stride, int rows, const ptrdiff_t *starts,
                                const ptrdiff_t *counts, const int16_t *weights, ptrdiff_t weight_stride, uint8_t *dst,
                                int width);

/// The vertical pass: output row i sums `counts[i]` rows from `starts[i] - first_row` of
/// `src`, `row_bytes` bytes each from `first_byte`, with the weights from
/// `i * weight_stride`, into `dst` (rows `row_bytes` apart). `sums` holds `row_bytes`
/// 32-bit values (scratch).
void mosaic_resample_vertical(const uint8_t *src, size_t src_stride, size_t first_byte, size_t row_bytes, ptrdiff_t first_row,
                              int outputs, const ptrdiff_t *starts, const ptrdiff_t *counts, const int16_t *weights,
                              ptrdiff_t weight_stride, int32_t *sums, uint8_t *dst);

/// Premultiplies `count` RGBA8 pixels in place: each colour becomes round(value * alpha /
/// 255), computed as ((t + (t >> 8)) >> 8) with t = value * alpha + 128 (exact for every
/// pair); alpha stays. Four pixels at a time with SSE2.
void mosaic_premultiply_rgba(uint8_t *pixels, size_t count);

#ifdef __cplusplus
}
#endif

#endif
