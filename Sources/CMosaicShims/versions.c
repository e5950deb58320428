// The image libraries' versions in one line, for the card cache's keys (versions.h).
#include "mosaic_versions.h"

#include <pthread.h>
#include <stdio.h>

#include <gif_lib.h>
#include <jpeglib.h>
#include <jxl/decode.h>
#include <lcms2.h>
#include <libheif/heif.h>
#include <png.h>
#include <tiffio.h>
#include <webp/decode.h>
#include <zlib.h>

#define MOSAIC_STRINGIFY2(x) #x
#define MOSAIC_STRINGIFY(x) MOSAIC_STRINGIFY2(x)

static char versions[1024];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void make_versions(void) {
    int webp = WebPGetDecoderVersion();
    const char *tiff = TIFFGetVersion();
    // libtiff's version is a paragraph: its first line names it.
    int tiff_length = 0;
    while (tiff && tiff[tiff_length] && tiff[tiff_length] != '\n' && tiff_length < 80) tiff_length++;
    uint32_t jxl = JxlDecoderVersion();
    snprintf(versions, sizeof versions,
        "libjpeg-turbo %s; libpng %s; libwebp %d.%d.%d; giflib %d.%d.%d; libheif %s; %.*s; libjxl %u.%u.%u; lcms2 %d; zlib %s",
#ifdef LIBJPEG_TURBO_VERSION
        MOSAIC_STRINGIFY(LIBJPEG_TURBO_VERSION),
#else
        MOSAIC_STRINGIFY(JPEG_LIB_VERSION),
#endif
        png_get_libpng_ver(NULL), (webp >> 16) & 0xff, (webp >> 8) & 0xff, webp & 0xff, GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE,
        heif_get_version(), tiff_length, tiff ? tiff : "libtiff", jxl / 1000000, jxl / 1000 % 1000, jxl % 1000, cmsGetEncodedCMMversion(), zlibVersion());
}

const char *mosaic_decoder_library_versions(void) {
    pthread_once(&once, make_versions);
    return versions;
}
