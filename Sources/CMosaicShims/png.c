// libpng behind setjmp fences. png_error jumps back to the setjmp of the function that
// called into libpng; warnings are counted and the first kept; nothing is printed. Input
// is read from memory by a C callback; output goes to C stdio files.
#include "CMosaicShims.h"
#include "results.h"

#include <errno.h>

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

static void mosaic_png_error_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    snprintf(result->message, MOSAIC_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

static void mosaic_png_warning_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
}

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// Set by the read callback just before png_error longjmps, read after the jump:
    /// volatile, or an optimizing compiler keeps the value it had at setjmp (0), and a
    /// probe of a file with more than the prefix of metadata fails instead of asking for
    /// more bytes.
    volatile int starved;
} mosaic_png_reader;

static void mosaic_png_read_fn(png_structp png, png_bytep out, size_t count) {
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
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    if (!png) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_infop png_info = png_create_info_struct(png);
    if (!png_info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, png_info ? &png_info : NULL, NULL);
        if (reader.starved && !is_whole_file) {
            result.status = MOSAIC_NEED_MORE_DATA;
        } else {
            result.status = MOSAIC_ERROR;
            if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
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
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
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

/// A palette PNG expanded here rather than by libpng, so that its indices are seen on the
/// way: libpng 1.6.39 tracks the largest index itself but skips the last pixel of every
/// row, and an index past the palette is damage (drawn black, as libpng draws it).
typedef struct {
    /// Straight RGBA of each index; black (alpha from tRNS, else opaque) past the palette.
    uint8_t rgba[256][4];
    int entries;
    int largest;
} mosaic_png_palette;

/// Reads the palette and tRNS of a palette PNG into `palette` and asks libpng for one
/// index per byte. Returns 0 for any other colour type. Call before the other transforms.
static int mosaic_png_take_palette(png_structp png, png_infop info, mosaic_png_palette *palette) {
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
static void mosaic_png_expand_row(mosaic_png_palette *palette, uint8_t *row, int width) {
    for (int x = width - 1; x >= 0; x--) {
        uint8_t index = row[x];
        if (index > palette->largest) palette->largest = index;
        memcpy(row + 4 * (size_t)x, palette->rgba[index], 4);
    }
}

/// After every row was read: an index past the palette's end is damage.
static void mosaic_png_check_palette(const mosaic_png_palette *palette, mosaic_result *result) {
    if (palette->largest < palette->entries) return;
    char message[MOSAIC_MESSAGE_SIZE];
    snprintf(message, sizeof message, "palette index %d past the palette's %d entries", palette->largest, palette->entries);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    if (result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
    result->damage_count += 1;
}

/// The transforms to RGBA8 straight alpha, for the whole-image and the streaming reads.
static void mosaic_png_to_rgba8(png_structp png, png_infop info) {
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
static void mosaic_png_demote_to_warning(mosaic_result *result) {
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
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    if (!png) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_infop info = png_create_info_struct(png);
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        if (rows_done) {
            mosaic_png_demote_to_warning(&result);
        } else {
            result.status = MOSAIC_ERROR;
            if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
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

// MARK: Streaming reads

struct mosaic_png_stream {
    png_structp png;
    png_infop info;
    /// For a palette PNG (`indexed`): rows come as indices and are expanded here.
    int indexed;
    mosaic_png_palette palette;
    mosaic_png_reader reader;
    mosaic_result result;
    int width;
    int rows_left;
};

mosaic_png_stream *mosaic_png_stream_open(const uint8_t *data, size_t size, int width, int height, mosaic_result *result) {
    *result = mosaic_ok();
    mosaic_png_stream *stream = calloc(1, sizeof *stream);
    if (!stream) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    stream->result = mosaic_ok();
    stream->reader.data = data;
    stream->reader.size = size;
    stream->width = width;
    stream->rows_left = height;
    stream->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &stream->result, mosaic_png_error_fn, mosaic_png_warning_fn);
    stream->info = stream->png ? png_create_info_struct(stream->png) : NULL;
    if (!stream->png || !stream->info || setjmp(png_jmpbuf(stream->png))) {
        *result = stream->result;
        result->status = MOSAIC_ERROR;
        if (result->message[0] == 0) snprintf(result->message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        if (stream->png) png_destroy_read_struct(&stream->png, stream->info ? &stream->info : NULL, NULL);
        free(stream);
        return NULL;
    }
    png_set_read_fn(stream->png, &stream->reader, mosaic_png_read_fn);
    png_read_info(stream->png, stream->info);
    png_uint_32 file_width = png_get_image_width(stream->png, stream->info);
    png_uint_32 file_height = png_get_image_height(stream->png, stream->info);
    int interlaced = png_get_interlace_type(stream->png, stream->info) != PNG_INTERLACE_NONE;
    if ((int)file_width != width || (int)file_height != height || interlaced) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, interlaced ? "interlaced: decode it whole" : "the image is %ux%u, not the %dx%d expected",
                 file_width, file_height, width, height);
        png_destroy_read_struct(&stream->png, &stream->info, NULL);
        free(stream);
        return NULL;
    }
    stream->indexed = mosaic_png_take_palette(stream->png, stream->info, &stream->palette);
    if (!stream->indexed) mosaic_png_to_rgba8(stream->png, stream->info);
    png_read_update_info(stream->png, stream->info);
    if (png_get_rowbytes(stream->png, stream->info) != (size_t)width * (stream->indexed ? 1 : 4)) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "unexpected row size");
        png_destroy_read_struct(&stream->png, &stream->info, NULL);
        free(stream);
        return NULL;
    }
    return stream;
}

mosaic_result mosaic_png_stream_read(mosaic_png_stream *stream, uint8_t *rows, size_t stride, int count) {
    if (count > stream->rows_left) {
        mosaic_result result = mosaic_ok();
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%d rows asked, %d left", count, stream->rows_left);
        return result;
    }
    if (setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        result.status = MOSAIC_ERROR;
        return result;
    }
    for (int y = 0; y < count; y++) {
        png_read_row(stream->png, rows + (size_t)y * stride, NULL);
        if (stream->indexed) mosaic_png_expand_row(&stream->palette, rows + (size_t)y * stride, stream->width);
    }
    stream->rows_left -= count;
    return stream->result;
}

mosaic_result mosaic_png_stream_close(mosaic_png_stream *stream) {
    mosaic_result result = stream->result;
    if (stream->rows_left == 0) {
        if (stream->indexed) mosaic_png_check_palette(&stream->palette, &stream->result);
        if (setjmp(png_jmpbuf(stream->png))) {
            result = stream->result;
            mosaic_png_demote_to_warning(&result);
            png_destroy_read_struct(&stream->png, &stream->info, NULL);
            free(stream);
            return result;
        }
        png_read_end(stream->png, NULL);
        result = stream->result;
    }
    png_destroy_read_struct(&stream->png, &stream->info, NULL);
    free(stream);
    return result;
}

// MARK: Writing

struct mosaic_png_writer {
    png_structp png;
    png_infop info;
    FILE *file;
    mosaic_result result;
    /// Segments (png_deflate.c): whether one was written, the last one was, and the
    /// Adler-32 of the filtered bytes so far.
    int segments;
    int ended;
    uint32_t adler;
};

static void mosaic_png_apply_params(png_structp png, png_infop info, const mosaic_png_params *params) {
    png_set_IHDR(png, info, (png_uint_32)params->width, (png_uint_32)params->height, params->bit_depth,
                 params->color_type, params->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, params->compression_level);
    if (params->filters != 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, params->filters);
    if (params->palette && params->palette_count > 0) {
        png_color colors[256];
        int count = params->palette_count > 256 ? 256 : params->palette_count;
        for (int i = 0; i < count; i++) {
            colors[i].red = params->palette[3 * i];
            colors[i].green = params->palette[3 * i + 1];
            colors[i].blue = params->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, count);
    }
    if (params->trns && params->trns_count > 0) {
        png_set_tRNS(png, info, params->trns, params->trns_count, NULL);
    } else if (params->has_trns_color) {
        png_color_16 color;
        memset(&color, 0, sizeof color);
        color.gray = params->trns_gray;
        color.red = params->trns_red;
        color.green = params->trns_green;
        color.blue = params->trns_blue;
        png_set_tRNS(png, info, NULL, 0, &color);
    }
#ifdef PNG_eXIf_SUPPORTED
    if (params->exif && params->exif_size > 0) {
        png_set_eXIf_1(png, info, (png_uint_32)params->exif_size, (png_bytep)params->exif);
    }
#endif
    // The sheet's pixels are sRGB: say so, so that viewers do not reinterpret them.
    if (params->srgb) png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
    if (params->icc && params->icc_size > 0) {
        png_set_iCCP(png, info, "embedded", PNG_COMPRESSION_TYPE_BASE, params->icc, (png_uint_32)params->icc_size);
    }
    if (params->software) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_TEXT_COMPRESSION_NONE;
        text.key = (png_charp) "Software";
        text.text = (png_charp)params->software;
        png_set_text(png, info, &text, 1);
    }
}

mosaic_png_writer *mosaic_png_writer_open(const char *path, const mosaic_png_params *params, mosaic_result *result) {
    *result = mosaic_ok();
    if (params->interlaced) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "a streaming writer cannot interlace");
        return NULL;
    }
    mosaic_png_writer *writer = calloc(1, sizeof *writer);
    if (!writer) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    writer->result = mosaic_ok();
    writer->file = fopen(path, "wb");
    if (!writer->file) {
        result->status = MOSAIC_SYSTEM_ERROR;
        result->system_errno = errno;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "cannot create the file");
        free(writer);
        return NULL;
    }
    writer->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->result, mosaic_png_error_fn, mosaic_png_warning_fn);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (!writer->png || !writer->info) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        *result = writer->result;
        result->status = MOSAIC_ERROR;
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    png_init_io(writer->png, writer->file);
    mosaic_png_apply_params(writer->png, writer->info, params);
    png_write_info(writer->png, writer->info);
    return writer;
}

/// Frees libpng's state, closes the file (checking that everything reached it) and frees
/// the writer: the end of a finished PNG.
static mosaic_result mosaic_png_writer_close(mosaic_png_writer *writer) {
    mosaic_result result = writer->result;
    png_destroy_write_struct(&writer->png, &writer->info);
    int flushed = fflush(writer->file) == 0;
    int closed = fclose(writer->file) == 0;
    writer->file = NULL;
    free(writer);
    if (!flushed || !closed) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end (disk full?)");
    }
    return result;
}

mosaic_result mosaic_png_writer_write_segment(mosaic_png_writer *writer, const mosaic_png_segment *segment, int last) {
    if (writer->ended) {
        mosaic_result result = mosaic_ok();
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "a segment after the last one");
        return result;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        writer->result.status = MOSAIC_ERROR;
        return writer->result;
    }
    // zlib header: deflate with a 32 KiB window, no dictionary, (0x78 << 8 | 0x01) % 31 == 0.
    static const png_byte header[2] = {0x78, 0x01};
    int first = writer->segments == 0;
    writer->adler = first ? segment->adler : mosaic_adler32_combine(writer->adler, segment->adler, segment->raw_size);
    png_byte trailer[4] = {(png_byte)(writer->adler >> 24), (png_byte)(writer->adler >> 16), (png_byte)(writer->adler >> 8),
                           (png_byte)writer->adler};
    size_t length = segment->size + (first ? 2 : 0) + (last ? 4 : 0);
    png_write_chunk_start(writer->png, (png_const_bytep) "IDAT", (png_uint_32)length);
    if (first) png_write_chunk_data(writer->png, header, 2);
    png_write_chunk_data(writer->png, segment->data, segment->size);
    if (last) png_write_chunk_data(writer->png, trailer, 4);
    png_write_chunk_end(writer->png);
    writer->segments += 1;
    writer->ended = last;
    return writer->result;
}

mosaic_result mosaic_png_writer_finish(mosaic_png_writer *writer) {
    mosaic_result result = writer->result;
    // The stream is whole once the last segment is in.
    if (!writer->ended) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the image data was never ended");
        mosaic_png_writer_abort(writer);
        return result;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        result = writer->result;
        result.status = MOSAIC_ERROR;
        mosaic_png_writer_abort(writer);
        return result;
    }
    png_write_chunk(writer->png, (png_const_bytep) "IEND", NULL, 0);
    return mosaic_png_writer_close(writer);
}

void mosaic_png_writer_abort(mosaic_png_writer *writer) {
    if (!writer) return;
    if (writer->png) png_destroy_write_struct(&writer->png, writer->info ? &writer->info : NULL);
    if (writer->file) fclose(writer->file);
    free(writer);
}

mosaic_result mosaic_png_write_image(
    const char *path, const mosaic_png_params *params, const uint8_t *rows, size_t stride) {
    mosaic_result result = mosaic_ok();
    FILE *file = fopen(path, "wb");
    if (!file) {
        result.status = MOSAIC_SYSTEM_ERROR;
        result.system_errno = errno;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "cannot create the file");
        return result;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &result, mosaic_png_error_fn, mosaic_png_warning_fn);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        fclose(file);
        result.status = MOSAIC_ERROR;
        if (result.message[0] == 0) snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libpng could not start");
        return result;
    }
    png_init_io(png, file);
    mosaic_png_apply_params(png, info, params);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (int y = 0; y < params->height; y++) png_write_row(png, rows + (size_t)y * stride);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (fclose(file) != 0) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end");
    }
    return result;
}
