// The SSIM map of one block of two images (StructuralSimilarity.swift chooses the blocks
// and sums the map): Wang et al.'s index on luma, with scikit-image's choices so that the
// figures match `structural_similarity(gaussian_weights=True, sigma=1.5,
// use_sample_covariance=False, data_range=255)`: an 11-tap Gaussian (the caller's
// weights), applied along the columns then along the rows as scipy.ndimage.gaussian_filter
// does, edges extended by mirror reflection (scipy's mode "reflect": d c b a | a b c d),
// double precision throughout. The inner loops run along a row of doubles with no
// dependence between lanes, so the compiler vectorizes them (SSE2 on any x86-64).
#include "mosaic_ssim.h"

#include <stdint.h>

enum { R = MOSAIC_SSIM_RADIUS, TAPS = 2 * MOSAIC_SSIM_RADIUS + 1 };

// scipy's "reflect" for any distance: period 2n, the second half mirrored.
static inline int reflect(int i, int n) {
    int period = 2 * n;
    i %= period;
    if (i < 0) i += period;
    return i >= n ? period - 1 - i : i;
}

// pixelmatch's luma of a straight-alpha pixel blended over white.
static inline double luma(const uint8_t *p) {
    double r = p[0], g = p[1], b = p[2];
    if (p[3] < 255) {
        double a = p[3] / 255.0;
        r = 255 + (r - 255) * a;
        g = 255 + (g - 255) * a;
        b = 255 + (b - 255) * a;
    }
    return r * 0.29889531 + g * 0.58662247 + b * 0.11448223;
}

static inline int ignored(const int32_t *rects, int count, int x, int y) {
    for (int k = 0; k < count; k++) {
        const int32_t *r = rects + 4 * k;
        if (x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3]) return 1;
    }
    return 0;
}

size_t mosaic_ssim_scratch_count(int block_width, int block_height) {
    size_t pw = (size_t)block_width + 2 * R, ph = (size_t)block_height + 2 * R;
    return 2 * pw * ph + 5 * pw * (size_t)block_height;
}

void mosaic_ssim_block(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
                       const int32_t *ignore, int ignore_count, int x0, int y0, int bw, int bh,
                       const double weights[MOSAIC_SSIM_TAPS], double *scratch, double *out) {
    const int pw = bw + 2 * R, ph = bh + 2 * R;
    double *X = scratch, *Y = X + (size_t)pw * ph;
    double *mx = Y + (size_t)pw * ph, *my = mx + (size_t)pw * bh, *mxx = my + (size_t)pw * bh;
    double *myy = mxx + (size_t)pw * bh, *mxy = myy + (size_t)pw * bh;
    // Luma of the block and its margin, reflected at the image's edges. An ignored pixel
    // holds the baseline's luma in both images.
    for (int r = 0; r < ph; r++) {
        int y = reflect(y0 - R + r, height);
        const uint8_t *rowA = a + (size_t)y * stride_a, *rowB = b + (size_t)y * stride_b;
        for (int c = 0; c < pw; c++) {
            int x = reflect(x0 - R + c, width);
            double la = luma(rowA + 4 * (size_t)x);
            X[(size_t)r * pw + c] = la;
            Y[(size_t)r * pw + c] = (ignore_count > 0 && ignored(ignore, ignore_count, x, y)) ? la : luma(rowB + 4 * (size_t)x);
        }
    }
    // Down the columns: the five local sums, bh rows of pw.
    for (int r = 0; r < bh; r++) {
        double *ox = mx + (size_t)r * pw, *oy = my + (size_t)r * pw, *oxx = mxx + (size_t)r * pw;
        double *oyy = myy + (size_t)r * pw, *oxy = mxy + (size_t)r * pw;
        for (int c = 0; c < pw; c++) ox[c] = oy[c] = oxx[c] = oyy[c] = oxy[c] = 0;
        for (int k = 0; k < TAPS; k++) {
            const double w = weights[k];
            const double *xr = X + (size_t)(r + k) * pw, *yr = Y + (size_t)(r + k) * pw;
            for (int c = 0; c < pw; c++) {
                double xv = xr[c], yv = yr[c];
                ox[c] += w * xv;
                oy[c] += w * yv;
                oxx[c] += w * (xv * xv);
                oyy[c] += w * (yv * yv);
                oxy[c] += w * (xv * yv);
            }
        }
    }
    // Along the rows, then the index.
    const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    for (int r = 0; r < bh; r++) {
        const double *ix = mx + (size_t)r * pw, *iy = my + (size_t)r * pw, *ixx = mxx + (size_t)r * pw;
        const double *iyy = myy + (size_t)r * pw, *ixy = mxy + (size_t)r * pw;
        double *o = out + (size_t)r * bw;
        for (int c = 0; c < bw; c++) {
            double ux = 0, uy = 0, uxx = 0, uyy = 0, uxy = 0;
            for (int k = 0; k < TAPS; k++) {
                const double w = weights[k];
                ux += w * ix[c + k];
                uy += w * iy[c + k];
                uxx += w * ixx[c + k];
                uyy += w * iyy[c + k];
                uxy += w * ixy[c + k];
            }
            double vx = uxx - ux * ux, vy = uyy - uy * uy, vxy = uxy - ux * uy;
            o[c] = ((2 * ux * uy + c1) * (2 * vxy + c2)) / ((ux * ux + uy * uy + c1) * (vx + vy + c2));
        }
    }
}
