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

/// Opens the file and reads records up to the first image's descriptor (and, with
/// `rows`, its pixels into a `width` x `height` RGBA canvas at `out`). `transparent` gets
/// the index the last Graphic Control Extension named, or -1.
static mosaic_result mosaic_gif_first_image(const uint8_t *data, size_t size, mosaic_image_info *info, uint8_t *out, size_t stride,
                                            int width, int height, int *starved) {
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
    int transparent = -1;
    GifPixelType *line = NULL;
    for (;;) {
        GifRecordType type;
        if (DGifGetRecordType(gif, &type) == GIF_ERROR) {
            result = mosaic_gif_failed(gif, &source);
            break;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            result = mosaic_error("the file has no image");
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
        int covers = image->Left == 0 && image->Top == 0 && image->Width >= gif->SWidth && image->Height >= gif->SHeight;
        if (info) {
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
        line = malloc((size_t)image->Width);
        if (!line) {
            result = mosaic_out_of_memory("a row of the image");
            break;
        }
        for (int y = 0; y < height; y++) memset(out + (size_t)y * stride, 0, (size_t)width * 4);
        // Rows in file order: an interlaced image comes in four passes.
        static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
        int passes = image->Interlace ? 4 : 1;
        int outside = 0;
        for (int pass = 0; pass < passes && result.status == MOSAIC_OK; pass++) {
            int first = image->Interlace ? starts[pass] : 0, step = image->Interlace ? steps[pass] : 1;
            for (int row = first; row < image->Height; row += step) {
                if (DGifGetLine(gif, line, image->Width) == GIF_ERROR) {
                    result = mosaic_gif_failed(gif, &source);
                    break;
                }
                int y = image->Top + row;
                if (y < 0 || y >= height) continue;
                uint8_t *target = out + (size_t)y * stride;
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
                    uint8_t *p = target + (size_t)x * 4;
                    p[0] = color.Red;
                    p[1] = color.Green;
                    p[2] = color.Blue;
                    p[3] = 255;
                }
            }
        }
        if (result.status == MOSAIC_OK && outside) {
            result.warning_count = result.damage_count = 1;
            snprintf(result.warning, MOSAIC_MESSAGE_SIZE, "a pixel's colour index is past the colour table");
            snprintf(result.damage, MOSAIC_MESSAGE_SIZE, "a pixel's colour index is past the colour table");
        }
        break;
    }
    *starved = source.starved;
    free(line);
    DGifCloseFile(gif, &error);
    return result;
}

mosaic_result mosaic_gif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    int starved = 0;
    mosaic_result result = mosaic_gif_first_image(data, size, info, NULL, 0, 0, 0, &starved);
    if (result.status != MOSAIC_OK && starved && !is_whole_file) {
        result = mosaic_need_more_data();
    }
    return result;
}

mosaic_result mosaic_gif_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height) {
    if (width < 1 || height < 1 || stride < (size_t)width * 4) return mosaic_error("invalid decode request");
    int starved = 0;
    return mosaic_gif_first_image(data, size, NULL, out, stride, width, height, &starved);
}
