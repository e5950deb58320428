// GIF through giflib's record API, from memory: the first image, composited on the
// logical screen (transparent where it does not cover it or where its Graphic Control
// Extension names a transparent index), interlaced rows put in place. giflib returns
// error codes, never jumps.
#include "CMosaicShims.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gif_lib.h>

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    /// A read asked for bytes past the end.
    int starved;
} mosaic_gif_source;

static int mosaic_gif_read(GifFileType *gif, GifByteType *buffer, int count) {
    mosaic_gif_source *source = gif->UserData;
    return (int)mosaic_read_memory(source->data, source->size, &source->offset, &source->starved, buffer, count < 0 ? 0 : (size_t)count);
}

/// giflib's error after a failed call: "the file ends early" when the reader ran dry.
static mosaic_result mosaic_gif_failed(GifFileType *gif, const mosaic_gif_source *source) {
    if (source->starved) return mosaic_error("the file ends early");
    if (gif && gif->Error == D_GIF_ERR_NOT_ENOUGH_MEM) return mosaic_out_of_memory("giflib's buffers");
    const char *text = GifErrorString(gif ? gif->Error : 0);
    return mosaic_error(text ? text : "giflib failed");
}

/// Restores the canvas after frame `disposal`'s image at (left, top, w, h): 2 clears its
/// rectangle (to transparent), 3 puts back `saved` (the canvas before the image was drawn).
static void mosaic_gif_dispose(uint8_t *out, size_t stride, int width, int height, int disposal, int left, int top, int w, int h,
                               const uint8_t *saved) {
    if (disposal == 3 && saved) {
        for (int y = 0; y < height; y++) memcpy(out + (size_t)y * stride, saved + (size_t)y * (size_t)width * 4, (size_t)width * 4);
    } else if (disposal == 2) {
        for (int y = top < 0 ? 0 : top; y < top + h && y < height; y++) {
            int x0 = left < 0 ? 0 : left, x1 = left + w > width ? width : left + w;
            if (x1 > x0) memset(out + (size_t)y * stride + (size_t)x0 * 4, 0, (size_t)(x1 - x0) * 4);
        }
    }
}

/// Opens the file and reads records up to the first image's descriptor (and, with `out`,
/// composites images 0 to `target` onto a `width` x `height` RGBA canvas there, each
/// frame's disposal applied before the next is drawn). Each image's transparent index is
/// the one its Graphic Control Extension names.
static mosaic_result mosaic_gif_first_image(const uint8_t *data, size_t size, mosaic_image_info *info, uint8_t *out, size_t stride,
                                            int width, int height, int target, int *starved) {
    mosaic_gif_source source = {data, size, 0, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&source, mosaic_gif_read, &error);
    if (!gif) {
        *starved = source.starved;
        if (source.starved) return mosaic_error("the file ends early");
        const char *text = GifErrorString(error);
        return mosaic_error(text ? text : "not a GIF");
    }
    mosaic_result result = mosaic_ok();
    int transparent = -1, disposal = 0;
    int frame = 0;
    // The last image drawn: its rectangle and disposal, applied before the next.
    int previous_disposal = 0, previous_left = 0, previous_top = 0, previous_width = 0, previous_height = 0;
    uint8_t *saved = NULL;
    GifPixelType *line = NULL;
    int outside = 0;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            result = mosaic_gif_failed(gif, &source);
            break;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            result = mosaic_error(frame == 0 ? "the file has no image" : "the animation ends before the frame asked");
            break;
        }
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *extension = NULL;
            if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) {
                result = mosaic_gif_failed(gif, &source);
                break;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4) {
                transparent = (extension[1] & 0x01) ? extension[4] : -1;
                disposal = (extension[1] >> 2) & 0x07;
            }
            int failed = 0;
            while (extension) {
                if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) {
                    failed = 1;
                    break;
                }
            }
            if (failed) {
                result = mosaic_gif_failed(gif, &source);
                break;
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) {
            result = mosaic_gif_failed(gif, &source);
            break;
        }
        GifImageDesc *image = &gif->Image;
        if (info && frame == 0) {
            int covers = image->Left == 0 && image->Top == 0 && image->Width >= gif->SWidth && image->Height >= gif->SHeight;
            memset(info, 0, sizeof *info);
            info->width = gif->SWidth;
            info->height = gif->SHeight;
            info->orientation = 1;
            info->has_alpha = transparent >= 0 || !covers;
            info->components = info->has_alpha ? 4 : 3;
            info->bit_depth = 8;
            info->interlaced = image->Interlace ? 1 : 0;
            info->frames = 1;
        }
        if (!out) break;
        ColorMapObject *map = image->ColorMap ? image->ColorMap : gif->SColorMap;
        if (!map || !map->Colors) {
            result = mosaic_error("the image has no colour table");
            break;
        }
        if (gif->SWidth != width || gif->SHeight != height || image->Width < 1 || image->Height < 1) {
            result = mosaic_error("the decode request does not match the file");
            break;
        }
        if (frame == 0) {
            for (int y = 0; y < height; y++) memset(out + (size_t)y * stride, 0, (size_t)width * 4);
        } else {
            mosaic_gif_dispose(out, stride, width, height, previous_disposal, previous_left, previous_top, previous_width, previous_height,
                               saved);
        }
        // A frame disposed of by restoring what was under it: the canvas kept first.
        if (disposal == 3 && frame < target) {
            if (!saved) saved = malloc((size_t)width * (size_t)height * 4);
            if (!saved) {
                result = mosaic_out_of_memory("the animation's previous canvas");
                break;
            }
            for (int y = 0; y < height; y++) memcpy(saved + (size_t)y * (size_t)width * 4, out + (size_t)y * stride, (size_t)width * 4);
        }
        free(line);
        line = malloc((size_t)image->Width);
        if (!line) {
            result = mosaic_out_of_memory("a row of the image");
            break;
        }
        // Rows in file order: an interlaced image comes in four passes.
        static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
        int passes = image->Interlace ? 4 : 1;
        for (int pass = 0; pass < passes && result.status == MOSAIC_OK; pass++) {
            int first = image->Interlace ? starts[pass] : 0, step = image->Interlace ? steps[pass] : 1;
            for (int row = first; row < image->Height; row += step) {
                if (DGifGetLine(gif, line, image->Width) == GIF_ERROR) {
                    result = mosaic_gif_failed(gif, &source);
                    break;
                }
                int y = image->Top + row;
                if (y < 0 || y >= height) continue;
                uint8_t *row_out = out + (size_t)y * stride;
                for (int column = 0; column < image->Width; column++) {
                    int x = image->Left + column;
                    if (x < 0 || x >= width) continue;
                    int index = line[column];
                    if (index == transparent) continue;
                    if (index >= map->ColorCount) {
                        outside = 1;
                        continue;
                    }
                    GifColorType color = map->Colors[index];
                    uint8_t *p = row_out + (size_t)x * 4;
                    p[0] = color.Red;
                    p[1] = color.Green;
                    p[2] = color.Blue;
                    p[3] = 255;
                }
            }
        }
        if (result.status != MOSAIC_OK || frame >= target) break;
        previous_disposal = disposal;
        previous_left = image->Left;
        previous_top = image->Top;
        previous_width = image->Width;
        previous_height = image->Height;
        transparent = -1;
        disposal = 0;
        frame++;
    }
    if (result.status == MOSAIC_OK && outside) {
        result.warning_count = result.damage_count = 1;
        snprintf(result.warning, MOSAIC_MESSAGE_SIZE, "a pixel's colour index is past the colour table");
        snprintf(result.damage, MOSAIC_MESSAGE_SIZE, "a pixel's colour index is past the colour table");
    }
    *starved = source.starved;
    free(line);
    free(saved);
    DGifCloseFile(gif, &error);
    return result;
}

mosaic_result mosaic_gif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    int starved = 0;
    mosaic_result result = mosaic_gif_first_image(data, size, info, NULL, 0, 0, 0, 0, &starved);
    if (result.status != MOSAIC_OK && starved && !is_whole_file) {
        result = mosaic_need_more_data();
    }
    return result;
}

mosaic_result mosaic_gif_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    return mosaic_gif_decode_frame(data, size, out, stride, width, height, 0);
}

mosaic_result mosaic_gif_decode_frame(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int frame) {
    if (width < 1 || height < 1 || stride < (size_t)width * 4 || frame < 0) return mosaic_error("invalid decode request");
    int starved = 0;
    return mosaic_gif_first_image(data, size, NULL, out, stride, width, height, frame, &starved);
}

mosaic_result mosaic_gif_timeline(const uint8_t *data, size_t size, double *starts, int capacity, int *count, double *duration) {
    *count = 0;
    *duration = 0;
    mosaic_gif_source source = {data, size, 0, 0};
    int error = 0;
    GifFileType *gif = DGifOpen(&source, mosaic_gif_read, &error);
    if (!gif) {
        const char *text = GifErrorString(error);
        return mosaic_error(source.starved ? "the file ends early" : text ? text : "not a GIF");
    }
    mosaic_result result = mosaic_ok();
    int delay = 0;
    // Hundredths, summed exactly.
    long total = 0;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            // A file cut short keeps the frames read whole.
            if (*count == 0) result = mosaic_gif_failed(gif, &source);
            break;
        }
        if (type == TERMINATE_RECORD_TYPE) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *extension = NULL;
            if (DGifGetExtension(gif, &code, &extension) == GIF_ERROR) break;
            if (code == GRAPHICS_EXT_FUNC_CODE && extension && extension[0] >= 4) delay = extension[2] | (extension[3] << 8);
            int failed = 0;
            while (extension) {
                if (DGifGetExtensionNext(gif, &extension) == GIF_ERROR) {
                    failed = 1;
                    break;
                }
            }
            if (failed) break;
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif) == GIF_ERROR) break;
        // The image's data skipped, not decoded.
        int code_size = 0;
        GifByteType *block = NULL;
        if (DGifGetCode(gif, &code_size, &block) == GIF_ERROR) break;
        int failed = 0;
        while (block) {
            if (DGifGetCodeNext(gif, &block) == GIF_ERROR) {
                failed = 1;
                break;
            }
        }
        if (failed) break;
        if (*count < capacity) starts[*count] = total / 100.0;
        (*count)++;
        // As browsers show them: a delay of 0 or 1 hundredth is a tenth of a second.
        total += delay <= 1 ? 10 : delay;
        *duration = total / 100.0;
        delay = 0;
        if (*count >= capacity) break;
    }
    DGifCloseFile(gif, &error);
    if (*count > capacity) *count = capacity;
    return result;
}
