// The JPEG sheet encoder: libjpeg-turbo compressing a band of rows at a time
// (jpeg_write_scanlines), so memory does not grow with the sheet's height: baseline,
// standard Huffman tables, no full-image buffer. Every function that calls into libjpeg
// sets its own setjmp fence (fence.h); error_exit copies libjpeg's message and jumps back to it.
#include "mosaic_jpeg_write.h"
#include "fence.h"
#include "results.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

struct mosaic_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    mosaic_jpeg_error error;
    /// One row composited over white, for `flatten`.
    uint8_t *scratch;
};

/// A compressor's warnings change no pixel: they are not printed.
static void mosaic_jpeg_write_silent(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

void mosaic_jpeg_writer_free(mosaic_jpeg_writer *writer) {
    if (!writer) return;
    jpeg_destroy_compress(&writer->cinfo);
    free(writer->scratch);
    free(writer);
}

mosaic_jpeg_writer *mosaic_jpeg_writer_open(FILE *file, int width, int height, int quality, const char *comment, mosaic_result *result) {
    *result = mosaic_ok();
    if (width < 1 || height < 1 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        *result = mosaic_error("a JPEG is at most 65500 pixels a side");
        return NULL;
    }
    if (quality < 1 || quality > 100) {
        *result = mosaic_error("the quality is 1 to 100");
        return NULL;
    }
    mosaic_jpeg_writer *writer = calloc(1, sizeof *writer);
    uint8_t *scratch = malloc((size_t)width * 4);
    if (!writer || !scratch) {
        free(writer);
        free(scratch);
        *result = mosaic_error("out of memory");
        return NULL;
    }
    writer->scratch = scratch;
    mosaic_jpeg_install_errors(&writer->error, result);
    writer->cinfo.err = &writer->error.pub;
    writer->error.pub.emit_message = mosaic_jpeg_write_silent;
    jpeg_create_compress(&writer->cinfo);
    if (setjmp(writer->error.jump)) {
        mosaic_jpeg_writer_free(writer);
        return NULL;
    }
    struct jpeg_compress_struct *cinfo = &writer->cinfo;
    jpeg_stdio_dest(cinfo, file);
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBA;  // the fourth byte is not read
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    // Below 90 chroma at half resolution both ways, as cameras store it; from 90 at full
    // resolution, so coloured caption text and thin borders keep their edges.
    int chroma = quality >= 90 ? 1 : 2;
    cinfo->comp_info[0].h_samp_factor = chroma;
    cinfo->comp_info[0].v_samp_factor = chroma;
    cinfo->comp_info[1].h_samp_factor = cinfo->comp_info[1].v_samp_factor = 1;
    cinfo->comp_info[2].h_samp_factor = cinfo->comp_info[2].v_samp_factor = 1;
    cinfo->optimize_coding = FALSE;  // an optimized table needs every coefficient first
    cinfo->dct_method = JDCT_ISLOW;  // the same bytes on every machine
    jpeg_start_compress(cinfo, TRUE);
    if (comment) jpeg_write_marker(cinfo, JPEG_COM, (const JOCTET *)comment, (unsigned)strlen(comment));
    writer->error.result = NULL;
    return writer;
}

mosaic_result mosaic_jpeg_writer_write(mosaic_jpeg_writer *writer, const uint8_t *rgba, size_t stride, int rows, int flatten) {
    mosaic_result result = mosaic_ok();
    writer->error.result = &result;
    if (setjmp(writer->error.jump)) return result;
    struct jpeg_compress_struct *cinfo = &writer->cinfo;
    if (rows < 0 || cinfo->next_scanline + (JDIMENSION)rows > cinfo->image_height) {
        return mosaic_error("more rows than the image holds");
    }
    size_t width = cinfo->image_width;
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        if (flatten) {
            // Premultiplied over white: each channel plus the white the pixel lets through.
            for (size_t i = 0; i < width * 4; i += 4) {
                uint8_t clear = (uint8_t)(255 - row[i + 3]);
                writer->scratch[i] = (uint8_t)(row[i] + clear);
                writer->scratch[i + 1] = (uint8_t)(row[i + 1] + clear);
                writer->scratch[i + 2] = (uint8_t)(row[i + 2] + clear);
                writer->scratch[i + 3] = 255;
            }
            row = writer->scratch;
        }
        JSAMPROW pointer = (JSAMPROW)row;
        jpeg_write_scanlines(cinfo, &pointer, 1);
    }
    return result;
}

mosaic_result mosaic_jpeg_writer_finish(mosaic_jpeg_writer *writer) {
    mosaic_result result = mosaic_ok();
    writer->error.result = &result;
    if (setjmp(writer->error.jump)) {
        mosaic_jpeg_writer_free(writer);
        return result;
    }
    if (writer->cinfo.next_scanline < writer->cinfo.image_height) {
        mosaic_jpeg_writer_free(writer);
        return mosaic_error("rows are missing");
    }
    jpeg_finish_compress(&writer->cinfo);
    mosaic_jpeg_writer_free(writer);
    return result;
}
