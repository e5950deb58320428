// JPEG XL fixtures through libjxl's encoder.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdio.h>
#include <stdlib.h>

#include <jxl/encode.h>

mosaic_result mosaic_jxl_encode_file(const char *path, const mosaic_jxl_fixture *f) {
    JxlEncoder *encoder = JxlEncoderCreate(NULL);
    if (!encoder) return mosaic_error("libjxl's encoder could not start");
    const char *failed = NULL;
    int grey = f->channels <= 2, alpha = f->channels == 2 || f->channels == 4;
    if ((f->container || f->exif) && JxlEncoderUseContainer(encoder, JXL_TRUE) != JXL_ENC_SUCCESS) failed = "container";
    if (!failed && f->exif && JxlEncoderUseBoxes(encoder) != JXL_ENC_SUCCESS) failed = "boxes";
    JxlBasicInfo basic;
    JxlEncoderInitBasicInfo(&basic);
    basic.xsize = (uint32_t)f->width;
    basic.ysize = (uint32_t)f->height;
    basic.bits_per_sample = 8;
    basic.num_color_channels = grey ? 1 : 3;
    basic.uses_original_profile = f->lossless ? JXL_TRUE : JXL_FALSE;
    basic.orientation = (JxlOrientation)(f->orientation >= 1 && f->orientation <= 8 ? f->orientation : 1);
    if (alpha) {
        basic.alpha_bits = 8;
        basic.num_extra_channels = 1;
    }
    if (f->frames > 1) {
        basic.have_animation = JXL_TRUE;
        basic.animation.tps_numerator = f->tps_numerator > 0 ? f->tps_numerator : 10;
        basic.animation.tps_denominator = f->tps_denominator > 0 ? f->tps_denominator : 1;
    }
    if (!failed && JxlEncoderSetBasicInfo(encoder, &basic) != JXL_ENC_SUCCESS) failed = "basic info";
    if (!failed) {
        if (f->icc) {
            if (JxlEncoderSetICCProfile(encoder, f->icc, f->icc_size) != JXL_ENC_SUCCESS) failed = "ICC profile";
        } else {
            JxlColorEncoding srgb;
            JxlColorEncodingSetToSRGB(&srgb, grey);
            if (f->bt709_transfer) srgb.transfer_function = JXL_TRANSFER_FUNCTION_709;
            if (JxlEncoderSetColorEncoding(encoder, &srgb) != JXL_ENC_SUCCESS) failed = "colour encoding";
        }
    }
    if (!failed && f->exif) {
        // The Exif box: a 4-byte offset to the TIFF header (0), then the TIFF data.
        uint8_t *box = malloc(f->exif_size + 4);
        if (!box) {
            failed = "memory";
        } else {
            memset(box, 0, 4);
            memcpy(box + 4, f->exif, f->exif_size);
            if (JxlEncoderAddBox(encoder, "Exif", box, f->exif_size + 4, JXL_FALSE) != JXL_ENC_SUCCESS) failed = "Exif box";
            free(box);
        }
    }
    JxlPixelFormat format = {(uint32_t)f->channels, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    size_t frame_bytes = (size_t)f->width * (size_t)f->height * (size_t)f->channels;
    int frames = f->frames > 1 ? f->frames : 1;
    for (int k = 0; k < frames && !failed; k++) {
        JxlEncoderFrameSettings *settings = JxlEncoderFrameSettingsCreate(encoder, NULL);
        if (!settings) {
            failed = "frame settings";
            break;
        }
        JxlEncoderFrameSettingsSetOption(settings, JXL_ENC_FRAME_SETTING_EFFORT, f->effort > 0 ? f->effort : 3);
        if (f->lossless ? JxlEncoderSetFrameLossless(settings, JXL_TRUE) != JXL_ENC_SUCCESS
                        : JxlEncoderSetFrameDistance(settings, f->distance > 0 ? f->distance : 1.0f) != JXL_ENC_SUCCESS) {
            failed = "distance";
            break;
        }
        if (frames > 1) {
            JxlFrameHeader header;
            JxlEncoderInitFrameHeader(&header);
            header.duration = f->durations ? f->durations[k] : 1;
            if (JxlEncoderSetFrameHeader(settings, &header) != JXL_ENC_SUCCESS) failed = "frame header";
        }
        if (!failed && JxlEncoderAddImageFrame(settings, &format, f->pixels + (size_t)k * frame_bytes, frame_bytes) != JXL_ENC_SUCCESS) failed = "frame";
    }
    JxlEncoderCloseInput(encoder);
    FILE *file = failed ? NULL : fopen(path, "wb");
    if (!failed && !file) failed = "the file";
    uint8_t buffer[1 << 14];
    while (!failed) {
        uint8_t *next = buffer;
        size_t available = sizeof buffer;
        JxlEncoderStatus status = JxlEncoderProcessOutput(encoder, &next, &available);
        if (status == JXL_ENC_ERROR) {
            failed = "encoding";
            break;
        }
        size_t produced = (size_t)(next - buffer);
        if (fwrite(buffer, 1, produced, file) != produced) failed = "writing";
        if (status == JXL_ENC_SUCCESS) break;
    }
    if (file) fclose(file);
    int error = (int)JxlEncoderGetError(encoder);
    JxlEncoderDestroy(encoder);
    if (!failed) return mosaic_ok();
    mosaic_result result = mosaic_error("");
    snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libjxl failed at %s (error %d)", failed, error);
    return result;
}

mosaic_result mosaic_jxl_encode_indexed_animation(const char *path, int width, int height, int frames, const uint32_t *durations,
                                                  uint32_t tps_numerator, uint32_t tps_denominator) {
    if (width < 8 || height < 8 || frames < 1) return mosaic_error("the animation needs at least 8 x 8 pixels and a frame");
    size_t frame_bytes = (size_t)width * (size_t)height * 3;
    uint8_t *pixels = malloc(frame_bytes * (size_t)frames);
    if (!pixels) return mosaic_error("memory");
    // The pattern of video_fixture.c: grey, a white top-left mark, eight bars across the
    // upper half's lower part, bar k white when bit k of the frame's index is set.
    for (int k = 0; k < frames; k++) {
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                uint8_t value = 128;
                if (y < height / 8 && x < width / 8) {
                    value = 255;
                } else if (y >= height / 4 && y < height / 2) {
                    value = (k >> (x * 8 / width)) & 1 ? 255 : 0;
                }
                uint8_t *pixel = pixels + (size_t)k * frame_bytes + ((size_t)y * (size_t)width + (size_t)x) * 3;
                pixel[0] = pixel[1] = pixel[2] = value;
            }
        }
    }
    mosaic_jxl_fixture fixture = {0};
    fixture.width = width;
    fixture.height = height;
    fixture.channels = 3;
    fixture.pixels = pixels;
    fixture.frames = frames;
    fixture.lossless = 1;
    fixture.durations = durations;
    fixture.tps_numerator = tps_numerator;
    fixture.tps_denominator = tps_denominator;
    mosaic_result result = mosaic_jxl_encode_file(path, &fixture);
    free(pixels);
    return result;
}
