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

static uint32_t mosaic_heif_be32(const uint8_t *p) { return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]; }

/// The first box of `type` among the boxes in [`start`, `end`) of `data`: its body in
/// [`*body`, `*body_end`); 0 when there is none or a box's length runs past `end`.
static int mosaic_heif_box(const uint8_t *data, size_t start, size_t end, const char *type, size_t *body, size_t *body_end) {
    size_t at = start;
    while (at <= end && end - at >= 8) {
        uint64_t length = mosaic_heif_be32(data + at);
        size_t header = 8;
        if (length == 1) {
            if (end - at < 16) return 0;
            length = ((uint64_t)mosaic_heif_be32(data + at + 8) << 32) | mosaic_heif_be32(data + at + 12);
            header = 16;
        } else if (length == 0) {
            length = end - at;
        }
        if (length < header || length > end - at) return 0;
        if (memcmp(data + at + 4, type, 4) == 0) {
            *body = at + header;
            *body_end = at + (size_t)length;
            return 1;
        }
        at += (size_t)length;
    }
    return 0;
}

int mosaic_heif_lists_item_type(const uint8_t *data, size_t size, const char *item_type) {
    size_t meta, meta_end, iinf, iinf_end;
    if (!data || !mosaic_heif_box(data, 0, size, "meta", &meta, &meta_end) || meta_end - meta < 4) return 0;
    // meta and iinf are full boxes (a version and flags first); iinf's count is 16 bits in
    // version 0, else 32.
    if (!mosaic_heif_box(data, meta + 4, meta_end, "iinf", &iinf, &iinf_end) || iinf_end - iinf < 8) return 0;
    size_t at = iinf + 4 + (data[iinf] == 0 ? 2 : 4);
    while (at <= iinf_end && iinf_end - at >= 8) {
        size_t length = mosaic_heif_be32(data + at);
        if (length < 8 || length > iinf_end - at) return 0;
        // infe version 2 and 3: item_ID (16 or 32 bits), protection index (16), item_type.
        if (memcmp(data + at + 4, "infe", 4) == 0 && length >= 12 && data[at + 8] >= 2 && data[at + 8] <= 3) {
            size_t type_at = at + 12 + (data[at + 8] == 2 ? 2 : 4) + 2;
            if (type_at + 4 <= at + length && memcmp(data + type_at, item_type, 4) == 0) return 1;
        }
        at += length;
    }
    return 0;
}

/// 1 when `primary` has an auxiliary image of Apple's gain map type.
static int mosaic_heif_has_apple_gain_map(const struct heif_image_handle *primary) {
    int filter = LIBHEIF_AUX_IMAGE_FILTER_OMIT_ALPHA | LIBHEIF_AUX_IMAGE_FILTER_OMIT_DEPTH;
    int count = heif_image_handle_get_number_of_auxiliary_images(primary, filter);
    if (count < 1 || count > 16) return 0;
    heif_item_id ids[16];
    count = heif_image_handle_get_list_of_auxiliary_image_IDs(primary, filter, ids, count);
    int found = 0;
    for (int i = 0; i < count && !found; i++) {
        struct heif_image_handle *aux = NULL;
        if (heif_image_handle_get_auxiliary_image_handle(primary, ids[i], &aux).code != heif_error_Ok || !aux) continue;
        const char *type = NULL;
        if (heif_image_handle_get_auxiliary_type(aux, &type).code == heif_error_Ok && type) {
            found = strcmp(type, "urn:com:apple:photo:2020:aux:hdrgainmap") == 0;
        }
        if (type) heif_image_handle_free_auxiliary_types(aux, &type);
        heif_image_handle_release(aux);
    }
    return found;
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
    // A gain map: ISO 21496-1's tmap item (libheif 1.15 does not know it: the boxes say),
    // else Apple's auxiliary image. The primary image stays what is drawn.
    info->gain_map = mosaic_heif_lists_item_type(data, size, "tmap") ? 2 : mosaic_heif_has_apple_gain_map(primary) ? 1 : 0;
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

/// Kr and Kb of H.273 matrix coefficients (0 for GBR, stored as Y = G, Cb = B, Cr = R);
/// 0 when this reader does not convert them (then libheif does).
static int mosaic_heif_matrix(int matrix, double *kr, double *kb) {
    switch (matrix) {
    case 0: *kr = 0, *kb = 0; return 1;
    case 1: *kr = 0.2126, *kb = 0.0722; return 1;
    case 2: case 5: case 6: *kr = 0.299, *kb = 0.114; return 1;
    case 4: *kr = 0.30, *kb = 0.11; return 1;
    case 7: *kr = 0.212, *kb = 0.087; return 1;
    case 9: *kr = 0.2627, *kb = 0.0593; return 1;
    default: return 0;
    }
}

static uint8_t mosaic_heif_clamp(double v) { return (uint8_t)(v <= 0 ? 0 : v >= 255 ? 255 : v + 0.5); }

/// `image` (8-bit YCbCr 4:2:0, 4:2:2 or 4:4:4, or monochrome) averaged in
/// `k` x `k` blocks of luma (the chroma under them) and converted to RGBA8 into `out`,
/// `width` x `height` = the image's size divided by `k`, rounded up. 0 when the image is
/// in another form (the caller converts with libheif).
static int mosaic_heif_reduce_ycbcr(const struct heif_image *image, int k, uint8_t *out, size_t stride, int width, int height) {
    enum heif_colorspace space = heif_image_get_colorspace(image);
    enum heif_chroma chroma = heif_image_get_chroma_format(image);
    int grey = space == heif_colorspace_monochrome;
    if (!(space == heif_colorspace_YCbCr || grey) || heif_image_get_bits_per_pixel_range(image, heif_channel_Y) != 8) return 0;
    int shx, shy;
    switch (chroma) {
    case heif_chroma_420: shx = 1, shy = 1; break;
    case heif_chroma_422: shx = 1, shy = 0; break;
    case heif_chroma_444: shx = 0, shy = 0; break;
    case heif_chroma_monochrome: shx = 0, shy = 0; break;
    default: return 0;
    }
    // What libheif's own conversion to RGB uses: the decoded image's nclx when the decoder
    // attached one, else BT.601 full range (libheif 1.15 does not apply the colr box's
    // matrix or range: tested against its RGB output for colr labels of BT.709 and
    // BT.2020 limited range, whose planes it converts as BT.601 full range).
    int matrix = 6, full = 1;
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok && nclx) {
        matrix = (int)nclx->matrix_coefficients;
        full = nclx->full_range_flag;
    }
    if (nclx) heif_nclx_color_profile_free(nclx);
    double kr, kb;
    if (!mosaic_heif_matrix(matrix, &kr, &kb)) return 0;
    int w = heif_image_get_width(image, heif_channel_Y), h = heif_image_get_height(image, heif_channel_Y);
    if (w < 1 || h < 1 || (w + k - 1) / k != width || (h + k - 1) / k != height) return 0;
    int ys = 0, cbs = 0, crs = 0;
    const uint8_t *yp = heif_image_get_plane_readonly(image, heif_channel_Y, &ys);
    const uint8_t *cbp = grey ? NULL : heif_image_get_plane_readonly(image, heif_channel_Cb, &cbs);
    const uint8_t *crp = grey ? NULL : heif_image_get_plane_readonly(image, heif_channel_Cr, &crs);
    if (!yp || (!grey && (!cbp || !crp))) return 0;
    if (!grey && (heif_image_get_width(image, heif_channel_Cb) < ((w + shx) >> shx) || heif_image_get_height(image, heif_channel_Cb) < ((h + shy) >> shy) ||
                  heif_image_get_width(image, heif_channel_Cr) < ((w + shx) >> shx) || heif_image_get_height(image, heif_channel_Cr) < ((h + shy) >> shy))) {
        return 0;
    }
    uint32_t *sums = calloc((size_t)width * 3, sizeof *sums);
    if (!sums) return 0;
    // Full range: Y as is, chroma around 128; limited: Y from 16..235, chroma 16..240.
    double yscale = full ? 1.0 : 255.0 / 219.0, yoffset = full ? 0 : 16, cscale = full ? 1.0 : 255.0 / 224.0;
    double kg = 1 - kr - kb;
    for (int oy = 0; oy < height; oy++) {
        memset(sums, 0, (size_t)width * 3 * sizeof *sums);
        int rows = h - oy * k < k ? h - oy * k : k;
        for (int r = 0; r < rows; r++) {
            int y = oy * k + r;
            const uint8_t *yrow = yp + (size_t)y * (size_t)ys;
            const uint8_t *cbrow = grey ? NULL : cbp + (size_t)(y >> shy) * (size_t)cbs;
            const uint8_t *crrow = grey ? NULL : crp + (size_t)(y >> shy) * (size_t)crs;
            uint32_t *sum = sums;
            int column = 0;
            for (int x = 0; x < w; x++) {
                sum[0] += yrow[x];
                if (!grey) {
                    sum[1] += cbrow[x >> shx];
                    sum[2] += crrow[x >> shx];
                }
                if (++column == k) {
                    column = 0;
                    sum += 3;
                }
            }
        }
        uint8_t *o = out + (size_t)oy * stride;
        for (int ox = 0; ox < width; ox++) {
            int count = rows * (w - ox * k < k ? w - ox * k : k);
            double yv = ((double)sums[3 * ox] / count - yoffset) * yscale;
            uint8_t *p = o + 4 * ox;
            if (grey) {
                p[0] = p[1] = p[2] = mosaic_heif_clamp(yv);
            } else {
                double cb = ((double)sums[3 * ox + 1] / count - 128) * cscale, cr = ((double)sums[3 * ox + 2] / count - 128) * cscale;
                if (matrix == 0) {
                    // GBR: the planes hold G, B, R as they are.
                    p[0] = mosaic_heif_clamp(cr + 128 * cscale), p[1] = mosaic_heif_clamp(yv), p[2] = mosaic_heif_clamp(cb + 128 * cscale);
                } else {
                    p[0] = mosaic_heif_clamp(yv + 2 * (1 - kr) * cr);
                    p[1] = mosaic_heif_clamp(yv - (2 * kb * (1 - kb) / kg) * cb - (2 * kr * (1 - kr) / kg) * cr);
                    p[2] = mosaic_heif_clamp(yv + 2 * (1 - kb) * cb);
                }
            }
            p[3] = 255;
        }
    }
    free(sums);
    return 1;
}

/// RGBA8 rows (straight alpha) averaged in `k` x `k` blocks, alpha-weighted, into `out`.
static void mosaic_heif_reduce_rgba(const uint8_t *plane, int plane_stride, int w, int h, int k, uint8_t *out, size_t stride, int width,
                                    int height) {
    for (int oy = 0; oy < height; oy++) {
        for (int ox = 0; ox < width; ox++) {
            uint64_t r = 0, g = 0, b = 0, a = 0, n = 0;
            for (int y = oy * k; y < h && y < oy * k + k; y++) {
                const uint8_t *p = plane + (size_t)y * (size_t)plane_stride + (size_t)ox * (size_t)k * 4;
                for (int x = ox * k; x < w && x < ox * k + k; x++, p += 4) {
                    r += (uint64_t)p[0] * p[3], g += (uint64_t)p[1] * p[3], b += (uint64_t)p[2] * p[3], a += p[3], n++;
                }
            }
            uint8_t *o = out + (size_t)oy * stride + (size_t)ox * 4;
            o[0] = a ? (uint8_t)((r + a / 2) / a) : 0;
            o[1] = a ? (uint8_t)((g + a / 2) / a) : 0;
            o[2] = a ? (uint8_t)((b + a / 2) / a) : 0;
            o[3] = (uint8_t)((a + n / 2) / n);
        }
    }
}

mosaic_result mosaic_heif_decode(const uint8_t *data, size_t size, int min_width, int min_height, int reduction, uint8_t *out, size_t stride,
                                 int width, int height) {
    if (width < 1 || height < 1 || stride < (size_t)width * 4 || reduction < 1) return mosaic_error("invalid decode request");
    struct heif_context *context;
    struct heif_image_handle *primary, *thumbnail, *chosen;
    mosaic_result result = mosaic_heif_open_chosen(data, size, min_width, min_height, &context, &primary, &thumbnail, &chosen);
    if (result.status != MOSAIC_OK) return result;
    struct heif_image *image = NULL;
    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options) options->convert_hdr_to_8bit = 1;
    struct heif_error error = {heif_error_Ok, heif_suberror_Unspecified, ""};
    int done = 0;
    // Reduced and opaque: the planes as decoded, averaged and converted in one pass (no
    // full-size RGBA buffer, a quarter or less of the conversion's work).
    if (reduction > 1 && !heif_image_handle_has_alpha_channel(chosen)) {
        // 4:2:0 is what cameras and encoders store: libheif then hands the planes over as
        // decoded (asked for nothing, it converts them to RGB).
        error = heif_decode_image(chosen, &image, heif_colorspace_YCbCr, heif_chroma_420, options);
        if (error.code == heif_error_Ok && image) done = mosaic_heif_reduce_ycbcr(image, reduction, out, stride, width, height);
        if (!done && image) {
            heif_image_release(image);
            image = NULL;
        }
    }
    if (!done && error.code == heif_error_Ok) {
        error = heif_decode_image(chosen, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, options);
    }
    if (options) heif_decoding_options_free(options);
    if (error.code != heif_error_Ok || !image) {
        result = mosaic_heif_failed(error);
    } else if (!done) {
        int plane_stride = 0;
        const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &plane_stride);
        int w = heif_image_get_width(image, heif_channel_interleaved), h = heif_image_get_height(image, heif_channel_interleaved);
        if (!plane || (w + reduction - 1) / reduction != width || (h + reduction - 1) / reduction != height || plane_stride < w * 4) {
            result = mosaic_error("libheif decoded another size than its headers said");
        } else if (reduction > 1) {
            mosaic_heif_reduce_rgba(plane, plane_stride, w, h, reduction, out, stride, width, height);
        } else {
            for (int y = 0; y < height; y++) memcpy(out + (size_t)y * stride, plane + (size_t)y * (size_t)plane_stride, (size_t)width * 4);
        }
    }
    if (image) heif_image_release(image);
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
    // libheif 1.15 may allocate the profile and then return an error (an unknown code
    // point): free it whatever the answer.
    struct heif_color_profile_nclx *profile = NULL;
    if (heif_image_handle_get_nclx_color_profile(primary, &profile).code == heif_error_Ok && profile) {
        nclx->present = 1;
        nclx->primaries = (int)profile->color_primaries;
        nclx->transfer = (int)profile->transfer_characteristics;
    }
    if (profile) heif_nclx_color_profile_free(profile);
    mosaic_heif_close(context, primary);
    return result;
}

/// The first metadata item of the primary image of `item_type` (and, when not NULL,
/// `content_type`), a malloc'd copy of at most 64 MiB into `*out`; 0 when there is none or
/// the file does not open.
static int mosaic_heif_metadata(const uint8_t *data, size_t size, const char *item_type, const char *content_type, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    struct heif_context *context;
    struct heif_image_handle *primary;
    if (mosaic_heif_open(data, size, 1, &context, &primary).status != MOSAIC_OK) return 0;
    heif_item_id ids[16];
    int count = heif_image_handle_get_list_of_metadata_block_IDs(primary, item_type, ids, 16);
    for (int i = 0; i < count && !*out; i++) {
        if (content_type) {
            const char *type = heif_image_handle_get_metadata_content_type(primary, ids[i]);
            if (!type || strcmp(type, content_type) != 0) continue;
        }
        size_t length = heif_image_handle_get_metadata_size(primary, ids[i]);
        uint8_t *block = length >= 4 && length < (64u << 20) ? malloc(length) : NULL;
        if (block && heif_image_handle_get_metadata(primary, ids[i], block).code == heif_error_Ok) {
            *out = block;
            *out_size = length;
            block = NULL;
        }
        free(block);
    }
    mosaic_heif_close(context, primary);
    return *out != NULL;
}

int mosaic_heif_exif(const uint8_t *data, size_t size, uint8_t **exif, size_t *exif_size) {
    uint8_t *block;
    size_t length;
    *exif = NULL;
    *exif_size = 0;
    if (!mosaic_heif_metadata(data, size, "Exif", NULL, &block, &length)) return 0;
    // The block starts with the offset (big-endian) from its fifth byte to the TIFF header:
    // what is after it is the EXIF data.
    size_t skip = 4 + (size_t)mosaic_heif_be32(block);
    if (skip >= length) {
        free(block);
        return 0;
    }
    memmove(block, block + skip, length - skip);
    *exif = block;
    *exif_size = length - skip;
    return 1;
}

int mosaic_heif_xmp_packet(const uint8_t *data, size_t size, uint8_t **xmp, size_t *xmp_size) {
    // Most files hold no mime item: the boxes say so before libheif reads them.
    if (!mosaic_heif_lists_item_type(data, size, "mime")) {
        *xmp = NULL;
        *xmp_size = 0;
        return 0;
    }
    return mosaic_heif_metadata(data, size, "mime", "application/rdf+xml", xmp, xmp_size);
}
