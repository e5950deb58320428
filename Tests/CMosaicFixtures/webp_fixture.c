// WebP fixtures through libwebp.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdio.h>

#include <webp/encode.h>
#include <webp/mux.h>

mosaic_result mosaic_webp_encode_file(const char *path, const uint8_t *rgba, int width, int height, int quality, int lossless) {
    uint8_t *encoded = NULL;
    size_t size = lossless ? WebPEncodeLosslessRGBA(rgba, width, height, width * 4, &encoded)
                           : WebPEncodeRGBA(rgba, width, height, width * 4, (float)quality, &encoded);
    mosaic_result result = mosaic_ok();
    if (size == 0) return mosaic_error("libwebp could not encode");
    FILE *file = fopen(path, "wb");
    if (!file || fwrite(encoded, 1, size, file) != size) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "cannot write %s", path);
    }
    if (file) fclose(file);
    WebPFree(encoded);
    return result;
}

mosaic_result mosaic_webp_encode_animation(const char *path, int width, int height, int frames, int duration) {
    WebPAnimEncoderOptions options;
    WebPConfig config;
    if (!WebPAnimEncoderOptionsInit(&options) || !WebPConfigInit(&config)) return mosaic_error("libwebp could not start");
    config.lossless = 1;
    WebPAnimEncoder *encoder = WebPAnimEncoderNew(width, height, &options);
    WebPPicture picture;
    if (!encoder || !WebPPictureInit(&picture)) return mosaic_error("libwebp could not start");
    picture.width = width;
    picture.height = height;
    picture.use_argb = 1;
    mosaic_result result = mosaic_ok();
    if (!WebPPictureAlloc(&picture)) result = mosaic_error("libwebp could not allocate");
    for (int i = 0; result.status == MOSAIC_OK && i < frames; i++) {
        uint32_t argb = 0xFF000000u | ((uint32_t)(uint8_t)(i * 37) << 16) | ((uint32_t)(uint8_t)(255 - i * 11) << 8) | (uint8_t)(i * 5);
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++) picture.argb[(size_t)y * (size_t)picture.argb_stride + (size_t)x] = argb;
        if (!WebPAnimEncoderAdd(encoder, &picture, i * duration, &config)) result = mosaic_error("libwebp could not add a frame");
    }
    WebPData data;
    WebPDataInit(&data);
    if (result.status == MOSAIC_OK && (!WebPAnimEncoderAdd(encoder, NULL, frames * duration, NULL) || !WebPAnimEncoderAssemble(encoder, &data))) {
        result = mosaic_error("libwebp could not assemble");
    }
    if (result.status == MOSAIC_OK) {
        FILE *file = fopen(path, "wb");
        if (!file || fwrite(data.bytes, 1, data.size, file) != data.size) result = mosaic_error("cannot write the file");
        if (file) fclose(file);
    }
    WebPDataClear(&data);
    WebPPictureFree(&picture);
    WebPAnimEncoderDelete(encoder);
    return result;
}
