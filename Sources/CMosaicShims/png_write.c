// Writing PNGs through libpng: whole images (mosaic_png_write_image) and the sheet's
// writer, whose IDAT stream comes in segments deflated elsewhere (png_deflate.c). Output goes
// to C stdio files; libpng's errors come back through the fences of fence.h.
#include "CMosaicShims.h"
#include "fence.h"
#include "results.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/// libpng's default writer says only "Write Error" when fwrite fails: this one keeps the
/// system's errno (ENOSPC: "No space left on device") for the message.
static void mosaic_png_write_fn(png_structp png, png_bytep data, size_t length) {
    FILE *file = (FILE *)png_get_io_ptr(png);
    if (fwrite(data, 1, length, file) != length) {
        mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
        result->system_errno = errno ? errno : EIO;
        png_error(png, "cannot write the file");
    }
}

static void mosaic_png_flush_fn(png_structp png) {
    FILE *file = (FILE *)png_get_io_ptr(png);
    if (fflush(file) != 0) {
        mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
        result->system_errno = errno ? errno : EIO;
        png_error(png, "cannot write the file");
    }
}

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
    writer->png = MOSAIC_PNG_WRITE_STRUCT(&writer->result);
    writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
    if (!writer->png || !writer->info) {
        mosaic_fence_failed(result, "libpng");
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    if (setjmp(png_jmpbuf(writer->png))) {
        *result = writer->result;
        result->status = MOSAIC_ERROR;
        mosaic_png_writer_abort(writer);
        return NULL;
    }
    png_set_write_fn(writer->png, writer->file, mosaic_png_write_fn, mosaic_png_flush_fn);
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
    int error = flushed ? 0 : errno;
    int closed = fclose(writer->file) == 0;
    if (!closed && error == 0) error = errno;
    writer->file = NULL;
    free(writer);
    if (!flushed || !closed) {
        result.status = MOSAIC_ERROR;
        result.system_errno = error ? error : EIO;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end");
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
    png_structp png = MOSAIC_PNG_WRITE_STRUCT(&result);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!png || !info || setjmp(png_jmpbuf(png))) {
        if (png) png_destroy_write_struct(&png, info ? &info : NULL);
        fclose(file);
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    png_set_write_fn(png, file, mosaic_png_write_fn, mosaic_png_flush_fn);
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
        result.system_errno = errno ? errno : EIO;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file could not be written to the end");
    }
    return result;
}
