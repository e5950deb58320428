// HEIF and AVIF fixtures through libheif.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <string.h>

#include <libheif/heif.h>

mosaic_result mosaic_heif_encode_file(const char *path, const uint8_t *rgba, int width, int height, int avif, int quality,
                                      int thumbnail_size, const uint8_t *icc, size_t icc_size, int primaries, int transfer, int matrix,
                                      int full_range, const uint8_t *exif, size_t exif_size) {
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = heif_context_get_encoder_for_format(
        context, avif ? heif_compression_AV1 : heif_compression_HEVC, &encoder);
    // Opaque pixels are written without an alpha plane.
    int opaque = 1;
    for (size_t i = 3; i < (size_t)width * (size_t)height * 4; i += 4) opaque &= rgba[i] == 255;
    int channels = opaque ? 3 : 4;
    if (error.code == heif_error_Ok) {
        error = heif_image_create(width, height, heif_colorspace_RGB, opaque ? heif_chroma_interleaved_RGB : heif_chroma_interleaved_RGBA, &image);
    }
    if (error.code == heif_error_Ok) error = heif_image_add_plane(image, heif_channel_interleaved, width, height, 8);
    if (error.code == heif_error_Ok) {
        int stride = 0;
        uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                memcpy(plane + (size_t)y * (size_t)stride + (size_t)x * (size_t)channels, rgba + ((size_t)y * (size_t)width + (size_t)x) * 4,
                       (size_t)channels);
            }
        }
        heif_encoder_set_lossy_quality(encoder, quality);
        if (icc && icc_size > 0) heif_image_set_raw_color_profile(image, "prof", icc, icc_size);
        struct heif_color_profile_nclx *nclx = primaries > 0 ? heif_nclx_color_profile_alloc() : NULL;
        if (nclx) {
            heif_nclx_color_profile_set_color_primaries(nclx, (uint16_t)primaries);
            heif_nclx_color_profile_set_transfer_characteristics(nclx, (uint16_t)transfer);
            heif_nclx_color_profile_set_matrix_coefficients(nclx, (uint16_t)matrix);
            nclx->full_range_flag = (uint8_t)full_range;
            heif_image_set_nclx_color_profile(image, nclx);
            heif_nclx_color_profile_free(nclx);
        }
        error = heif_context_encode_image(context, image, encoder, NULL, &handle);
    }
    if (error.code == heif_error_Ok && exif && exif_size > 0) error = heif_context_add_exif_metadata(context, handle, exif, (int)exif_size);
    if (error.code == heif_error_Ok && thumbnail_size > 0) {
        struct heif_image_handle *thumb = NULL;
        error = heif_context_encode_thumbnail(context, image, handle, encoder, NULL, thumbnail_size, &thumb);
        if (thumb) heif_image_handle_release(thumb);
    }
    if (error.code == heif_error_Ok) error = heif_context_write_to_file(context, path);
    mosaic_result result = error.code == heif_error_Ok ? mosaic_ok() : mosaic_error(error.message && *error.message ? error.message : "libheif failed");
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return result;
}
