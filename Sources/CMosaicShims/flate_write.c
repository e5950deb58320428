// The PDF writer's FlateDecode image streams: each row composited over white, Paeth-
// filtered behind its PNG filter byte (/DecodeParms << /Predictor 15 >>) and deflated by
// zlib into the caller's file, a band of rows at a time: memory is two rows and zlib's
// window.
#include "mosaic_flate_write.h"
#include "paeth.h"
#include "results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

enum { MOSAIC_FLATE_CHUNK = 1 << 16 };

struct mosaic_flate_writer {
    z_stream stream;
    FILE *file;
    size_t row_bytes;
    /// The row above (RGB, zero before the first) and this row, and the filtered row.
    uint8_t *above;
    uint8_t *row;
    uint8_t *filtered;
    uint8_t out[MOSAIC_FLATE_CHUNK];
};

void mosaic_flate_writer_free(mosaic_flate_writer *writer) {
    if (!writer) return;
    deflateEnd(&writer->stream);
    free(writer->above);
    free(writer->row);
    free(writer->filtered);
    free(writer);
}

mosaic_flate_writer *mosaic_flate_writer_open(FILE *file, int width, int level, mosaic_result *result) {
    *result = mosaic_ok();
    if (width < 1 || level < 0 || level > 9) {
        *result = mosaic_error("a bad width or compression level");
        return NULL;
    }
    mosaic_flate_writer *writer = calloc(1, sizeof *writer);
    size_t row_bytes = (size_t)width * 3;
    if (writer) {
        writer->above = calloc(row_bytes, 1);
        writer->row = malloc(row_bytes);
        writer->filtered = malloc(row_bytes + 1);
    }
    if (!writer || !writer->above || !writer->row || !writer->filtered || deflateInit(&writer->stream, level) != Z_OK) {
        if (writer) {
            free(writer->above);
            free(writer->row);
            free(writer->filtered);
        }
        free(writer);
        *result = mosaic_error("out of memory");
        return NULL;
    }
    writer->file = file;
    writer->row_bytes = row_bytes;
    return writer;
}

/// Deflates `size` bytes (with `flush` Z_NO_FLUSH or Z_FINISH), writing what zlib gives.
static mosaic_result mosaic_flate_push(mosaic_flate_writer *writer, const uint8_t *bytes, size_t size, int flush) {
    z_stream *stream = &writer->stream;
    stream->next_in = (Bytef *)bytes;
    stream->avail_in = (uInt)size;
    int status;
    do {
        stream->next_out = writer->out;
        stream->avail_out = MOSAIC_FLATE_CHUNK;
        status = deflate(stream, flush);
        if (status == Z_STREAM_ERROR) return mosaic_error(stream->msg ? stream->msg : "zlib failed");
        size_t produced = MOSAIC_FLATE_CHUNK - stream->avail_out;
        if (produced > 0 && fwrite(writer->out, 1, produced, writer->file) != produced) {
            mosaic_result result = mosaic_ok();
            result.status = MOSAIC_SYSTEM_ERROR;
            result.system_errno = errno;
            snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s", strerror(errno));
            return result;
        }
    } while (stream->avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
    return mosaic_ok();
}

mosaic_result mosaic_flate_writer_write(mosaic_flate_writer *writer, const uint8_t *rgba, size_t stride, int rows) {
    size_t width = writer->row_bytes / 3;
    for (int y = 0; y < rows; y++) {
        const uint8_t *source = rgba + (size_t)y * stride;
        uint8_t *row = writer->row, *up = writer->above, *out = writer->filtered;
        for (size_t x = 0; x < width; x++) {
            uint8_t clear = (uint8_t)(255 - source[4 * x + 3]);  // premultiplied over white
            row[3 * x] = (uint8_t)(source[4 * x] + clear);
            row[3 * x + 1] = (uint8_t)(source[4 * x + 1] + clear);
            row[3 * x + 2] = (uint8_t)(source[4 * x + 2] + clear);
        }
        out[0] = 4;  // Paeth
        for (size_t i = 0; i < writer->row_bytes; i++) {
            int a = i >= 3 ? row[i - 3] : 0, c = i >= 3 ? up[i - 3] : 0;
            out[i + 1] = (uint8_t)(row[i] - mosaic_paeth(a, up[i], c));
        }
        mosaic_result result = mosaic_flate_push(writer, out, writer->row_bytes + 1, Z_NO_FLUSH);
        if (result.status != MOSAIC_OK) return result;
        writer->above = row;  // this row is the next one's above
        writer->row = up;
    }
    return mosaic_ok();
}

mosaic_result mosaic_flate_writer_finish(mosaic_flate_writer *writer) {
    mosaic_result result = mosaic_flate_push(writer, NULL, 0, Z_FINISH);
    mosaic_flate_writer_free(writer);
    return result;
}

mosaic_result mosaic_flate_compress(const uint8_t *bytes, size_t size, int level, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (size > (size_t)UINT32_MAX / 2) return mosaic_error("a stream too long to compress at once");
    uLongf bound = compressBound((uLong)size);
    uint8_t *buffer = malloc(bound > 0 ? bound : 1);
    if (buffer == NULL) return mosaic_out_of_memory("memory for a compressed stream");
    int status = compress2(buffer, &bound, bytes, (uLong)size, level < 0 || level > 9 ? 6 : level);
    if (status != Z_OK) {
        free(buffer);
        return status == Z_MEM_ERROR ? mosaic_out_of_memory("zlib's memory for a compressed stream") : mosaic_error(zError(status));
    }
    *out = buffer;
    *out_size = bound;
    return mosaic_ok();
}
