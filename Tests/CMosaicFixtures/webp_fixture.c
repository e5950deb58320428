// WebP fixtures through libwebp.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdio.h>

#include <webp/encode.h>

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
