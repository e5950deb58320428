// JPEG XL through libjxl 0.7: the probe (headers, an animation's frame count), an
// animation's timeline (its frame headers' durations), the decode of the image, an
// animation's frame or the embedded preview to RGBA8, the colour of
// the decoded pixels, and the sheet encoder. libjxl returns status codes, never jumps, and
// says no more than its status: the messages here name the step that failed. Orientation
// is kept (mosaic turns the pixels, as for JPEG).
#include "CMosaicShims.h"
#include "results.h"
#include "straight.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/thread_parallel_runner.h>

/// A decoder over `data` that keeps the orientation and hands out straight alpha; NULL when
/// libjxl cannot start. The input is never closed, even when it is the whole file: libjxl
/// then asks for more input where the file ends early (closed, it fails, printing its
/// own "missing input" on the standard error), and nothing mosaic reads needs it closed
/// (only box events do).
static JxlDecoder *mosaic_jxl_decoder(const uint8_t *data, size_t size, int events) {
    JxlDecoder *decoder = JxlDecoderCreate(NULL);
    if (!decoder) return NULL;
    if (JxlDecoderSubscribeEvents(decoder, events) != JXL_DEC_SUCCESS || JxlDecoderSetKeepOrientation(decoder, JXL_TRUE) != JXL_DEC_SUCCESS ||
        JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) != JXL_DEC_SUCCESS || JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) {
        JxlDecoderDestroy(decoder);
        return NULL;
    }
    return decoder;
}

/// The error for a decoder that stopped at `step`: the file ended early (libjxl asks for
/// more input than the whole file), or its data is invalid.
static mosaic_result mosaic_jxl_failed(const char *step, JxlDecoderStatus status) {
    mosaic_result result = mosaic_ok();
    result.status = MOSAIC_ERROR;
    if (status == JXL_DEC_NEED_MORE_INPUT) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file ends early (in %s)", step);
    } else {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libjxl refused %s (invalid or unsupported data)", step);
    }
    return result;
}

static void mosaic_jxl_fill_info(const JxlBasicInfo *basic, int container, mosaic_jxl_info *info) {
    info->width = (int)basic->xsize;
    info->height = (int)basic->ysize;
    info->orientation = basic->orientation >= 1 && basic->orientation <= 8 ? (int)basic->orientation : 1;
    info->has_alpha = basic->alpha_bits > 0;
    info->is_grey = basic->num_color_channels == 1;
    info->bits = (int)basic->bits_per_sample;
    info->original_colour = basic->uses_original_profile ? 1 : 0;
    if (basic->have_preview) {
        info->preview_width = (int)basic->preview.xsize;
        info->preview_height = (int)basic->preview.ysize;
    }
    info->container = container;
}

mosaic_result mosaic_jxl_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_jxl_info *info) {
    memset(info, 0, sizeof *info);
    JxlSignature signature = JxlSignatureCheck(data, size);
    if (signature == JXL_SIG_NOT_ENOUGH_BYTES) return is_whole_file ? mosaic_error("the file ends early (in the signature)") : mosaic_need_more_data();
    if (signature != JXL_SIG_CODESTREAM && signature != JXL_SIG_CONTAINER) return mosaic_error("not a JPEG XL file");
    JxlDecoder *decoder = mosaic_jxl_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_FRAME);
    if (!decoder) return mosaic_out_of_memory("libjxl's decoder");
    mosaic_result result = mosaic_ok();
    JxlBasicInfo basic;
    int have_basic = 0;
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            if (JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS) {
                result = mosaic_jxl_failed("the image header", JXL_DEC_ERROR);
                break;
            }
            have_basic = 1;
            mosaic_jxl_fill_info(&basic, signature == JXL_SIG_CONTAINER, info);
            // A still image's header is all the probe needs.
            if (!basic.have_animation) break;
        } else if (status == JXL_DEC_FRAME) {
            // Counted from their headers: libjxl skips the frames' data.
            info->frames += info->frames < 1 << 30 ? 1 : 0;
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        } else if (status == JXL_DEC_NEED_MORE_INPUT && !is_whole_file) {
            result = mosaic_need_more_data();
            break;
        } else {
            result = mosaic_jxl_failed(have_basic ? "a frame header" : "the image header", status);
            break;
        }
    }
    JxlDecoderDestroy(decoder);
    return result;
}

/// True when `encoding` is sRGB (or grey with sRGB's curve and white): pixels to draw as
/// they are.
static int mosaic_jxl_is_srgb(const JxlColorEncoding *encoding) {
    if (encoding->transfer_function != JXL_TRANSFER_FUNCTION_SRGB || encoding->white_point != JXL_WHITE_POINT_D65) return 0;
    if (encoding->color_space == JXL_COLOR_SPACE_GRAY) return 1;
    return encoding->color_space == JXL_COLOR_SPACE_RGB && encoding->primaries == JXL_PRIMARIES_SRGB;
}

/// At the JXL_DEC_COLOR_ENCODING event: asks for sRGB pixels where libjxl has the choice
/// (XYB), then copies the pixels' profile into `*icc` unless they are sRGB. 0, or -1 when
/// libjxl cannot describe them.
static int mosaic_jxl_data_profile(JxlDecoder *decoder, const JxlBasicInfo *basic, uint8_t **icc, size_t *icc_size) {
    *icc = NULL;
    *icc_size = 0;
    if (!basic->uses_original_profile) {
        JxlColorEncoding srgb;
        JxlColorEncodingSetToSRGB(&srgb, basic->num_color_channels == 1);
        // Refused only for profiles libjxl cannot make from XYB: then it keeps its own.
        (void)JxlDecoderSetPreferredColorProfile(decoder, &srgb);
    }
    JxlColorEncoding encoding;
    if (JxlDecoderGetColorAsEncodedProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS &&
        mosaic_jxl_is_srgb(&encoding)) {
        return 0;
    }
    size_t size = 0;
    if (JxlDecoderGetICCProfileSize(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS || size == 0) return -1;
    uint8_t *profile = malloc(size);
    if (!profile) return -1;
    if (JxlDecoderGetColorAsICCProfile(decoder, NULL, JXL_COLOR_PROFILE_TARGET_DATA, profile, size) != JXL_DEC_SUCCESS) {
        free(profile);
        return -1;
    }
    *icc = profile;
    *icc_size = size;
    return 0;
}

mosaic_result mosaic_jxl_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration) {
    *count = 0;
    *duration = 0;
    JxlDecoder *decoder = mosaic_jxl_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_FRAME);
    if (!decoder) return mosaic_out_of_memory("libjxl's decoder");
    mosaic_result result = mosaic_ok();
    // Ticks summed exactly (at most 2^32 a frame, 2^31 frames: within 64 bits), then
    // turned into seconds at the animation header's ticks per second.
    uint64_t ticks = 0;
    double seconds_per_tick = 0;
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            JxlBasicInfo basic;
            if (JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS) {
                result = mosaic_jxl_failed("the image header", JXL_DEC_ERROR);
                break;
            }
            // A still image: no timeline.
            if (!basic.have_animation) break;
            if (basic.animation.tps_numerator == 0 || basic.animation.tps_denominator == 0) {
                result = mosaic_error("the animation header gives no ticks per second");
                break;
            }
            seconds_per_tick = (double)basic.animation.tps_denominator / (double)basic.animation.tps_numerator;
        } else if (status == JXL_DEC_FRAME) {
            // Each shown frame's header (libjxl skips its data, and folds frames of no
            // duration into the next one it shows).
            JxlFrameHeader header;
            if (*count >= capacity || JxlDecoderGetFrameHeader(decoder, &header) != JXL_DEC_SUCCESS) break;
            starts[(*count)++] = (double)ticks * seconds_per_tick;
            ticks += header.duration;
            *duration = (double)ticks * seconds_per_tick;
        } else if (status == JXL_DEC_SUCCESS) {
            break;
        } else {
            // A file cut short, or a damaged frame header, keeps the frames read whole.
            if (*count == 0) result = mosaic_jxl_failed("a frame header", status);
            break;
        }
    }
    JxlDecoderDestroy(decoder);
    return result;
}

mosaic_result mosaic_jxl_decode(const uint8_t *data, size_t size, int preview, uint8_t *out, size_t stride, int width, int height,
                                uint8_t **icc, size_t *icc_size) {
    return mosaic_jxl_decode_frame(data, size, preview, 0, out, stride, width, height, icc, icc_size);
}

mosaic_result mosaic_jxl_decode_frame(const uint8_t *data, size_t size, int preview, int frame, uint8_t *out, size_t stride, int width,
                                      int height, uint8_t **icc, size_t *icc_size) {
    *icc = NULL;
    *icc_size = 0;
    if (width < 1 || height < 1 || stride != (size_t)width * 4 || frame < 0 || (preview && frame > 0)) {
        return mosaic_error("the decode request does not fit the image");
    }
    int pixels_event = preview ? JXL_DEC_PREVIEW_IMAGE : JXL_DEC_FULL_IMAGE;
    JxlDecoder *decoder = mosaic_jxl_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | pixels_event);
    if (!decoder) return mosaic_out_of_memory("libjxl's decoder");
    JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    size_t bytes = stride * (size_t)height;
    mosaic_result result = mosaic_ok();
    JxlBasicInfo basic;
    const char *step = "the image header";
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            if (JxlDecoderGetBasicInfo(decoder, &basic) != JXL_DEC_SUCCESS) {
                result = mosaic_jxl_failed(step, JXL_DEC_ERROR);
                break;
            }
            int want_width = preview ? (int)basic.preview.xsize : (int)basic.xsize;
            int want_height = preview ? (int)basic.preview.ysize : (int)basic.ysize;
            if ((preview && !basic.have_preview) || want_width != width || want_height != height) {
                result = mosaic_error("the decode request does not fit the image");
                break;
            }
            // The frames before the one asked for: libjxl decodes only what later frames
            // blend onto (their reference frames), and shows none of them.
            if (frame > 0) JxlDecoderSkipFrames(decoder, (size_t)frame);
            step = "the colour description";
        } else if (status == JXL_DEC_COLOR_ENCODING) {
            if (mosaic_jxl_data_profile(decoder, &basic, icc, icc_size) != 0) {
                result = mosaic_error("libjxl cannot describe the colour of the decoded pixels");
                break;
            }
            step = preview ? "the preview" : frame > 0 ? "the frame asked for" : "the first frame";
        } else if (status == JXL_DEC_NEED_PREVIEW_OUT_BUFFER) {
            size_t needed = 0;
            if (JxlDecoderPreviewOutBufferSize(decoder, &format, &needed) != JXL_DEC_SUCCESS || needed != bytes ||
                JxlDecoderSetPreviewOutBuffer(decoder, &format, out, bytes) != JXL_DEC_SUCCESS) {
                result = mosaic_error("libjxl refused the preview's buffer");
                break;
            }
        } else if (status == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
            size_t needed = 0;
            if (JxlDecoderImageOutBufferSize(decoder, &format, &needed) != JXL_DEC_SUCCESS || needed != bytes ||
                JxlDecoderSetImageOutBuffer(decoder, &format, out, bytes) != JXL_DEC_SUCCESS) {
                result = mosaic_error("libjxl refused the image's buffer");
                break;
            }
        } else if (status == JXL_DEC_PREVIEW_IMAGE || status == JXL_DEC_FULL_IMAGE) {
            // The preview, or the frame asked for (an animation's later ones are not needed).
            break;
        } else if (status == JXL_DEC_SUCCESS && frame > 0) {
            // Every frame skipped: the animation ends before the one asked for.
            result = mosaic_error("");
            snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the animation has no frame %d", frame);
            break;
        } else {
            // JXL_DEC_SUCCESS before any pixels cannot happen for a valid file; the others
            // are errors and a file that ends early (its input is closed).
            result = mosaic_jxl_failed(step, status == JXL_DEC_SUCCESS ? JXL_DEC_ERROR : status);
            break;
        }
    }
    JxlDecoderDestroy(decoder);
    if (result.status != MOSAIC_OK) {
        free(*icc);
        *icc = NULL;
        *icc_size = 0;
    }
    return result;
}

uint8_t *mosaic_jxl_icc_profile(const uint8_t *data, size_t size, size_t *icc_size) {
    *icc_size = 0;
    JxlDecoder *decoder = mosaic_jxl_decoder(data, size, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING);
    if (!decoder) return NULL;
    uint8_t *icc = NULL;
    JxlBasicInfo basic;
    int have_basic = 0;
    for (;;) {
        JxlDecoderStatus status = JxlDecoderProcessInput(decoder);
        if (status == JXL_DEC_BASIC_INFO) {
            have_basic = JxlDecoderGetBasicInfo(decoder, &basic) == JXL_DEC_SUCCESS;
            if (!have_basic) break;
        } else if (status == JXL_DEC_COLOR_ENCODING && have_basic) {
            if (mosaic_jxl_data_profile(decoder, &basic, &icc, icc_size) != 0) icc = NULL;
            break;
        } else {
            break;
        }
    }
    JxlDecoderDestroy(decoder);
    return icc;
}

// MARK: Writing

struct mosaic_jxl_writer {
    int width, height, channels, rows;
    uint8_t *pixels;
};

void mosaic_jxl_writer_free(mosaic_jxl_writer *writer) {
    if (!writer) return;
    free(writer->pixels);
    free(writer);
}

mosaic_jxl_writer *mosaic_jxl_writer_open(int width, int height, int has_alpha, mosaic_result *result) {
    *result = mosaic_ok();
    if (width < 1 || height < 1 || width > (1 << 30) || height > (1 << 30)) {
        *result = mosaic_error("a JPEG XL is at most 2^30 pixels a side");
        return NULL;
    }
    mosaic_jxl_writer *writer = calloc(1, sizeof *writer);
    int channels = has_alpha ? 4 : 3;
    size_t bytes = (size_t)width * (size_t)height * (size_t)channels;
    if (!writer || bytes / (size_t)channels / (size_t)width != (size_t)height || !(writer->pixels = malloc(bytes))) {
        free(writer);
        *result = mosaic_out_of_memory("the page's picture");
        return NULL;
    }
    writer->width = width;
    writer->height = height;
    writer->channels = channels;
    return writer;
}

mosaic_result mosaic_jxl_writer_write(mosaic_jxl_writer *writer, const uint8_t *rgba, size_t stride, int rows) {
    if (rows < 0 || writer->rows + rows > writer->height) return mosaic_error("more rows than the image holds");
    size_t row_bytes = (size_t)writer->width * (size_t)writer->channels;
    for (int y = 0; y < rows; y++) {
        const uint8_t *row = rgba + (size_t)y * stride;
        uint8_t *target = writer->pixels + (size_t)(writer->rows + y) * row_bytes;
        for (int x = 0; x < writer->width; x++) {
            uint8_t *pixel = target + (size_t)x * (size_t)writer->channels;
            if (writer->channels == 4) {
                mosaic_straight_rgb(row + 4 * x, pixel);
                pixel[3] = row[4 * x + 3];
            } else {
                // An opaque page: premultiplied and straight are the same.
                memcpy(pixel, row + 4 * x, 3);
            }
        }
    }
    writer->rows += rows;
    return mosaic_ok();
}

/// libjxl's reason for an encoder that failed.
static const char *mosaic_jxl_encoder_reason(JxlEncoder *encoder) {
    switch (JxlEncoderGetError(encoder)) {
    case JXL_ENC_ERR_OOM: return "out of memory";
    case JXL_ENC_ERR_BAD_INPUT: return "libjxl refused the input";
    case JXL_ENC_ERR_NOT_SUPPORTED: return "libjxl does not support these settings";
    case JXL_ENC_ERR_API_USAGE: return "libjxl refused a call (API usage)";
    default: return "the encoder failed";
    }
}

mosaic_result mosaic_jxl_writer_finish(mosaic_jxl_writer *writer, FILE *file, float distance, int lossless, int effort, int threads,
                                       const char *xmp) {
    if (writer->rows != writer->height) {
        mosaic_jxl_writer_free(writer);
        return mosaic_error("rows are missing");
    }
    JxlEncoder *encoder = JxlEncoderCreate(NULL);
    void *runner = threads > 1 ? JxlThreadParallelRunnerCreate(NULL, (size_t)threads) : NULL;
    mosaic_result result = mosaic_ok();
    const char *failed = NULL;
    if (!encoder || (threads > 1 && !runner)) {
        result = mosaic_out_of_memory("libjxl's encoder");
        goto done;
    }
    if (runner && JxlEncoderSetParallelRunner(encoder, JxlThreadParallelRunner, runner) != JXL_ENC_SUCCESS) {
        failed = "the thread runner";
        goto done;
    }
    if (xmp && JxlEncoderUseBoxes(encoder) != JXL_ENC_SUCCESS) {
        failed = "the container";
        goto done;
    }
    JxlBasicInfo basic;
    JxlEncoderInitBasicInfo(&basic);
    basic.xsize = (uint32_t)writer->width;
    basic.ysize = (uint32_t)writer->height;
    basic.bits_per_sample = 8;
    basic.num_color_channels = 3;
    basic.uses_original_profile = lossless ? JXL_TRUE : JXL_FALSE;
    if (writer->channels == 4) {
        basic.alpha_bits = 8;
        basic.num_extra_channels = 1;
    }
    if (JxlEncoderSetBasicInfo(encoder, &basic) != JXL_ENC_SUCCESS) {
        failed = "the image header";
        goto done;
    }
    JxlColorEncoding srgb;
    JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE);
    if (JxlEncoderSetColorEncoding(encoder, &srgb) != JXL_ENC_SUCCESS) {
        failed = "the colour description";
        goto done;
    }
    JxlEncoderFrameSettings *settings = JxlEncoderFrameSettingsCreate(encoder, NULL);
    if (!settings || JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, effort) != JXL_ENC_SUCCESS ||
        (lossless ? JxlEncoderSetFrameLossless(settings, JXL_TRUE) : JxlEncoderSetFrameDistance(settings, distance)) != JXL_ENC_SUCCESS) {
        failed = "the settings";
        goto done;
    }
    if (xmp && JxlEncoderAddBox(encoder, "xml ", (const uint8_t *)xmp, strlen(xmp), JXL_FALSE) != JXL_ENC_SUCCESS) {
        failed = "the XMP box";
        goto done;
    }
    JxlPixelFormat format = {(uint32_t)writer->channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    size_t bytes = (size_t)writer->width * (size_t)writer->height * (size_t)writer->channels;
    if (JxlEncoderAddImageFrame(settings, &format, writer->pixels, bytes) != JXL_ENC_SUCCESS) {
        failed = "the picture";
        goto done;
    }
    // libjxl copied the picture: ours goes before the encoder's work begins.
    free(writer->pixels);
    writer->pixels = NULL;
    JxlEncoderCloseInput(encoder);
    uint8_t buffer[1 << 16];
    for (;;) {
        uint8_t *next = buffer;
        size_t available = sizeof buffer;
        JxlEncoderStatus status = JxlEncoderProcessOutput(encoder, &next, &available);
        size_t produced = (size_t)(next - buffer);
        if (status == JXL_ENC_ERROR) {
            failed = "the encoding";
            break;
        }
        if (produced > 0 && fwrite(buffer, 1, produced, file) != produced) {
            result.status = MOSAIC_SYSTEM_ERROR;
            result.system_errno = errno;
            snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s", strerror(errno));
            break;
        }
        if (status == JXL_ENC_SUCCESS) break;
    }
done:
    if (failed) {
        result = mosaic_error("");
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s (at %s)", mosaic_jxl_encoder_reason(encoder), failed);
        if (JxlEncoderGetError(encoder) == JXL_ENC_ERR_OOM) result.status = MOSAIC_OUT_OF_MEMORY;
    }
    if (encoder) JxlEncoderDestroy(encoder);
    if (runner) JxlThreadParallelRunnerDestroy(runner);
    mosaic_jxl_writer_free(writer);
    return result;
}

char *mosaic_jxl_xmp(const char *path) {
    FILE *file = fopen(path, "rbe");
    if (!file) return NULL;
    static const uint8_t signature[12] = {0, 0, 0, 0x0C, 'J', 'X', 'L', ' ', 0x0D, 0x0A, 0x87, 0x0A};
    uint8_t header[16];
    char *xmp = NULL;
    if (fread(header, 1, 12, file) != 12 || memcmp(header, signature, 12) != 0) goto done;
    // Top-level boxes: size (32-bit, 1: 64-bit follows, 0: to the end), type, contents.
    for (int boxes = 0; boxes < 64; boxes++) {
        if (fread(header, 1, 8, file) != 8) break;
        uint64_t box = (uint64_t)header[0] << 24 | (uint64_t)header[1] << 16 | (uint64_t)header[2] << 8 | header[3];
        uint64_t header_size = 8;
        if (box == 1) {
            uint8_t large[8];
            if (fread(large, 1, 8, file) != 8) break;
            box = 0;
            for (int i = 0; i < 8; i++) box = box << 8 | large[i];
            header_size = 16;
        }
        if (box != 0 && box < header_size) break;
        if (memcmp(header + 4, "xml ", 4) == 0) {
            if (box == 0 || box - header_size > (1 << 20)) break;
            size_t length = (size_t)(box - header_size);
            xmp = malloc(length + 1);
            if (xmp && fread(xmp, 1, length, file) == length) {
                xmp[length] = 0;
            } else {
                free(xmp);
                xmp = NULL;
            }
            break;
        }
        if (box == 0 || box - header_size > (uint64_t)INT64_MAX || fseeko(file, (off_t)(box - header_size), SEEK_CUR) != 0) break;
    }
done:
    fclose(file);
    return xmp;
}
