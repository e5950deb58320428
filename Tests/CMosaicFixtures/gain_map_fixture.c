// Photos with gain maps, as phones write them: an Ultra HDR JPEG (the standard image, then
// the gain map JPEG, listed by MPF and by the XMP GContainer directory, with Adobe's hdrgm
// properties as Google's libultrahdr writes them).
#include "CMosaicFixtures.h"
#include "../../Sources/CMosaicShims/results.h"
#include "mosaic_jpeg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// The whole file at `path` (malloc'd) and its length; NULL when it cannot be read.
static uint8_t *mosaic_fixture_read(const char *path, size_t *size) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    uint8_t *bytes = length > 0 ? malloc((size_t)length) : NULL;
    if (bytes && fread(bytes, 1, (size_t)length, file) != (size_t)length) {
        free(bytes);
        bytes = NULL;
    }
    fclose(file);
    *size = bytes ? (size_t)length : 0;
    return bytes;
}

/// An APP segment of `marker` holding `header` (with its NUL when asked) then `body`.
static size_t mosaic_fixture_segment(uint8_t *out, int marker, const char *header, size_t header_size, const uint8_t *body, size_t body_size) {
    size_t length = 2 + header_size + body_size;
    out[0] = 0xFF, out[1] = (uint8_t)marker, out[2] = (uint8_t)(length >> 8), out[3] = (uint8_t)length;
    memcpy(out + 4, header, header_size);
    memcpy(out + 4 + header_size, body, body_size);
    return 2 + length;
}

static void mosaic_fixture_be32(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v; }

mosaic_result mosaic_ultrahdr_encode_file(const char *path, const uint8_t *rgb, int width, int height, const uint8_t *gain, int gain_width,
                                          int gain_height, const uint8_t *icc, size_t icc_size, int iso_marker) {
    char base_path[4096], gain_path[4096];
    snprintf(base_path, sizeof base_path, "%s.base.jpg", path);
    snprintf(gain_path, sizeof gain_path, "%s.gain.jpg", path);
    mosaic_jpeg_encode_options options;
    memset(&options, 0, sizeof options);
    options.quality = 95;
    options.icc = icc;
    options.icc_size = icc_size;
    mosaic_result result = mosaic_jpeg_encode_file(base_path, rgb, width, height, 3, &options);
    if (result.status != MOSAIC_OK) return result;
    memset(&options, 0, sizeof options);
    options.quality = 95;
    result = mosaic_jpeg_encode_file(gain_path, gain, gain_width, gain_height, 1, &options);
    if (result.status != MOSAIC_OK) return result;
    size_t base_size, gain_size;
    uint8_t *base = mosaic_fixture_read(base_path, &base_size), *map = mosaic_fixture_read(gain_path, &gain_size);
    unlink(base_path);
    unlink(gain_path);
    if (!base || !map || base_size < 4 || gain_size < 4) {
        free(base);
        free(map);
        return mosaic_error("the fixture's JPEGs could not be read back");
    }
    static const char xmp_header[] = "http://ns.adobe.com/xap/1.0/";
    static const char iso_header[] = "urn:iso:std:iso:ts:21496:-1";
    // The gain map's own XMP: its metadata (libultrahdr's defaults for an SDR base).
    const char *gain_xmp =
        "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"Adobe XMP Core 5.1.2\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
        "<rdf:Description xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" hdrgm:Version=\"1.0\" hdrgm:GainMapMin=\"0\" "
        "hdrgm:GainMapMax=\"2.3\" hdrgm:Gamma=\"1\" hdrgm:OffsetSDR=\"0.015625\" hdrgm:OffsetHDR=\"0.015625\" hdrgm:HDRCapacityMin=\"0\" "
        "hdrgm:HDRCapacityMax=\"2.3\" hdrgm:BaseRenditionIsHDR=\"False\"/></rdf:RDF></x:xmpmeta>";
    uint8_t *gain_out = malloc(gain_size + 4096);
    size_t gain_length = 0;
    memcpy(gain_out, map, 2);  // SOI
    gain_length = 2;
    gain_length += mosaic_fixture_segment(gain_out + gain_length, 0xE1, xmp_header, sizeof xmp_header, (const uint8_t *)gain_xmp, strlen(gain_xmp));
    memcpy(gain_out + gain_length, map + 2, gain_size - 2);
    gain_length += gain_size - 2;
    // The primary's XMP: the version and the container directory, the map's length in it.
    char primary_xmp[2048];
    snprintf(primary_xmp, sizeof primary_xmp,
             "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\" x:xmptk=\"Adobe XMP Core 5.1.2\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
             "<rdf:Description xmlns:Container=\"http://ns.google.com/photos/1.0/container/\" "
             "xmlns:Item=\"http://ns.google.com/photos/1.0/container/item/\" xmlns:hdrgm=\"http://ns.adobe.com/hdr-gain-map/1.0/\" "
             "hdrgm:Version=\"1.0\"><Container:Directory><rdf:Seq><rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"Primary\" "
             "Item:Mime=\"image/jpeg\"/></rdf:li><rdf:li rdf:parseType=\"Resource\"><Container:Item Item:Semantic=\"GainMap\" "
             "Item:Mime=\"image/jpeg\" Item:Length=\"%zu\"/></rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>",
             gain_length);
    // MPF: a big-endian TIFF structure of three entries and two 16-byte image entries.
    uint8_t mpf[4 + 8 + 2 + 3 * 12 + 4 + 32];
    memset(mpf, 0, sizeof mpf);
    memcpy(mpf, "MPF", 4);
    uint8_t *tiff = mpf + 4;
    memcpy(tiff, "MM\0*", 4);
    mosaic_fixture_be32(tiff + 4, 8);
    tiff[8] = 0, tiff[9] = 3;
    uint8_t *entry = tiff + 10;
    entry[0] = 0xB0, entry[1] = 0x00, entry[3] = 7, mosaic_fixture_be32(entry + 4, 4), memcpy(entry + 8, "0100", 4);
    entry += 12;
    entry[0] = 0xB0, entry[1] = 0x01, entry[3] = 4, mosaic_fixture_be32(entry + 4, 1), mosaic_fixture_be32(entry + 8, 2);
    entry += 12;
    entry[0] = 0xB0, entry[1] = 0x02, entry[3] = 7, mosaic_fixture_be32(entry + 4, 32), mosaic_fixture_be32(entry + 8, 8 + 2 + 36 + 4);
    uint8_t *images = tiff + 8 + 2 + 36 + 4;
    size_t iso_length = iso_marker ? 4 + sizeof iso_header + 4 : 0;
    size_t primary_length = 2 + (4 + sizeof xmp_header + strlen(primary_xmp)) + iso_length + (4 + sizeof mpf) + (base_size - 2);
    // Offsets are from the MPF's TIFF header: the second image starts after the primary.
    size_t tiff_at = 2 + (4 + sizeof xmp_header + strlen(primary_xmp)) + iso_length + 4 + 4;
    mosaic_fixture_be32(images, 0x030000), mosaic_fixture_be32(images + 4, (uint32_t)primary_length);
    mosaic_fixture_be32(images + 16 + 4, (uint32_t)gain_length), mosaic_fixture_be32(images + 16 + 8, (uint32_t)(primary_length - tiff_at));
    uint8_t *out = malloc(primary_length + gain_length);
    size_t length = 2;
    out[0] = 0xFF, out[1] = 0xD8;
    length += mosaic_fixture_segment(out + length, 0xE1, xmp_header, sizeof xmp_header, (const uint8_t *)primary_xmp, strlen(primary_xmp));
    if (iso_marker) {
        const uint8_t version[4] = {0, 0, 0, 0};  // minimum and writer version 0
        length += mosaic_fixture_segment(out + length, 0xE2, iso_header, sizeof iso_header, version, 4);
    }
    length += mosaic_fixture_segment(out + length, 0xE2, "", 0, mpf, sizeof mpf);
    memcpy(out + length, base + 2, base_size - 2);
    length += base_size - 2;
    memcpy(out + length, gain_out, gain_length);
    length += gain_length;
    FILE *file = fopen(path, "wb");
    int written = file && fwrite(out, 1, length, file) == length;
    if (file) written &= fclose(file) == 0;
    free(out);
    free(gain_out);
    free(base);
    free(map);
    return written && length == primary_length + gain_length ? mosaic_ok() : mosaic_error("the Ultra HDR fixture could not be written");
}
