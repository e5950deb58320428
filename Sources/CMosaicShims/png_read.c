// Reading PNGs through libpng: the probe, the ICC profile, and the whole-image decode
// (palette PNGs expanded here). Input is read from memory by a C callback. libpng's errors
// come back through the fences of fence.h.
#include "CMosaicShims.h"
#include "fence.h"
#include "png_internal.h"
#include "results.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

void mosaic_png_read_fn(png_structp png, png_bytep out, size_t count) {
    mosaic_png_reader *reader = (mosaic_png_reader *)png_get_io_ptr(png);
    if (count > reader->size - reader->offset) {
        reader->starved = 1;
        png_error(png, "the file ends early");
    }
    memcpy(out, reader->data + reader->offset, count);
    reader->offset += count;
}

static void mosaic_png_fill_info(png_structp png, png_infop info, mosaic_image_info *out) {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    out->width = (int)width;
    out->height = (int)height;
    out->bit_depth = bit_depth;
    out->color_space = color_type;
    out->components = png_get_channels(png, info);
    out->interlaced = interlace != PNG_INTERLACE_NONE;
    out->has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    out->orientation = 1;
    png_textp texts = NULL;
    int text_count = 0;
    if (png_get_text(png, info, &texts, &text_count) > 0 && texts != NULL) {
        for (int i = 0; i < text_count; i++) {
            if (texts[i].key && texts[i].text && strcmp(texts[i].key, "Software") == 0) {
                snprintf(out->software, sizeof out->software, "%s", texts[i].text);
                break;
            }
        }
    }
#ifdef PNG_eXIf_SUPPORTED
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_size, &exif) != 0 && exif != NULL && exif_size > 0) {
        out->orientation = mosaic_exif_orientation(exif, exif_size);
    }
#endif
}

mosaic_result mosaic_png_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    mosaic_result result = mosaic_ok();
    memset(info, 0, sizeof *info);
    mosaic_png_reader reader = {data, size, 0, 0};
    png_structp png = MOSAIC_PNG_READ_STRUCT(&result);
    if (!png) {
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    png_infop png_info = png_create_info_struct(png);
    if (!png_info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, png_info ? &png_info : NULL, NULL);
        if (reader.starved && !is_whole_file) {
            result.status = MOSAIC_NEED_MORE_DATA;
        } else {
            mosaic_fence_failed(&result, "libpng");
        }
        return result;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, png_info);
    mosaic_png_fill_info(png, png_info, info);
    png_destroy_read_struct(&png, &png_info, NULL);
    return result;
}

uint8_t *mosaic_png_icc_profile(const uint8_t *data, size_t size, size_t *icc_size) {
    *icc_size = 0;
    mosaic_result result = mosaic_ok();
    mosaic_png_reader reader = {data, size, 0, 0};
    png_structp png = MOSAIC_PNG_READ_STRUCT(&result);
    if (!png) return NULL;
    png_infop png_info = png_create_info_struct(png);
    // volatile: read after a longjmp.
    uint8_t *volatile copy = NULL;
    if (!png_info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, png_info ? &png_info : NULL, NULL);
        free(copy);
        return NULL;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, png_info);
    png_charp name = NULL;
    int compression = 0;
    png_bytep profile = NULL;
    png_uint_32 length = 0;
    if (png_get_iCCP(png, png_info, &name, &compression, &profile, &length) != 0) copy = mosaic_copy_bytes(profile, length, icc_size);
    png_destroy_read_struct(&png, &png_info, NULL);
    return copy;
}

/// Reads the palette and tRNS of a palette PNG into `palette` and asks libpng for one
/// index per byte. Returns 0 for any other colour type. Call before the other transforms.
int mosaic_png_take_palette(png_structp png, png_infop info, mosaic_png_palette *palette) {
    if (png_get_color_type(png, info) != PNG_COLOR_TYPE_PALETTE) return 0;
    png_colorp colors = NULL;
    int entries = 0;
    png_get_PLTE(png, info, &colors, &entries);
    png_bytep trans = NULL;
    int trans_count = 0;
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_get_tRNS(png, info, &trans, &trans_count, NULL);
    memset(palette, 0, sizeof *palette);
    for (int i = 0; i < 256; i++) {
        if (i < entries && colors) {
            palette->rgba[i][0] = colors[i].red;
            palette->rgba[i][1] = colors[i].green;
            palette->rgba[i][2] = colors[i].blue;
        }
        palette->rgba[i][3] = (i < trans_count && trans) ? trans[i] : 255;
    }
    palette->entries = entries;
    palette->largest = -1;
    if (png_get_bit_depth(png, info) < 8) png_set_packing(png);
    return 1;
}

/// Expands a row of `width` indices at the start of `row` into RGBA in place (from the
/// end, so no index is overwritten before it is read), noting the largest index.
void mosaic_png_expand_row(mosaic_png_palette *palette, uint8_t *row, int width) {
    for (int x = width - 1; x >= 0; x--) {
        uint8_t index = row[x];
        if (index > palette->largest) palette->largest = index;
        memcpy(row + 4 * (size_t)x, palette->rgba[index], 4);
    }
}

/// After every row was read: an index past the palette's end is damage.
void mosaic_png_check_palette(const mosaic_png_palette *palette, mosaic_result *result) {
    if (palette->largest < palette->entries) return;
    char message[MOSAIC_MESSAGE_SIZE];
    snprintf(message, sizeof message, "palette index %d past the palette's %d entries", palette->largest, palette->entries);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    if (result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
    result->damage_count += 1;
}

/// The transforms to RGBA8 straight alpha, for the whole-image and the streaming reads.
void mosaic_png_to_rgba8(png_structp png, png_infop info) {
    int bit_depth = png_get_bit_depth(png, info);
    int color_type = png_get_color_type(png, info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
}

/// A failure after every row was read (a bad or missing IEND) becomes a warning: the
/// image itself is complete. The file is still truncated or corrupt, so it counts as
/// damage (strict mode refuses it).
void mosaic_png_demote_to_warning(mosaic_result *result) {
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "after the image data: %s", result->message);
    if (result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "after the image data: %s", result->message);
    result->warning_count += 1;
    result->damage_count += 1;
    result->message[0] = 0;
    result->status = MOSAIC_OK;
}

mosaic_result mosaic_png_decode(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    mosaic_result result = mosaic_ok();
    mosaic_png_reader reader = {data, size, 0, 0};
    volatile int rows_done = 0;
    png_structp png = MOSAIC_PNG_READ_STRUCT(&result);
    if (!png) {
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (rows_done) {
            mosaic_png_demote_to_warning(&result);
        } else {
            mosaic_fence_failed(&result, "libpng");
        }
        return result;
    }
    png_set_read_fn(png, &reader, mosaic_png_read_fn);
    png_read_info(png, info);
    png_uint_32 file_width = png_get_image_width(png, info), file_height = png_get_image_height(png, info);
    if ((int)file_width != width || (int)file_height != height || stride < (size_t)width * 4) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the image is %ux%u, not the %dx%d expected", file_width, file_height, width, height);
        png_destroy_read_struct(&png, &info, NULL);
        result.status = MOSAIC_ERROR;
        return result;
    }
    mosaic_png_palette palette;
    int indexed = mosaic_png_take_palette(png, info, &palette);
    if (!indexed) mosaic_png_to_rgba8(png, info);
    int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * (indexed ? 1 : 4)) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "unexpected row size %zu for %d pixels", png_get_rowbytes(png, info), width);
        png_destroy_read_struct(&png, &info, NULL);
        result.status = MOSAIC_ERROR;
        return result;
    }
    for (int pass = 0; pass < passes; pass++) {
        for (int y = 0; y < height; y++) {
            png_read_row(png, out + (size_t)y * stride, NULL);
        }
    }
    rows_done = 1;
    if (indexed) {
        // After every pass: Adam7 fills the index rows pass by pass.
        for (int y = 0; y < height; y++) mosaic_png_expand_row(&palette, out + (size_t)y * stride, width);
        mosaic_png_check_palette(&palette, &result);
    }
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    return result;
}
