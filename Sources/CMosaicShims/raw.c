// Camera RAW files: LibRaw (the thread-safe libraw_r, one libraw_data_t per call, its
// error callbacks ours: it prints nothing) identifies and develops them; a bounded walk of
// the TIFF directories (and a RAF's header) finds what LibRaw 0.20 does not list: every
// embedded JPEG preview, the raw data's coding and whether the file still holds it.
// Every read of the file's structure is checked against its size: the offsets come from
// the file.
#define _GNU_SOURCE  // memmem
#include "CMosaicShims.h"
#include "results.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libraw/libraw.h>

// MARK: Reading a TIFF structure

typedef struct {
    const uint8_t *data;
    size_t size;
    /// Big-endian ("MM").
    int big;
} mosaic_tiff_view;

static int view_u16(const mosaic_tiff_view *v, size_t at, uint32_t *out) {
    if (at > v->size || v->size - at < 2) return 0;
    const uint8_t *p = v->data + at;
    *out = v->big ? (uint32_t)(p[0] << 8 | p[1]) : (uint32_t)(p[1] << 8 | p[0]);
    return 1;
}

static int view_u32(const mosaic_tiff_view *v, size_t at, uint32_t *out) {
    if (at > v->size || v->size - at < 4) return 0;
    const uint8_t *p = v->data + at;
    *out = v->big ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
                  : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
    return 1;
}

/// The byte order and magic of a TIFF-like header: 42 (TIFF, DNG, CR2, NEF, ARW, PEF...),
/// 0x55 (RW2), 0x4F52 and 0x5352 (ORF). 0 when `data` does not start one.
static int view_open(const uint8_t *data, size_t size, mosaic_tiff_view *v, uint32_t *magic) {
    if (size < 8) return 0;
    if (data[0] == 'I' && data[1] == 'I') v->big = 0;
    else if (data[0] == 'M' && data[1] == 'M') v->big = 1;
    else return 0;
    v->data = data;
    v->size = size;
    if (!view_u16(v, 2, magic)) return 0;
    return *magic == 42 || *magic == 0x55 || *magic == 0x4F52 || *magic == 0x5352;
}

/// The `index`th value of a SHORT, LONG or IFD entry at `entry`; 0 when out of range.
static int entry_value(const mosaic_tiff_view *v, size_t entry, uint32_t index, uint32_t *out) {
    uint32_t type = 0, count = 0;
    if (!view_u16(v, entry + 2, &type) || !view_u32(v, entry + 4, &count) || index >= count) return 0;
    size_t width = type == 3 ? 2 : (type == 4 || type == 13) ? 4 : 0;
    if (width == 0) return 0;
    size_t at = entry + 8;
    if ((uint64_t)count * width > 4) {
        uint32_t offset = 0;
        if (!view_u32(v, entry + 8, &offset)) return 0;
        at = offset;
    }
    at += index * width;
    return width == 2 ? view_u16(v, at, out) : view_u32(v, at, out);
}

static uint32_t entry_count(const mosaic_tiff_view *v, size_t entry) {
    uint32_t count = 0;
    return view_u32(v, entry + 4, &count) ? count : 0;
}

/// An ASCII entry's text (at most `capacity` - 1 bytes).
static void entry_text(const mosaic_tiff_view *v, size_t entry, char *out, size_t capacity) {
    out[0] = 0;
    uint32_t count = entry_count(v, entry), offset = 0;
    size_t at = entry + 8;
    if (count > 4) {
        if (!view_u32(v, entry + 8, &offset)) return;
        at = offset;
    }
    if (at > v->size || v->size - at < count) return;
    size_t n = count < capacity - 1 ? count : capacity - 1;
    memcpy(out, v->data + at, n);
    out[n] = 0;
}

/// What a directory says, of the tags this file needs.
typedef struct {
    uint32_t subfile_type, width, height, compression, photometric;
    int has_make, has_dng_version, has_sub_ifds, has_strips;
    uint32_t strip_offset, strip_count, strips;
    uint64_t strip_end, strip_total;
    char make[32];
    uint32_t jpeg_offset, jpeg_length;
    uint32_t preview_color_space;
    uint32_t exif_ifd;
    uint32_t sub_ifds[8];
    int sub_ifd_count;
    uint32_t next;
    uint32_t bits;
} mosaic_ifd;

/// Reads the directory at `offset`; 0 when it does not lie in the bytes.
static int read_ifd(const mosaic_tiff_view *v, uint32_t offset, mosaic_ifd *ifd) {
    memset(ifd, 0, sizeof *ifd);
    uint32_t count = 0;
    if (offset < 8 || !view_u16(v, offset, &count) || count == 0 || count > 1000) return 0;
    if ((uint64_t)offset + 2 + 12ull * count + 4 > v->size) return 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = offset + 2 + 12 * (size_t)i;
        uint32_t tag = 0, value = 0;
        view_u16(v, entry, &tag);
        switch (tag) {
        case 254: entry_value(v, entry, 0, &ifd->subfile_type); break;
        case 256: entry_value(v, entry, 0, &ifd->width); break;
        case 257: entry_value(v, entry, 0, &ifd->height); break;
        case 258: entry_value(v, entry, 0, &ifd->bits); break;
        case 259: entry_value(v, entry, 0, &ifd->compression); break;
        case 262: entry_value(v, entry, 0, &ifd->photometric); break;
        case 271:
            ifd->has_make = entry_count(v, entry) > 1;
            entry_text(v, entry, ifd->make, sizeof ifd->make);
            break;
        case 273:
        case 324:  // tile offsets
            ifd->has_strips = 1;
            ifd->strips = entry_count(v, entry);
            entry_value(v, entry, 0, &ifd->strip_offset);
            break;
        case 279:
        case 325:  // strip or tile byte counts (where they end: below)
            entry_value(v, entry, 0, &ifd->strip_count);
            break;
        case 330:
            ifd->has_sub_ifds = 1;
            for (uint32_t k = 0; k < entry_count(v, entry) && ifd->sub_ifd_count < 8; k++)
                if (entry_value(v, entry, k, &value)) ifd->sub_ifds[ifd->sub_ifd_count++] = value;
            break;
        case 513: entry_value(v, entry, 0, &ifd->jpeg_offset); break;
        case 514: entry_value(v, entry, 0, &ifd->jpeg_length); break;
        case 34665: entry_value(v, entry, 0, &ifd->exif_ifd); break;
        case 50706: ifd->has_dng_version = 1; break;
        case 50970: entry_value(v, entry, 0, &ifd->preview_color_space); break;
        default: break;
        }
    }
    // Where the strips (or tiles) end: the largest offset + count.
    size_t offsets = 0, counts = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = offset + 2 + 12 * (size_t)i;
        uint32_t tag = 0;
        view_u16(v, entry, &tag);
        if (tag == 273 || tag == 324) offsets = entry;
        if (tag == 279 || tag == 325) counts = entry;
    }
    if (offsets && counts) {
        uint32_t n = entry_count(v, offsets);
        for (uint32_t k = 0; k < n && k < 65536; k++) {
            uint32_t start = 0, length = 0;
            if (!entry_value(v, offsets, k, &start) || !entry_value(v, counts, k, &length)) break;
            if ((uint64_t)start + length > ifd->strip_end) ifd->strip_end = (uint64_t)start + length;
            ifd->strip_total += length;
        }
    }
    view_u32(v, offset + 2 + 12 * (size_t)count, &ifd->next);
    return 1;
}

// MARK: Recognising a RAW

static int starts(const uint8_t *data, size_t size, size_t at, const char *text) {
    size_t n = strlen(text);
    return size >= at + n && memcmp(data + at, text, n) == 0;
}

/// The kind of RAW a signature of its own names, or NULL.
static const char *signature_kind(const uint8_t *data, size_t size) {
    if (starts(data, size, 4, "ftypcrx ")) return "CR3";
    if (starts(data, size, 0, "FUJIFILMCCD-RAW")) return "RAF";
    if (starts(data, size, 0, "IIRO") || starts(data, size, 0, "IIRS") || starts(data, size, 0, "MMOR")) return "ORF";
    if (size >= 4 && data[0] == 'I' && data[1] == 'I' && data[2] == 0x55 && data[3] == 0) return "RW2";
    if (starts(data, size, 0, "II\x1a") && starts(data, size, 6, "HEAPCCDR")) return "CRW";
    if (size >= 4 && data[0] == 0 && starts(data, size, 1, "MRM")) return "MRW";
    if (size >= 10 && (starts(data, size, 0, "II*") || starts(data, size, 0, "MM")) && data[8] == 'C' && data[9] == 'R') return "CR2";
    return NULL;
}

/// True for a camera's raw coding (not a processed image a TIFF reader draws): the CFA and
/// linear-raw photometrics, and the makers' own compressions.
static int is_raw_coding(uint32_t compression, uint32_t photometric) {
    if (photometric == 32803 || photometric == 34892) return 1;
    switch (compression) {
    case 32767: case 32769: case 32770: case 34713: case 65000: case 65535: case 34316: case 32867: return 1;
    default: return 0;
    }
}

/// The kind of a TIFF-based RAW from its first directory, or NULL for a plain TIFF.
static const char *directory_kind(const mosaic_tiff_view *v) {
    uint32_t first = 0;
    mosaic_ifd ifd;
    if (!view_u32(v, 4, &first) || !read_ifd(v, first, &ifd)) return NULL;
    if (ifd.has_dng_version) return "DNG";
    if (!ifd.has_make) return NULL;
    if (!(ifd.has_sub_ifds || (ifd.subfile_type & 1) || is_raw_coding(ifd.compression, ifd.photometric))) return NULL;
    static const struct { const char *make, *kind; } kinds[] = {
        {"NIKON", "NEF"}, {"SONY", "ARW"}, {"PENTAX", "PEF"}, {"RICOH", "PEF"}, {"SAMSUNG", "SRW"}, {"KODAK", "DCR"},
        {"EASTMAN KODAK", "KDC"}, {"LEICA", "RWL"}, {"HASSELBLAD", "3FR"}, {"EPSON", "ERF"}, {"MAMIYA", "MEF"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncasecmp(ifd.make, kinds[i].make, strlen(kinds[i].make)) == 0) return kinds[i].kind;
    return "RAW";
}

int mosaic_raw_recognize(const uint8_t *data, size_t size) {
    if (signature_kind(data, size)) return 1;
    mosaic_tiff_view v;
    uint32_t magic = 0;
    return view_open(data, size, &v, &magic) && magic == 42 && directory_kind(&v) != NULL;
}

// MARK: Previews

/// The size a baseline, extended or progressive JPEG at `offset` (`length` bytes) declares
/// in its SOF; 0 when it is not one (a lossless JPEG: a CR2's raw data). With `whole`, the
/// file must hold all of it; else (a probe's prefix) its headers up to the SOF.
static int jpeg_size(const uint8_t *data, size_t size, size_t offset, size_t length, int whole, int *width, int *height) {
    if (offset > size || length < 4 || (whole && size - offset < length)) return 0;
    size_t available = size - offset < length ? size - offset : length;
    if (available < 4) return 0;
    const uint8_t *p = data + offset;
    if (p[0] != 0xFF || p[1] != 0xD8) return 0;
    size_t i = 2;
    while (i + 9 <= available) {
        if (p[i] != 0xFF) return 0;
        uint8_t marker = p[i + 1];
        if (marker == 0xFF) { i++; continue; }
        if (marker == 0xD9 || marker == 0xDA) return 0;
        size_t segment = (size_t)p[i + 2] << 8 | p[i + 3];
        if (segment < 2 || i + 2 + segment > length) return 0;
        if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) {
            if (i + 9 > available) return 0;
            if (segment < 7) return 0;
            *height = p[i + 5] << 8 | p[i + 6];
            *width = p[i + 7] << 8 | p[i + 8];
            return *width > 0 && *height > 0;
        }
        if (marker >= 0xC3 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) return 0;
        i += 2 + segment;
    }
    return 0;
}

static void add_preview(mosaic_raw_info *info, const uint8_t *data, size_t size, int whole, size_t offset, size_t length, int adobe_rgb) {
    int width = 0, height = 0;
    if (!jpeg_size(data, size, offset, length, whole, &width, &height)) return;
    for (int i = 0; i < info->preview_count; i++)
        if (info->previews[i].offset == offset) return;
    if (info->preview_count == MOSAIC_RAW_MAX_PREVIEWS) return;
    mosaic_raw_preview *preview = &info->previews[info->preview_count++];
    preview->offset = offset;
    preview->length = length;
    preview->width = width;
    preview->height = height;
    preview->adobe_rgb = adobe_rgb;
}

/// The camera's Exif says its JPEGs are Adobe RGB: ColorSpace "uncalibrated" (0xFFFF)
/// with the interoperability index R03.
static int exif_says_adobe_rgb(const mosaic_tiff_view *v, uint32_t exif_ifd) {
    uint32_t count = 0;
    if (exif_ifd < 8 || !view_u16(v, exif_ifd, &count) || count > 1000) return 0;
    uint32_t space = 1, interop = 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = exif_ifd + 2 + 12 * (size_t)i;
        uint32_t tag = 0;
        if (!view_u16(v, entry, &tag)) return 0;
        if (tag == 0xA001) entry_value(v, entry, 0, &space);
        if (tag == 0xA005) entry_value(v, entry, 0, &interop);
    }
    if (space != 0xFFFF || interop < 8 || !view_u16(v, interop, &count) || count > 100) return 0;
    for (uint32_t i = 0; i < count; i++) {
        size_t entry = interop + 2 + 12 * (size_t)i;
        uint32_t tag = 0;
        char index[8];
        if (!view_u16(v, entry, &tag)) return 0;
        if (tag == 1) {
            entry_text(v, entry, index, sizeof index);
            return strcmp(index, "R03") == 0;
        }
    }
    return 0;
}

/// Walks the directories (the first one's chain and sub-directories, at most 24 in all):
/// previews, and the raw data's coding and extent.
static void walk_directories(const mosaic_tiff_view *v, mosaic_raw_info *info, int whole, int is_dng, int is_cr2) {
    uint32_t queue[24];
    int queued = 0, next = 0;
    uint32_t first = 0;
    if (!view_u32(v, 4, &first)) return;
    queue[queued++] = first;
    int adobe_rgb = 0;
    // Which directories are the first one's chain (a CR2's fourth holds its raw data).
    int chain[24] = {1};
    int chain_index[24] = {0};
    while (next < queued) {
        int index = next;
        uint32_t offset = queue[next++];
        mosaic_ifd ifd;
        if (!read_ifd(v, offset, &ifd)) continue;
        if (next == 1) adobe_rgb = ifd.exif_ifd ? exif_says_adobe_rgb(v, ifd.exif_ifd) : 0;
        int raw = is_raw_coding(ifd.compression, ifd.photometric) || (is_dng && ifd.subfile_type == 0 && ifd.has_strips && ifd.photometric != 2 && ifd.photometric != 6) ||
                  (is_cr2 && chain[index] && chain_index[index] == 3);
        // The samples' bytes uncompressed; a lossless coding keeps more than a sixteenth.
        uint64_t needed = (uint64_t)ifd.width * ifd.height * (ifd.bits ? ifd.bits : 12) / 8;
        int preview_space = is_dng ? ifd.preview_color_space == 3 : adobe_rgb;
        if (ifd.jpeg_offset && ifd.jpeg_length) add_preview(info, v->data, v->size, whole, ifd.jpeg_offset, ifd.jpeg_length, preview_space);
        if (!raw && ifd.strips == 1 && (ifd.compression == 6 || ifd.compression == 7))
            add_preview(info, v->data, v->size, whole, ifd.strip_offset, ifd.strip_count, preview_space);
        if (raw && !info->undrawable[0] && (!ifd.has_strips || (needed > 0 ? ifd.strip_total * 16 < needed : ifd.strip_total < 4096)))
            snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "the raw data was stripped from the file (%llu bytes left of it)",
                     (unsigned long long)ifd.strip_total);
        if (raw && ifd.has_strips && !info->undrawable[0]) {
            if (is_dng && ifd.compression == 52546)
                snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "DNG compressed with JPEG XL: LibRaw 0.20 cannot decode it");
            else if (whole && ifd.strip_end > v->size)
                snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "the raw data is cut short: it ends at byte %llu, the file at %zu",
                         (unsigned long long)ifd.strip_end, v->size);
            else if (ifd.compression == 1 && ifd.bits > 0 && ifd.strips == 1 &&
                     (uint64_t)ifd.strip_count * 8 < (uint64_t)ifd.width * ifd.height * ifd.bits)
                snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "the raw data is cut short: %u of the %llu bytes its size needs",
                         ifd.strip_count, (unsigned long long)ifd.width * ifd.height * ifd.bits / 8);
        }
        for (int i = 0; i < ifd.sub_ifd_count && queued < 24; i++) {
            chain[queued] = 0;
            queue[queued++] = ifd.sub_ifds[i];
        }
        if (ifd.next && queued < 24) {
            int seen = 0;
            for (int i = 0; i < queued; i++) seen |= queue[i] == ifd.next;
            if (!seen) {
                chain[queued] = chain[index];
                chain_index[queued] = chain_index[index] + 1;
                queue[queued++] = ifd.next;
            }
        }
    }
}

/// The APP1 Exif of a JPEG at `offset`: its TIFF structure.
static void jpeg_exif(const uint8_t *data, size_t size, size_t offset, size_t length, size_t *exif_offset, size_t *exif_length) {
    if (offset > size || size - offset < length) return;
    const uint8_t *p = data + offset;
    size_t i = 2;
    while (i + 4 <= length && p[i] == 0xFF) {
        uint8_t marker = p[i + 1];
        size_t segment = (size_t)p[i + 2] << 8 | p[i + 3];
        if (marker == 0xDA || segment < 2 || i + 2 + segment > length) return;
        if (marker == 0xE1 && segment >= 8 && memcmp(p + i + 4, "Exif\0\0", 6) == 0) {
            *exif_offset = offset + i + 10;
            *exif_length = segment - 8;
            return;
        }
        i += 2 + segment;
    }
}

static int by_size_descending(const void *a, const void *b) {
    const mosaic_raw_preview *x = a, *y = b;
    long long ax = (long long)x->width * x->height, ay = (long long)y->width * y->height;
    return ax < ay ? 1 : ax > ay ? -1 : 0;
}

// MARK: LibRaw

typedef struct {
    mosaic_result *result;
} mosaic_raw_context;

/// LibRaw's data-error callback (by default it prints): a warning that data was lost.
static void on_data_error(void *user, const char *file, const int offset) {
    (void)file;
    mosaic_raw_context *context = user;
    mosaic_result *result = context->result;
    if (result->damage_count++ == 0) {
        if (offset < 0) snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "the raw data ends early");
        else snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "corrupt raw data at byte %d", offset);
        snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "%s", result->damage);
    }
    result->warning_count++;
}

static void on_memory_error(void *user, const char *file, const char *where) {
    (void)file;
    mosaic_raw_context *context = user;
    if (context->result->status == MOSAIC_OK) *context->result = mosaic_out_of_memory(where ? where : "LibRaw");
}

/// A LibRaw session on `data`, identified; NULL with `result` saying why.
static libraw_data_t *open_raw(const uint8_t *data, size_t size, mosaic_raw_context *context) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) {
        *context->result = mosaic_out_of_memory("LibRaw's session");
        return NULL;
    }
    libraw_set_dataerror_handler(raw, on_data_error, context);
    libraw_set_memerror_handler(raw, on_memory_error, context);
    int code = libraw_open_buffer(raw, (void *)data, size);
    if (code != LIBRAW_SUCCESS) {
        if (context->result->status == MOSAIC_OK) {
            *context->result = code == LIBRAW_FILE_UNSUPPORTED ? mosaic_error("LibRaw does not know this camera or file")
                               : code == LIBRAW_IO_ERROR ? mosaic_error("the file ends before its data does (LibRaw: Input/output error)")
                                                         : mosaic_error(libraw_strerror(code));
        }
        libraw_close(raw);
        return NULL;
    }
    return raw;
}

/// Why the raw data of an identified file cannot be there: the file has less than a bit a
/// sensor pixel (no camera compresses that far), as when a tool stripped it. 0 otherwise.
static int stripped(const libraw_data_t *raw, size_t size, mosaic_result *result) {
    uint64_t pixels = (uint64_t)raw->sizes.raw_width * raw->sizes.raw_height;
    if (pixels == 0 || (uint64_t)size * 8 >= pixels) return 0;
    *result = mosaic_error("");
    snprintf(result->message, MOSAIC_MESSAGE_SIZE, "the raw data was stripped from the file (%zu bytes for a %dx%d sensor)", size,
             raw->sizes.raw_width, raw->sizes.raw_height);
    return 1;
}

/// dcraw's flip code as an EXIF orientation.
static int orientation_of_flip(int flip) {
    static const int exif[8] = {1, 2, 4, 3, 5, 8, 6, 7};
    return flip >= 0 && flip < 8 ? exif[flip] : 1;
}

mosaic_result mosaic_raw_probe(const uint8_t *data, size_t size, int use_libraw, int whole, mosaic_raw_info *info) {
    memset(info, 0, sizeof *info);
    mosaic_result result = mosaic_ok();
    const char *kind = signature_kind(data, size);
    mosaic_tiff_view v;
    uint32_t magic = 0;
    int tiff = view_open(data, size, &v, &magic);
    const char *from_directory = tiff && magic == 42 && !kind ? directory_kind(&v) : NULL;
    if (!kind) kind = from_directory;
    if (!kind) return whole ? mosaic_error("not a camera RAW file") : mosaic_need_more_data();
    // From a prefix: only a TIFF (magic 42), whose directories say where everything is.
    if (!whole && !(tiff && magic == 42)) return mosaic_need_more_data();
    snprintf(info->kind, sizeof info->kind, "%s", kind);
    if (tiff) {
        walk_directories(&v, info, whole, strcmp(kind, "DNG") == 0, strcmp(kind, "CR2") == 0);
        if (magic == 42) info->exif_length = size;
    }
    if (strcmp(kind, "RAF") == 0 && size >= 92) {
        uint32_t offset = (uint32_t)data[84] << 24 | (uint32_t)data[85] << 16 | (uint32_t)data[86] << 8 | data[87];
        uint32_t length = (uint32_t)data[88] << 24 | (uint32_t)data[89] << 16 | (uint32_t)data[90] << 8 | data[91];
        add_preview(info, data, size, whole, offset, length, 0);
        jpeg_exif(data, size, offset, length, &info->exif_offset, &info->exif_length);
    }

    if (!use_libraw) {
        qsort(info->previews, (size_t)info->preview_count, sizeof info->previews[0], by_size_descending);
        return mosaic_ok();
    }
    mosaic_raw_context context = {&result};
    libraw_data_t *raw = open_raw(data, size, &context);
    if (raw && !whole) {
        // A prefix serves when LibRaw found the sizes and its thumbnail is one of the
        // previews the walk found (a maker-note preview needs the whole file to be found).
        int known = raw->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG || raw->thumbnail.twidth == 0;
        for (int i = 0; i < info->preview_count && !known; i++) {
            int w = info->previews[i].width, h = info->previews[i].height;
            known = (w == raw->thumbnail.twidth && h == raw->thumbnail.theight) || (h == raw->thumbnail.twidth && w == raw->thumbnail.theight);
        }
        if (!known || raw->sizes.width == 0 || raw->sizes.height == 0) {
            libraw_close(raw);
            return mosaic_need_more_data();
        }
    } else if (!raw && !whole) {
        return mosaic_need_more_data();
    }
    if (raw) {
        // LibRaw's thumbnail: the preview of the formats not walked above (CR3, ORF's maker
        // notes), found in the file by its bytes.
        if (whole && raw->thumbnail.tformat == LIBRAW_THUMBNAIL_JPEG && libraw_unpack_thumb(raw) == LIBRAW_SUCCESS && raw->thumbnail.thumb &&
            raw->thumbnail.tlength >= 64) {
            const uint8_t *found = memmem(data, size, raw->thumbnail.thumb, 64);
            if (found) add_preview(info, data, size, whole, (size_t)(found - data), raw->thumbnail.tlength, 0);
        }
        mosaic_result missing;
        if (whole && !info->undrawable[0] && stripped(raw, size, &missing)) snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "%s", missing.message);
        int flip = raw->sizes.flip;
        raw->params.user_flip = 0;
        raw->params.half_size = 0;
        libraw_adjust_sizes_info_only(raw);
        info->image.width = raw->sizes.iwidth;
        info->image.height = raw->sizes.iheight;
        info->image.orientation = orientation_of_flip(flip);
        info->image.bit_depth = 16;
        info->image.components = 1;
        libraw_close(raw);
        result = mosaic_ok();
    } else if (result.status == MOSAIC_OUT_OF_MEMORY) {
        return result;
    } else if (!info->undrawable[0]) {
        snprintf(info->undrawable, MOSAIC_MESSAGE_SIZE, "%s", result.message);
    }
    qsort(info->previews, (size_t)info->preview_count, sizeof info->previews[0], by_size_descending);
    // Without LibRaw's sizes, the largest preview's (a file LibRaw cannot open).
    if (info->image.width <= 0 || info->image.height <= 0) {
        if (info->preview_count == 0) return mosaic_error(info->undrawable[0] ? info->undrawable : "LibRaw cannot open it and it holds no preview");
        info->image.width = info->previews[0].width;
        info->image.height = info->previews[0].height;
        info->image.orientation = 1;
        info->image.bit_depth = 8;
    }
    return mosaic_ok();
}

size_t mosaic_raw_develop_bytes(int width, int height, int half) {
    size_t w = (size_t)(width > 0 ? width : 0), h = (size_t)(height > 0 ? height : 0);
    size_t out = half ? ((w + 1) / 2) * ((h + 1) / 2) : w * h;
    // The raw samples (16 bits), LibRaw's image (four 16-bit channels a pixel), its 8-bit
    // RGB result and our RGBA copy; a full demosaic's working tiles besides.
    return w * h * 2 + out * 8 + out * 3 + out * 4 + (half ? 0 : out * 2);
}

mosaic_result mosaic_raw_develop(const uint8_t *data, size_t size, int half, size_t memory_limit, uint8_t **out, int *width, int *height) {
    *out = NULL;
    *width = *height = 0;
    mosaic_result result = mosaic_ok();
    mosaic_raw_context context = {&result};
    libraw_data_t *raw = open_raw(data, size, &context);
    if (!raw) return result;
    if (stripped(raw, size, &result)) {
        libraw_close(raw);
        return result;
    }
    if (memory_limit > 0 && mosaic_raw_develop_bytes(raw->sizes.width, raw->sizes.height, half) > memory_limit) {
        libraw_close(raw);
        return mosaic_out_of_memory("developing the raw data would pass the memory limit");
    }
    raw->params.half_size = half ? 1 : 0;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    raw->params.output_color = 1;
    raw->params.user_flip = 0;
    int code = libraw_unpack(raw);
    if (code == LIBRAW_SUCCESS) code = libraw_dcraw_process(raw);
    libraw_processed_image_t *image = NULL;
    if (code == LIBRAW_SUCCESS) image = libraw_dcraw_make_mem_image(raw, &code);
    if (!image || code != LIBRAW_SUCCESS) {
        if (result.status == MOSAIC_OK) {
            result = code == LIBRAW_UNSUFFICIENT_MEMORY ? mosaic_out_of_memory("LibRaw's image")
                     : code == LIBRAW_IO_ERROR          ? mosaic_error("the file ends before its raw data does (LibRaw: Input/output error)")
                                                        : mosaic_error(libraw_strerror(code));
        }
        if (image) libraw_dcraw_clear_mem(image);
        libraw_close(raw);
        return result;
    }
    if (image->type != LIBRAW_IMAGE_BITMAP || image->bits != 8 || (image->colors != 3 && image->colors != 1)) {
        libraw_dcraw_clear_mem(image);
        libraw_close(raw);
        return mosaic_error("LibRaw returned an image of an unexpected kind");
    }
    size_t pixels = (size_t)image->width * image->height;
    uint8_t *rgba = malloc(pixels * 4 > 0 ? pixels * 4 : 1);
    if (!rgba) {
        libraw_dcraw_clear_mem(image);
        libraw_close(raw);
        return mosaic_out_of_memory("the developed image");
    }
    const uint8_t *source = image->data;
    for (size_t i = 0; i < pixels; i++) {
        if (image->colors == 3) {
            rgba[4 * i] = source[3 * i];
            rgba[4 * i + 1] = source[3 * i + 1];
            rgba[4 * i + 2] = source[3 * i + 2];
        } else {
            rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = source[i];
        }
        rgba[4 * i + 3] = 255;
    }
    *out = rgba;
    *width = image->width;
    *height = image->height;
    libraw_dcraw_clear_mem(image);
    libraw_close(raw);
    return result;
}
