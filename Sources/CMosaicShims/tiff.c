// TIFF through libtiff, from memory, with per-file error handlers (libtiff 4.5's
// TIFFOpenOptions: no global state): the first page, strips or tiles, 1 to 16 bits, RGB(A),
// grey, palette, CMYK, YCbCr: grey and RGB(A) of 8 and 16 bits and 16-bit CMYK (and any
// CMYK bound for its profile) read directly, the rest through libtiff's RGBA reader. The pixels come as stored;
// the Orientation tag is reported for the caller to apply.
#include "CMosaicShims.h"
#include "results.h"

#include <stdarg.h>
#include <stdlib.h>

#include <tiffio.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// A read asked for bytes past the end (a prefix, or a truncated file).
    int starved;
    mosaic_result *result;
} mosaic_tiff_source;

static tmsize_t mosaic_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    mosaic_tiff_source *source = handle;
    return (tmsize_t)mosaic_read_memory(source->data, source->size, &source->offset, &source->starved, buffer,
                                        count < 0 ? 0 : (size_t)count);
}

static tmsize_t mosaic_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle;
    (void)buffer;
    (void)count;
    return 0;
}

static toff_t mosaic_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    mosaic_tiff_source *source = handle;
    uint64_t base = whence == SEEK_CUR ? source->offset : whence == SEEK_END ? source->size : 0;
    uint64_t target = base + offset;
    // Past the end is allowed (reads there come back short).
    source->offset = target > SIZE_MAX ? SIZE_MAX : (size_t)target;
    return (toff_t)source->offset;
}

static int mosaic_tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t mosaic_tiff_size(thandle_t handle) { return (toff_t)((mosaic_tiff_source *)handle)->size; }

/// The file is in memory already: libtiff reads strips and tiles from it in place.
static int mosaic_tiff_map(thandle_t handle, void **base, toff_t *size) {
    mosaic_tiff_source *source = handle;
    *base = (void *)source->data;
    *size = (toff_t)source->size;
    return 1;
}

static void mosaic_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static int mosaic_tiff_on_error(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    mosaic_tiff_source *source = user_data;
    if (source->result->status == MOSAIC_OK) {
        source->result->status = MOSAIC_ERROR;
        vsnprintf(source->result->message, MOSAIC_MESSAGE_SIZE, format, arguments);
    }
    return 1;
}

static int mosaic_tiff_on_warning(TIFF *tiff, void *user_data, const char *module, const char *format, va_list arguments) {
    (void)tiff;
    (void)module;
    mosaic_tiff_source *source = user_data;
    // libtiff's warnings are about unknown tags and the like: kept, never damage.
    if (source->result->warning_count == 0) vsnprintf(source->result->warning, MOSAIC_MESSAGE_SIZE, format, arguments);
    source->result->warning_count += 1;
    return 1;
}

/// Opens `data` (the first page), with errors into `result`; NULL on failure.
static TIFF *mosaic_tiff_open(mosaic_tiff_source *source) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) {
        *source->result = mosaic_error("out of memory");
        return NULL;
    }
    TIFFOpenOptionsSetErrorHandlerExtR(options, mosaic_tiff_on_error, source);
    TIFFOpenOptionsSetWarningHandlerExtR(options, mosaic_tiff_on_warning, source);
    // One allocation at most 1 GiB: a hostile header cannot ask for more.
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)1 << 30);
    TIFF *tiff = TIFFClientOpenExt("tiff", "r", source, mosaic_tiff_read, mosaic_tiff_write, mosaic_tiff_seek, mosaic_tiff_close,
                                   mosaic_tiff_size, mosaic_tiff_map, mosaic_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    if (!tiff && source->result->status == MOSAIC_OK) *source->result = mosaic_error("not a TIFF file libtiff can open");
    return tiff;
}

mosaic_result mosaic_tiff_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    memset(info, 0, sizeof *info);
    mosaic_result result = mosaic_ok();
    mosaic_tiff_source source = {data, size, 0, 0, &result};
    TIFF *tiff = mosaic_tiff_open(&source);
    if (tiff) {
        uint32_t width = 0, height = 0;
        uint16_t samples = 1, bits = 1, photometric = 0, orientation = 1, extra_count = 0;
        uint16_t *extra = NULL;
        TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
        TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
        TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
        TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
        TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
        TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
        if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)) photometric = samples >= 3 ? PHOTOMETRIC_RGB : PHOTOMETRIC_MINISBLACK;
        info->width = (int)(width > INT32_MAX ? 0 : width);
        info->height = (int)(height > INT32_MAX ? 0 : height);
        info->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
        info->has_alpha = extra_count > 0 && extra && (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA);
        info->components = samples;
        info->color_space = photometric;
        info->bit_depth = bits;
        info->interlaced = TIFFIsTiled(tiff) ? 1 : 0;
        info->frames = (int)TIFFNumberOfDirectories(tiff);
        if (result.status == MOSAIC_OK && (info->width < 1 || info->height < 1)) result = mosaic_error("the image has no size");
        TIFFClose(tiff);
    }
    // The first IFD may be anywhere (writers often put it after the image data): any
    // failure on a prefix asks for the whole file.
    if (result.status != MOSAIC_OK && !is_whole_file) result = mosaic_need_more_data();
    return result;
}

/// Stores a pixel as straight RGBA8, un-premultiplying associated alpha.
static void mosaic_tiff_store(unsigned r, unsigned g, unsigned b, unsigned a, int associated, uint8_t *o) {
    if (associated && a != 0 && a != 255) {
        r = (r * 255 + a / 2) / a;
        g = (g * 255 + a / 2) / a;
        b = (b * 255 + a / 2) / a;
    }
    o[0] = (uint8_t)(r > 255 ? 255 : r);
    o[1] = (uint8_t)(g > 255 ? 255 : g);
    o[2] = (uint8_t)(b > 255 ? 255 : b);
    o[3] = (uint8_t)a;
}

/// What `mosaic_tiff_pixel` makes of CMYK: not CMYK, its ink bytes (for a CMYK
/// profile), or RGB by libtiff's own formula (its RGBA reader's, without a profile).
enum { MOSAIC_TIFF_NOT_CMYK = 0, MOSAIC_TIFF_CMYK_INK = 1, MOSAIC_TIFF_CMYK_FORMULA = 2 };

/// One pixel of `samples` samples of `bits` (8 or 16, native order) into straight RGBA.
/// CMYK (4 samples) as `cmyk` says.
static void mosaic_tiff_pixel(const uint8_t *in, int samples, int bits, int white_is_zero, int alpha, int associated, int cmyk, uint8_t *o) {
    unsigned v[4] = {0, 0, 0, 255};
    for (int i = 0; i < samples && i < 4; i++) {
        v[i] = bits == 16 ? ((unsigned)((const uint16_t *)(const void *)in)[i] + 128) / 257 : in[i];
    }
    if (cmyk == MOSAIC_TIFF_CMYK_INK) {
        for (int i = 0; i < 4; i++) o[i] = (uint8_t)v[i];
        return;
    }
    if (cmyk == MOSAIC_TIFF_CMYK_FORMULA) {
        // libtiff's putRGBcontig8bitCMYKtile, on the samples reduced to 8 bits.
        unsigned k = 255 - v[3];
        mosaic_tiff_store(k * (255 - v[0]) / 255, k * (255 - v[1]) / 255, k * (255 - v[2]) / 255, 255, 0, o);
        return;
    }
    unsigned r, g, b, a = 255;
    if (samples <= 2) {
        r = g = b = white_is_zero ? 255 - v[0] : v[0];
        if (alpha) a = v[1];
    } else {
        r = v[0];
        g = v[1];
        b = v[2];
        if (alpha) a = v[3];
    }
    mosaic_tiff_store(r, g, b, a, associated, o);
}

/// Grey and RGB, with or without alpha, 8 or 16 bits, contiguous: read strip by strip or
/// tile by tile (libtiff 4.5's RGBA reader drops pixels of 16-bit grey tiles at the
/// image's edge); with `raw_cmyk`, CMYK too, as ink bytes; without, 16-bit CMYK by
/// libtiff's formula (its RGBA reader refuses 16-bit CMYK: "can not handle image"). 0 when
/// the file is not such a layout; -1 on a read error.
static int mosaic_tiff_direct(TIFF *tiff, uint8_t *out, int width, int height, int raw_cmyk) {
    uint16_t samples = 1, bits = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, extra_count = 0;
    uint16_t *extra = NULL;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extra_count, &extra);
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    int grey = photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE;
    uint16_t inkset = INKSET_CMYK;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_INKSET, &inkset);
    int separated = photometric == PHOTOMETRIC_SEPARATED && inkset == INKSET_CMYK && samples == 4;
    int cmyk = !separated ? MOSAIC_TIFF_NOT_CMYK
               : raw_cmyk ? MOSAIC_TIFF_CMYK_INK
               : bits == 16 ? MOSAIC_TIFF_CMYK_FORMULA
                            : MOSAIC_TIFF_NOT_CMYK;
    if (!(grey || cmyk || photometric == PHOTOMETRIC_RGB) || planar != PLANARCONFIG_CONTIG || (bits != 8 && bits != 16)) return 0;
    int colour = grey ? 1 : cmyk ? 4 : 3;
    int alpha = !cmyk && extra_count > 0 && extra && (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA);
    if (samples != colour + (alpha ? 1 : 0) && !(samples == colour + extra_count && !alpha)) return 0;
    int associated = alpha && extra[0] == EXTRASAMPLE_ASSOCALPHA;
    int white_is_zero = photometric == PHOTOMETRIC_MINISWHITE;
    size_t pixel = (size_t)samples * (size_t)(bits / 8);
    int used = colour + (alpha ? 1 : 0);
    int ok = 1;
    if (TIFFIsTiled(tiff)) {
        uint32_t tw = 0, th = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &th);
        tmsize_t tile_size = TIFFTileSize(tiff);
        if (tw == 0 || th == 0 || tile_size < (tmsize_t)(pixel * tw * th)) return -1;
        uint8_t *tile = _TIFFmalloc(tile_size);
        if (!tile) return -1;
        for (uint32_t ty = 0; ok && ty < (uint32_t)height; ty += th) {
            for (uint32_t tx = 0; ok && tx < (uint32_t)width; tx += tw) {
                if (TIFFReadTile(tiff, tile, tx, ty, 0, 0) < 0) {
                    ok = 0;
                    break;
                }
                for (uint32_t y = 0; y < th && ty + y < (uint32_t)height; y++) {
                    for (uint32_t x = 0; x < tw && tx + x < (uint32_t)width; x++) {
                        mosaic_tiff_pixel(tile + ((size_t)y * tw + x) * pixel, used, bits, white_is_zero, alpha, associated, cmyk,
                                          out + (((size_t)(ty + y) * (size_t)width) + tx + x) * 4);
                    }
                }
            }
        }
        _TIFFfree(tile);
    } else {
        uint32_t rows_per_strip = 0;
        TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
        if (rows_per_strip == 0 || rows_per_strip > (uint32_t)height) rows_per_strip = (uint32_t)height;
        tmsize_t strip_size = TIFFStripSize(tiff);
        if (strip_size < (tmsize_t)(pixel * (size_t)width)) return -1;
        uint8_t *strip = _TIFFmalloc(strip_size);
        if (!strip) return -1;
        for (uint32_t top = 0; top < (uint32_t)height; top += rows_per_strip) {
            if (TIFFReadEncodedStrip(tiff, TIFFComputeStrip(tiff, top, 0), strip, -1) < 0) {
                ok = 0;
                break;
            }
            for (uint32_t y = 0; y < rows_per_strip && top + y < (uint32_t)height; y++) {
                for (int x = 0; x < width; x++) {
                    mosaic_tiff_pixel(strip + ((size_t)y * (size_t)width + (size_t)x) * pixel, used, bits, white_is_zero, alpha, associated, cmyk,
                                      out + (((size_t)(top + y) * (size_t)width) + (size_t)x) * 4);
                }
            }
        }
        _TIFFfree(strip);
    }
    return ok ? 1 : -1;
}

mosaic_result mosaic_tiff_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int raw_cmyk) {
    if (width < 1 || height < 1 || stride != (size_t)width * 4) return mosaic_error("invalid decode request");
    mosaic_result result = mosaic_ok();
    mosaic_tiff_source source = {data, size, 0, 0, &result};
    TIFF *tiff = mosaic_tiff_open(&source);
    if (!tiff) return result;
    uint32_t w = 0, h = 0;
    uint16_t orientation = 1;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &w);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &h);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &orientation);
    char reason[1024] = "";
    int direct = 0;
    if ((int)w != width || (int)h != height) {
        result = mosaic_error("the decode request does not match the file");
    } else if ((direct = mosaic_tiff_direct(tiff, out, width, height, raw_cmyk)) != 0) {
        if (direct < 0 && result.status == MOSAIC_OK) result = mosaic_error(source.starved ? "the file ends early" : "libtiff could not read the image");
    } else if (!TIFFRGBAImageOK(tiff, reason)) {
        result = mosaic_error(reason[0] ? reason : "libtiff cannot read this kind of TIFF");
    } else {
        // As stored (the requested origin is the file's own), stopping at the first error.
        int ok = TIFFReadRGBAImageOriented(tiff, w, h, (uint32_t *)(void *)out, orientation, 1);
        if (!ok && result.status == MOSAIC_OK) result = mosaic_error(source.starved ? "the file ends early" : "libtiff could not read the image");
        if (result.status == MOSAIC_OK) {
            // libtiff packs A B G R into a uint32 (R in the low byte: R G B A in memory on a
            // little-endian machine) with associated alpha: back to straight.
            for (size_t i = 0; i < (size_t)width * (size_t)height; i++) {
                uint32_t p = ((uint32_t *)(void *)out)[i];
                uint8_t *o = out + i * 4;
                mosaic_tiff_store(TIFFGetR(p), TIFFGetG(p), TIFFGetB(p), TIFFGetA(p), 1, o);
            }
        }
    }
    TIFFClose(tiff);
    return result;
}

uint8_t *mosaic_tiff_icc_profile(const uint8_t *data, size_t size, size_t *icc_size) {
    *icc_size = 0;
    mosaic_result result = mosaic_ok();
    mosaic_tiff_source source = {data, size, 0, 0, &result};
    TIFF *tiff = mosaic_tiff_open(&source);
    if (!tiff) return NULL;
    uint32_t length = 0;
    void *profile = NULL;
    uint8_t *copy = TIFFGetField(tiff, TIFFTAG_ICCPROFILE, &length, &profile) ? mosaic_copy_bytes(profile, length, icc_size) : NULL;
    TIFFClose(tiff);
    return copy;
}
