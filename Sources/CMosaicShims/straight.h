// Premultiplied to straight alpha, for the encoders that store straight alpha (WebP,
// AVIF). Not part of the shim's interface.
#ifndef MOSAIC_STRAIGHT_H
#define MOSAIC_STRAIGHT_H

#include <stdint.h>

/// The straight colour of a premultiplied RGBA8 pixel: each channel times 255 over alpha,
/// rounded and clamped; black where the pixel is transparent.
static inline void mosaic_straight_rgb(const uint8_t *pixel, uint8_t rgb[3]) {
    unsigned a = pixel[3];
    for (int c = 0; c < 3; c++) {
        unsigned v = a == 255 ? pixel[c] : a == 0 ? 0 : (pixel[c] * 255u + a / 2) / a;
        rgb[c] = (uint8_t)(v > 255 ? 255 : v);
    }
}

#endif
