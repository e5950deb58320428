// The AVIF sheet encoder: libheif with its AV1 encoder plugin (Debian 12's libheif 1.15
// encodes AV1 with libaom). libheif encodes whole pictures: the page's rows are gathered
// into a heif_image's interleaved plane (3 or 4 bytes a pixel) and encoded in one call,
// which adds libaom's working memory (its YUV frame, lookahead and per-thread buffers).
#include "mosaic_heif_write.h"
#include "results.h"
#include "straight.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

struct mosaic_avif_writer {
    struct heif_image *image;
    uint8_t *plane;
    int stride;
    int width;
    int height;
    int channels;
    int rows;
};

static mosaic_result mosaic_avif_failed(struct heif_error error) {
    return mosaic_error(error.message && *error.message ? error.message : "libheif failed");
}

int mosaic_avif_encoder_available(void) { return heif_have_encoder_for_format(heif_compression_AV1) ? 1 : 0; }

const char *mosaic_avif_encoder_name(void) {
    const struct heif_encoder_descriptor *descriptor = NULL;
    if (heif_context_get_encoder_descriptors(NULL, heif_compression_AV1, NULL, &descriptor, 1) < 1 || !descriptor) return "";
    return heif_encoder_descriptor_get_name(descriptor);
}

void mosaic_avif_writer_free(mosaic_avif_writer *writer) {
    if (!writer) return;
    if (writer->image) heif_image_release(writer->image);
    free(writer);
}

mosaic_avif_writer *mosaic_avif_writer_open(int width, int height, int has_alpha, mosaic_result *result) {
    *result = mosaic_ok();
    if (!mosaic_avif_encoder_available()) {
        *result = mosaic_error("libheif has no AV1 encoder (no aom or rav1e plugin)");
        return NULL;
    }
    if (width < 1 || height < 1 || width > 32768 || height > 32768) {
        *result = mosaic_error("an AVIF is at most 32768 pixels a side (libheif reads no larger)");
        return NULL;
    }
    mosaic_avif_writer *writer = calloc(1, sizeof *writer);
    if (!writer) {
        *result = mosaic_error("out of memory");
        return NULL;
    }
    writer->width = width;
    writer->height = height;
    writer->channels = has_alpha ? 4 : 3;
    struct heif_error error = heif_image_create(
        width, height, heif_colorspace_RGB, has_alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &writer->image);
    if (error.code == heif_error_Ok) error = heif_image_add_plane(writer->image, heif_channel_interleaved, width, height, 8);
    if (error.code == heif_error_Ok) {
        writer->plane = heif_image_get_plane(writer->image, heif_channel_interleaved, &writer->stride);
        if (!writer->plane) error.code = heif_error_Memory_allocation_error;
    }
    if (error.code != heif_error_Ok) {
        *result = mosaic_avif_failed(error);
        mosaic_avif_writer_free(writer);
        return NULL;
    }
    return writer;
}

mosaic_result mosaic_avif_writer_write(mosaic_avif_writer *writer, const uint8_t *rgba, size_t stride, int rows) {
    if (rows < 0 || writer->rows + rows > writer->height) return mosaic_error("more rows than the image holds");
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        uint8_t *out = writer->plane + (size_t)(writer->rows + y) * (size_t)writer->stride;
        for (int x = 0; x < writer->width; x++) {
            if (writer->channels == 3) {
                memcpy(out + 3 * x, row + 4 * x, 3);  // opaque: premultiplied is straight
            } else {
                mosaic_straight_rgb(row + 4 * x, out + 4 * x);
                out[4 * x + 3] = row[4 * x + 3];
            }
        }
    }
    writer->rows += rows;
    return mosaic_ok();
}

/// libheif's writer callback: the bytes go to the caller's FILE.
static struct heif_error mosaic_avif_write_file(struct heif_context *context, const void *data, size_t size, void *file) {
    (void)context;
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (fwrite(data, 1, size, (FILE *)file) != size) {
        error.code = heif_error_Encoding_error;
        error.subcode = heif_suberror_Cannot_write_output_data;
        error.message = "cannot write";
    }
    return error;
}

mosaic_result mosaic_avif_writer_finish(mosaic_avif_writer *writer, FILE *file, int quality, int lossless, int speed, const char *xmp) {
    if (writer->rows != writer->height) {
        mosaic_avif_writer_free(writer);
        return mosaic_error("rows are missing");
    }
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    if (!context || !nclx || !options) error = (struct heif_error){heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
    if (error.code == heif_error_Ok) error = heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder);
    if (error.code == heif_error_Ok) error = lossless ? heif_encoder_set_lossless(encoder, 1) : heif_encoder_set_lossy_quality(encoder, quality);
    if (error.code == heif_error_Ok) error = heif_encoder_set_parameter_integer(encoder, "speed", speed);
    // Lossless stores RGB as is (the identity matrix), which AV1 allows only at full chroma
    // resolution: libaom aborts the process on an identity matrix with 4:2:0.
    if (error.code == heif_error_Ok && lossless) error = heif_encoder_set_parameter_string(encoder, "chroma", "444");
    if (error.code == heif_error_Ok) {
        // The sheet is sRGB: say so (BT.709 primaries, the sRGB curve, BT.601 matrix, full
        // range), so that decoders convert back as it was meant.
        heif_nclx_color_profile_set_color_primaries(nclx, heif_color_primaries_ITU_R_BT_709_5);
        heif_nclx_color_profile_set_transfer_characteristics(nclx, heif_transfer_characteristic_IEC_61966_2_1);
        heif_nclx_color_profile_set_matrix_coefficients(nclx, lossless ? heif_matrix_coefficients_RGB_GBR : heif_matrix_coefficients_ITU_R_BT_601_6);
        nclx->full_range_flag = 1;
        options->output_nclx_profile = nclx;
        error = heif_image_set_nclx_color_profile(writer->image, nclx);
    }
    if (error.code == heif_error_Ok) error = heif_context_encode_image(context, writer->image, encoder, options, &handle);
    mosaic_avif_writer_free(writer);  // the picture is no longer needed
    if (error.code == heif_error_Ok && xmp) error = heif_context_add_XMP_metadata(context, handle, xmp, (int)strlen(xmp));
    mosaic_result result = mosaic_ok();
    if (error.code == heif_error_Ok) {
        struct heif_writer output = {1, mosaic_avif_write_file};
        error = heif_context_write(context, &output, file);
        if (error.code != heif_error_Ok && error.subcode == heif_suberror_Cannot_write_output_data) {
            result.status = MOSAIC_SYSTEM_ERROR;
            result.system_errno = errno;
            snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s", strerror(errno));
        }
    }
    if (error.code != heif_error_Ok && result.status == MOSAIC_OK) result = mosaic_avif_failed(error);
    if (handle) heif_image_handle_release(handle);
    if (encoder) heif_encoder_release(encoder);
    if (options) {
        options->output_nclx_profile = NULL;
        heif_encoding_options_free(options);
    }
    if (nclx) heif_nclx_color_profile_free(nclx);
    if (context) heif_context_free(context);
    return result;
}

char *mosaic_heif_xmp(const char *path) {
    struct heif_context *context = heif_context_alloc();
    struct heif_image_handle *primary = NULL;
    char *xmp = NULL;
    if (context && heif_context_read_from_file(context, path, NULL).code == heif_error_Ok &&
        heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok) {
        heif_item_id ids[8];
        int count = heif_image_handle_get_list_of_metadata_block_IDs(primary, "mime", ids, 8);
        for (int i = 0; i < count && !xmp; i++) {
            const char *type = heif_image_handle_get_metadata_content_type(primary, ids[i]);
            if (!type || strcmp(type, "application/rdf+xml") != 0) continue;
            size_t size = heif_image_handle_get_metadata_size(primary, ids[i]);
            if (size == 0 || size > (1 << 20) || !(xmp = calloc(size + 1, 1))) continue;
            if (heif_image_handle_get_metadata(primary, ids[i], xmp).code != heif_error_Ok) {
                free(xmp);
                xmp = NULL;
            }
        }
    }
    if (primary) heif_image_handle_release(primary);
    if (context) heif_context_free(context);
    return xmp;
}
