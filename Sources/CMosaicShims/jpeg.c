// libjpeg(-turbo) behind setjmp fences. error_exit jumps back to the setjmp of the function
// that called into libjpeg; warnings are counted and the first kept; nothing is printed.
#include "CMosaicShims.h"
#include "fence.h"
#include "results.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

/// Called by libjpeg between passes and scans: stops a file with more scans than the cap
/// (a hostile progressive file can hold thousands, each a full pass over the image).
static void mosaic_jpeg_progress(j_common_ptr cinfo) {
    mosaic_jpeg_error *error = (mosaic_jpeg_error *)cinfo->err;
    if (cinfo->is_decompressor && error->max_scans > 0) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (d->input_scan_number > error->max_scans) {
            snprintf(error->result->message, MOSAIC_MESSAGE_SIZE,
                     "more than %d scans: refused as a hostile or broken progressive file", error->max_scans);
            longjmp(error->jump, 1);
        }
    }
}

// MARK: A suspending memory source, for probing from a prefix of the file.

typedef struct {
    struct jpeg_source_mgr pub;
    int starved;
} mosaic_prefix_source;

static void prefix_init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void prefix_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean prefix_fill_input_buffer(j_decompress_ptr cinfo) {
    // No more bytes in this prefix: suspend (jpeg_read_header returns JPEG_SUSPENDED).
    ((mosaic_prefix_source *)cinfo->src)->starved = 1;
    return FALSE;
}

static void prefix_skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    if ((size_t)count > src->bytes_in_buffer) {
        // Skipping past the prefix: the caller will retry with more bytes.
        ((mosaic_prefix_source *)src)->starved = 1;
        src->next_input_byte += src->bytes_in_buffer;
        src->bytes_in_buffer = 0;
        return;
    }
    src->next_input_byte += count;
    src->bytes_in_buffer -= (size_t)count;
}

static int mosaic_orientation_from_markers(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0) {
            return mosaic_exif_orientation(marker->data, marker->data_length);
        }
    }
    return 1;
}

/// The whole-image coefficient buffer of a progressive decode: for each component, its
/// blocks (the image at its sampling, in 8x8 blocks, padded to whole MCUs) x 64 coefficients.
static size_t mosaic_jpeg_coefficient_bytes(j_decompress_ptr cinfo) {
    int max_h = 1, max_v = 1;
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        if (cinfo->comp_info[ci].h_samp_factor > max_h) max_h = cinfo->comp_info[ci].h_samp_factor;
        if (cinfo->comp_info[ci].v_samp_factor > max_v) max_v = cinfo->comp_info[ci].v_samp_factor;
    }
    size_t total = 0;
    size_t mcus_across = ((size_t)cinfo->image_width + 8 * (size_t)max_h - 1) / (8 * (size_t)max_h);
    size_t mcus_down = ((size_t)cinfo->image_height + 8 * (size_t)max_v - 1) / (8 * (size_t)max_v);
    for (int ci = 0; ci < cinfo->num_components; ci++) {
        size_t blocks = mcus_across * (size_t)cinfo->comp_info[ci].h_samp_factor * mcus_down * (size_t)cinfo->comp_info[ci].v_samp_factor;
        total += blocks * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

mosaic_result mosaic_jpeg_probe(const uint8_t *data, size_t size, int is_whole_file, mosaic_image_info *info) {
    mosaic_result result = mosaic_ok();
    memset(info, 0, sizeof *info);
    struct jpeg_decompress_struct cinfo;
    mosaic_jpeg_error error;
    mosaic_prefix_source source;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = &error.pub;
    mosaic_jpeg_install_errors(&error, &result);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        result.status = mosaic_jpeg_failure(&result);
        return result;
    }
    jpeg_create_decompress(&cinfo);
    memset(&source, 0, sizeof source);
    source.pub.init_source = prefix_init_source;
    source.pub.fill_input_buffer = prefix_fill_input_buffer;
    source.pub.skip_input_data = prefix_skip_input_data;
    source.pub.resync_to_restart = jpeg_resync_to_restart;
    source.pub.term_source = prefix_term_source;
    source.pub.next_input_byte = data;
    source.pub.bytes_in_buffer = size;
    cinfo.src = &source.pub;
    jpeg_save_markers(&cinfo, JPEG_APP0 + 1, 0xFFFF);

    int header = jpeg_read_header(&cinfo, TRUE);
    if (header == JPEG_SUSPENDED || source.starved) {
        jpeg_destroy_decompress(&cinfo);
        if (is_whole_file) {
            result.status = MOSAIC_ERROR;
            snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the file ends inside its headers (%zu bytes)", size);
        } else {
            result.status = MOSAIC_NEED_MORE_DATA;
        }
        return result;
    }
    info->width = (int)cinfo.image_width;
    info->height = (int)cinfo.image_height;
    info->components = cinfo.num_components;
    info->color_space = (int)cinfo.jpeg_color_space;
    info->bit_depth = cinfo.data_precision;
    info->progressive = cinfo.progressive_mode ? 1 : 0;
    info->coefficient_bytes = cinfo.progressive_mode ? mosaic_jpeg_coefficient_bytes(&cinfo) : 0;
    info->arithmetic = cinfo.arith_code ? 1 : 0;
    info->adobe = cinfo.saw_Adobe_marker ? 1 : 0;
    info->has_alpha = 0;
    info->orientation = mosaic_orientation_from_markers(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return result;
}

// MARK: Decoding

/// CMYK (or YCCK decoded to CMYK) to RGB, in place on one row of `width` pixels. Adobe
/// files store the inks inverted (255 = no ink), which is what libjpeg hands back. With
/// `raw`, the inks are only turned to 0 = no ink, for a CMYK profile's transform.
static void mosaic_cmyk_row_to_rgba(uint8_t *row, int width, int inverted, int raw) {
    if (raw) {
        if (inverted) {
            for (size_t i = 0; i < (size_t)width * 4; i++) row[i] = (uint8_t)(255 - row[i]);
        }
        return;
    }
    for (int x = 0; x < width; x++) {
        uint8_t *p = row + 4 * x;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

void mosaic_jpeg_inks_to_rgba(uint8_t *pixels, size_t stride, int width, int height) {
    for (int y = 0; y < height; y++) mosaic_cmyk_row_to_rgba(pixels + (size_t)y * stride, width, 0, 0);
}

/// Zigzag position of each natural-order coefficient (row * 8 + column).
static const int mosaic_jpeg_zigzag[DCTSIZE2] = {
    0,  1,  5,  6,  14, 15, 27, 28, 2,  4,  7,  13, 16, 26, 29, 42, 3,  8,  12, 17, 25, 30,
    41, 43, 9,  11, 18, 24, 31, 40, 44, 53, 10, 19, 23, 32, 39, 45, 52, 54, 20, 22, 33, 38,
    46, 51, 55, 60, 21, 34, 37, 47, 50, 56, 59, 61, 35, 36, 48, 49, 57, 58, 62, 63};

/// Whether the scans read so far give every component the coefficients a scale of
/// `scale_num`/8 uses: the top-left `scale_num` x `scale_num` frequencies of each block
/// (the output block's own band; the rest only aliases into it). Above 2/8 in full. At
/// 2/8 and below (the renderer then halves the decode at least once more, so these
/// frequencies are near or past the card's own limit) DC to within its last bit plane
/// and AC to within its last two (successive approximation Al <= 1 and Al <= 2):
/// libjpeg's standard script then stops after the first four scans, before the luma's
/// refinement scans (most of the decoding time). The error this leaves against reading
/// every scan, after the renderer's last factor of two, is in docs/guide/benchmarks.md.
static int mosaic_jpeg_scans_suffice(j_decompress_ptr cinfo, int scale_num) {
    int dc_tolerance = scale_num <= 2 ? 1 : 0, ac_tolerance = scale_num <= 2 ? 2 : 0;
    if (cinfo->coef_bits == NULL) return 0;
    for (int c = 0; c < cinfo->num_components; c++) {
        for (int row = 0; row < scale_num; row++) {
            for (int column = 0; column < scale_num; column++) {
                int z = mosaic_jpeg_zigzag[row * 8 + column];
                int bits = cinfo->coef_bits[c][z];
                if (bits < 0 || bits > (z == 0 ? dc_tolerance : ac_tolerance)) return 0;
            }
        }
    }
    return 1;
}

/// The joined ICC_PROFILE chunks of a session whose APP2 markers were saved and whose
/// header was read (malloc'd, `*icc_size` its length), or NULL. Chunks that do not make one
/// profile set `*damage` to MOSAIC_ERROR with the session's first warning. libjpeg's
/// warnings while joining them are not the caller's: `result` comes back as it was.
static uint8_t *mosaic_jpeg_take_icc(j_decompress_ptr cinfo, mosaic_result *result, size_t *icc_size, mosaic_result *damage) {
    mosaic_result before = *result;
    JOCTET *icc = NULL;
    unsigned int length = 0;
    // libjpeg joins the ICC_PROFILE chunks by their sequence numbers, whatever their order.
    if (!jpeg_read_icc_profile(cinfo, &icc, &length)) {
        icc = NULL;
        // There were chunks, and they do not make one profile (one missing or repeated, a
        // count that disagrees): a profile that cannot be used, not an sRGB file.
        for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
            if (marker->marker == JPEG_APP0 + 2 && marker->data_length >= 14 && memcmp(marker->data, "ICC_PROFILE", 12) == 0) {
                *damage = mosaic_error(result->warning_count > 0 ? result->warning : "its chunks do not make one profile");
                break;
            }
        }
    }
    *result = before;
    *icc_size = icc ? length : 0;
    return icc;
}

mosaic_result mosaic_jpeg_decode(
    const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
    int max_scans, size_t max_memory, int raw_cmyk) {
    return mosaic_jpeg_decode_with_icc(data, size, scale_num, out, stride, width, height, max_scans, max_memory, raw_cmyk, NULL, NULL, NULL, NULL);
}

mosaic_result mosaic_jpeg_decode_with_icc(
    const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
    int max_scans, size_t max_memory, int raw_cmyk, uint8_t **icc, size_t *icc_size, mosaic_result *icc_damage, int *gave_inks) {
    if (gave_inks) *gave_inks = 0;
    if (icc) {
        *icc = NULL;
        *icc_size = 0;
        *icc_damage = mosaic_ok();
    }
    mosaic_result result = mosaic_ok();
    struct jpeg_decompress_struct cinfo;
    mosaic_jpeg_error error;
    struct jpeg_progress_mgr progress;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = &error.pub;
    mosaic_jpeg_install_errors(&error, &result);
    error.max_scans = max_scans;
    error.max_memory = max_memory;
    // At 1/8 a progressive file needs only its DC coefficients: read them alone.
    if (scale_num == 1 && mosaic_jpeg_decode_dc(data, size, out, stride, width, height, max_scans, &result)) {
        // No libjpeg session was opened: the profile is read on its own.
        if (icc && result.status == MOSAIC_OK) *icc = mosaic_jpeg_icc_profile(data, size, icc_size, icc_damage);
        return result;
    }
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        result.status = mosaic_jpeg_failure(&result);
        return result;
    }
    if (scale_num < 1 || scale_num > 8 || width < 1 || height < 1 || stride < (size_t)width * 4) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "invalid decode request (scale %d/8, %dx%d)", scale_num, width, height);
        return result;
    }
    jpeg_create_decompress(&cinfo);
    if (max_memory > 0) cinfo.mem->max_memory_to_use = (long)max_memory;
    memset(&progress, 0, sizeof progress);
    progress.progress_monitor = mosaic_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    if (icc) jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    if (icc) *icc = mosaic_jpeg_take_icc(&cinfo, &result, icc_size, icc_damage);

    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    if (gave_inks) *gave_inks = cmyk && raw_cmyk;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    cinfo.scale_num = (unsigned)scale_num;
    cinfo.scale_denom = 8;
    // Shrinking anyway: the chroma planes' smooth upsampling buys nothing a resampler
    // will not average away, and costs time.
    if (scale_num < 8) cinfo.do_fancy_upsampling = FALSE;
    jpeg_calc_output_dimensions(&cinfo);
    if ((int)cinfo.output_width != width || (int)cinfo.output_height != height || cinfo.output_components != 4) {
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "the decoder gives %ux%u (%d components), not the %dx%d expected",
                 cinfo.output_width, cinfo.output_height, cinfo.output_components, width, height);
        jpeg_destroy_decompress(&cinfo);
        result.status = mosaic_jpeg_failure(&result);
        return result;
    }
    // A progressive file shrunk on load needs only the scans that carry the coefficients
    // the scaled IDCT's output can hold: read in buffered-image mode and stop there.
    int pruning = cinfo.progressive_mode && scale_num < 8;
    if (pruning) cinfo.buffered_image = TRUE;
    // Block smoothing guesses a progressive image's missing coefficients for display;
    // what the unread bit planes leave out is better left zero (it made the error
    // against reading every scan larger) and faster.
    if (pruning) cinfo.do_block_smoothing = FALSE;
    jpeg_start_decompress(&cinfo);
    if (pruning) {
        for (;;) {
            int status = jpeg_consume_input(&cinfo);
            if (status == JPEG_REACHED_EOI || status == JPEG_SUSPENDED) break;
            if (status == JPEG_SCAN_COMPLETED && mosaic_jpeg_scans_suffice(&cinfo, scale_num)) break;
        }
        jpeg_start_output(&cinfo, cinfo.input_scan_number);
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[4];
        int wanted = 0;
        for (; wanted < 4 && cinfo.output_scanline + (unsigned)wanted < cinfo.output_height; wanted++) {
            rows[wanted] = out + (size_t)(cinfo.output_scanline + (unsigned)wanted) * stride;
        }
        JDIMENSION first = cinfo.output_scanline;
        JDIMENSION got = jpeg_read_scanlines(&cinfo, rows, (JDIMENSION)wanted);
        if (got == 0) break;  // cannot happen with a memory source; be safe
        if (cmyk) {
            for (JDIMENSION r = 0; r < got; r++) {
                mosaic_cmyk_row_to_rgba(out + (size_t)(first + r) * stride, width, cinfo.saw_Adobe_marker, raw_cmyk);
            }
        }
    }
    if (pruning) {
        // The scans left unread are not needed: no finish, which would read them.
        jpeg_finish_output(&cinfo);
    } else {
        jpeg_finish_decompress(&cinfo);
    }
    jpeg_destroy_decompress(&cinfo);
    return result;
}

uint8_t *mosaic_jpeg_icc_profile(const uint8_t *data, size_t size, size_t *icc_size, mosaic_result *damage) {
    *icc_size = 0;
    *damage = mosaic_ok();
    mosaic_result result = mosaic_ok();
    struct jpeg_decompress_struct cinfo;
    mosaic_jpeg_error error;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = &error.pub;
    mosaic_jpeg_install_errors(&error, &result);
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return NULL;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_save_markers(&cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&cinfo, TRUE);
    uint8_t *icc = mosaic_jpeg_take_icc(&cinfo, &result, icc_size, damage);
    jpeg_destroy_decompress(&cinfo);
    return icc;
}

// MARK: Encoding (fixtures and tools)

mosaic_result mosaic_jpeg_encode_file(
    const char *path, const uint8_t *pixels, int width, int height, int components,
    const mosaic_jpeg_encode_options *options) {
    mosaic_result result = mosaic_ok();
    struct jpeg_compress_struct cinfo;
    mosaic_jpeg_error error;
    FILE *volatile file = NULL;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = &error.pub;
    mosaic_jpeg_install_errors(&error, &result);
    if (setjmp(error.jump)) {
        // A failed fwrite (a full disk): keep the system's reason, not only libjpeg's.
        int system = errno;
        int wrote = error.pub.msg_code == JERR_FILE_WRITE;
        jpeg_destroy_compress(&cinfo);
        if (file) fclose(file);
        result.status = MOSAIC_ERROR;
        if (wrote) result.system_errno = system ? system : EIO;
        return result;
    }
    if (components != 1 && components != 3 && components != 4) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%d components: 1, 3 or 4 only", components);
        return result;
    }
    file = fopen(path, "wb");
    if (!file) {
        result.status = MOSAIC_ERROR;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "cannot create %s", path);
        return result;
    }
    jpeg_create_compress(&cinfo);
    jpeg_stdio_dest(&cinfo, file);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_set_defaults(&cinfo);
    if (components == 4 && options->ycck) jpeg_set_colorspace(&cinfo, JCS_YCCK);
    jpeg_set_quality(&cinfo, options->quality, TRUE);
    if (options->progressive) jpeg_simple_progression(&cinfo);
    if (options->arithmetic) cinfo.arith_code = TRUE;
    cinfo.restart_in_rows = options->restart_interval;
    jpeg_start_compress(&cinfo, TRUE);
    if (options->icc && options->icc_size > 0) jpeg_write_icc_profile(&cinfo, options->icc, (unsigned)options->icc_size);
    if (options->app1 && options->app1_size > 0) {
        jpeg_write_marker(&cinfo, JPEG_APP0 + 1, options->app1, (unsigned)options->app1_size);
    }
    size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    if (fclose(file) != 0) {
        result.status = MOSAIC_ERROR;
        result.system_errno = errno ? errno : EIO;
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "cannot finish writing %s", path);
    }
    return result;
}
