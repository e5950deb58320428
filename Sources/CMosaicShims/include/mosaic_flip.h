// NVIDIA FLIP, LDR (flip.c).
#ifndef MOSAIC_FLIP_H
#define MOSAIC_FLIP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// flip-evaluator's default viewing conditions: 0.7 m from a 0.7 m wide screen of 3840
/// pixels, in pixels per degree (about 67).
float mosaic_flip_default_ppd(void);

/// How far (pixels) a pixel's FLIP value reaches into the images: the larger of the
/// colour filter's and the feature filter's radius at `ppd`.
int mosaic_flip_margin(float ppd);

/// The floats `mosaic_flip_block` needs as scratch for a block of that size.
size_t mosaic_flip_scratch_count(int block_width, int block_height, float ppd);

/// The FLIP map (LDR) over the block [x0, x0 + bw) x [y0, y0 + bh) of two straight-alpha
/// RGBA8 sRGB images of `width` x `height` (rows `stride_a` / `stride_b` bytes apart;
/// `a` the reference), each pixel blended over white by its alpha, written to `out`
/// (bw x bh, packed). Edges are clamped, as FLIP clamps them. `ignore` holds
/// `ignore_count` rectangles (x, y, w, h) whose pixels are the reference's in both.
void mosaic_flip_block(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
                       const int32_t *ignore, int ignore_count, int x0, int y0, int bw, int bh, float ppd,
                       float *scratch, float *out);

#ifdef __cplusplus
}
#endif

#endif
