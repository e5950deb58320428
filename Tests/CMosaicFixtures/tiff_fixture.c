// TIFF fixtures through libtiff.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

mosaic_result mosaic_tiff_encode_file(const char *path, const mosaic_tiff_fixture *fixture) {
    TIFF *tiff = TIFFOpen(path, "w");
    if (!tiff) return mosaic_error("cannot create the file");
    int samples = fixture->samples, bits = fixture->bits;
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, (uint32_t)fixture->width);
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, (uint32_t)fixture->height);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, (uint16_t)samples);
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, (uint16_t)bits);
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, (uint16_t)fixture->photometric);
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, (uint16_t)fixture->orientation);
    TIFFSetField(tiff, TIFFTAG_COMPRESSION, (uint16_t)fixture->compression);
    if (fixture->photometric == PHOTOMETRIC_SEPARATED) TIFFSetField(tiff, TIFFTAG_INKSET, INKSET_CMYK);
    if (fixture->icc && fixture->icc_size > 0) TIFFSetField(tiff, TIFFTAG_ICCPROFILE, (uint32_t)fixture->icc_size, fixture->icc);
    if (samples == 4 && fixture->photometric == PHOTOMETRIC_RGB) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    size_t row_bytes = (size_t)fixture->width * (size_t)samples * (size_t)(bits / 8);
    int ok = 1;
    if (fixture->tiled) {
        TIFFSetField(tiff, TIFFTAG_TILEWIDTH, 16);
        TIFFSetField(tiff, TIFFTAG_TILELENGTH, 16);
        size_t pixel = (size_t)samples * (size_t)(bits / 8);
        uint8_t *tile = calloc(16 * 16, pixel);
        for (int ty = 0; ok && tile && ty < fixture->height; ty += 16) {
            for (int tx = 0; ok && tx < fixture->width; tx += 16) {
                memset(tile, 0, 16 * 16 * pixel);
                for (int y = 0; y < 16 && ty + y < fixture->height; y++) {
                    for (int x = 0; x < 16 && tx + x < fixture->width; x++) {
                        memcpy(tile + ((size_t)y * 16 + (size_t)x) * pixel, fixture->pixels + (size_t)(ty + y) * row_bytes + (size_t)(tx + x) * pixel, pixel);
                    }
                }
                ok = TIFFWriteTile(tiff, tile, (uint32_t)tx, (uint32_t)ty, 0, 0) >= 0;
            }
        }
        free(tile);
        ok = ok && tile;
    } else {
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, 7);
        for (int y = 0; ok && y < fixture->height; y++) ok = TIFFWriteScanline(tiff, (void *)(fixture->pixels + (size_t)y * row_bytes), (uint32_t)y, 0) >= 0;
    }
    TIFFClose(tiff);
    return ok ? mosaic_ok() : mosaic_error("libtiff could not write");
}
