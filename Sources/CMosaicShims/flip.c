// The FLIP map (LDR) of one block of two images (FLIPMetric.swift chooses the blocks and
// sums the map). Written from the paper (Andersson et al., "FLIP: A Difference Evaluator
// for Alternating Images", HPG 2020) and the separable filters of the reference code
// (NVlabs/flip, BSD-3-Clause; misc/separatedConvolutions.pdf), in single precision with
// the reference's order of operations so that the figures match flip-evaluator's:
//   colour: sRGB -> linear -> YCxCz; the contrast sensitivity filters (Y and Cx one
//   Gaussian each, Cz a sum of two, applied separably) -> linear RGB clamped to [0, 1] ->
//   CIELAB -> Hunt adjustment -> HyAB distance ^ 0.7, mapped to [0, 1] around 0.4 cmax;
//   features: the normalized Y through Gaussian first and second derivatives (edges and
//   points), their magnitudes' difference ^ 0.5;
//   FLIP = colour ^ (1 - feature).
// Edges are clamped. The inner loops run along rows of floats with no dependence between
// lanes (each lane sums its taps in the reference's order), so the compiler vectorizes.
#include "mosaic_flip.h"

#include <math.h>
#include <stdint.h>

static const float PI_F = 3.14159265358979f;

// The reference's Gaussian constants (Y, Cx, Cz).
static const float A1[3] = {1.0f, 1.0f, 34.1f}, B1[3] = {0.0047f, 0.0053f, 0.04f};
static const float A2[3] = {0.0f, 0.0f, 13.5f}, B2[3] = {1.0e-5f, 1.0e-5f, 0.025f};
// (The feature exponent qf is 0.5: a square root below.)
static const float GQC = 0.7f, GPC = 0.4f, GPT = 0.95f, GW = 0.082f;

float mosaic_flip_default_ppd(void) { return 0.7f * (3840.0f / 0.7f) * (PI_F / 180.0f); }

static int spatial_radius(float ppd) {
    const float pi_sq = PI_F * PI_F;
    float m = B1[0];
    for (int i = 0; i < 3; i++) {
        if (B1[i] > m) m = B1[i];
        if (B2[i] > m) m = B2[i];
    }
    return (int)ceilf(3.0f * sqrtf(m / (2.0f * pi_sq)) * ppd);
}

static int feature_radius(float ppd) { return (int)ceilf(3.0f * (0.5f * GW * ppd)); }

int mosaic_flip_margin(float ppd) {
    int s = spatial_radius(ppd), f = feature_radius(ppd);
    return s > f ? s : f;
}

size_t mosaic_flip_scratch_count(int bw, int bh, float ppd) {
    size_t r = (size_t)mosaic_flip_margin(ppd), rs = (size_t)spatial_radius(ppd), rf = (size_t)feature_radius(ppd);
    size_t pw = (size_t)bw + 2 * r, ph = (size_t)bh + 2 * r;
    return 6 * pw * ph + 8 * (size_t)bw * ((size_t)bh + 2 * rs) + 6 * (size_t)bw * ((size_t)bh + 2 * rf);
}

static inline float gaussian_ab(float x2, float a, float b) {
    const float pi_sq = PI_F * PI_F;
    return a * sqrtf(PI_F / b) * expf(-pi_sq * x2 / b);
}

static inline float gaussian_sqrt(float x2, float a, float b) {
    const float pi_sq = PI_F * PI_F;
    return sqrtf(a * sqrtf(PI_F / b)) * expf(-pi_sq * x2 / b);
}

static inline int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
static inline float clampf(float v) { return v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v); }

static inline int ignored(const int32_t *rects, int count, int x, int y) {
    for (int k = 0; k < count; k++) {
        const int32_t *r = rects + 4 * k;
        if (x >= r[0] && x < r[0] + r[2] && y >= r[1] && y < r[1] + r[3]) return 1;
    }
    return 0;
}

static float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f); }

// Linear RGB -> XYZ (D65) -> YCxCz, as the reference.
static inline void linear_to_ycxcz(float r, float g, float b, float *y, float *cx, float *cz) {
    const float a11 = 10135552.0f / 24577794.0f, a12 = 8788810.0f / 24577794.0f, a13 = 4435075.0f / 24577794.0f;
    const float a21 = 2613072.0f / 12288897.0f, a22 = 8788810.0f / 12288897.0f, a23 = 887015.0f / 12288897.0f;
    const float a31 = 1425312.0f / 73733382.0f, a32 = 8788810.0f / 73733382.0f, a33 = 70074185.0f / 73733382.0f;
    float X = a11 * r + a12 * g + a13 * b, Y = a21 * r + a22 * g + a23 * b, Z = a31 * r + a32 * g + a33 * b;
    X *= 1.052156925f;
    Z *= 0.918357670f;
    *y = 116.0f * Y - 16.0f;
    *cx = 500.0f * (X - Y);
    *cz = 200.0f * (Y - Z);
}

// Linear RGB -> XYZ -> CIELAB (D65) -> Hunt adjustment.
static inline void linear_to_hunt_lab(float r, float g, float b, float *L, float *A, float *B) {
    const float a11 = 10135552.0f / 24577794.0f, a12 = 8788810.0f / 24577794.0f, a13 = 4435075.0f / 24577794.0f;
    const float a21 = 2613072.0f / 12288897.0f, a22 = 8788810.0f / 12288897.0f, a23 = 887015.0f / 12288897.0f;
    const float a31 = 1425312.0f / 73733382.0f, a32 = 8788810.0f / 73733382.0f, a33 = 70074185.0f / 73733382.0f;
    float X = (a11 * r + a12 * g + a13 * b) * 1.052156925f;
    float Y = (a21 * r + a22 * g + a23 * b) * 1.0f;
    float Z = (a31 * r + a32 * g + a33 * b) * 0.918357670f;
    const float delta = 6.0f / 29.0f, deltaSquare = delta * delta, deltaCube = delta * deltaSquare;
    const float factor = 1.0f / (3.0f * deltaSquare), term = 4.0f / 29.0f;
    // cbrtf for the reference's powf(v, 1/3): within an ulp or two, and several times faster.
    X = X > deltaCube ? cbrtf(X) : factor * X + term;
    Y = Y > deltaCube ? cbrtf(Y) : factor * Y + term;
    Z = Z > deltaCube ? cbrtf(Z) : factor * Z + term;
    float l = 116.0f * Y - 16.0f;
    *L = l;
    *A = 0.01f * l * (500.0f * (X - Y));
    *B = 0.01f * l * (200.0f * (Y - Z));
}

// Filtered YCxCz -> XYZ -> linear RGB clamped to [0, 1] -> CIELAB with the Hunt adjustment.
static inline void ycxcz_to_hunt_lab(float yv, float cx, float cz, float *L, float *A, float *B) {
    const float Yn = (yv + 16.0f) / 116.0f, Cx = cx / 500.0f, Cz = cz / 200.0f;
    float X = (Yn + Cx) * 0.950428545f, Y = Yn * 1.0f, Z = (Yn - Cz) * 1.088900371f;
    float r = clampf(3.241003275f * X + -1.537398934f * Y + -0.498615861f * Z);
    float g = clampf(-0.969224334f * X + 1.875930071f * Y + 0.041554224f * Z);
    float b = clampf(0.055639423f * X + -0.204011202f * Y + 1.057148933f * Z);
    linear_to_hunt_lab(r, g, b, L, A, B);
}

static inline float hyab(float l1, float a1, float b1, float l2, float a2, float b2) {
    return fabsf(l1 - l2) + sqrtf((a1 - a2) * (a1 - a2) + (b1 - b2) * (b1 - b2));
}

static float max_distance(void) {
    float L1, A1v, B1v, L2, A2v, B2v;
    // The largest distance: green against blue, in CIELAB with the Hunt adjustment.
    linear_to_hunt_lab(0.0f, 1.0f, 0.0f, &L1, &A1v, &B1v);
    linear_to_hunt_lab(0.0f, 0.0f, 1.0f, &L2, &A2v, &B2v);
    return powf(hyab(L1, A1v, B1v, L2, A2v, B2v), GQC);
}

void mosaic_flip_block(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
                       const int32_t *ignore, int ignore_count, int x0, int y0, int bw, int bh, float ppd,
                       float *scratch, float *out) {
    float lut[256];
    for (int i = 0; i < 256; i++) lut[i] = srgb_to_linear((float)i / 255.0f);
    const int R = mosaic_flip_margin(ppd), RS = spatial_radius(ppd), RF = feature_radius(ppd);
    const int pw = bw + 2 * R, ph = bh + 2 * R;
    const size_t plane = (size_t)pw * ph;
    float *Ya = scratch, *Xa = Ya + plane, *Za = Xa + plane, *Yb = Za + plane, *Xb = Yb + plane, *Zb = Xb + plane;
    const int crows = bh + 2 * RS, frows = bh + 2 * RF;
    float *c = Zb + plane;  // 8 planes of bw x crows
    const size_t cplane = (size_t)bw * crows;
    float *hYa = c, *hXa = c + cplane, *hZ1a = c + 2 * cplane, *hZ2a = c + 3 * cplane;
    float *hYb = c + 4 * cplane, *hXb = c + 5 * cplane, *hZ1b = c + 6 * cplane, *hZ2b = c + 7 * cplane;
    float *f = c + 8 * cplane;  // 6 planes of bw x frows
    const size_t fplane = (size_t)bw * frows;
    float *dA = f, *ddA = f + fplane, *gA = f + 2 * fplane, *dB = f + 3 * fplane, *ddB = f + 4 * fplane, *gB = f + 5 * fplane;

    // The filters (the reference's, normalized as it normalizes them).
    enum { MAXTAPS = 257 };
    const int swidth = 2 * RS + 1, fwidth = 2 * RF + 1;
    if (swidth > MAXTAPS || fwidth > MAXTAPS) return;
    float wY[MAXTAPS], wX[MAXTAPS], wZ1[MAXTAPS], wZ2[MAXTAPS], wg[MAXTAPS], wd[MAXTAPS], wdd[MAXTAPS];
    {
        const float deltaX = 1.0f / ppd;
        float sY = 0, sX = 0, sZ1 = 0, sZ2 = 0;
        for (int i = 0; i < swidth; i++) {
            float ix = (i - RS) * deltaX, ix2 = ix * ix;
            wY[i] = gaussian_ab(ix2, A1[0], B1[0]);
            wX[i] = gaussian_ab(ix2, A1[1], B1[1]);
            wZ1[i] = gaussian_sqrt(ix2, A1[2], B1[2]);
            wZ2[i] = gaussian_sqrt(ix2, A2[2], B2[2]);
            sY += wY[i];
            sX += wX[i];
            sZ1 += wZ1[i];
            sZ2 += wZ2[i];
        }
        const float nY = 1.0f / sY, nX = 1.0f / sX, nZ = 1.0f / sqrtf(sZ1 * sZ1 + sZ2 * sZ2);
        for (int i = 0; i < swidth; i++) {
            wY[i] *= nY;
            wX[i] *= nX;
            wZ1[i] *= nZ;
            wZ2[i] *= nZ;
        }
        const float sd = 0.5f * GW * ppd;
        float gs = 0, dpos = 0, dneg = 0, ddpos = 0, ddneg = 0;
        for (int i = 0; i < fwidth; i++) {
            int xx = i - RF;
            float g = expf(-((float)xx * (float)xx) / (2.0f * sd * sd));
            gs += g;
            float dg = -(float)xx * g;
            if (dg > 0.0f) dpos += dg; else dneg -= dg;
            float ddg = ((float)xx * (float)xx / (sd * sd) - 1.0f) * g;
            if (ddg > 0.0f) ddpos += ddg; else ddneg -= ddg;
            wg[i] = g;
            wd[i] = dg;
            wdd[i] = ddg;
        }
        for (int i = 0; i < fwidth; i++) {
            wg[i] = wg[i] / gs;
            wd[i] = wd[i] / (wd[i] > 0.0f ? dpos : dneg);
            wdd[i] = wdd[i] / (wdd[i] > 0.0f ? ddpos : ddneg);
        }
    }

    // YCxCz of the block and its margin, edges clamped.
    for (int r = 0; r < ph; r++) {
        const int y = clampi(y0 - R + r, 0, height - 1);
        const uint8_t *rowA = a + (size_t)y * stride_a, *rowB = b + (size_t)y * stride_b;
        for (int col = 0; col < pw; col++) {
            const int x = clampi(x0 - R + col, 0, width - 1);
            const uint8_t *p = rowA + 4 * (size_t)x;
            const uint8_t *q = (ignore_count > 0 && ignored(ignore, ignore_count, x, y)) ? p : rowB + 4 * (size_t)x;
            for (int side = 0; side < 2; side++) {
                const uint8_t *s = side == 0 ? p : q;
                float lr, lg, lb;
                if (s[3] == 255) {
                    lr = lut[s[0]];
                    lg = lut[s[1]];
                    lb = lut[s[2]];
                } else {
                    // pixelmatch's blend over white, then linear.
                    float k = s[3] / 255.0f;
                    lr = srgb_to_linear(clampf((255.0f + (s[0] - 255.0f) * k) / 255.0f));
                    lg = srgb_to_linear(clampf((255.0f + (s[1] - 255.0f) * k) / 255.0f));
                    lb = srgb_to_linear(clampf((255.0f + (s[2] - 255.0f) * k) / 255.0f));
                }
                const size_t i = (size_t)r * pw + col;
                if (side == 0) linear_to_ycxcz(lr, lg, lb, Ya + i, Xa + i, Za + i);
                else linear_to_ycxcz(lr, lg, lb, Yb + i, Xb + i, Zb + i);
            }
        }
    }

    // Colour: along the rows (the block's columns, rows of the spatial margin), then down.
    for (int r = 0; r < crows; r++) {
        const size_t src = (size_t)(r + R - RS) * pw + (R - RS), dst = (size_t)r * bw;
        float *oYa = hYa + dst, *oXa = hXa + dst, *oZ1a = hZ1a + dst, *oZ2a = hZ2a + dst;
        float *oYb = hYb + dst, *oXb = hXb + dst, *oZ1b = hZ1b + dst, *oZ2b = hZ2b + dst;
        for (int x = 0; x < bw; x++) oYa[x] = oXa[x] = oZ1a[x] = oZ2a[x] = oYb[x] = oXb[x] = oZ1b[x] = oZ2b[x] = 0.0f;
        for (int k = 0; k < swidth; k++) {
            const float *ya = Ya + src + k, *xa = Xa + src + k, *za = Za + src + k;
            const float *yb = Yb + src + k, *xb = Xb + src + k, *zb = Zb + src + k;
            const float w1 = wY[k], w2 = wX[k], w3 = wZ1[k], w4 = wZ2[k];
            for (int x = 0; x < bw; x++) {
                oYa[x] += w1 * ya[x];
                oXa[x] += w2 * xa[x];
                oZ1a[x] += w3 * za[x];
                oZ2a[x] += w4 * za[x];
                oYb[x] += w1 * yb[x];
                oXb[x] += w2 * xb[x];
                oZ1b[x] += w3 * zb[x];
                oZ2b[x] += w4 * zb[x];
            }
        }
    }
    const float cmax = max_distance(), pccmax = GPC * cmax;
    float vYa[bw], vXa[bw], vZ1a[bw], vZ2a[bw], vYb[bw], vXb[bw], vZ1b[bw], vZ2b[bw];
    for (int r = 0; r < bh; r++) {
        for (int x = 0; x < bw; x++) vYa[x] = vXa[x] = vZ1a[x] = vZ2a[x] = vYb[x] = vXb[x] = vZ1b[x] = vZ2b[x] = 0.0f;
        for (int k = 0; k < swidth; k++) {
            const size_t row = (size_t)(r + k) * bw;
            const float w1 = wY[k], w2 = wX[k], w3 = wZ1[k], w4 = wZ2[k];
            for (int x = 0; x < bw; x++) {
                vYa[x] += w1 * hYa[row + x];
                vXa[x] += w2 * hXa[row + x];
                vZ1a[x] += w3 * hZ1a[row + x];
                vZ2a[x] += w4 * hZ2a[row + x];
                vYb[x] += w1 * hYb[row + x];
                vXb[x] += w2 * hXb[row + x];
                vZ1b[x] += w3 * hZ1b[row + x];
                vZ2b[x] += w4 * hZ2b[row + x];
            }
        }
        for (int x = 0; x < bw; x++) {
            // Equal filtered colours: a colour difference of 0 (most of a block).
            if (vYa[x] == vYb[x] && vXa[x] == vXb[x] && vZ1a[x] + vZ2a[x] == vZ1b[x] + vZ2b[x]) {
                out[(size_t)r * bw + x] = 0.0f;
                continue;
            }
            float L1, A1v, B1v, L2, A2v, B2v;
            ycxcz_to_hunt_lab(vYa[x], vXa[x], vZ1a[x] + vZ2a[x], &L1, &A1v, &B1v);
            ycxcz_to_hunt_lab(vYb[x], vXb[x], vZ1b[x] + vZ2b[x], &L2, &A2v, &B2v);
            float d = powf(hyab(L1, A1v, B1v, L2, A2v, B2v), GQC);
            d = d < pccmax ? d * (GPT / pccmax) : GPT + ((d - pccmax) / (cmax - pccmax)) * (1.0f - GPT);
            out[(size_t)r * bw + x] = d;
        }
    }

    // Features: the normalized Y along the rows (derivatives and Gaussian), then down.
    const float oneOver116 = 1.0f / 116.0f, sixteenOver116 = 16.0f / 116.0f;
    for (int r = 0; r < frows; r++) {
        const size_t src = (size_t)(r + R - RF) * pw + (R - RF), dst = (size_t)r * bw;
        float *o1 = dA + dst, *o2 = ddA + dst, *o3 = gA + dst, *o4 = dB + dst, *o5 = ddB + dst, *o6 = gB + dst;
        for (int x = 0; x < bw; x++) o1[x] = o2[x] = o3[x] = o4[x] = o5[x] = o6[x] = 0.0f;
        for (int k = 0; k < fwidth; k++) {
            const float *ya = Ya + src + k, *yb = Yb + src + k;
            const float w1 = wg[k], w2 = wd[k], w3 = wdd[k];
            for (int x = 0; x < bw; x++) {
                const float na = ya[x] * oneOver116 + sixteenOver116, nb = yb[x] * oneOver116 + sixteenOver116;
                o1[x] += w2 * na;
                o4[x] += w2 * nb;
                o2[x] += w3 * na;
                o5[x] += w3 * nb;
                o3[x] += w1 * na;
                o6[x] += w1 * nb;
            }
        }
    }
    const float normalization = 1.0f / sqrtf(2.0f);
    float ex[bw], eddx[bw], edy[bw], eddy[bw], tx[bw], tddx[bw], tdy[bw], tddy[bw];
    for (int r = 0; r < bh; r++) {
        for (int x = 0; x < bw; x++) ex[x] = eddx[x] = edy[x] = eddy[x] = tx[x] = tddx[x] = tdy[x] = tddy[x] = 0.0f;
        for (int k = 0; k < fwidth; k++) {
            const size_t row = (size_t)(r + k) * bw;
            const float w1 = wg[k], w2 = wd[k], w3 = wdd[k];
            for (int x = 0; x < bw; x++) {
                ex[x] += w1 * dA[row + x];
                tx[x] += w1 * dB[row + x];
                eddx[x] += w1 * ddA[row + x];
                tddx[x] += w1 * ddB[row + x];
                edy[x] += w2 * gA[row + x];
                tdy[x] += w2 * gB[row + x];
                eddy[x] += w3 * gA[row + x];
                tddy[x] += w3 * gB[row + x];
            }
        }
        for (int x = 0; x < bw; x++) {
            const float edgeA = sqrtf(ex[x] * ex[x] + edy[x] * edy[x]), edgeB = sqrtf(tx[x] * tx[x] + tdy[x] * tdy[x]);
            const float pointA = sqrtf(eddx[x] * eddx[x] + eddy[x] * eddy[x]), pointB = sqrtf(tddx[x] * tddx[x] + tddy[x] * tddy[x]);
            const float de = fabsf(edgeA - edgeB), dp = fabsf(pointA - pointB);
            // GQF is 0.5: sqrtf for powf(v, 0.5).
            const float feature = sqrtf(normalization * (de > dp ? de : dp));
            const size_t i = (size_t)r * bw + x;
            out[i] = (out[i] == 0.0f && feature < 1.0f) ? 0.0f : powf(out[i], 1.0f - feature);
        }
    }
}
