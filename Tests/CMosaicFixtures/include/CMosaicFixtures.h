// Test fixtures: files in the formats mosaic reads, written through the same libraries, for
// the tests only (this target is in no product, so the library and the command do not ship
// it). The shim's own files are in Sources/CMosaicShims.
#ifndef MOSAIC_FIXTURES_H
#define MOSAIC_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: GIF (gif_fixture.c)

/// A GIF to write, for fixtures: one image (`frames` times; the later ones with inverted
/// indices) at (`left`, `top`) on a `screen_width` x `screen_height` screen.
typedef struct {
    int screen_width, screen_height;
    int left, top, width, height;
    int interlaced;
    /// `palette_count` (a power of two, 2 to 256) RGB triples.
    const uint8_t *palette;
    int palette_count;
    /// `width * height` indices.
    const uint8_t *indices;
    /// A transparent index, or -1.
    int transparent;
    int frames;
} mosaic_gif_fixture;

mosaic_result mosaic_gif_encode_file(const char *path, const mosaic_gif_fixture *fixture);

/// An animated GIF of `frames` frames, each shown `delay` hundredths of a second with the
/// disposal method `disposal` (1 keep, 2 clear to transparent): frame 0 covers the screen in
/// colour 0, frame i > 0 its left half in colour i, colour i being RGB (37i, 255 - 11i, 5i)
/// modulo 256.
mosaic_result mosaic_gif_encode_animation(const char *path, int width, int height, int frames, int delay, int disposal);

// MARK: TIFF (tiff_fixture.c)

/// A TIFF to write, for fixtures: `pixels` has `samples` samples of `bits` (8 or 16,
/// native byte order) per pixel, contiguous; RGB with 4 samples has unassociated alpha.
typedef struct {
    int width, height, samples, bits;
    /// TIFF's Photometric Interpretation (1 grey, 2 RGB, 5 CMYK) and Compression (1 none,
    /// 5 LZW, 8 deflate).
    int photometric, compression;
    int orientation;
    /// 16 x 16 tiles instead of strips of 7 rows.
    int tiled;
    const uint8_t *pixels;
    /// An ICC profile for tag 34675, or NULL.
    const uint8_t *icc;
    size_t icc_size;
} mosaic_tiff_fixture;

mosaic_result mosaic_tiff_encode_file(const char *path, const mosaic_tiff_fixture *fixture);

// MARK: DNG (raw_fixture.c)

/// A DNG to write, for fixtures: a `width` x `height` CFA of 16-bit RGGB samples (linear
/// sRGB values; the colour matrix says so) and, when `preview_rgba` is set, a JPEG preview
/// in the first directory with the raw image in its sub-directory.
typedef struct {
    int width, height;
    const uint16_t *cfa;
    int orientation;
    /// Opaque RGBA8 pixels of the preview, or NULL for none.
    const uint8_t *preview_rgba;
    int preview_width, preview_height;
    /// PreviewColorSpace 3: the preview's values are Adobe RGB.
    int preview_adobe_rgb;
    /// 0 none; 1 the raw strip holds half its samples; 2 the preview stops at 85% (in its scan).
    int damage;
    /// Compression 52546 (JPEG XL) declared for the raw data.
    int jpeg_xl;
} mosaic_dng_fixture;

mosaic_result mosaic_dng_encode_file(const char *path, const mosaic_dng_fixture *fixture);

// MARK: WebP (webp_fixture.c)

/// Writes RGBA8 pixels as a WebP (lossy at `quality`, or lossless): for fixtures.
mosaic_result mosaic_webp_encode_file(const char *path, const uint8_t *rgba, int width, int height, int quality, int lossless);

/// A lossless animated WebP of `frames` frames of `duration` ms each, frame i opaque in
/// RGB (37i, 255 - 11i, 5i) modulo 256.
mosaic_result mosaic_webp_encode_animation(const char *path, int width, int height, int frames, int duration);

// MARK: HEIF and AVIF (heif_fixture.c)

/// Writes RGBA8 pixels as HEIF (HEVC) or AVIF at `quality`, with a thumbnail fitting
/// `thumbnail_size` when above 0, an ICC profile when `icc` is not NULL, and an nclx box
/// of `primaries`, `transfer`, `matrix` and `full_range` when `primaries` is above 0, an
/// EXIF block (a TIFF structure) when `exif` is not NULL: for fixtures.
mosaic_result mosaic_heif_encode_file(const char *path, const uint8_t *rgba, int width, int height, int avif, int quality,
                                      int thumbnail_size, const uint8_t *icc, size_t icc_size, int primaries, int transfer, int matrix,
                                      int full_range, const uint8_t *exif, size_t exif_size);

/// Writes RGBA8 pixels (opaque) as a HEIF (HEVC) as a phone does, at quality 90: an ICC
/// profile when `icc` is not NULL, an XMP item (`mime`, application/rdf+xml) when `xmp` is
/// not NULL, and with `gain_map` 1 Apple's gain map (the half-size image `gain_rgba` as an
/// auxiliary image of type urn:com:apple:photo:2020:aux:hdrgainmap) or 2 an ISO 21496-1
/// `tmap` item derived from the image (and `gain_rgba` as a second image): for fixtures.
mosaic_result mosaic_heif_encode_gain_map_file(const char *path, const uint8_t *rgba, int width, int height, const uint8_t *gain_rgba,
                                               int gain_map, const uint8_t *icc, size_t icc_size, const char *xmp, size_t xmp_size);

// MARK: Gain maps (gain_map_fixture.c)

/// Writes an Ultra HDR JPEG as Google's libultrahdr lays it out: the standard image (RGB8
/// `rgb`, with `icc` when not NULL) with its XMP (hdrgm:Version and the GContainer
/// directory), an ISO 21496-1 APP2 version marker when `iso_marker`, and MPF listing the
/// gain map (greyscale `gain`) appended after it, with its own hdrgm XMP: for fixtures.
mosaic_result mosaic_ultrahdr_encode_file(const char *path, const uint8_t *rgb, int width, int height, const uint8_t *gain, int gain_width,
                                          int gain_height, const uint8_t *icc, size_t icc_size, int iso_marker);

// MARK: JPEG XL (jxl_fixture.c)

/// A JPEG XL to write, for fixtures: `channels` 8-bit samples a pixel (1 grey, 2 grey and
/// alpha, 3 RGB, 4 RGBA), `frames` pictures one after another (more than 1: an animation,
/// of 0.1 s frames unless `durations` and `ticks_per_second` say otherwise).
typedef struct {
    int width, height, channels;
    const uint8_t *pixels;
    int frames;
    /// Lossless (modular, original colour), or lossy (XYB) at `distance` (0: 1.0).
    int lossless;
    float distance;
    /// libjxl's effort, 1 to 9 (0: 3).
    int effort;
    int orientation;
    /// An ICC profile for the image, or NULL for sRGB.
    const uint8_t *icc;
    size_t icc_size;
    /// The ISO BMFF container even without boxes.
    int container;
    /// A TIFF structure for an Exif box (in the container), or NULL.
    const uint8_t *exif;
    size_t exif_size;
    /// An animation's frame durations in ticks, one a frame (NULL: 1 each; a frame of 0
    /// ticks is blended into the next one shown), and its ticks per second as a fraction
    /// (0: 10 / 1).
    const uint32_t *durations;
    uint32_t tps_numerator, tps_denominator;
    /// 1: the colour described as sRGB's primaries and white with BT.709's transfer (as
    /// the conformance suite's `bike`), not sRGB (without `icc`).
    int bt709_transfer;
} mosaic_jxl_fixture;

mosaic_result mosaic_jxl_encode_file(const char *path, const mosaic_jxl_fixture *fixture);

/// A lossless grey animation of `frames` frames, each showing its index as the video
/// fixtures do (eight bars, bar k white when bit k is set, in rows height/4 to height/2; a
/// white top-left mark), each `durations[k]` ticks long (NULL: 1) at `tps_numerator` /
/// `tps_denominator` ticks a second (0: 10 / 1).
mosaic_result mosaic_jxl_encode_indexed_animation(const char *path, int width, int height, int frames, const uint32_t *durations,
                                                  uint32_t tps_numerator, uint32_t tps_denominator);

// MARK: Colour (color_fixture.c)

/// A CMYK output profile for fixtures, malloc'd: a 9-point table from the uncalibrated
/// CMYK formula into sRGB, except that the cyan ink is only half as strong.
uint8_t *mosaic_color_cmyk_fixture_profile(size_t *size);

// MARK: Video (video_fixture.c)

/// A clip to write through libavcodec's encoders: each frame shows its index (eight bars
/// across the top half, bar k white when bit k is set) and a white top-left mark.
typedef struct {
    const char *path;
    /// libavformat's muxer name: "mp4", "mov", "matroska", "avi".
    const char *container;
    /// "mpeg4" (MPEG-4 part 2), "mjpeg", or "h264" (libx264 through libavcodec, where
    /// this FFmpeg has it: Debian's does).
    const char *codec;
    int width, height;
    int frames;
    int fps;
    /// Frames at the start that are all black.
    int black_frames;
    /// Clockwise degrees to turn the frames upright, written as a display matrix.
    int rotation;
    /// The sample aspect ratio (0: square).
    int sar_num, sar_den;
    /// The keyframe interval (0: 12).
    int gop;
    /// The container's creation_time, QuickTime's creation date, make and model, or NULL.
    const char *creation_time;
    const char *apple_creation;
    const char *make;
    const char *model;
    /// An audio stream only (1 s of a tone, PCM).
    int audio_only;
    /// 16 (PQ) or 18 (HLG): a 10-bit BT.2020 clip (FFV1, yuv420p10) whose frames' top half
    /// is HDR reference white (203 nits: PQ's code for it, HLG's 75%) and bottom half 10 nits
    /// (on a 1000-nit display for HLG), without the index pattern.
    int hdr_transfer;
    /// An interlaced clip (MPEG-2, top field first): the pattern's bottom half striped, its
    /// even rows (the top field) white and odd rows (the bottom field) black.
    int interlaced;
    /// B-frames between reference frames (MPEG-4 part 2; 0: none).
    int b_frames;
    /// QuickTime's com.apple.quicktime.content.identifier (a Live Photo's clip), or NULL.
    const char *content_identifier;
    /// H.264's level_idc (40: level 4.0); 0: the encoder's choice.
    int level;
} mosaic_video_fixture;

/// Writes the clip `f` describes; 0, or -1 with `message` saying why.
int mosaic_write_video_fixture(const mosaic_video_fixture *f, char *message, size_t size);

/// 1 when this FFmpeg can encode `codec` ("h264", "mpeg4", "mjpeg") for a fixture.
int mosaic_video_fixture_can_encode(const char *codec);

#ifdef __cplusplus
}
#endif

#endif
