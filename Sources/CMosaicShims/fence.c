// The handlers of the setjmp fences around libpng and libjpeg (see fence.h).
#include "fence.h"
#include "mosaic_png.h"

#include <jerror.h>
#include <stdlib.h>

// MARK: libpng

void mosaic_png_error_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    snprintf(result->message, MOSAIC_MESSAGE_SIZE, "%s", message);
    png_longjmp(png, 1);
}

/// The tests' cap on libpng's allocations on this thread (0: none).
static _Thread_local size_t mosaic_png_allocation_cap = 0;

void mosaic_png_refuse_allocations_over(size_t bytes) { mosaic_png_allocation_cap = bytes; }

png_voidp mosaic_png_malloc_fn(png_structp png, png_alloc_size_t size) {
    void *pointer = mosaic_png_allocation_cap != 0 && size > mosaic_png_allocation_cap ? NULL : malloc(size);
    if (!pointer) {
        mosaic_result *result = (mosaic_result *)png_get_mem_ptr(png);
        if (result) result->status = MOSAIC_OUT_OF_MEMORY;
    }
    return pointer;
}

void mosaic_png_free_fn(png_structp png, png_voidp pointer) {
    (void)png;
    free(pointer);
}

void mosaic_png_warning_fn(png_structp png, png_const_charp message) {
    mosaic_result *result = (mosaic_result *)png_get_error_ptr(png);
    if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", message);
    result->warning_count += 1;
}

// MARK: libjpeg

/// Warnings that mean image data was lost or is corrupt. Others (extraneous bytes
/// between header markers, an odd JFIF version, a bad ICC chunk) leave the pixels as the
/// file meant them. `cinfo->err->msg_parm` holds the warning's parameters.
static int mosaic_jpeg_is_damage(j_common_ptr cinfo) {
    switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:         // Premature end of JPEG file
    case JWRN_HIT_MARKER:       // premature end of data segment
    case JWRN_HUFF_BAD_CODE:    // bad Huffman code
    case JWRN_ARITH_BAD_CODE:   // bad arithmetic code
    case JWRN_MUST_RESYNC:      // lost track of restart markers
    case JWRN_NOT_SEQUENTIAL:   // invalid SOS parameters
    case JWRN_BOGUS_PROGRESSION:  // a scan refines or extends coefficients never sent (AC before DC)
        return 1;
    case JWRN_EXTRANEOUS_DATA:
        // "N extraneous bytes before marker 0xXX". Between header segments nothing is lost.
        // Before a restart marker (RST0-RST7) libjpeg has decoded the interval's MCUs
        // whole and skips what follows them up to the marker: padding after a complete
        // segment, as cameras write MJPEG frames, and the pixels are the file's. Had the
        // segment ended before its MCUs, the decoder would have run into the marker first
        // and said so (JWRN_HIT_MARKER, above): that is the damage, not these bytes.
        return 0;
    default:
        return 0;
    }
}

static void mosaic_jpeg_error_exit(j_common_ptr cinfo) {
    mosaic_jpeg_error *error = (mosaic_jpeg_error *)cinfo->err;
    if (cinfo->err->msg_code == JERR_NO_BACKING_STORE && error->max_memory > 0) {
        // What the memory cap looks like from inside libjpeg (no temporary files here).
        snprintf(error->result->message, MOSAIC_MESSAGE_SIZE,
                 "decoding needs more than the memory limit of %zu MB", error->max_memory >> 20);
    } else {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        snprintf(error->result->message, MOSAIC_MESSAGE_SIZE, "%s", buffer);
    }
    // Out of memory is the system's refusal, not the file's fault: said as such.
    error->result->status = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ? MOSAIC_OUT_OF_MEMORY : MOSAIC_ERROR;
    longjmp(error->jump, 1);
}

static void mosaic_jpeg_emit_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return;  // trace messages
    mosaic_jpeg_error *error = (mosaic_jpeg_error *)cinfo->err;
    mosaic_result *result = error->result;
    int damage = mosaic_jpeg_is_damage(cinfo);
    if (result->warning_count == 0 || (damage && result->damage_count == 0)) {
        char buffer[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, buffer);
        if (result->warning_count == 0) snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", buffer);
        if (damage && result->damage_count == 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "%s", buffer);
    }
    result->warning_count += 1;
    if (damage) result->damage_count += 1;
    cinfo->err->num_warnings += 1;
}

static void mosaic_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo;  // never print
}

void mosaic_jpeg_install_errors(mosaic_jpeg_error *error, mosaic_result *result) {
    jpeg_std_error(&error->pub);
    error->pub.error_exit = mosaic_jpeg_error_exit;
    error->pub.emit_message = mosaic_jpeg_emit_message;
    error->pub.output_message = mosaic_jpeg_output_message;
    error->result = result;
    error->max_scans = 0;
    error->max_memory = 0;
}
