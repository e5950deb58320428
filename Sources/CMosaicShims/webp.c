// WebP through libwebp: still images (lossy, lossless, with alpha) decoded with libwebp's
// own scaling for shrink-on-load; animations as their first frame on the canvas (through
// libwebpdemux's animation decoder). libwebp returns status codes, never jumps.
#include "CMosaicShims.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>

static mosaic_result mosaic_webp_failed(const char *what, VP8StatusCode code) {
    static const char *names[] = {"ok", "out of memory", "invalid parameter", "corrupt or invalid data",
                                  "unsupported feature", "the decoder was suspended", "the decoder was stopped",
                                  "the file ends early"};
    mosaic_result result = mosaic_ok();
    result.status = code == VP8_STATUS_OUT_OF_MEMORY ? MOSAIC_OUT_OF_MEMORY : MOSAIC_ERROR;
    const char *name = (code >= 0 && code <= VP8_STATUS_NOT_ENOUGH_DATA) ? names[code] : "unknown error";
    snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s%s%s", what, *what ? ": " : "", name);
    return result;
}

mosaic_result mosaic_webp_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    memset(info, 0, sizeof *info);
    WebPBitstreamFeatures features;
    VP8StatusCode code = WebPGetFeatures(data, size, &features);
    if (code == VP8_STATUS_NOT_ENOUGH_DATA && !is_whole_file) {
        return mosaic_need_more_data();
    }
    if (code != VP8_STATUS_OK) return mosaic_webp_failed("", code);
    info->width = features.width;
    info->height = features.height;
    info->has_alpha = features.has_alpha;
    info->components = features.has_alpha ? 4 : 3;
    // 0 undefined/mixed, 1 lossy, 2 lossless (libwebp's `format`); 3 an animation.
    info->color_space = features.has_animation ? 3 : features.format;
    info->bit_depth = 8;
    info->orientation = 1;
    info->frames = features.has_animation ? 2 : 1;
    // The EXIF chunk of an extended file, when the prefix holds it (it is often at the end:
    // then the orientation is read at decode time, from the whole file).
    WebPData whole = {data, size};
    WebPDemuxState state;
    WebPDemuxer *demux = WebPDemuxPartial(&whole, &state);
    if (demux) {
        // An animation's canvas may be larger than its first frame's bitstream.
        if (features.has_animation) {
            // The frame count is the demuxer's once it has seen every chunk: a prefix
            // holds only the first frames, so ask for the whole file.
            if (state != WEBP_DEMUX_DONE && !is_whole_file) {
                WebPDemuxDelete(demux);
                return mosaic_need_more_data();
            }
            info->width = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH);
            info->height = (int)WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT);
            info->frames = (int)WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT);
            if (info->frames < 1) info->frames = 1;
        }
        WebPChunkIterator chunk;
        if (WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
            const uint8_t *exif = chunk.chunk.bytes;
            size_t exif_size = chunk.chunk.size;
            // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
            if (exif_size >= 6 && memcmp(exif, "Exif\0\0", 6) == 0) {
                exif += 6;
                exif_size -= 6;
            }
            info->orientation = mosaic_exif_orientation(exif, exif_size);
            WebPDemuxReleaseChunkIterator(&chunk);
        } else if (state != WEBP_DEMUX_DONE && !is_whole_file && size >= 21 && memcmp(data + 12, "VP8X", 4) == 0 &&
                   (data[20] & 0x08)) {
            // VP8X says there is an EXIF chunk, after the image data: ask for the whole file.
            WebPDemuxDelete(demux);
            return mosaic_need_more_data();
        }
        WebPDemuxDelete(demux);
    }
    return mosaic_ok();
}

uint8_t *mosaic_webp_icc_profile(const uint8_t *data, size_t size, size_t *icc_size) {
    *icc_size = 0;
    WebPData whole = {data, size};
    WebPDemuxer *demux = WebPDemux(&whole);
    if (!demux) return NULL;
    uint8_t *copy = NULL;
    WebPChunkIterator chunk;
    if (WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        copy = mosaic_copy_bytes(chunk.chunk.bytes, chunk.chunk.size, icc_size);
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
    return copy;
}

/// Frame `target` of an animation, composited on its canvas (`width` x `height`).
static mosaic_result mosaic_webp_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int target) {
    WebPAnimDecoderOptions options;
    if (!WebPAnimDecoderOptionsInit(&options)) return mosaic_webp_failed("libwebp", VP8_STATUS_INVALID_PARAM);
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    WebPData whole = {data, size};
    WebPAnimDecoder *decoder = WebPAnimDecoderNew(&whole, &options);
    if (!decoder) {
        // It fails alike for bad data and for its two canvases' memory: a file the
        // demuxer reads whole is not the cause.
        WebPDemuxer *demux = WebPDemux(&whole);
        if (!demux) return mosaic_webp_failed("the animation", VP8_STATUS_BITSTREAM_ERROR);
        WebPDemuxDelete(demux);
        return mosaic_out_of_memory("the animation's canvases");
    }
    WebPAnimInfo info;
    uint8_t *frame = NULL;
    int timestamp = 0;
    mosaic_result result = mosaic_ok();
    if (!WebPAnimDecoderGetInfo(decoder, &info) || (int)info.canvas_width != width || (int)info.canvas_height != height) {
        result = mosaic_webp_failed("the animation's canvas", VP8_STATUS_BITSTREAM_ERROR);
    } else {
        for (int i = 0; i <= target; i++) {
            if (!WebPAnimDecoderGetNext(decoder, &frame, &timestamp) || !frame) {
                result = mosaic_webp_failed(i == 0 ? "the first frame" : "a frame of the animation", VP8_STATUS_BITSTREAM_ERROR);
                break;
            }
        }
        if (result.status == MOSAIC_OK) {
            for (int y = 0; y < height; y++) memcpy(out + (size_t)y * stride, frame + (size_t)y * (size_t)width * 4, (size_t)width * 4);
        }
    }
    WebPAnimDecoderDelete(decoder);
    return result;
}

mosaic_result mosaic_webp_decode_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int frame) {
    if (width < 1 || height < 1 || stride < (size_t)width * 4 || frame < 0) return mosaic_webp_failed("the decode request", VP8_STATUS_INVALID_PARAM);
    return mosaic_webp_frame(data, size, out, stride, width, height, frame);
}

mosaic_result mosaic_webp_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration) {
    *count = 0;
    *duration = 0;
    WebPData whole = {data, size};
    WebPDemuxer *demux = WebPDemux(&whole);
    if (!demux) return mosaic_webp_failed("the animation", VP8_STATUS_BITSTREAM_ERROR);
    WebPIterator iterator;
    // Milliseconds, summed exactly.
    long total = 0;
    if (WebPDemuxGetFrame(demux, 1, &iterator)) {
        do {
            if (*count >= capacity) break;
            starts[(*count)++] = total / 1000.0;
            // As browsers show them: a duration under 11 ms is a tenth of a second.
            total += iterator.duration <= 10 ? 100 : iterator.duration;
            *duration = total / 1000.0;
        } while (WebPDemuxNextFrame(&iterator));
        WebPDemuxReleaseIterator(&iterator);
    }
    WebPDemuxDelete(demux);
    return mosaic_ok();
}

mosaic_result mosaic_webp_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) return mosaic_webp_failed("libwebp", VP8_STATUS_INVALID_PARAM);
    VP8StatusCode code = WebPGetFeatures(data, size, &config.input);
    if (code != VP8_STATUS_OK) return mosaic_webp_failed("", code);
    if (width < 1 || height < 1 || stride < (size_t)width * 4) return mosaic_webp_failed("the decode request", VP8_STATUS_INVALID_PARAM);
    if (config.input.has_animation) return mosaic_webp_frame(data, size, out, stride, width, height, 0);
    if (width > config.input.width || height > config.input.height) return mosaic_webp_failed("the decode request", VP8_STATUS_INVALID_PARAM);
    if (width != config.input.width || height != config.input.height) {
        config.options.use_scaling = 1;
        config.options.scaled_width = width;
        config.options.scaled_height = height;
    }
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = out;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * (size_t)height;
    code = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
    if (code != VP8_STATUS_OK) return mosaic_webp_failed("", code);
    return mosaic_ok();
}
