// The setjmp fences around libjpeg and libpng, written once (not part of the shim's
// interface). Each library reports a fatal error by calling a handler that must not return:
// these handlers copy the library's message into the caller's mosaic_result and longjmp back
// to the setjmp of the C function that called into the library (never across a Swift
// frame). Warnings are counted and the first kept; nothing is printed. The setjmp itself has
// to stay in each calling function (a jump cannot return into a function that has
// returned): a fence is
//
//     png_structp png = MOSAIC_PNG_READ_STRUCT(&result);
//     png_infop info = png ? png_create_info_struct(png) : NULL;
//     if (!png || !info || setjmp(png_jmpbuf(png))) { free what was made; mosaic_fence_failed(&result, "libpng"); ... }
//
// and for libjpeg `mosaic_jpeg_install_errors(&error, &result)` then `if (setjmp(error.jump))`.
#ifndef MOSAIC_FENCE_H
#define MOSAIC_FENCE_H

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>
#include <png.h>

#include "CMosaicShims.h"

/// The result a fence returns when the library jumped back: MOSAIC_ERROR with the library's
/// message, or, when it failed before it could say anything (out of memory while starting),
/// "`library` could not start".
///
/// When the library ran out of memory (a libpng allocation that failed, libjpeg's
/// "Insufficient memory"), the handlers have set MOSAIC_OUT_OF_MEMORY: it stays, so that the
/// caller says "out of memory" and not that the file is bad.
static inline void mosaic_fence_failed(mosaic_result *result, const char *library) {
    if (result->status != MOSAIC_OUT_OF_MEMORY) result->status = MOSAIC_ERROR;
    if (result->message[0] == 0) snprintf(result->message, MOSAIC_MESSAGE_SIZE, "%s could not start", library);
}

// MARK: libpng

/// png_error's handler: the message into the mosaic_result given as libpng's error pointer,
/// then png_longjmp to the caller's setjmp.
void mosaic_png_error_fn(png_structp png, png_const_charp message);
/// png_warning's handler: counted, the first kept.
void mosaic_png_warning_fn(png_structp png, png_const_charp message);

/// libpng's allocator: malloc, and an allocation that fails sets MOSAIC_OUT_OF_MEMORY in the
/// mosaic_result given as libpng's memory pointer (libpng then says "Out of memory", or for
/// zlib's buffers "insufficient memory", in words only).
png_voidp mosaic_png_malloc_fn(png_structp png, png_alloc_size_t size);
void mosaic_png_free_fn(png_structp png, png_voidp pointer);

/// libpng's read (write) struct reporting into `result` (a mosaic_result *), allocating with
/// mosaic_png_malloc_fn; NULL when libpng could not start.
#define MOSAIC_PNG_READ_STRUCT(result)                                                                                     \
    png_create_read_struct_2(PNG_LIBPNG_VER_STRING, (result), mosaic_png_error_fn, mosaic_png_warning_fn, (result), \
                             mosaic_png_malloc_fn, mosaic_png_free_fn)
#define MOSAIC_PNG_WRITE_STRUCT(result)                                                                                    \
    png_create_write_struct_2(PNG_LIBPNG_VER_STRING, (result), mosaic_png_error_fn, mosaic_png_warning_fn, (result), \
                              mosaic_png_malloc_fn, mosaic_png_free_fn)

// MARK: libjpeg

/// libjpeg's error manager, with the jump back and the caller's result.
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    mosaic_result *result;
    /// The caps of a decode (0: none), for the progress monitor and the messages.
    int max_scans;
    size_t max_memory;
} mosaic_jpeg_error;

/// The status a libjpeg fence returns after error_exit jumped back: MOSAIC_OUT_OF_MEMORY when
/// libjpeg could not allocate (JERR_OUT_OF_MEMORY: error_exit set it), else MOSAIC_ERROR.
static inline mosaic_status mosaic_jpeg_failure(const mosaic_result *result) {
    return result->status == MOSAIC_OUT_OF_MEMORY ? MOSAIC_OUT_OF_MEMORY : MOSAIC_ERROR;
}

/// Sets `error` up (no caps) to report into `result`: error_exit sets MOSAIC_ERROR (or, when
/// libjpeg ran out of memory, MOSAIC_OUT_OF_MEMORY) with libjpeg's message and longjmps to
/// `error->jump`; warnings are counted (those that mean
/// lost image data as damage) and never printed. The caller points its cinfo's `err` at
/// `&error->pub` and calls setjmp(error->jump) before it calls into libjpeg.
void mosaic_jpeg_install_errors(mosaic_jpeg_error *error, mosaic_result *result);

#endif
