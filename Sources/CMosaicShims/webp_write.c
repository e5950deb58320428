// The WebP sheet encoder. libwebp has no row-by-row encoder: the page's rows are gathered
// into a WebPPicture's ARGB buffer (width x height x 4 bytes) and encoded in one call,
// which adds its own working memory (lossy: the YUV planes, about 1.5 bytes a pixel, and
// the encoded bytes; lossless: its hash chains and the encoded bytes). The XMP packet
// that marks the file as mosaic's goes in with libwebpmux.
#include "mosaic_webp_write.h"
#include "results.h"
#include "straight.h"

#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include <webp/encode.h>
#include <webp/mux.h>

struct mosaic_webp_writer {
    WebPPicture picture;
    int rows;
};

void mosaic_webp_writer_free(mosaic_webp_writer *writer) {
    if (!writer) return;
    WebPPictureFree(&writer->picture);
    free(writer);
}

mosaic_webp_writer *mosaic_webp_writer_open(int width, int height, mosaic_result *result) {
    *result = mosaic_ok();
    if (width < 1 || height < 1 || width > WEBP_MAX_DIMENSION || height > WEBP_MAX_DIMENSION) {
        *result = mosaic_error("a WebP is at most 16383 pixels a side");
        return NULL;
    }
    mosaic_webp_writer *writer = calloc(1, sizeof *writer);
    if (!writer || !WebPPictureInit(&writer->picture)) {
        free(writer);
        *result = mosaic_error("out of memory");
        return NULL;
    }
    writer->picture.use_argb = 1;
    writer->picture.width = width;
    writer->picture.height = height;
    if (!WebPPictureAlloc(&writer->picture)) {
        free(writer);
        *result = mosaic_error("out of memory for the picture");
        return NULL;
    }
    return writer;
}

mosaic_result mosaic_webp_writer_write(mosaic_webp_writer *writer, const uint8_t *rgba, size_t stride, int rows) {
    WebPPicture *picture = &writer->picture;
    if (rows < 0 || writer->rows + rows > picture->height) return mosaic_error("more rows than the image holds");
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        uint32_t *out = picture->argb + (size_t)(writer->rows + y) * (size_t)picture->argb_stride;
        for (int x = 0; x < picture->width; x++) {
            uint8_t rgb[3];
            mosaic_straight_rgb(row + 4 * x, rgb);
            out[x] = (uint32_t)row[4 * x + 3] << 24 | (uint32_t)rgb[0] << 16 | (uint32_t)rgb[1] << 8 | rgb[2];
        }
    }
    writer->rows += rows;
    return mosaic_ok();
}

/// libwebp's reason for an encoding error.
static const char *mosaic_webp_encoding_reason(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory for the encoded bytes";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "a bad picture size";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW: return "the first partition is larger than 512 KiB (lower the quality)";
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a partition is larger than 16 MiB (lower the quality)";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file would be larger than 4 GiB";
    default: return "the encoder failed";
    }
}

mosaic_result mosaic_webp_writer_finish(mosaic_webp_writer *writer, FILE *file, int quality, int lossless, const char *xmp) {
    WebPPicture *picture = &writer->picture;
    if (writer->rows != picture->height) {
        mosaic_webp_writer_free(writer);
        return mosaic_error("rows are missing");
    }
    WebPConfig config;
    if (!WebPConfigInit(&config)) {
        mosaic_webp_writer_free(writer);
        return mosaic_error("libwebp's version does not match its headers");
    }
    config.quality = (float)(quality < 0 ? 0 : quality > 100 ? 100 : quality);
    config.lossless = lossless ? 1 : 0;
    // Lossy: method 2 of libwebp's 0...6 (default 4), which on sheets of photos measured
    // faster, about as small and closer to the pixels (docs/guide/benchmarks.md, "Output kinds").
    if (!lossless) config.method = 2;
    config.exact = 0;  // fully transparent pixels' colour may go
    WebPMemoryWriter memory;
    WebPMemoryWriterInit(&memory);
    picture->writer = WebPMemoryWrite;
    picture->custom_ptr = &memory;
    int encoded = WebPEncode(&config, picture);
    mosaic_result result = mosaic_ok();
    if (!encoded) result = mosaic_error(mosaic_webp_encoding_reason(picture->error_code));
    mosaic_webp_writer_free(writer);  // the picture is no longer needed: free it before muxing
    WebPData assembled = {NULL, 0};
    if (result.status == MOSAIC_OK) {
        WebPData image = {memory.mem, memory.size};
        WebPMux *mux = WebPMuxCreate(&image, 0);
        WebPData packet = {(const uint8_t *)xmp, xmp ? strlen(xmp) : 0};
        if (!mux) {
            result = mosaic_error("libwebpmux could not read the encoded image");
        } else if ((xmp && WebPMuxSetChunk(mux, "XMP ", &packet, 1) != WEBP_MUX_OK) || WebPMuxAssemble(mux, &assembled) != WEBP_MUX_OK) {
            result = mosaic_error("libwebpmux could not add the XMP chunk");
        }
        WebPMuxDelete(mux);
    }
    WebPMemoryWriterClear(&memory);
    if (result.status == MOSAIC_OK && fwrite(assembled.bytes, 1, assembled.size, file) != assembled.size) {
        result.status = MOSAIC_SYSTEM_ERROR;
        result.system_errno = errno;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s", strerror(errno));
    }
    WebPDataClear(&assembled);
    return result;
}
