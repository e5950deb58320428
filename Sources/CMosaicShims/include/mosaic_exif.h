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

/// The exposure of an EXIF block (as for mosaic_exif_orientation): 0 (or empty) when absent
/// or not a positive value.
typedef struct {
    /// LensModel (EXIF 2.3), else the lens named in no standard tag: empty.
    char lens[96];
    /// PhotographicSensitivity (ISOSpeedRatings).
    long iso;
    /// FNumber.
    double f_number;
    /// ExposureTime, seconds.
    double exposure_time;
    /// FocalLength, millimetres.
    double focal_length;
} mosaic_exif_exposure;

/// The text fields and, when `exposure` is not NULL, the exposure, from one parse.
void mosaic_exif_fields(const uint8_t *data, size_t size, mosaic_exif_text *text, mosaic_exif_exposure *exposure);

/// Apple's content identifier (maker note tag 0x0011, a UUID string that a Live Photo's
/// still and its clip share) of an EXIF block (as for mosaic_exif_orientation), into `out`
/// (printable ASCII, NUL-terminated); 1 when found, else 0 and "". Every offset of the
/// note is checked against the note.
int mosaic_exif_apple_content_identifier(const uint8_t *data, size_t size, char *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
