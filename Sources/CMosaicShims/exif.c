// The EXIF Orientation tag, read by libexif (what libvips uses) rather than by hand.
#include "CMosaicShims.h"

#include <stdlib.h>
#include <string.h>

#include <libexif/exif-data.h>

int mosaic_exif_orientation(const uint8_t *data, size_t size) {
    static const uint8_t header[6] = {'E', 'x', 'i', 'f', 0, 0};
    if (data == NULL || size < 8 || size > 0x7FFFFFF0u) return 1;
    // libexif wants the "Exif\0\0" header that JPEG's APP1 has and PNG's eXIf lacks.
    uint8_t *copy = NULL;
    const uint8_t *block = data;
    size_t length = size;
    if (memcmp(data, header, 6) != 0) {
        copy = malloc(size + 6);
        if (!copy) return 1;
        memcpy(copy, header, 6);
        memcpy(copy + 6, data, size);
        block = copy;
        length = size + 6;
    }
    int orientation = 1;
    ExifData *exif = exif_data_new();
    if (exif) {
        // Read what is there; do not "repair" it or interpret maker notes.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
        exif_data_load_data(exif, block, (unsigned int)length);
        ExifEntry *entry = exif_content_get_entry(exif->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
        if (entry && entry->format == EXIF_FORMAT_SHORT && entry->components >= 1 && entry->data && entry->size >= 2) {
            int value = exif_get_short(entry->data, exif_data_get_byte_order(exif));
            if (value >= 1 && value <= 8) orientation = value;
        }
        exif_data_unref(exif);
    }
    free(copy);
    return orientation;
}
