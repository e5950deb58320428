// libFuzzer harness over the shim: probe (from every prefix length the caller might
// use) and decode, for JPEG, PNG, WebP, GIF, HEIF/AVIF, TIFF, camera RAW, JPEG XL or video
// (chosen at build time with -DMOSAIC_FUZZ_PNG, _WEBP, _GIF, _HEIF, _TIFF, _RAW, _JXL or
// _VIDEO); for JPEG XL the image (an animation's first frame) and its preview, and the
// container's boxes as the sheet mark's reader walks them; for
// PNG also a diff's pair read together, checked against each file decoded alone; for RAW
// the directory walk (recognition, previews, the raw data's extent) from a prefix and
// whole, and LibRaw's half-size development of small images; a video is written to a
// file, probed, and decoded at its start and as a poster.
// Build and run: see Fuzz/run.sh.
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "CMosaicShims.h"

#if defined(MOSAIC_FUZZ_PNG)
/// Whether two results say the same: status, counts and texts.
static int same_outcome(const mosaic_result *x, const mosaic_result *y) {
    return x->status == y->status && x->warning_count == y->warning_count && x->damage_count == y->damage_count &&
           strcmp(x->message, y->message) == 0 && strcmp(x->warning, y->warning) == 0 && strcmp(x->damage, y->damage) == 0;
}

/// A diff's pair read together must give, for each file, what decoding it alone gives
/// (rows, warnings, errors), and leave the second unread only when the first failed:
/// differential, aborting on any mismatch.
static void pair_check(const uint8_t *a, size_t size_a, const uint8_t *b, size_t size_b) {
    mosaic_image_info info_a, info_b;
    if (mosaic_png_probe(a, size_a, 1, &info_a).status != MOSAIC_OK || mosaic_png_probe(b, size_b, 1, &info_b).status != MOSAIC_OK) return;
    if (info_a.width <= 0 || info_a.height <= 0 || info_a.width != info_b.width || info_a.height != info_b.height || info_a.interlaced || info_b.interlaced) return;
    if ((uint64_t)info_a.width * (uint64_t)info_a.height > 2048u * 2048u) return;
    size_t stride = (size_t)info_a.width * 4, bytes = stride * (size_t)info_a.height;
    uint8_t *buffers[4];
    for (int i = 0; i < 4; i++) buffers[i] = calloc(1, bytes);
    if (buffers[0] && buffers[1] && buffers[2] && buffers[3]) {
        mosaic_result pair_a, pair_b;
        int copied = 0;
        int second_read = mosaic_png_decode_pair(a, size_a, buffers[0], &pair_a, b, size_b, buffers[1], &pair_b, stride, info_a.width, info_a.height, &copied);
        mosaic_result alone_a = mosaic_png_decode_streamed(a, size_a, buffers[2], stride, info_a.width, info_a.height);
        mosaic_result alone_b = mosaic_png_decode_streamed(b, size_b, buffers[3], stride, info_a.width, info_a.height);
        if (!same_outcome(&pair_a, &alone_a)) abort();
        if (alone_a.status == MOSAIC_OK && memcmp(buffers[0], buffers[2], bytes) != 0) abort();
        if (!second_read && alone_a.status == MOSAIC_OK) abort();
        if (second_read) {
            if (!same_outcome(&pair_b, &alone_b)) abort();
            if (alone_b.status == MOSAIC_OK && memcmp(buffers[1], buffers[3], bytes) != 0) abort();
        }
    }
    for (int i = 0; i < 4; i++) free(buffers[i]);
}
#endif

static void decode_at(const uint8_t *data, size_t size, const mosaic_image_info *info, int eighths) {
    // Stay within a fuzzer's memory: the real decoder refuses large images by its limits.
    if (info->width <= 0 || info->height <= 0) return;
    if ((uint64_t)info->width * (uint64_t)info->height > 4096u * 4096u) return;
    int width = (info->width * eighths + 7) / 8;
    int height = (info->height * eighths + 7) / 8;
    size_t stride = (size_t)width * 4;
    uint8_t *out = malloc(stride * (size_t)height);
    if (!out) return;
#if defined(MOSAIC_FUZZ_PNG)
    (void)eighths;
    mosaic_result r = mosaic_png_decode(data, size, out, stride, width, height);
#elif defined(MOSAIC_FUZZ_TIFF)
    (void)eighths;
    mosaic_result r = mosaic_tiff_decode(data, size, out, (size_t)info->width * 4, info->width, info->height, size & 1);
#elif defined(MOSAIC_FUZZ_GIF)
    (void)eighths;
    mosaic_result r = mosaic_gif_decode(data, size, out, stride, info->width, info->height);
#elif defined(MOSAIC_FUZZ_HEIF)
    // The full image, or a thumbnail when one covers an eighth of it.
    int w = 0, h = 0, mw = eighths == 8 ? 0 : width, mh = eighths == 8 ? 0 : height;
    mosaic_result r = mosaic_heif_decoded_size(data, size, mw, mh, &w, &h);
    if (r.status == MOSAIC_OK && w > 0 && h > 0 && w <= width * 8 && h <= height * 8 && (uint64_t)w * (uint64_t)h <= 4096u * 4096u) {
        int k = 1 + (int)(size % 3), ow = (w + k - 1) / k, oh = (h + k - 1) / k;
        uint8_t *full = malloc((size_t)ow * 4 * (size_t)oh);
        if (full) r = mosaic_heif_decode(data, size, mw, mh, k, full, (size_t)ow * 4, ow, oh);
        free(full);
    }
#elif defined(MOSAIC_FUZZ_WEBP)
    // libwebp scales to any size up to the image's; an animation only at its canvas size.
    mosaic_result r = mosaic_webp_decode(data, size, out, stride, width, height);
#else
    mosaic_result r = mosaic_jpeg_decode(data, size, eighths, out, stride, width, height, 100, (size_t)1 << 30, size & 1);
#endif
    (void)r;
    free(out);
}

/// The format's embedded colour profile, read and made into a transform as a decode does.
static void profile_of(const uint8_t *data, size_t size) {
    size_t length = 0;
    uint8_t *icc = NULL;
#if defined(MOSAIC_FUZZ_TIFF)
    icc = mosaic_tiff_icc_profile(data, size, &length);
#elif defined(MOSAIC_FUZZ_HEIF)
    mosaic_heif_nclx nclx;
    (void)mosaic_heif_color_profile(data, size, &icc, &length, &nclx);
#elif defined(MOSAIC_FUZZ_WEBP)
    icc = mosaic_webp_icc_profile(data, size, &length);
#elif defined(MOSAIC_FUZZ_JXL)
    icc = mosaic_jxl_icc_profile(data, size, &length);
#elif defined(MOSAIC_FUZZ_PNG)
    icc = mosaic_png_icc_profile(data, size, &length);
#elif !defined(MOSAIC_FUZZ_GIF)
    mosaic_result damage;
    icc = mosaic_jpeg_icc_profile(data, size, &length, &damage);
#endif
    if (icc && length > 0) {
        mosaic_result r;
        mosaic_color_transform *transform = mosaic_color_transform_create(icc, length, (int)(size & 2), &r);
        if (transform) {
            uint8_t pixels[64];
            for (int i = 0; i < 64; i++) pixels[i] = (uint8_t)(i * 37);
            mosaic_color_transform_apply(transform, pixels, 16);
            mosaic_color_transform_free(transform);
        }
    }
    free(icc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    mosaic_image_info info;
    // A prefix first, as the probe reads one, then the whole input.
    size_t prefix = size / 3;
#if defined(MOSAIC_FUZZ_RAW)
    (void)info;
    mosaic_raw_info raw;
    (void)mosaic_raw_recognize(data, prefix);
    (void)mosaic_raw_probe(data, prefix, 1, 0, &raw);
    (void)mosaic_raw_probe(data, size, 0, 1, &raw);
    mosaic_result r = mosaic_raw_probe(data, size, 1, 1, &raw);
    // Every preview the walk lists lies in the input.
    for (int i = 0; r.status == MOSAIC_OK && i < raw.preview_count; i++)
        if (raw.previews[i].offset > size || size - raw.previews[i].offset < raw.previews[i].length) abort();
    if (r.status == MOSAIC_OK && raw.exif_length > 0 && (raw.exif_offset > size || size - raw.exif_offset < raw.exif_length)) abort();
    if (r.status == MOSAIC_OK && (uint64_t)raw.image.width * (uint64_t)raw.image.height <= 1024u * 1024u) {
        uint8_t *out = NULL;
        int width = 0, height = 0;
        (void)mosaic_raw_develop(data, size, 1, (size_t)256 << 20, &out, &width, &height);
        free(out);
    }
#elif defined(MOSAIC_FUZZ_TIFF)
    // A TIFF structure is what an EXIF block is: Apple's maker note walk on it.
    char identifier[64];
    (void)mosaic_exif_apple_content_identifier(data, size, identifier, sizeof identifier);
    (void)mosaic_tiff_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_tiff_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) decode_at(data, size, &info, 8);
#elif defined(MOSAIC_FUZZ_HEIF)
    // The box walk that finds a gain map's tmap item, on its own (the probe runs it only
    // on files libheif opens).
    (void)mosaic_heif_lists_item_type(data, size, "tmap");
    (void)mosaic_heif_lists_item_type(data, prefix, "tmap");
    (void)mosaic_heif_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_heif_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) {
        decode_at(data, size, &info, 8);
        decode_at(data, size, &info, 1);
    }
#elif defined(MOSAIC_FUZZ_GIF)
    (void)mosaic_gif_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_gif_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) decode_at(data, size, &info, 8);
#elif defined(MOSAIC_FUZZ_WEBP)
    (void)mosaic_webp_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_webp_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) {
        decode_at(data, size, &info, 8);
        decode_at(data, size, &info, 1 + (int)(size % 7));
    }
#elif defined(MOSAIC_FUZZ_JXL)
    (void)info;
    mosaic_jxl_info jxl;
    (void)mosaic_jxl_probe(data, prefix, 0, &jxl);
    mosaic_result r = mosaic_jxl_probe(data, size, 1, &jxl);
    for (int preview = 0; preview < 2 && r.status == MOSAIC_OK; preview++) {
        int w = preview ? jxl.preview_width : jxl.width, h = preview ? jxl.preview_height : jxl.height;
        // Within a fuzzer's memory (libjxl holds about 16 bytes a pixel besides the output).
        if (w <= 0 || h <= 0 || (uint64_t)w * (uint64_t)h > 1024u * 1024u) continue;
        uint8_t *out = malloc((size_t)w * 4 * (size_t)h), *icc = NULL;
        size_t icc_size = 0;
        if (out) (void)mosaic_jxl_decode(data, size, preview, out, (size_t)w * 4, w, h, &icc, &icc_size);
        free(icc);
        icc = NULL;
        // An animation's timeline, and its last frame (the frames before it skipped).
        double starts[64], duration = 0;
        int frames = 0;
        if (out && !preview && jxl.frames > 1 && mosaic_jxl_timeline(data, size, starts, 64, &frames, &duration).status == MOSAIC_OK && frames > 1) {
            (void)mosaic_jxl_decode_frame(data, size, 0, frames - 1, out, (size_t)w * 4, w, h, &icc, &icc_size);
            free(icc);
        }
        free(out);
    }
    char path[64];
    snprintf(path, sizeof path, "/tmp/mosaic-fuzz-jxl-%d", (int)getpid());
    FILE *file = fopen(path, "wb");
    if (file) {
        fwrite(data, 1, size, file);
        fclose(file);
        free(mosaic_jxl_xmp(path));
        unlink(path);
    }
#elif defined(MOSAIC_FUZZ_VIDEO)
    // A video is read by path: the input as a file, probed, then a frame at its start and
    // a poster (the chosen frame) decoded small, each under a 2-second clip limit.
    (void)prefix;
    char path[64];
    snprintf(path, sizeof path, "/tmp/mosaic-fuzz-video-%d", (int)getpid());
    FILE *file = fopen(path, "wb");
    if (!file) return 0;
    fwrite(data, 1, size, file);
    fclose(file);
    mosaic_video_info video;
    mosaic_result r = mosaic_video_probe(path, 2, &video);
    if (r.status == MOSAIC_OK && video.display_width > 0 && video.display_height > 0) {
        uint8_t *out = malloc(64 * 48 * 4);
        mosaic_video_request request = {.time = 0, .exact = 1, .timeout = 2, .maximum_pixels = 4096 * 4096};
        double time;
        mosaic_video_failure failure;
        if (out) {
            (void)mosaic_video_decode_frame(path, &request, out, 64 * 4, 64, 48, &time, &failure);
            request.time = -1;
            (void)mosaic_video_decode_frame(path, &request, out, 64 * 4, 64, 48, &time, &failure);
        }
        free(out);
    }
    unlink(path);
    r.status = MOSAIC_ERROR;  // no ICC profile to read
#elif defined(MOSAIC_FUZZ_PNG)
    (void)mosaic_png_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_png_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) {
        decode_at(data, size, &info, 8);
        // The band-by-band reader, 3 rows at a time.
        if (info.width > 0 && info.height > 0 && (uint64_t)info.width * (uint64_t)info.height <= 4096u * 4096u) {
            mosaic_result opened;
            mosaic_png_stream *stream = mosaic_png_stream_open(data, size, info.width, info.height, &opened);
            if (stream) {
                uint8_t *rows = malloc((size_t)info.width * 4 * 3);
                int left = info.height;
                while (rows && left > 0) {
                    int n = left < 3 ? left : 3;
                    if (mosaic_png_stream_read(stream, rows, (size_t)info.width * 4, n).status != MOSAIC_OK) break;
                    left -= n;
                }
                free(rows);
                (void)mosaic_png_stream_close(stream);
            }
        }
    }
    // The input with itself, and, when it holds a second PNG (the pair seeds are two files
    // one after the other), the two halves as a diff's pair.
    pair_check(data, size, data, size);
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    for (size_t at = 8; size >= 8 && at + 8 <= size; at++) {
        if (memcmp(data + at, signature, 8) == 0) {
            pair_check(data, at, data + at, size - at);
            break;
        }
    }
#else
    (void)mosaic_jpeg_probe(data, prefix, 0, &info);
    mosaic_result r = mosaic_jpeg_probe(data, size, 1, &info);
    if (r.status == MOSAIC_OK) {
        decode_at(data, size, &info, 8);
        decode_at(data, size, &info, 1 + (int)(size % 7));
    }
#endif
    if (r.status == MOSAIC_OK) profile_of(data, size);
    // The EXIF reader on its own, over the raw input.
    (void)mosaic_exif_orientation(data, size);
    mosaic_exif_text text;
    mosaic_exif_exposure exposure;
    mosaic_exif_fields(data, size, &text, &exposure);
    return 0;
}
