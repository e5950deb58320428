// Colour management through Little CMS (color.c).
#ifndef MOSAIC_COLOR_H
#define MOSAIC_COLOR_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A transform from an embedded profile to sRGB (see color.c).
typedef struct {
    void *transform;
    int grey;
    /// The profile is for CMYK pixels: each pixel's four bytes hold C, M, Y, K (0 no ink).
    int cmyk;
    /// A matrix/TRC RGB profile's own fast path (color.c), used instead of `transform`.
    void *matrix;
} mosaic_color_transform;

/// The transform from the RGB, grey or CMYK ICC profile `icc` to sRGB, or NULL with
/// `result` saying why (an unreadable profile, one for Lab or another colour space...).
/// `exact`: always Little CMS's transform, never the matrix path (for tests).
mosaic_color_transform *mosaic_color_transform_create(const uint8_t *icc, size_t size, int exact, mosaic_result *result);
/// Converts `pixels` pixels in place: RGBA8 (straight alpha, kept) for an RGB or grey
/// profile; C M Y K bytes to RGBA8 with alpha 255 for a CMYK one. Reentrant.
void mosaic_color_transform_apply(const mosaic_color_transform *transform, uint8_t *rgba, size_t pixels);
void mosaic_color_transform_free(mosaic_color_transform *transform);
/// An RGB ICC profile from `chromaticities` (x, y of the white point, then of red, green
/// and blue) and one tone curve for the three channels: Little CMS's parametric curve
/// `curve_type` (1: gamma; 4: IEC 61966-2-1 shape) with its `parameters`. malloc'd (free
/// it), `*size` bytes; NULL on failure.
uint8_t *mosaic_color_rgb_profile(const double chromaticities[8], int curve_type, const double parameters[5], size_t *size);
/// The description (name) of an ICC profile into `out` (NUL-terminated); its length, 0
/// when the profile cannot be read or has none.
size_t mosaic_color_profile_name(const uint8_t *icc, size_t size, char *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
