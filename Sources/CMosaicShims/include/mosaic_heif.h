// HEIF and AVIF reading through libheif (heif.c).
#ifndef MOSAIC_HEIF_H
#define MOSAIC_HEIF_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a HEIF or AVIF file's primary image's headers through libheif: size after its
/// transformations (so orientation 1), alpha, bit depth; `color_space` holds how many
/// thumbnails it stores. A prefix that does not hold the boxes gives NEED_MORE_DATA.
mosaic_result mosaic_heif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// The size `mosaic_heif_decode` will give for `min_width` x `min_height` (0 x 0: full
/// size): the smallest stored thumbnail covering it, else the primary image's.
mosaic_result mosaic_heif_decoded_size(const uint8_t *data, size_t size, int min_width, int min_height, int *width, int *height);

/// Decodes that image (upright, RGBA8 straight alpha, HDR to 8 bits) into `out`: its size
/// as `mosaic_heif_decoded_size` said, divided by `reduction` (1 or more, rounded up), each
/// pixel the average of a `reduction` x `reduction` block (an opaque 8-bit image straight
/// from its YCbCr planes, converted once per block).
mosaic_result mosaic_heif_decode(const uint8_t *data, size_t size, int min_width, int min_height, int reduction, uint8_t *out, size_t stride,
                                 int width, int height);

/// A `colr` box of type nclx: its ITU-T H.273 colour primaries and transfer
/// characteristics (libheif applies the matrix itself).
typedef struct {
    int present;
    int primaries, transfer;
} mosaic_heif_nclx;

/// The primary image's colour: its ICC profile (`colr` prof or rICC; malloc'd into
/// `*icc`, free() it; NULL when none) and its nclx box (`present` 0 when none).
mosaic_result mosaic_heif_color_profile(const uint8_t *data, size_t size, uint8_t **icc, size_t *icc_size, mosaic_heif_nclx *nclx);

/// The primary image's EXIF block (the TIFF structure after the block's offset field), a
/// malloc'd copy the caller frees; 0 (and NULL) when there is none or the file does not
/// open (a prefix that lacks the block's bytes).
int mosaic_heif_exif(const uint8_t *data, size_t size, uint8_t **exif, size_t *exif_size);

/// 1 when the `meta` box of `data` (a HEIF file, or its first bytes) lists an item of
/// `item_type` (four characters: "tmap" for an ISO 21496-1 gain map, "mime" for XMP) in its
/// `iinf` box; 0 when not, or when the boxes run past `size`. Every length is checked
/// against the data; libheif is not called.
int mosaic_heif_lists_item_type(const uint8_t *data, size_t size, const char *item_type);

/// The primary image's XMP packet (its `mime` item of content type application/rdf+xml,
/// read through libheif's metadata API), a malloc'd copy the caller frees; 0 (and NULL)
/// when there is none (the boxes list no mime item: libheif is not asked) or the file does
/// not open.
int mosaic_heif_xmp_packet(const uint8_t *data, size_t size, uint8_t **xmp, size_t *xmp_size);

#ifdef __cplusplus
}
#endif

#endif
