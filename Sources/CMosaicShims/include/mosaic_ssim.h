// Structural similarity (ssim.c).
#ifndef MOSAIC_SSIM_H
#define MOSAIC_SSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The Gaussian window's reach either side (sigma 1.5 truncated at 3.5 sigma, as
/// scikit-image): 11 taps.
enum { MOSAIC_SSIM_RADIUS = 5, MOSAIC_SSIM_TAPS = 11 };

/// The doubles `mosaic_ssim_block` needs as scratch for a block of that size.
size_t mosaic_ssim_scratch_count(int block_width, int block_height);

/// The SSIM map over the block [x0, x0 + bw) x [y0, y0 + bh) of two straight-alpha RGBA8
/// images of `width` x `height` (rows `stride_a` / `stride_b` bytes apart), on luma blended
/// over white, written to `out` (bw x bh, packed). `ignore` holds `ignore_count` rectangles
/// (x, y, w, h) whose pixels hold the baseline's luma in both images; `weights` the
/// normalized 1-D Gaussian.
void mosaic_ssim_block(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
                       const int32_t *ignore, int ignore_count, int x0, int y0, int bw, int bh,
                       const double weights[MOSAIC_SSIM_TAPS], double *scratch, double *out);

#ifdef __cplusplus
}
#endif

#endif
