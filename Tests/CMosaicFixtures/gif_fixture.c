// GIF fixtures through giflib.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <gif_lib.h>

static int mosaic_gif_write(GifFileType *gif, const GifByteType *bytes, int count) {
    return (int)fwrite(bytes, 1, (size_t)count, (FILE *)gif->UserData);
}

/// Frame `i`'s colour in an animation fixture.
static GifColorType mosaic_gif_frame_color(int i) {
    GifColorType color = {(GifByteType)(i * 37), (GifByteType)(255 - i * 11), (GifByteType)(i * 5)};
    return color;
}

mosaic_result mosaic_gif_encode_file(const char *path, const mosaic_gif_fixture *fixture) {
    FILE *file = fopen(path, "wb");
    if (!file) return mosaic_error("cannot create the file");
    int error = 0;
    GifFileType *gif = EGifOpen(file, mosaic_gif_write, &error);
    mosaic_result result = mosaic_ok();
    ColorMapObject *map = gif ? GifMakeMapObject(fixture->palette_count, (const GifColorType *)fixture->palette) : NULL;
    if (!gif || !map) {
        result = mosaic_error("giflib could not start");
    } else {
        EGifSetGifVersion(gif, true);
        int ok = EGifPutScreenDesc(gif, fixture->screen_width, fixture->screen_height, 8, 0, map) != GIF_ERROR;
        for (int frame = 0; ok && frame < fixture->frames; frame++) {
            if (fixture->transparent >= 0) {
                GifByteType control[4] = {0x01, 0, 0, (GifByteType)fixture->transparent};
                ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control) != GIF_ERROR;
            }
            ok = ok && EGifPutImageDesc(gif, fixture->left, fixture->top, fixture->width, fixture->height, fixture->interlaced, NULL) != GIF_ERROR;
            static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
            int passes = fixture->interlaced ? 4 : 1;
            GifPixelType *line = malloc((size_t)fixture->width);
            for (int pass = 0; ok && line && pass < passes; pass++) {
                int first = fixture->interlaced ? starts[pass] : 0, step = fixture->interlaced ? steps[pass] : 1;
                for (int row = first; ok && row < fixture->height; row += step) {
                    for (int x = 0; x < fixture->width; x++) {
                        uint8_t index = fixture->indices[(size_t)row * (size_t)fixture->width + (size_t)x];
                        // Later frames invert the indices: only the first may show.
                        line[x] = frame == 0 ? index : (GifPixelType)(fixture->palette_count - 1 - index);
                    }
                    ok = EGifPutLine(gif, line, fixture->width) != GIF_ERROR;
                }
            }
            free(line);
        }
        if (!ok) result = mosaic_error("giflib could not write");
    }
    if (map) GifFreeMapObject(map);
    if (gif) EGifCloseFile(gif, &error);
    fclose(file);
    return result;
}

mosaic_result mosaic_gif_encode_animation(const char *path, int width, int height, int frames, int delay, int disposal) {
    FILE *file = fopen(path, "wb");
    if (!file) return mosaic_error("cannot create the file");
    int error = 0;
    GifFileType *gif = EGifOpen(file, mosaic_gif_write, &error);
    GifColorType colors[256];
    for (int i = 0; i < 256; i++) colors[i] = mosaic_gif_frame_color(i);
    ColorMapObject *map = gif ? GifMakeMapObject(256, colors) : NULL;
    mosaic_result result = mosaic_ok();
    GifPixelType *line = malloc((size_t)width);
    if (!gif || !map || !line) {
        result = mosaic_error("giflib could not start");
    } else {
        EGifSetGifVersion(gif, true);
        int ok = EGifPutScreenDesc(gif, width, height, 8, 0, map) != GIF_ERROR;
        for (int frame = 0; ok && frame < frames; frame++) {
            GifByteType control[4] = {(GifByteType)((disposal & 7) << 2), (GifByteType)(delay & 0xFF), (GifByteType)(delay >> 8), 0};
            ok = EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, control) != GIF_ERROR;
            // The first frame covers the screen; the later ones its left half.
            int w = frame == 0 ? width : width / 2;
            ok = ok && EGifPutImageDesc(gif, 0, 0, w, height, false, NULL) != GIF_ERROR;
            for (int x = 0; x < w; x++) line[x] = (GifPixelType)(frame & 0xFF);
            for (int y = 0; ok && y < height; y++) ok = EGifPutLine(gif, line, w) != GIF_ERROR;
        }
        if (!ok) result = mosaic_error("giflib could not write");
    }
    free(line);
    if (map) GifFreeMapObject(map);
    if (gif) EGifCloseFile(gif, &error);
    fclose(file);
    return result;
}
