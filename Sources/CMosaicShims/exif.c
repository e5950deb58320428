// The EXIF Orientation tag, read by libexif (what libvips uses) rather than by hand.
#include "CMosaicShims.h"

#include <stdlib.h>
#include <string.h>

#include <libexif/exif-data.h>

/// The EXIF data of `data` (a TIFF structure, with or without the "Exif\0\0" header that
/// JPEG's APP1 has), or NULL. The caller unrefs it.
static ExifData *mosaic_exif_load(const uint8_t *data, size_t size) {
    static const uint8_t header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (data == NULL || size < 8 || size > 0x7FFFFFF0u) return NULL;
    // libexif wants the "Exif\0\0" header that JPEG's APP1 has and PNG's eXIf lacks.
    uint8_t *copy = NULL;
    const uint8_t *block = data;
    size_t length = size;
    if (memcmp(data, header, 6) != 0) {
        copy = malloc(size + 6);
        if (!copy) return NULL;
        memcpy(copy, header, 6);
        memcpy(copy + 6, data, size);
        block = copy;
        length = size + 6;
    }
    ExifData *exif = exif_data_new();
    if (exif) {
        // Read what is there; do not "repair" it or interpret maker notes.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        exif_data_load_data(exif, block, (unsigned int)length);
    }
    free(copy);
    return exif;
}

int mosaic_exif_orientation(const uint8_t *data, size_t size) {
    int orientation = 1;
    ExifData *exif = mosaic_exif_load(data, size);
    if (exif) {
        ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
        if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 && entry->data && entry->size >= 2) {
            int value = exif_get_short(entry->data, exif_data_get_byte_order(exif));
            if (value >= 1 && value <= 8) orientation = value;
        }
        exif_data_unref(exif);
    }
    return orientation;
}

/// An ASCII entry's text, without the NUL padding some cameras leave, into `out`.
static void mosaic_exif_ascii(ExifData *exif, ExifIfd ifd, ExifTag tag, char *out, size_t capacity) {
    out[0] = 0;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[ifd], tag);
    if (!entry || entry->format != EXIF_FORMAT_ASCII || !entry->data || entry->size == 0) return;
    size_t n = entry->size < capacity - 1 ? entry->size : capacity - 1;
    memcpy(out, entry->data, n);
    out[n] = 0;
}

/// A RATIONAL entry's value; 0 when absent, of another format, or its denominator is 0.
static double mosaic_exif_rational(ExifData *exif, ExifTag tag) {
    ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], tag);
    if (!entry || entry->format != EXIF_FORMAT_RATIONAL || entry->components < 1 || !entry->data || entry->size < 8) return 0;
    ExifRational value = exif_get_rational(entry->data, exif_data_get_byte_order(exif));
    return value.denominator == 0 ? 0 : (double)value.numerator / (double)value.denominator;
}

/// The exposure fields of `exif` into `out`.
static void mosaic_exif_exposure_of(ExifData *exif, mosaic_exif_exposure *out) {
    mosaic_exif_ascii(exif, EXIF_IFD_EXIF, EXIF_TAG_LENS_MODEL, out->lens, sizeof out->lens);
    ExifEntry *iso = exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_ISO_SPEED_RATINGS);
    if (iso && iso->components >= 1 && iso->data) {
        ExifByteOrder order = exif_data_get_byte_order(exif);
        if (iso->format == EXIF_FORMAT_SHORT && iso->size >= 2) out->iso = exif_get_short(iso->data, order);
        else if (iso->format == EXIF_FORMAT_LONG && iso->size >= 4) out->iso = (long)exif_get_long(iso->data, order);
    }
    out->f_number = mosaic_exif_rational(exif, EXIF_TAG_FNUMBER);
    out->exposure_time = mosaic_exif_rational(exif, EXIF_TAG_EXPOSURE_TIME);
    out->focal_length = mosaic_exif_rational(exif, EXIF_TAG_FOCAL_LENGTH);
}

void mosaic_exif_fields(const uint8_t *data, size_t size, mosaic_exif_text *out, mosaic_exif_exposure *exposure) {
    memset(out, 0, sizeof *out);
    if (exposure) memset(exposure, 0, sizeof *exposure);
    ExifData *exif = mosaic_exif_load(data, size);
    if (!exif) return;
    mosaic_exif_ascii(exif, EXIF_IFD_EXIF, EXIF_TAG_DATE_TIME_ORIGINAL, out->date, sizeof out->date);
    if (!out->date[0]) mosaic_exif_ascii(exif, EXIF_IFD_0, EXIF_TAG_DATE_TIME, out->date, sizeof out->date);
    mosaic_exif_ascii(exif, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME_ORIGINAL, out->offset, sizeof out->offset);
    if (!out->offset[0]) mosaic_exif_ascii(exif, EXIF_IFD_EXIF, EXIF_TAG_OFFSET_TIME, out->offset, sizeof out->offset);
    mosaic_exif_ascii(exif, EXIF_IFD_0, EXIF_TAG_MAKE, out->make, sizeof out->make);
    mosaic_exif_ascii(exif, EXIF_IFD_0, EXIF_TAG_MODEL, out->model, sizeof out->model);
    if (exposure) mosaic_exif_exposure_of(exif, exposure);
    exif_data_unref(exif);
}

int mosaic_exif_apple_content_identifier(const uint8_t *data, size_t size, char *out, size_t capacity) {
    if (!out || capacity < 2) return 0;
    out[0] = 0;
    ExifData *exif = mosaic_exif_load(data, size);
    if (!exif) return 0;
    ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_EXIF], EXIF_TAG_MAKER_NOTE);
    // Apple's maker note: "Apple iOS\0", a version (2 bytes), "MM", then a big-endian IFD
    // whose offsets count from the note's first byte.
    const uint8_t *note = entry ? entry->data : NULL;
    size_t length = entry && entry->data ? entry->size : 0;
    int found = 0;
    if (length >= 16 && memcmp(note, "Apple iOS\0", 10) == 0 && note[12] == 'M' && note[13] == 'M') {
        size_t count = ((size_t)note[14] << 8) | note[15];
        for (size_t i = 0; i < count && 16 + 12 * (i + 1) <= length && !found; i++) {
            const uint8_t *field = note + 16 + 12 * i;
            unsigned tag = ((unsigned)field[0] << 8) | field[1], type = ((unsigned)field[2] << 8) | field[3];
            size_t n = ((size_t)field[4] << 24) | ((size_t)field[5] << 16) | ((size_t)field[6] << 8) | field[7];
            if (tag != 0x0011 || type != 2 || n < 2 || n > 256) continue;
            const uint8_t *value = field + 8;
            if (n > 4) {
                size_t offset = ((size_t)field[8] << 24) | ((size_t)field[9] << 16) | ((size_t)field[10] << 8) | field[11];
                if (offset > length || n > length - offset) break;
                value = note + offset;
            }
            size_t copy = 0;
            while (copy < n && copy < capacity - 1 && value[copy] >= 0x20 && value[copy] < 0x7F) copy++;
            memcpy(out, value, copy);
            out[copy] = 0;
            found = copy > 0;
        }
    }
    exif_data_unref(exif);
    return found;
}
