// HEIF (HEVC) and AVIF (AV1) through libheif: the primary image, with its transformations
// (irot, imir, clap) applied by libheif, so the result is upright; alpha; a stored
// thumbnail instead of the primary image when it covers the size asked for (as libvips
// does). libheif returns error structs, never jumps.
#include "CMosaicShims.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

static mosaic_result mosaic_heif_failed(struct heif_error error) {
    return mosaic_error(error.message && *error.message ? error.message : "libheif failed");
}

/// The context of `data` and its primary image, or an error (NEED_MORE_DATA when a
/// prefix did not hold the boxes libheif needs).
static mosaic_result mosaic_heif_open(const uint8_t *data, size_t size, int is_whole_file, struct heif_context **context,
                                      struct heif_image_handle **primary) {
    *context = heif_context_alloc();
    *primary = NULL;
    if (!*context) return mosaic_error("out of memory");
    struct heif_error error = heif_context_read_from_memory_without_copy(*context, data, size, NULL);
    if (error.code == heif_error_Ok) error = heif_context_get_primary_image_handle(*context, primary);
    if (error.code != heif_error_Ok) {
        // The message lives in the context: copy it before freeing that.
        mosaic_result result = is_whole_file ? mosaic_heif_failed(error) : mosaic_need_more_data();
        heif_context_free(*context);
        *context = NULL;
        return result;
    }
    return mosaic_ok();
}

static void mosaic_heif_close(struct heif_context *context, struct heif_image_handle *primary) {
    if (primary) heif_image_handle_release(primary);
    if (context) heif_context_free(context);
}

mosaic_result mosaic_heif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    memset(info, 0, sizeof *info);
    struct heif_context *context;
    struct heif_image_handle *primary;
    mosaic_result result = mosaic_heif_open(data, size, is_whole_file, &context, &primary);
    if (result.status != MOSAIC_OK) return result;
    info->width = heif_image_handle_get_width(primary);
    info->height = heif_image_handle_get_height(primary);
    info->orientation = 1;  // libheif applies the transformations: upright
    info->has_alpha = heif_image_handle_has_alpha_channel(primary);
    info->components = info->has_alpha ? 4 : 3;
    info->bit_depth = heif_image_handle_get_luma_bits_per_pixel(primary);
    info->frames = 1;
    // The number of thumbnails the file stores.
    info->color_space = heif_image_handle_get_number_of_thumbnails(primary);
    mosaic_heif_close(context, primary);
    if (info->width < 1 || info->height < 1) return mosaic_error("the image has no size");
    return result;
}

/// The image to decode for `min_width` x `min_height` (0: full size): the smallest stored
/// thumbnail that covers it, else the primary image. The caller releases it.
static struct heif_image_handle *mosaic_heif_choose(struct heif_image_handle *primary, int min_width, int min_height) {
    struct heif_image_handle *best = NULL;
    int count = heif_image_handle_get_number_of_thumbnails(primary);
    if (min_width > 0 && min_height > 0 && count > 0 && count <= 64) {
        heif_item_id ids[64];
        count = heif_image_handle_get_list_of_thumbnail_IDs(primary, ids, count);
        for (int i = 0; i < count; i++) {
            struct heif_image_handle *thumbnail = NULL;
            if (heif_image_handle_get_thumbnail(primary, ids[i], &thumbnail).code != heif_error_Ok || !thumbnail) continue;
            int w = heif_image_handle_get_width(thumbnail), h = heif_image_handle_get_height(thumbnail);
            int covers = w >= min_width && h >= min_height;
            if (covers && (!best || w < heif_image_handle_get_width(best))) {
                if (best) heif_image_handle_release(best);
                best = thumbnail;
            } else {
                heif_image_handle_release(thumbnail);
            }
        }
    }
    return best;
}

/// Opens `data` and chooses the image to decode for `min_width` x `min_height`: the
/// thumbnail (`*thumbnail`, or NULL) or the primary image (`*chosen` is one of them).
static mosaic_result mosaic_heif_open_chosen(const uint8_t *data, size_t size, int min_width, int min_height,
                                             struct heif_context **context, struct heif_image_handle **primary,
                                             struct heif_image_handle **thumbnail, struct heif_image_handle **chosen) {
    mosaic_result result = mosaic_heif_open(data, size, 1, context, primary);
    if (result.status != MOSAIC_OK) return result;
    *thumbnail = mosaic_heif_choose(*primary, min_width, min_height);
    *chosen = *thumbnail ? *thumbnail : *primary;
    return result;
}

mosaic_result mosaic_heif_decoded_size(const uint8_t *data, size_t size, int min_width, int min_height, int *width, int *height) {
    struct heif_context *context;
    struct heif_image_handle *primary, *thumbnail, *chosen;
    mosaic_result result = mosaic_heif_open_chosen(data, size, min_width, min_height, &context, &primary, &thumbnail, &chosen);
    if (result.status != MOSAIC_OK) return result;
    *width = heif_image_handle_get_width(chosen);
    *height = heif_image_handle_get_height(chosen);
    if (thumbnail) heif_image_handle_release(thumbnail);
    mosaic_heif_close(context, primary);
    return result;
}

mosaic_result mosaic_heif_decode(const uint8_t *data, size_t size, int min_width, int min_height, uint8_t *out, size_t stride, int width,
                                 int height) {
    if (width < 1 || height < 1 || stride < (size_t)width * 4) return mosaic_error("invalid decode request");
    struct heif_context *context;
    struct heif_image_handle *primary, *thumbnail, *chosen;
    mosaic_result result = mosaic_heif_open_chosen(data, size, min_width, min_height, &context, &primary, &thumbnail, &chosen);
    if (result.status != MOSAIC_OK) return result;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    struct heif_error error = heif_decode_image(chosen, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    if (options) heif_decoding_options_free(options);
    if (error.code != heif_error_Ok || !image) {
        result = mosaic_heif_failed(error);
    } else {
        int plane_stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &plane_stride);
        int w = heif_image_get_width(image, heif_channel_interleaved), h = heif_image_get_height(image, heif_channel_interleaved);
        if (!plane || w != width || h != height || plane_stride < width * 4) {
            result = mosaic_error("libheif decoded another size than its headers said");
        } else {
            for (int y = 0; y < height; y++) memcpy(out + (size_t)y * stride, plane + (size_t)y * (size_t)plane_stride, (size_t)width * 4);
        }
        heif_image_release(image);
    }
    if (thumbnail) heif_image_handle_release(thumbnail);
    mosaic_heif_close(context, primary);
    return result;
}

mosaic_result mosaic_heif_color_profile(const uint8_t *data, size_t size, uint8_t **icc, size_t *icc_size, mosaic_heif_nclx *nclx) {
    *icc = NULL;
    *icc_size = 0;
    memset(nclx, 0, sizeof *nclx);
    struct heif_context *context;
    struct heif_image_handle *primary;
    mosaic_result result = mosaic_heif_open(data, size, 1, &context, &primary);
    if (result.status != MOSAIC_OK) return result;
    size_t length = heif_image_handle_get_raw_color_profile_size(primary);
    if (length > 0 && (*icc = malloc(length)) != NULL) {
        if (heif_image_handle_get_raw_color_profile(primary, *icc).code == heif_error_Ok) {
            *icc_size = length;
        } else {
            free(*icc);
            *icc = NULL;
        }
    }
    struct heif_color_profile_nclx *profile = NULL;
    if (heif_image_handle_get_nclx_color_profile(primary, &profile).code == heif_error_Ok && profile) {
        nclx->present = 1;
        nclx->primaries = (int)profile->color_primaries;
        nclx->transfer = (int)profile->transfer_characteristics;
        nclx->matrix = (int)profile->matrix_coefficients;
        nclx->full_range = profile->full_range_flag;
        heif_nclx_color_profile_free(profile);
    }
    mosaic_heif_close(context, primary);
    return result;
}

// MARK: Writing (fixtures)

mosaic_result mosaic_heif_encode_file(const char *path, const uint8_t *rgba, int width, int height, int avif, int quality,
                                      int thumbnail_size, const uint8_t *icc, size_t icc_size, int primaries, int transfer) {
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
            heif_nclx_color_profile_set_matrix_coefficients(nclx, heif_matrix_coefficients_ITU_R_BT_601_6);
            nclx->full_range_flag = 1;
            heif_image_set_nclx_color_profile(image, nclx);
            heif_nclx_color_profile_free(nclx);
        }
        error = heif_context_encode_image(context, image, encoder, NULL, &handle);
    }
    if (error.code == heif_error_Ok && thumbnail_size > 0) {
        struct heif_image_handle *thumb = NULL;
        error = heif_context_encode_thumbnail(context, image, handle, encoder, NULL, thumbnail_size, &thumb);
        if (thumb) heif_image_handle_release(thumb);
    }
    if (error.code == heif_error_Ok) error = heif_context_write_to_file(context, path);
    mosaic_result result = error.code == heif_error_Ok ? mosaic_ok() : mosaic_heif_failed(error);
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(context);
    return result;
}
