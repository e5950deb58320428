// Camera RAW files through LibRaw's thread-safe libraw_r (raw.c), and the walk of their
// TIFF directories (and a RAF's header) that finds the embedded JPEG previews LibRaw 0.20
// does not list.
#ifndef MOSAIC_RAW_H
#define MOSAIC_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MOSAIC_RAW_MAX_PREVIEWS = 8 };

/// An embedded JPEG preview: where its bytes are in the file and its size from its SOF.
typedef struct {
    size_t offset;
    size_t length;
    int width;
    int height;
    /// 1 when the file says the preview is in Adobe RGB (DNG PreviewColorSpace 3, or the
    /// camera's Exif ColorSpace "uncalibrated" with interoperability index R03).
    int adobe_rgb;
} mosaic_raw_preview;

/// What a RAW file's headers say.
typedef struct {
    /// The full-size developed image as stored (before the orientation), the orientation
    /// (EXIF 1...8), bits of the raw data; `components` 1 when LibRaw identified it.
    mosaic_image_info image;
    /// The previews found, largest first.
    int preview_count;
    mosaic_raw_preview previews[MOSAIC_RAW_MAX_PREVIEWS];
    /// Why LibRaw cannot draw the raw data ("DNG compressed with JPEG XL: LibRaw 0.20
    /// cannot decode it", "the raw data is cut short..."); empty when it can.
    char undrawable[MOSAIC_MESSAGE_SIZE];
    /// The kind of RAW ("DNG", "CR2", "NEF", "CR3", "RAF"...), for messages.
    char kind[16];
    /// Byte offset of a TIFF structure holding the Exif (0 for a TIFF-based RAW; a RAF's
    /// embedded JPEG's APP1) and its length; 0 length when there is none.
    size_t exif_offset;
    size_t exif_length;
} mosaic_raw_info;

/// 1 when the first `size` bytes of a file start a camera RAW: a signature of its own
/// (CR3, RAF, ORF, RW2, CRW, CR2), or a TIFF whose first directory is a RAW's (DNGVersion,
/// or a camera's Make with raw data, sub-directories or a reduced first image).
int mosaic_raw_recognize(const uint8_t *data, size_t size);

/// Reads a RAW file's headers: LibRaw's identification (no pixel unpacked), the previews
/// and the reason it cannot be drawn, if any. Without `use_libraw`, only the directory
/// walk (the previews it finds, the kind, the Exif's place): no size. Not `whole` (a
/// prefix of the file): MOSAIC_NEED_MORE_DATA unless the file is a TIFF whose directories
/// and previews' headers lie in the prefix and LibRaw's thumbnail is among them.
mosaic_result mosaic_raw_probe(const uint8_t *data, size_t size, int use_libraw, int whole, mosaic_raw_info *info);

/// Develops the raw data through LibRaw (camera white balance, sRGB, 8 bits; `half` for
/// its half-size mode), as stored (no orientation applied), into a malloc'd RGBA8 buffer
/// (`*out`, free() it) of `*width` x `*height`. Refused, before unpacking, when the result
/// or LibRaw's working memory would pass `memory_limit` bytes (0: no limit).
mosaic_result mosaic_raw_develop(const uint8_t *data, size_t size, int half, size_t memory_limit, uint8_t **out, int *width, int *height);

/// The bytes LibRaw holds to develop a raw image of `width` x `height` (raw sensor size
/// `raw_width` x `raw_height`) at full size or half.
size_t mosaic_raw_develop_bytes(int width, int height, int half);

#ifdef __cplusplus
}
#endif

#endif
