// HEIF and AVIF fixtures through libheif.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdio.h>
#include <stdlib.h>
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

// MARK: Gain maps and XMP

typedef struct {
    uint8_t *bytes;
    size_t size;
} mosaic_heif_memory;

static struct heif_error mosaic_heif_write_memory(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    mosaic_heif_memory *memory = userdata;
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, ""};
    uint8_t *grown = realloc(memory->bytes, memory->size + size);
    if (!grown) {
        error.code = heif_error_Memory_allocation_error;
        error.message = "out of memory";
        return error;
    }
    memcpy(grown + memory->size, data, size);
    memory->bytes = grown;
    memory->size += size;
    return error;
}

/// The last occurrence of the four characters `type` in `bytes`, or -1.
static long mosaic_heif_last(const uint8_t *bytes, size_t size, const char *type) {
    for (size_t i = size >= 4 ? size - 4 : 0; size >= 4; i--) {
        if (memcmp(bytes + i, type, 4) == 0) return (long)i;
        if (i == 0) break;
    }
    return -1;
}

/// An opaque RGB image of `width` x `height` from RGBA8 `rgba`.
static struct heif_error mosaic_heif_rgb_image(const uint8_t *rgba, int width, int height, struct heif_image **image) {
    struct heif_error error = heif_image_create(width, height, heif_colorspace_RGB, heif_chroma_interleaved_RGB, image);
    if (error.code == heif_error_Ok) error = heif_image_add_plane(*image, heif_channel_interleaved, width, height, 8);
    if (error.code != heif_error_Ok) return error;
    int stride = 0;
    uint8_t *plane = heif_image_get_plane(*image, heif_channel_interleaved, &stride);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) memcpy(plane + (size_t)y * (size_t)stride + (size_t)x * 3, rgba + ((size_t)y * (size_t)width + (size_t)x) * 4, 3);
    }
    return error;
}

mosaic_result mosaic_heif_encode_gain_map_file(const char *path, const uint8_t *rgba, int width, int height, const uint8_t *gain_rgba,
                                               int gain_map, const uint8_t *icc, size_t icc_size, const char *xmp, size_t xmp_size) {
    // Apple's auxC property takes the place of a colr box of the same length, written for
    // the map from a 40-byte "profile" that is the URN and its NUL.
    static const char urn[40] = "urn:com:apple:photo:2020:aux:hdrgainmap";
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL, *map = NULL;
    struct heif_image_handle *handle = NULL, *map_handle = NULL;
    mosaic_heif_memory memory = {NULL, 0};
    struct heif_error error = heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder);
    if (error.code == heif_error_Ok) error = mosaic_heif_rgb_image(rgba, width, height, &image);
    if (error.code == heif_error_Ok) {
        heif_encoder_set_lossy_quality(encoder, 90);
        if (icc && icc_size > 0) heif_image_set_raw_color_profile(image, "prof", icc, icc_size);
        error = heif_context_encode_image(context, image, encoder, NULL, &handle);
    }
    if (error.code == heif_error_Ok && xmp && xmp_size > 0) error = heif_context_add_XMP_metadata(context, handle, xmp, (int)xmp_size);
    if (error.code == heif_error_Ok && gain_map > 0) error = mosaic_heif_rgb_image(gain_rgba, width / 2, height / 2, &map);
    if (error.code == heif_error_Ok && gain_map == 1) {
        heif_image_set_raw_color_profile(map, "prof", urn, sizeof urn);
        error = heif_context_encode_image(context, map, encoder, NULL, &map_handle);
        // A thumbnail's reference (thmb, from the map to the image), made auxl below.
        if (error.code == heif_error_Ok) error = heif_context_assign_thumbnail(context, handle, map_handle);
    } else if (error.code == heif_error_Ok && gain_map == 2) {
        error = heif_context_encode_image(context, map, encoder, NULL, &map_handle);
        // The tmap item: ISO 21496-1's metadata (version 0, an SDR base), derived from the
        // image (cdsc made dimg below).
        static const uint8_t tmap[] = {0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1};
        if (error.code == heif_error_Ok) error = heif_context_add_generic_metadata(context, handle, tmap, (int)sizeof tmap, "tmap", NULL);
    }
    if (error.code == heif_error_Ok && map_handle) error = heif_context_set_primary_image(context, handle);
    if (error.code == heif_error_Ok) {
        struct heif_writer writer = {1, mosaic_heif_write_memory};
        error = heif_context_write(context, &writer, &memory);
    }
    mosaic_result result = error.code == heif_error_Ok ? mosaic_ok() : mosaic_error(error.message && *error.message ? error.message : "libheif failed");
    if (result.status == MOSAIC_OK && gain_map == 1) {
        long thmb = mosaic_heif_last(memory.bytes, memory.size, "thmb");
        long profile = -1;
        for (size_t i = 0; i + sizeof urn <= memory.size; i++) {
            if (memcmp(memory.bytes + i, urn, sizeof urn) == 0) profile = (long)i;
        }
        if (thmb < 0 || profile < 12 || memcmp(memory.bytes + profile - 8, "colrprof", 8) != 0) {
            result = mosaic_error("libheif wrote no thmb reference or colr box to make the gain map of");
        } else {
            // libheif 1.15 writes this reference from the image to the map: auxl goes from
            // the map to the image it belongs to.
            memcpy(memory.bytes + thmb, "auxl", 4);
            if ((size_t)thmb + 10 <= memory.size && memory.bytes[thmb + 6] == 0 && memory.bytes[thmb + 7] == 1) {
                uint8_t from[2] = {memory.bytes[thmb + 4], memory.bytes[thmb + 5]};
                memcpy(memory.bytes + thmb + 4, memory.bytes + thmb + 8, 2);
                memcpy(memory.bytes + thmb + 8, from, 2);
            }
            memcpy(memory.bytes + profile - 8, "auxC", 4);
            memset(memory.bytes + profile - 4, 0, 4);
        }
    } else if (result.status == MOSAIC_OK && gain_map == 2) {
        long cdsc = mosaic_heif_last(memory.bytes, memory.size, "cdsc");
        if (cdsc < 0) result = mosaic_error("libheif wrote no cdsc reference to make the tmap's of");
        else memcpy(memory.bytes + cdsc, "dimg", 4);
    }
    if (result.status == MOSAIC_OK) {
        FILE *file = fopen(path, "wb");
        int written = file && fwrite(memory.bytes, 1, memory.size, file) == memory.size;
        if (file) written &= fclose(file) == 0;
        if (!written) result = mosaic_error("the fixture could not be written");
    }
    free(memory.bytes);
    if (map_handle) heif_image_handle_release(map_handle);
    if (handle) heif_image_handle_release(handle);
    if (map) heif_image_release(map);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return result;
}
