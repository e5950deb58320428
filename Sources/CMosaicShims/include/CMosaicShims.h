// The only C code in mosaic: fences around libjpeg(-turbo), libpng, libwebp, giflib,
// libheif, libtiff, Little CMS and libexif, the PNG writer's filter and deflate, the PNG
// reader's own image-data path, and the few hot loops that need instructions Swift's
// vectors do not reach (resample.c).
//
// Every function returns a status and, on failure, copies the library's own message into
// the result. setjmp/longjmp stay inside these files: libjpeg's error_exit and libpng's
// png_error jump back to a setjmp in the same C function, never across a Swift frame.
// Neither library prints anything. Input comes from memory buffers or C stdio files, never
// through a Swift callback.
#ifndef MOSAIC_SHIMS_H
#define MOSAIC_SHIMS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    MOSAIC_OK = 0,
    /// The library refused the data or the call; `message` says why.
    MOSAIC_ERROR = 1,
    /// A probe ran out of bytes before the end of the headers: call again with more.
    MOSAIC_NEED_MORE_DATA = 2,
    /// A system call failed (the output file could not be created); `system_errno` is its
    /// errno, read at once.
    MOSAIC_SYSTEM_ERROR = 3,
    /// Memory the call needed could not be allocated (the data may be fine); `message`
    /// says for what.
    MOSAIC_OUT_OF_MEMORY = 4,
} mosaic_status;

enum { MOSAIC_MESSAGE_SIZE = 200 };

/// What a call reports besides its status.
typedef struct {
    mosaic_status status;
    /// The library's message when status is MOSAIC_ERROR.
    char message[MOSAIC_MESSAGE_SIZE];
    /// Warnings the library emitted (corrupt or truncated data it worked around).
    int warning_count;
    /// The first warning's message.
    char warning[MOSAIC_MESSAGE_SIZE];
    /// With MOSAIC_SYSTEM_ERROR: the errno of the call that failed.
    int system_errno;
    /// Of the warnings, those that mean lost or corrupt image data (a truncated file, a
    /// corrupt scan, a palette index past the palette), as opposed to benign ones (an
    /// incorrect sRGB profile, extraneous bytes between markers).
    int damage_count;
    /// The first such warning's message.
    char damage[MOSAIC_MESSAGE_SIZE];
} mosaic_result;

/// What the headers say.
typedef struct {
    int width;
    int height;
    /// 1 to 8, from EXIF (JPEG APP1, PNG eXIf); 1 when absent or invalid.
    int orientation;
    int has_alpha;
    /// JPEG: components in the file (1 grey, 3, 4 CMYK/YCCK); PNG: channels.
    int components;
    /// JPEG: libjpeg's J_COLOR_SPACE of the file; PNG: the colour type; WebP: libwebp's
    /// format (0 mixed, 1 lossy, 2 lossless), 3 for an animation (of any frame count).
    int color_space;
    /// PNG: bits per sample; JPEG: 8 (or 12).
    int bit_depth;
    int progressive;
    /// JPEG: arithmetic-coded.
    int arithmetic;
    /// JPEG: an Adobe APP14 marker was seen (CMYK values stored inverted).
    int adobe;
    /// PNG: Adam7.
    int interlaced;
    /// PNG: the tEXt "Software" value before the image data, if any (truncated).
    char software[64];
    /// JPEG: bytes of DCT coefficients a progressive decode holds for the whole image
    /// (every component at its own sampling); 0 for a sequential file.
    size_t coefficient_bytes;
    /// Frames of an animation (WebP); 0 or 1 for a still image.
    int frames;
} mosaic_image_info;

// MARK: JPEG

/// Reads a JPEG's headers (up to the first scan) from the first `size` bytes of a file.
/// MOSAIC_NEED_MORE_DATA when they end before the headers do and `is_whole_file` is 0.
/// No scan data is read or decoded.
mosaic_result mosaic_jpeg_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole JPEG file held in memory at `scale_num`/8 of its size (1...8) into
/// `out`, RGBA8 with alpha 255, rows `stride` bytes apart. `width`/`height` are the sizes
/// the caller expects after scaling (ceil(size * scale_num / 8)); another size is an
/// error. Grey, RGB, YCbCr, CMYK and YCCK (Adobe-inverted) come out as RGB; with
/// `raw_cmyk`, CMYK and YCCK come out as C M Y K bytes (0 = no ink) for a CMYK profile.
/// A truncated or corrupt file decodes with warnings (grey where data is missing).
/// `max_scans` (0: no cap) and `max_memory` (bytes libjpeg may allocate; 0: no cap) guard
/// against hostile files: past either, the decode fails with a message naming the cap.
mosaic_result mosaic_jpeg_decode(
    const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
    int max_scans, size_t max_memory, int raw_cmyk);

/// A progressive JPEG at 1/8 scale from its DC coefficients only (1/64 of libjpeg's
/// coefficient buffer), into `out` as mosaic_jpeg_decode would. Returns 0 when the file is
/// not one it reads exactly (not progressive Huffman, not 8-bit, not 1 or 3 components,
/// another size than `width` x `height`): then decode with libjpeg. Returns 1 when it
/// decoded (or refused, with `result` saying why).
int mosaic_jpeg_decode_dc(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height,
                          int max_scans, mosaic_result *result);

typedef struct {
    int quality;
    int progressive;
    int arithmetic;
    /// In MCU rows; 0 for none.
    int restart_interval;
    /// Write the data as YCCK rather than CMYK (4-component input only).
    int ycck;
    /// An APP1 payload to write first (e.g. "Exif\0\0" + TIFF), or NULL.
    const uint8_t *app1;
    size_t app1_size;
    /// An ICC profile to embed (APP2 chunks), or NULL.
    const uint8_t *icc;
    size_t icc_size;
} mosaic_jpeg_encode_options;

/// Encodes pixels to a JPEG file at `path`: `components` 1 (grey), 3 (RGB) or 4 (CMYK,
/// written as given, with an Adobe marker). For test fixtures and tools.
mosaic_result mosaic_jpeg_encode_file(
    const char *path, const uint8_t *pixels, int width, int height, int components,
    const mosaic_jpeg_encode_options *options);

/// The ICC profile of a JPEG (its APP2 chunks joined, in any order), or NULL; `*size` its
/// length. The caller frees it with free(). When the file has ICC_PROFILE chunks that do
/// not make one profile (one missing or repeated, a count that disagrees), NULL and
/// `*damage` MOSAIC_ERROR with libjpeg's warning; else `*damage` is MOSAIC_OK.
uint8_t *mosaic_jpeg_icc_profile(const uint8_t *data, size_t size, size_t *icc_size, mosaic_result *damage);

/// The ICC profile of a PNG's iCCP chunk (inflated), or NULL; free() it.
uint8_t *mosaic_png_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

// MARK: Colour

/// A transform from an embedded profile to sRGB (see color.c).
typedef struct {
    void *transform;
    int grey;
    /// The profile is for CMYK pixels: each pixel's four bytes hold C, M, Y, K (0 no ink).
    int cmyk;
    /// A matrix/TRC RGB profile's own fast path (color.c), used instead of `transform`.
    void *matrix;
} mosaic_color_transform;

/// The transform from the RGB, grey or CMYK ICC profile `icc` to sRGB, or NULL with
/// `result` saying why (an unreadable profile, one for Lab or another colour space...).
/// `exact`: always Little CMS's transform, never the matrix path (for tests).
mosaic_color_transform *mosaic_color_transform_create(const uint8_t *icc, size_t size, int exact, mosaic_result *result);
/// Converts `pixels` pixels in place: RGBA8 (straight alpha, kept) for an RGB or grey
/// profile; C M Y K bytes to RGBA8 with alpha 255 for a CMYK one. Reentrant.
void mosaic_color_transform_apply(const mosaic_color_transform *transform, uint8_t *rgba, size_t pixels);
void mosaic_color_transform_free(mosaic_color_transform *transform);
/// An RGB ICC profile from `chromaticities` (x, y of the white point, then of red, green
/// and blue) and one tone curve for the three channels: Little CMS's parametric curve
/// `curve_type` (1: gamma; 4: IEC 61966-2-1 shape) with its `parameters`. malloc'd (free
/// it), `*size` bytes; NULL on failure.
uint8_t *mosaic_color_rgb_profile(const double chromaticities[8], int curve_type, const double parameters[5], size_t *size);
/// The description (name) of an ICC profile into `out` (NUL-terminated); its length, 0
/// when the profile cannot be read or has none.
size_t mosaic_color_profile_name(const uint8_t *icc, size_t size, char *out, size_t capacity);
/// A CMYK output profile for fixtures, malloc'd: a 9-point table from the uncalibrated
/// CMYK formula into sRGB, except that the cyan ink is only half as strong.
uint8_t *mosaic_color_cmyk_fixture_profile(size_t *size);

// MARK: WebP

/// Reads a WebP's headers (VP8/VP8L/VP8X, the animation's canvas and frame count, the
/// EXIF chunk's orientation). MOSAIC_NEED_MORE_DATA when they end first and
/// `is_whole_file` is 0. `color_space`: 1 lossy, 2 lossless, 0 mixed (an animation).
mosaic_result mosaic_webp_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole WebP held in memory into `out` as RGBA8 (straight alpha), scaled by
/// libwebp to `width` x `height` (at most the image's size); an animation's first frame
/// on its canvas (then `width` x `height` must be the canvas).
mosaic_result mosaic_webp_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// The ICC profile of the ICCP chunk, or NULL; free() it.
uint8_t *mosaic_webp_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

/// Writes RGBA8 pixels as a WebP (lossy at `quality`, or lossless): for fixtures.
mosaic_result mosaic_webp_encode_file(const char *path, const uint8_t *rgba, int width, int height, int quality, int lossless);

// MARK: HEIF and AVIF

/// Reads a HEIF or AVIF file's primary image's headers through libheif: size after its
/// transformations (so orientation 1), alpha, bit depth; `color_space` holds how many
/// thumbnails it stores. A prefix that does not hold the boxes gives NEED_MORE_DATA.
mosaic_result mosaic_heif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// The size `mosaic_heif_decode` will give for `min_width` x `min_height` (0 x 0: full
/// size): the smallest stored thumbnail covering it, else the primary image's.
mosaic_result mosaic_heif_decoded_size(const uint8_t *data, size_t size, int min_width, int min_height, int *width, int *height);

/// Decodes that image (upright, RGBA8 straight alpha, HDR to 8 bits) into `out`: its size
/// as `mosaic_heif_decoded_size` said, divided by `reduction` (1 or more, rounded up), each
/// pixel the average of a `reduction` x `reduction` block (an opaque 8-bit image straight
/// from its YCbCr planes, converted once per block).
mosaic_result mosaic_heif_decode(const uint8_t *data, size_t size, int min_width, int min_height, int reduction, uint8_t *out, size_t stride,
                                 int width, int height);

/// A `colr` box of type nclx: its ITU-T H.273 colour primaries and transfer
/// characteristics (libheif applies the matrix itself).
typedef struct {
    int present;
    int primaries, transfer;
} mosaic_heif_nclx;

/// The primary image's colour: its ICC profile (`colr` prof or rICC; malloc'd into
/// `*icc`, free() it; NULL when none) and its nclx box (`present` 0 when none).
mosaic_result mosaic_heif_color_profile(const uint8_t *data, size_t size, uint8_t **icc, size_t *icc_size, mosaic_heif_nclx *nclx);

/// Writes RGBA8 pixels as HEIF (HEVC) or AVIF at `quality`, with a thumbnail fitting
/// `thumbnail_size` when above 0, an ICC profile when `icc` is not NULL, and an nclx box
/// of `primaries`, `transfer`, `matrix` and `full_range` when `primaries` is above 0: for
/// fixtures.
mosaic_result mosaic_heif_encode_file(const char *path, const uint8_t *rgba, int width, int height, int avif, int quality,
                                      int thumbnail_size, const uint8_t *icc, size_t icc_size, int primaries, int transfer, int matrix,
                                      int full_range);

// MARK: TIFF

/// Reads a TIFF's first directory through libtiff: size, Orientation tag, alpha (extra
/// samples), samples, photometric (`color_space`), bits, tiled (`interlaced`), pages
/// (`frames`). MOSAIC_NEED_MORE_DATA when the prefix ends first and `is_whole_file` is 0.
mosaic_result mosaic_tiff_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes the first page, as stored (the caller applies the orientation), into `out` as
/// RGBA8 with straight alpha; `stride` must be `width * 4`. With `raw_cmyk`, a contiguous
/// 8- or 16-bit CMYK page comes out as C M Y K bytes (0 = no ink) for a CMYK profile.
mosaic_result mosaic_tiff_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height, int raw_cmyk);

/// The ICC profile of the first directory (tag 34675), or NULL; free() it.
uint8_t *mosaic_tiff_icc_profile(const uint8_t *data, size_t size, size_t *icc_size);

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

// MARK: GIF

/// Reads a GIF's headers up to its first image's descriptor: the logical screen's size,
/// alpha (a transparent index, or a first image that does not cover the screen),
/// interlacing. MOSAIC_NEED_MORE_DATA when they end first and `is_whole_file` is 0.
mosaic_result mosaic_gif_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a GIF's first image onto its `width` x `height` logical screen as RGBA8
/// (straight alpha; transparent where the image does not cover it). A truncated or
/// corrupt file is an error; a colour index past the table is a damage warning.
mosaic_result mosaic_gif_decode(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

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

// MARK: PNG

/// Reads a PNG's signature and chunks up to the first IDAT from the first `size` bytes.
/// MOSAIC_NEED_MORE_DATA when they end first and `is_whole_file` is 0.
mosaic_result mosaic_png_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info);

/// Decodes a whole PNG held in memory into `out` as RGBA8 (straight alpha): every colour
/// type, bit depths 1 to 16 (16 scaled to 8), palette with tRNS, Adam7. A file that ends
/// after the last row but before IEND decodes with a warning.
mosaic_result mosaic_png_decode(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// mosaic_png_decode for a non-interlaced PNG, through the stream below (whose own
/// reader is faster for 8-bit PNGs without palette or tRNS; the same rows, errors and
/// warnings).
mosaic_result mosaic_png_decode_streamed(
    const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height);

/// A PNG read a few rows at a time (non-interlaced only): memory for a band of rows, not
/// the whole image. Rows come as RGBA8 straight alpha, as from mosaic_png_decode.
typedef struct mosaic_png_stream mosaic_png_stream;

/// Starts reading a whole PNG held in memory (which must outlive the stream). NULL on
/// failure (or for an interlaced PNG: decode it whole), with `result` saying why.
mosaic_png_stream *mosaic_png_stream_open(const uint8_t *data, size_t size, int width, int height, mosaic_result *result);

/// 1 while the stream reads the image data itself (an 8-bit, non-interlaced PNG without a
/// palette or tRNS), 0 while libpng does: for tests.
int mosaic_png_stream_reads_itself(const mosaic_png_stream *stream);

/// Reads the next `count` rows into `rows`, `stride` bytes apart.
mosaic_result mosaic_png_stream_read(mosaic_png_stream *stream, uint8_t *rows, size_t stride, int count);

/// Reads what follows the image data (a problem there is a warning) and frees the stream.
mosaic_result mosaic_png_stream_close(mosaic_png_stream *stream);

typedef struct {
    int width;
    int height;
    /// libpng's PNG_COLOR_TYPE_*: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
    int color_type;
    int bit_depth;
    int interlaced;
    /// zlib level 0 to 9.
    int compression_level;
    /// libpng's PNG_FILTER_* mask, or 0 for libpng's default choice.
    int filters;
    /// Palette: `palette_count` RGB triples; tRNS: `trns_count` alpha values (palette) or
    /// one grey/RGB sample value as 16-bit (`trns_gray`, `trns_red`...).
    const uint8_t *palette;
    int palette_count;
    const uint8_t *trns;
    int trns_count;
    int has_trns_color;
    uint16_t trns_gray, trns_red, trns_green, trns_blue;
    /// An eXIf payload (TIFF header first), or NULL.
    const uint8_t *exif;
    size_t exif_size;
    /// A tEXt "Software" value, or NULL.
    const char *software;
    /// Write an sRGB chunk (perceptual intent).
    int srgb;
    /// An ICC profile for an iCCP chunk (fixtures), or NULL.
    const uint8_t *icc;
    size_t icc_size;
} mosaic_png_params;

typedef struct mosaic_png_writer mosaic_png_writer;

/// A piece of a PNG's IDAT stream: rows filtered (Paeth) and deflated on their own (see
/// png_deflate.c). `data` is malloc'd: free it with mosaic_png_segment_free.
typedef struct {
    uint8_t *data;
    size_t size;
    /// The filtered bytes' count and Adler-32, for the zlib trailer.
    size_t raw_size;
    uint32_t adler;
} mosaic_png_segment;

/// Filters `count` rows of `width` pixels of `channels` (3 or 4) bytes, `stride` apart,
/// with Paeth (`above` is the row before the first, or NULL for the image's first row)
/// and deflates them at zlib-style `level` (0 to 9): ending with a sync flush, or the
/// final block when `last`. Touches only its arguments: callable from any thread.
mosaic_result mosaic_png_deflate_segment(const uint8_t *rows, size_t stride, int width, int channels, int count,
                                         const uint8_t *above, int level, int last, mosaic_png_segment *segment);
void mosaic_png_segment_free(mosaic_png_segment *segment);
/// zlib's adler32_combine.
uint32_t mosaic_adler32_combine(uint32_t first, uint32_t second, size_t second_size);

/// Appends the next segment, in order, as an IDAT chunk (the zlib header before the
/// first; the Adler-32 of them all after the last, when `last`).
mosaic_result mosaic_png_writer_write_segment(mosaic_png_writer *writer, const mosaic_png_segment *segment, int last);

/// Opens `path` for writing (created or truncated) and writes the header chunks.
/// Non-interlaced only: the image data then comes as segments
/// (mosaic_png_writer_write_segment). NULL on failure, with `result` saying why.
mosaic_png_writer *mosaic_png_writer_open(const char *path, const mosaic_png_params *params, mosaic_result *result);

/// Writes IEND, closes the file and frees the writer (also on failure).
mosaic_result mosaic_png_writer_finish(mosaic_png_writer *writer);

/// Closes the file and frees the writer without finishing the PNG.
void mosaic_png_writer_abort(mosaic_png_writer *writer);

/// Writes a whole image (interlaced or not) to `path`: for fixtures and small images.
mosaic_result mosaic_png_write_image(
    const char *path, const mosaic_png_params *params, const uint8_t *rows, size_t stride);

// MARK: EXIF

/// The Orientation tag (1...8) of an EXIF block that starts with "Exif\0\0" or directly
/// with a TIFF header; 1 when there is none or it is invalid. Parsed by libexif.
int mosaic_exif_orientation(const uint8_t *data, size_t size);

/// Text fields of an EXIF block (as for mosaic_exif_orientation), empty when absent.
typedef struct {
    /// DateTimeOriginal ("2023:07:14 18:22:05"), else DateTime.
    char date[32];
    char make[64];
    char model[64];
} mosaic_exif_text;

void mosaic_exif_text_fields(const uint8_t *data, size_t size, mosaic_exif_text *out);

// MARK: Interrupted runs

/// Remembers a temporary file to remove if the program is interrupted. The table grows as
/// needed; returns 0 only when memory runs out.
int mosaic_temp_register(const char *path);

/// Remembers a temporary folder (a staged pyramid, a report's images) to remove with
/// everything in it if the program is interrupted (Linux; elsewhere only files are).
int mosaic_temp_register_folder(const char *path);

/// Remembers a folder to remove on an interrupt only if it is then empty (a shards' folder
/// this run made, which other processes may be writing into too).
int mosaic_temp_register_empty_folder(const char *path);

/// Forgets a temporary file or folder (it was renamed into place or removed).
void mosaic_temp_unregister(const char *path);

/// `defer` 1: an interrupt that arrives from now on waits; 0: the renames are done, and an
/// interrupt that came meanwhile is acted on now (the cleanup, then the exit). Nests.
void mosaic_defer_interrupts(int defer);

/// The CRC-32 (zlib's and gzip's polynomial) of `count` bytes following bytes whose CRC
/// is `crc` (0 to start), by ISA-L.
uint32_t mosaic_crc32(uint32_t crc, const void *bytes, size_t count);

/// Unlinks every registered temporary file and removes every registered folder (what the
/// signal handler does); returns how many were removed. Async-signal-safe.
int mosaic_temp_remove_all(void);

/// The same for the registered files whose path starts with `prefix` (tests: the table is
/// the process's, and other tests' files are in it).
int mosaic_temp_remove_under(const char *prefix);

/// Installs async-signal-safe SIGINT, SIGTERM, SIGHUP and SIGPIPE handlers that unlink
/// every registered temporary file and exit with 128 + the signal, and unblocks them.
void mosaic_install_interrupt_cleanup(void);

/// Tells the interrupt handler that a progress line is on standard error (1) or not (0):
/// an interrupt then clears it before exiting.
void mosaic_set_progress_line(int active);

// MARK: Memory

/// Makes the C allocator hand every block of at least `threshold` bytes back to the system
/// when it is freed (glibc: a fixed M_MMAP_THRESHOLD). By default glibc raises its
/// threshold after the first large free, and each decoding thread then keeps the decoder's
/// freed buffers in its own arena: eight progressive JPEG decodes one after another on
/// eight threads held 516 MB instead of 182 MB. Returns 0 where it cannot be done.
int mosaic_return_large_allocations(size_t threshold);
/// Makes every thread allocate from one heap (glibc's M_ARENA_MAX 1); 0 when refused.
int mosaic_use_one_heap(void);
/// 1 when `bytes` can be allocated now (a block is taken and given back at once), 0 when
/// the system refuses: Swift's own allocations stop the process instead of failing.
int mosaic_can_allocate(size_t bytes);
/// Lets the heap keep up to `bytes` freed at its top before giving pages back (glibc's
/// M_TRIM_THRESHOLD); 0 when refused.
int mosaic_keep_freed_heap(size_t bytes);

// MARK: Resampling (resample.c)

/// The horizontal pass of a separable filter: each of `rows` rows of `src` (RGBA, rows
/// `src_stride` bytes apart) into `width` pixels of `dst` (rows `width * 4` bytes):
/// output x sums `counts[x]` pixels from `starts[x]` with the 14-bit `weights` from
/// `x * weight_stride`; premultiplied RGBA out (colours clamped to alpha).
void mosaic_resample_horizontal(const uint8_t *src, size_t src_stride, int rows, const ptrdiff_t *starts,
                                const ptrdiff_t *counts, const int16_t *weights, ptrdiff_t weight_stride, uint8_t *dst,
                                int width);

/// The vertical pass: output row i sums `counts[i]` rows from `starts[i] - first_row` of
/// `src`, `row_bytes` bytes each from `first_byte`, with the weights from
/// `i * weight_stride`, into `dst` (rows `row_bytes` apart). `sums` holds `row_bytes`
/// 32-bit values (scratch).
void mosaic_resample_vertical(const uint8_t *src, size_t src_stride, size_t first_byte, size_t row_bytes, ptrdiff_t first_row,
                              int outputs, const ptrdiff_t *starts, const ptrdiff_t *counts, const int16_t *weights,
                              ptrdiff_t weight_stride, int32_t *sums, uint8_t *dst);

// MARK: Line breaking (text_breaks.c)

/// An ICU line-break iterator (UAX #14, with dictionary breaking for Thai, Lao, Khmer and
/// Burmese), opened once and reused; NULL when ICU refuses (`message` says why).
typedef struct mosaic_line_breaker mosaic_line_breaker;
mosaic_line_breaker *mosaic_line_breaker_open(char message[MOSAIC_MESSAGE_SIZE]);
void mosaic_line_breaker_close(mosaic_line_breaker *breaker);

enum { MOSAIC_BREAK_NONE = 0, MOSAIC_BREAK_ALLOWED = 1, MOSAIC_BREAK_MANDATORY = 2 };

/// Where lines may break in `count` Unicode scalars: `kinds[i]` (count + 1 entries) is a
/// MOSAIC_BREAK_ value for a break before scalar i (`kinds[count]`, the end). Returns 0,
/// or -1 when ICU failed (then `kinds` allows a break only at the end).
int mosaic_line_breaks(mosaic_line_breaker *breaker, const uint32_t *scalars, int32_t count, uint8_t *kinds);

// MARK: Structural similarity (ssim.c)

/// The Gaussian window's reach either side (sigma 1.5 truncated at 3.5 sigma, as
/// scikit-image): 11 taps.
enum { MOSAIC_SSIM_RADIUS = 5, MOSAIC_SSIM_TAPS = 11 };

/// The doubles `mosaic_ssim_block` needs as scratch for a block of that size.
size_t mosaic_ssim_scratch_count(int block_width, int block_height);

/// The SSIM map over the block [x0, x0 + bw) x [y0, y0 + bh) of two straight-alpha RGBA8
/// images of `width` x `height` (rows `stride_a` / `stride_b` bytes apart), on luma blended
/// over white, written to `out` (bw x bh, packed). `ignore` holds `ignore_count` rectangles
/// (x, y, w, h) whose pixels hold the baseline's luma in both images; `weights` the
/// normalized 1-D Gaussian.
void mosaic_ssim_block(const uint8_t *a, size_t stride_a, const uint8_t *b, size_t stride_b, int width, int height,
                       const int32_t *ignore, int ignore_count, int x0, int y0, int bw, int bh,
                       const double weights[MOSAIC_SSIM_TAPS], double *scratch, double *out);

#ifdef __cplusplus
}
#endif

// The sheet encoders, a header each.
#include "mosaic_jpeg_write.h"
#include "mosaic_webp_write.h"
#include "mosaic_heif_write.h"
#include "mosaic_flate_write.h"

#endif
