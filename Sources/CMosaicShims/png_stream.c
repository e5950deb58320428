// Streaming PNG reads (mosaic_png_stream): rows a band at a time, through the fast path
// (png_fast.c) when the file allows, else through libpng, which also takes over when the
// fast path meets anything it does not expect.
#include "CMosaicShims.h"
#include "fence.h"
#include "png_internal.h"
#include "results.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/// Opens libpng on the stream's file and reads up to the image data. MOSAIC_OK, or the
/// error (libpng's message) with `png` freed.
static mosaic_result mosaic_png_stream_start(mosaic_png_stream *stream) {
    stream->reader.offset = 0;
    stream->reader.starved = 0;
    stream->png = MOSAIC_PNG_READ_STRUCT(&stream->result);
    stream->info = stream->png ? png_create_info_struct(stream->png) : NULL;
    if (!stream->png || !stream->info || setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        mosaic_fence_failed(&result, "libpng");
        if (stream->png) png_destroy_read_struct(&stream->png, stream->info ? &stream->info : NULL, NULL);
        stream->png = NULL;
        stream->info = NULL;
        return result;
    }
    png_set_read_fn(stream->png, &stream->reader, mosaic_png_read_fn);
    png_read_info(stream->png, stream->info);
    return mosaic_ok();
}

/// Sets libpng's transforms to RGBA8 rows (or palette indices) and checks the row size.
static mosaic_result mosaic_png_stream_transforms(mosaic_png_stream *stream) {
    if (setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    stream->indexed = mosaic_png_take_palette(stream->png, stream->info, &stream->palette);
    if (!stream->indexed) mosaic_png_to_rgba8(stream->png, stream->info);
    png_read_update_info(stream->png, stream->info);
    if (png_get_rowbytes(stream->png, stream->info) != (size_t)stream->width * (stream->indexed ? 1 : 4)) {
        return mosaic_error("unexpected row size");
    }
    return mosaic_ok();
}

static void mosaic_png_stream_free(mosaic_png_stream *stream) {
    if (stream->png) png_destroy_read_struct(&stream->png, &stream->info, NULL);
    mosaic_png_fast_free(stream->fast);
    free(stream);
}

mosaic_png_stream *mosaic_png_stream_open(const uint8_t *data, size_t size, int width, int height, mosaic_result *result) {
    *result = mosaic_ok();
    mosaic_png_stream *stream = calloc(1, sizeof *stream);
    if (!stream) {
        *result = mosaic_out_of_memory("the PNG reader");
        return NULL;
    }
    stream->result = mosaic_ok();
    stream->reader.data = data;
    stream->reader.size = size;
    stream->width = width;
    stream->height = height;
    stream->rows_left = height;
    *result = mosaic_png_stream_start(stream);
    if (result->status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return NULL;
    }
    png_uint_32 file_width = png_get_image_width(stream->png, stream->info);
    png_uint_32 file_height = png_get_image_height(stream->png, stream->info);
    int interlaced = png_get_interlace_type(stream->png, stream->info) != PNG_INTERLACE_NONE;
    if ((int)file_width != width || (int)file_height != height || interlaced) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, interlaced ? "interlaced: decode it whole" : "the image is %ux%u, not the %dx%d expected",
                 file_width, file_height, width, height);
        mosaic_png_stream_free(stream);
        return NULL;
    }
    if (mosaic_png_fast_eligible(stream->png, stream->info, &stream->reader)) {
        stream->fast = mosaic_png_fast_open(&stream->reader, width, png_get_channels(stream->png, stream->info));
        if (stream->fast) {
            png_destroy_read_struct(&stream->png, &stream->info, NULL);
            stream->png = NULL;
            return stream;
        }
    }
    *result = mosaic_png_stream_transforms(stream);
    if (result->status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return NULL;
    }
    return stream;
}

int mosaic_png_stream_reads_itself(const mosaic_png_stream *stream) { return stream->fast != NULL; }

/// Hands a stream read by mosaic_png_fast back to libpng: opened again from the start,
/// the rows already given read and dropped (its warnings from before the image data are
/// made again, so the ones kept are forgotten).
static mosaic_result mosaic_png_stream_fall_back(mosaic_png_stream *stream) {
    mosaic_png_fast_free(stream->fast);
    stream->fast = NULL;
    stream->result = mosaic_ok();
    mosaic_result result = mosaic_png_stream_start(stream);
    if (result.status != MOSAIC_OK) return result;
    result = mosaic_png_stream_transforms(stream);
    if (result.status != MOSAIC_OK) return result;
    int done = stream->height - stream->rows_left;
    if (done == 0) return mosaic_ok();
    uint8_t *scratch = malloc((size_t)stream->width * 4);
    if (!scratch) return mosaic_out_of_memory("a row of the image");
    if (setjmp(png_jmpbuf(stream->png))) {
        free(scratch);
        result = stream->result;
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    for (int y = 0; y < done; y++) png_read_row(stream->png, scratch, NULL);
    free(scratch);
    return mosaic_ok();
}

mosaic_result mosaic_png_stream_read(mosaic_png_stream *stream, uint8_t *rows, size_t stride, int count) {
    if (count > stream->rows_left) {
        mosaic_result result = mosaic_ok();
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%d rows asked, %d left", count, stream->rows_left);
        return result;
    }
    int y = 0;
    if (stream->fast) {
        mosaic_png_fast *fast = stream->fast;
        while (y < count) {
            const uint8_t *above = y > 0 ? rows + (size_t)(y - 1) * stride : NULL;
            uint8_t *row = rows + (size_t)y * stride;
            if (y + 3 < count && mosaic_png_fast_four_rows(fast, row, stride, above, (size_t)stream->width)) {
                y += 4;
                stream->rows_left -= 4;
                continue;
            }
            if (y + 1 < count && mosaic_png_fast_two_rows(fast, row, row + stride, above, (size_t)stream->width)) {
                y += 2;
                stream->rows_left -= 2;
                continue;
            }
            if (!mosaic_png_fast_row(fast, row, above, (size_t)stream->width)) break;
            y += 1;
            stream->rows_left -= 1;
        }
        // A four-channel row was unfiltered in place: the next read's first row needs it.
        if (y > 0 && fast->channels == 4) {
            memcpy(fast->previous, rows + (size_t)(y - 1) * stride, fast->row_bytes);
        }
        if (y == count) return stream->result;
        mosaic_result result = mosaic_png_stream_fall_back(stream);
        if (result.status != MOSAIC_OK) return result;
    }
    if (setjmp(png_jmpbuf(stream->png))) {
        mosaic_result result = stream->result;
        mosaic_fence_failed(&result, "libpng");
        return result;
    }
    for (; y < count; y++) {
        png_read_row(stream->png, rows + (size_t)y * stride, NULL);
        if (stream->indexed) mosaic_png_expand_row(&stream->palette, rows + (size_t)y * stride, stream->width);
        stream->rows_left -= 1;
    }
    return stream->result;
}

mosaic_result mosaic_png_stream_close(mosaic_png_stream *stream) {
    if (stream->fast && stream->rows_left == 0) {
        size_t tail = mosaic_png_fast_finish(stream->fast);
        if (tail != 0) {
            mosaic_result result = stream->result;
            mosaic_png_read_tail(stream->reader.data, stream->reader.size, tail, &result);
            mosaic_png_stream_free(stream);
            return result;
        }
        // libpng failing on rows this reader gave (it reads damaged streams further than
        // zlib does) fails the image, as it would have had libpng read them.
        mosaic_result fallen = mosaic_png_stream_fall_back(stream);
        if (fallen.status != MOSAIC_OK) {
            mosaic_png_stream_free(stream);
            return fallen;
        }
    }
    mosaic_result result = stream->result;
    if (stream->png && stream->rows_left == 0) {
        if (stream->indexed) mosaic_png_check_palette(&stream->palette, &stream->result);
        if (setjmp(png_jmpbuf(stream->png))) {
            result = stream->result;
            mosaic_png_demote_to_warning(&result);
            mosaic_png_stream_free(stream);
            return result;
        }
        png_read_end(stream->png, NULL);
        result = stream->result;
    }
    mosaic_png_stream_free(stream);
    return result;
}

mosaic_result mosaic_png_decode_streamed(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    mosaic_result result;
    mosaic_png_stream *stream = mosaic_png_stream_open(data, size, width, height, &result);
    if (!stream) return result;
    result = mosaic_png_stream_read(stream, out, stride, height);
    if (result.status != MOSAIC_OK) {
        mosaic_png_stream_free(stream);
        return result;
    }
    return mosaic_png_stream_close(stream);
}
