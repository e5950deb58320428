// EXIF through libexif (exif.c).
#ifndef MOSAIC_EXIF_H
#define MOSAIC_EXIF_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The Orientation tag (1...8) of an EXIF block that starts with "Exif\0\0" or directly
/// with a TIFF header; 1 when there is none or it is invalid. Parsed by libexif.
int mosaic_exif_orientation(const uint8_t *data, size_t size);

/// Text fields of an EXIF block (as for mosaic_exif_orientation), empty when absent.
typedef struct {
    /// DateTimeOriginal ("2023:07:14 18:22:05"), else DateTime.
    char date[32];
    char make[64];
    char model[64];
    /// OffsetTimeOriginal ("+02:00"), else OffsetTime; empty when absent.
    char offset[16];
} mosaic_exif_text;

void mosaic_exif_text_fields(const uint8_t *data, size_t size, mosaic_exif_text *out);

#ifdef __cplusplus
}
#endif

#endif
