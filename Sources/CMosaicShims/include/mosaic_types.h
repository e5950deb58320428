// The types every call of the shim shares: the status and result of a call, and what an
// image's headers say.
#ifndef MOSAIC_TYPES_H
#define MOSAIC_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MOSAIC_OK = 0,
    /// The library refused the data or the call; `message` says why.
    MOSAIC_ERROR = 1,
    /// A probe ran out of bytes before the end of the headers: call again with more.
    MOSAIC_NEED_MORE_DATA = 2,
    /// A system call failed (the output file could not be created); `system_errno` is its
    /// errno, read at once.
    MOSAIC_SYSTEM_ERROR = 3,
    /// Memory the call needed could not be allocated (the data may be fine); `message`
    /// says for what.
    MOSAIC_OUT_OF_MEMORY = 4,
} mosaic_status;

enum { MOSAIC_MESSAGE_SIZE = 200 };

/// What a call reports besides its status.
typedef struct {
    mosaic_status status;
    /// The library's message when status is MOSAIC_ERROR.
    char message[MOSAIC_MESSAGE_SIZE];
    /// Warnings the library emitted (corrupt or truncated data it worked around).
    int warning_count;
    /// The first warning's message.
    char warning[MOSAIC_MESSAGE_SIZE];
    /// With MOSAIC_SYSTEM_ERROR: the errno of the call that failed.
    int system_errno;
    /// Of the warnings, those that mean lost or corrupt image data (a truncated file, a
    /// corrupt scan, a palette index past the palette), as opposed to benign ones (an
    /// incorrect sRGB profile, extraneous bytes between markers).
    int damage_count;
    /// The first such warning's message.
    char damage[MOSAIC_MESSAGE_SIZE];
} mosaic_result;

/// What the headers say.
typedef struct {
    int width;
    int height;
    /// 1 to 8, from EXIF (JPEG APP1, PNG eXIf); 1 when absent or invalid.
    int orientation;
    int has_alpha;
    /// JPEG: components in the file (1 grey, 3, 4 CMYK/YCCK); PNG: channels.
    int components;
    /// JPEG: libjpeg's J_COLOR_SPACE of the file; PNG: the colour type; WebP: libwebp's
    /// format (0 mixed, 1 lossy, 2 lossless), 3 for an animation (of any frame count).
    int color_space;
    /// PNG: bits per sample; JPEG: 8 (or 12).
    int bit_depth;
    int progressive;
    /// JPEG: arithmetic-coded.
    int arithmetic;
    /// JPEG: an Adobe APP14 marker was seen (CMYK values stored inverted).
    int adobe;
    /// PNG: Adam7.
    int interlaced;
    /// PNG: the tEXt "Software" value before the image data, if any (truncated).
    char software[64];
    /// JPEG: bytes of DCT coefficients a progressive decode holds for the whole image
    /// (every component at its own sampling); 0 for a sequential file.
    size_t coefficient_bytes;
    /// Frames of an animation (WebP); 0 or 1 for a still image.
    int frames;
    /// HEIF: the gain map the file carries: 0 none, 1 Apple's (an auxiliary image of type
    /// urn:com:apple:photo:2020:aux:hdrgainmap), 2 ISO 21496-1's (a `tmap` item).
    int gain_map;
} mosaic_image_info;

#ifdef __cplusplus
}
#endif

#endif
