// DNG fixtures through libtiff: a CFA image (16-bit RGGB samples of linear sRGB, so that
// LibRaw develops it back to the scene) and, before it, a JPEG preview written by the
// shim's JPEG writer, for the cases no small real RAW covers.
#define _GNU_SOURCE  // open_memstream
#include "CMosaicFixtures.h"
#include "../../Sources/CMosaicShims/results.h"
#include "mosaic_jpeg_write.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

enum { PREVIEW_COLOR_SPACE = 50970 };

static const TIFFFieldInfo preview_color_space_field[] = {
    {PREVIEW_COLOR_SPACE, 1, 1, TIFF_LONG, FIELD_CUSTOM, 1, 0, "PreviewColorSpace"},
};

/// The preview as a baseline JPEG in memory (malloc'd), or NULL.
static uint8_t *preview_jpeg(const mosaic_dng_fixture *fixture, size_t *size) {
    char *buffer = NULL;
    size_t length = 0;
    FILE *file = open_memstream(&buffer, &length);
    if (!file) return NULL;
    mosaic_result result;
    mosaic_jpeg_writer *writer = mosaic_jpeg_writer_open(file, fixture->preview_width, fixture->preview_height, 92, NULL, &result);
    int ok = writer != NULL;
    if (ok) ok = mosaic_jpeg_writer_write(writer, fixture->preview_rgba, (size_t)fixture->preview_width * 4, fixture->preview_height, 0).status == MOSAIC_OK;
    if (ok) ok = mosaic_jpeg_writer_finish(writer).status == MOSAIC_OK;
    else if (writer) mosaic_jpeg_writer_free(writer);
    fclose(file);
    if (!ok) {
        free(buffer);
        return NULL;
    }
    *size = length;
    return (uint8_t *)buffer;
}

static void set_raw_tags(TIFF *tiff, const mosaic_dng_fixture *fixture) {
    TIFFSetField(tiff, TIFFTAG_SUBFILETYPE, 0);
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, (uint32_t)fixture->width);
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, (uint32_t)fixture->height);
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 16);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_CFA);
    TIFFSetField(tiff, TIFFTAG_COMPRESSION, (uint16_t)(fixture->jpeg_xl ? 52546 : COMPRESSION_NONE));
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, (uint32_t)fixture->height);
    uint16_t dimensions[2] = {2, 2};
    uint8_t pattern[4] = {0, 1, 1, 2};
    TIFFSetField(tiff, TIFFTAG_CFAREPEATPATTERNDIM, dimensions);
    TIFFSetField(tiff, TIFFTAG_CFAPATTERN, 4, pattern);
    uint32_t white = 65535;
    TIFFSetField(tiff, TIFFTAG_WHITELEVEL, 1, &white);
}

static int write_raw_strip(TIFF *tiff, const mosaic_dng_fixture *fixture) {
    size_t bytes = (size_t)fixture->width * fixture->height * 2;
    // Damage 1: the strip holds half the samples its size needs.
    if (fixture->damage == 1) bytes /= 2;
    return TIFFWriteRawStrip(tiff, 0, (void *)fixture->cfa, (tmsize_t)bytes) >= 0;
}

mosaic_result mosaic_dng_encode_file(const char *path, const mosaic_dng_fixture *fixture) {
    TIFF *tiff = TIFFOpen(path, "w");
    if (!tiff) return mosaic_error("cannot create the file");
    TIFFMergeFieldInfo(tiff, preview_color_space_field, 1);
    uint8_t version[4] = {1, 4, 0, 0}, backward[4] = {1, 1, 0, 0};
    TIFFSetField(tiff, TIFFTAG_DNGVERSION, version);
    TIFFSetField(tiff, TIFFTAG_DNGBACKWARDVERSION, backward);
    TIFFSetField(tiff, TIFFTAG_MAKE, "Mosaic");
    TIFFSetField(tiff, TIFFTAG_MODEL, "DNG Fixture");
    TIFFSetField(tiff, TIFFTAG_UNIQUECAMERAMODEL, "Mosaic DNG Fixture");
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, (uint16_t)(fixture->orientation > 0 ? fixture->orientation : 1));
    // The camera's space is linear sRGB: XYZ (D65) to linear sRGB, neutral white balance.
    float matrix[9] = {3.2406f, -1.5372f, -0.4986f, -0.9689f, 1.8758f, 0.0415f, 0.0557f, -0.2040f, 1.0570f};
    float neutral[3] = {1, 1, 1};
    TIFFSetField(tiff, TIFFTAG_COLORMATRIX1, 9, matrix);
    TIFFSetField(tiff, TIFFTAG_ASSHOTNEUTRAL, 3, neutral);
    TIFFSetField(tiff, TIFFTAG_CALIBRATIONILLUMINANT1, 21);
    int ok = 1;
    if (fixture->preview_rgba) {
        size_t size = 0;
        uint8_t *jpeg = preview_jpeg(fixture, &size);
        if (!jpeg) {
            TIFFClose(tiff);
            return mosaic_error("cannot write the preview");
        }
        // Damage 2: the preview ends at 85% of its bytes (in its scan data).
        if (fixture->damage == 2) size = size * 17 / 20;
        toff_t sub = 0;
        TIFFSetField(tiff, TIFFTAG_SUBIFD, 1, &sub);
        TIFFSetField(tiff, TIFFTAG_SUBFILETYPE, FILETYPE_REDUCEDIMAGE);
        TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, (uint32_t)fixture->preview_width);
        TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, (uint32_t)fixture->preview_height);
        uint16_t bits[3] = {8, 8, 8};
        TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8);
        (void)bits;
        TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 3);
        TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR);
        TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_JPEG);
        TIFFSetField(tiff, TIFFTAG_JPEGTABLESMODE, 0);
        TIFFSetField(tiff, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RAW);
        TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, (uint32_t)fixture->preview_height);
        if (fixture->preview_adobe_rgb) TIFFSetField(tiff, PREVIEW_COLOR_SPACE, (uint32_t)3);
        ok = TIFFWriteRawStrip(tiff, 0, jpeg, (tmsize_t)size) >= 0 && TIFFWriteDirectory(tiff);
        free(jpeg);
        if (ok) {
            set_raw_tags(tiff, fixture);
            ok = write_raw_strip(tiff, fixture) && TIFFWriteDirectory(tiff);
        }
    } else {
        set_raw_tags(tiff, fixture);
        ok = write_raw_strip(tiff, fixture) && TIFFWriteDirectory(tiff);
    }
    TIFFClose(tiff);
    return ok ? mosaic_ok() : mosaic_error("libtiff could not write the DNG");
}
