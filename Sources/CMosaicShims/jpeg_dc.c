// A progressive JPEG at 1/8 of its size, from its DC coefficients alone.
//
// At 1/8 each 8x8 block becomes one pixel: its DC coefficient. libjpeg decodes every scan
// of a progressive file into a coefficient buffer for the whole image (about 3 bytes per
// source pixel: 144 MB for 8000x6000) before it outputs a row. This reader keeps one
// 16-bit DC value per block (1/64 of that), decodes only the DC scans and skips the AC
// scans' data. Luma comes out as libjpeg's 1x1 IDCT gives it; chroma from DC only (libjpeg
// would use a 2x2 IDCT for subsampled chroma), then upsampled by replication, and the
// YCbCr to RGB conversion is libjpeg's own arithmetic.
//
// Only what it can do exactly is taken: 8-bit progressive Huffman files with one (grey) or
// three (YCbCr, or RGB by an Adobe marker) components. Anything else returns 0 and the
// caller decodes with libjpeg: so does a file whose DC data is damaged (bytes left over
// before a restart marker, a scan that runs into a marker) or out of order (an AC scan or
// a refinement before a component's first DC scan, or no DC scan at all), so that
// libjpeg's own warnings, and their judgement under --strict, are the same at every
// scale. Plain C, no setjmp: every failure is a return.
#include "CMosaicShims.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DC_MAX_COMPONENTS = 3 };

typedef struct {
    // Canonical Huffman decoding: for each code length, the largest code and the offset
    // of its first symbol in `symbols`.
    int maxcode[18];
    int valoffset[18];
    uint8_t symbols[256];
    int defined;
} dc_huffman;

typedef struct {
    int id, h, v, tq;
    /// Its first DC scan (Ah 0) has been read.
    int dc_started;
    int blocks_across, blocks_down;       // the component's own blocks
    int padded_across, padded_down;       // whole MCUs, as interleaved scans code them
    int16_t *dc;
    int predictor;
} dc_component;

typedef struct {
    const uint8_t *data;
    size_t size, pos;
    uint32_t bits;
    int count;
    int hit_marker;
    /// Bytes were skipped before a restart marker, or a scan ran into a marker: damage
    /// libjpeg would warn about.
    int irregular;
} dc_reader;

static int dc_fail(mosaic_result *result, const char *message) {
    result->status = MOSAIC_ERROR;
    snprintf(result->message, MOSAIC_MESSAGE_SIZE, "%s", message);
    return 1;
}

static int dc_bit(dc_reader *r) {
    if (r->count == 0) {
        uint8_t byte = 0;
        if (!r->hit_marker && r->pos < r->size) {
            byte = r->data[r->pos];
            if (byte == 0xFF) {
                uint8_t next = r->pos + 1 < r->size ? r->data[r->pos + 1] : 0xD9;
                if (next == 0x00) {
                    r->pos += 2;
                } else {
                    r->hit_marker = 1;  // the scan's data ends: zeros from here, as libjpeg does
                    byte = 0;
                }
            } else {
                r->pos += 1;
            }
        }
        r->bits = byte;
        r->count = 8;
    }
    r->count -= 1;
    return (int)((r->bits >> r->count) & 1);
}

static int dc_bits(dc_reader *r, int n) {
    int value = 0;
    for (int i = 0; i < n; i++) value = (value << 1) | dc_bit(r);
    return value;
}

static int dc_decode(dc_reader *r, const dc_huffman *table) {
    int code = 0;
    for (int length = 1; length <= 16; length++) {
        code = (code << 1) | dc_bit(r);
        if (code <= table->maxcode[length]) {
            int index = table->valoffset[length] + code;
            return (index >= 0 && index < 256) ? table->symbols[index] : 0;
        }
    }
    return 0;  // a corrupt code: libjpeg would warn and use 0
}

/// The entropy-coded data of the scan that starts at `pos` ends before the next marker
/// that is not a restart marker or a stuffed 0xFF00.
static size_t dc_scan_end(const uint8_t *data, size_t size, size_t pos) {
    while (pos + 1 < size) {
        if (data[pos] == 0xFF && data[pos + 1] != 0x00 && !(data[pos + 1] >= 0xD0 && data[pos + 1] <= 0xD7)) return pos;
        pos += 1;
    }
    return size;
}

static void dc_define_table(dc_huffman *table, const uint8_t *counts, const uint8_t *symbols, int total) {
    int code = 0, k = 0;
    memset(table, 0, sizeof *table);
    for (int length = 1; length <= 16; length++) {
        table->valoffset[length] = k - code;
        code += counts[length - 1];
        k += counts[length - 1];
        table->maxcode[length] = counts[length - 1] ? code - 1 : -1;
        code <<= 1;
    }
    memcpy(table->symbols, symbols, (size_t)(total < 256 ? total : 256));
    table->defined = 1;
}

/// Decodes one DC scan's data (first pass or refinement) into the components' DC values.
static void dc_run_scan(dc_reader *r, dc_component **scan, int ns, const dc_huffman *tables, const int *td,
                        int ah, int al, int restart_interval, int mcus_across, int mcus_down) {
    int interleaved = ns > 1;
    int across = interleaved ? mcus_across : scan[0]->blocks_across;
    int down = interleaved ? mcus_down : scan[0]->blocks_down;
    int until_restart = restart_interval;
    for (int c = 0; c < ns; c++) scan[c]->predictor = 0;
    for (int my = 0; my < down; my++) {
        for (int mx = 0; mx < across; mx++) {
            if (restart_interval > 0) {
                if (until_restart == 0) {
                    // Skip to after the RSTn marker, fresh bits and predictors. Anything
                    // before it but the interval's data is damage.
                    if (r->hit_marker) r->irregular = 1;
                    size_t interval_end = r->pos;
                    while (r->pos + 1 < r->size && !(r->data[r->pos] == 0xFF && r->data[r->pos + 1] >= 0xD0 && r->data[r->pos + 1] <= 0xD7)) r->pos += 1;
                    if (r->pos != interval_end) r->irregular = 1;
                    if (r->pos + 1 < r->size) r->pos += 2;
                    r->count = 0;
                    r->hit_marker = 0;
                    for (int c = 0; c < ns; c++) scan[c]->predictor = 0;
                    until_restart = restart_interval;
                }
                until_restart -= 1;
            }
            for (int c = 0; c < ns; c++) {
                dc_component *comp = scan[c];
                int bh = interleaved ? comp->h : 1, bv = interleaved ? comp->v : 1;
                for (int by = 0; by < bv; by++) {
                    for (int bx = 0; bx < bh; bx++) {
                        int x = interleaved ? mx * comp->h + bx : mx;
                        int y = interleaved ? my * comp->v + by : my;
                        int16_t *cell = &comp->dc[(size_t)y * (size_t)comp->padded_across + (size_t)x];
                        if (ah == 0) {
                            int s = dc_decode(r, &tables[td[c]]);
                            int diff = 0;
                            if (s > 0 && s <= 15) {
                                diff = dc_bits(r, s);
                                if (diff < (1 << (s - 1))) diff -= (1 << s) - 1;
                            }
                            comp->predictor += diff;
                            *cell = (int16_t)((unsigned)comp->predictor << al);
                        } else if (dc_bit(r)) {
                            *cell = (int16_t)(*cell | (1 << al));
                        }
                    }
                }
            }
        }
    }
    if (r->hit_marker) r->irregular = 1;
}

/// libjpeg's ycc_rgb_convert arithmetic (jdcolor.c, SCALEBITS 16).
static void dc_ycc_to_rgb(int y, int cb, int cr, uint8_t *out) {
    const long one_half = 1L << 15;
    long x = cr - 128, w = cb - 128;
    long r = y + ((91881L * x + one_half) >> 16);
    long g = y + ((-22554L * w - 46802L * x + one_half) >> 16);
    long b = y + ((116130L * w + one_half) >> 16);
    out[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    out[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    out[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
    out[3] = 255;
}

/// What a DC-only decode has read so far.
typedef struct {
    dc_huffman tables[4];
    int quant[4];
    dc_component components[DC_MAX_COMPONENTS];
    int ncomp, image_w, image_h, hmax, vmax, restart_interval, scans;
    int adobe_transform, have_frame, mcus_across, mcus_down;
} dc_state;

/// DC_OK: go on; DC_NOT_MINE: hand the file to libjpeg; DC_REFUSED: `result` says why.
enum { DC_OK = 0, DC_NOT_MINE = 1, DC_REFUSED = 2 };

/// SOF2: the frame's size and components, and each component's DC plane.
static int dc_read_frame(dc_state *st, const uint8_t *segment, size_t n, int width, int height) {
    if (st->have_frame || n < 6 || segment[0] != 8) return DC_NOT_MINE;
    st->image_h = (segment[1] << 8) | segment[2];
    st->image_w = (segment[3] << 8) | segment[4];
    st->ncomp = segment[5];
    if ((st->ncomp != 1 && st->ncomp != 3) || n < 6 + 3 * (size_t)st->ncomp) return DC_NOT_MINE;
    if ((st->image_w + 7) / 8 != width || (st->image_h + 7) / 8 != height) return DC_NOT_MINE;
    for (int c = 0; c < st->ncomp; c++) {
        dc_component *comp = &st->components[c];
        comp->id = segment[6 + 3 * c];
        comp->h = segment[7 + 3 * c] >> 4;
        comp->v = segment[7 + 3 * c] & 15;
        comp->tq = segment[8 + 3 * c] & 3;
        if (comp->h < 1 || comp->h > 4 || comp->v < 1 || comp->v > 4) return DC_NOT_MINE;
        if (comp->h > st->hmax) st->hmax = comp->h;
        if (comp->v > st->vmax) st->vmax = comp->v;
    }
    // libjpeg replicates chroma only for whole-number ratios.
    for (int c = 0; c < st->ncomp; c++) {
        if (st->hmax % st->components[c].h || st->vmax % st->components[c].v) return DC_NOT_MINE;
    }
    st->mcus_across = (st->image_w + 8 * st->hmax - 1) / (8 * st->hmax);
    st->mcus_down = (st->image_h + 8 * st->vmax - 1) / (8 * st->vmax);
    for (int c = 0; c < st->ncomp; c++) {
        dc_component *comp = &st->components[c];
        int comp_w = (st->image_w * comp->h + st->hmax - 1) / st->hmax;
        int comp_h = (st->image_h * comp->v + st->vmax - 1) / st->vmax;
        comp->blocks_across = (comp_w + 7) / 8;
        comp->blocks_down = (comp_h + 7) / 8;
        comp->padded_across = st->mcus_across * comp->h;
        comp->padded_down = st->mcus_down * comp->v;
        comp->dc = calloc((size_t)comp->padded_across * (size_t)comp->padded_down, sizeof(int16_t));
        if (!comp->dc) return DC_NOT_MINE;
    }
    st->have_frame = 1;
    return DC_OK;
}

/// DHT (the DC tables) and DQT (each table's DC entry).
static int dc_read_tables(dc_state *st, uint8_t marker, const uint8_t *segment, size_t n) {
    size_t p = 0;
    if (marker == 0xC4) {
        while (p + 17 <= n) {
            int cls = segment[p] >> 4, id = segment[p] & 3, total = 0;
            for (int i = 0; i < 16; i++) total += segment[p + 1 + i];
            if (p + 17 + (size_t)total > n || total > 256) return DC_NOT_MINE;
            if (cls == 0) dc_define_table(&st->tables[id], segment + p + 1, segment + p + 17, total);
            p += 17 + (size_t)total;
        }
        return DC_OK;
    }
    while (p + 1 <= n) {
        int precision = segment[p] >> 4, id = segment[p] & 3;
        size_t entry = precision ? 2 : 1;
        if (p + 1 + 64 * entry > n) return DC_NOT_MINE;
        st->quant[id] = precision ? (segment[p + 1] << 8) | segment[p + 2] : segment[p + 1];
        p += 1 + 64 * entry;
    }
    return DC_OK;
}

/// SOS: a DC scan's data is decoded, an AC scan's skipped. `*pos` moves past the scan.
static int dc_read_scan(dc_state *st, const uint8_t *data, size_t size, size_t *pos, const uint8_t *segment, size_t n,
                        size_t header_end, int max_scans, mosaic_result *result) {
    if (!st->have_frame || n < 1) return DC_NOT_MINE;
    int ns = segment[0];
    if (ns < 1 || ns > st->ncomp || n < 4 + 2 * (size_t)ns) return DC_NOT_MINE;
    dc_component *scan[DC_MAX_COMPONENTS];
    int td[DC_MAX_COMPONENTS];
    for (int i = 0; i < ns; i++) {
        scan[i] = NULL;
        for (int c = 0; c < st->ncomp; c++) {
            if (st->components[c].id == segment[1 + 2 * i]) scan[i] = &st->components[c];
        }
        if (!scan[i]) return DC_NOT_MINE;
        td[i] = segment[2 + 2 * i] >> 4 & 3;
    }
    int ss = segment[1 + 2 * ns], ah = segment[3 + 2 * ns] >> 4, al = segment[3 + 2 * ns] & 15;
    st->scans += 1;
    if (max_scans > 0 && st->scans > max_scans) {
        result->status = MOSAIC_ERROR;
        snprintf(result->message, MOSAIC_MESSAGE_SIZE,
                 "more than %d scans: refused as a hostile or broken progressive file", max_scans);
        return DC_REFUSED;
    }
    size_t end = dc_scan_end(data, size, header_end);
    // An AC scan or a DC refinement needs the component's first DC scan before it.
    for (int i = 0; i < ns; i++) {
        if ((ss != 0 || ah != 0) && !scan[i]->dc_started) return DC_NOT_MINE;
    }
    if (ss == 0) {
        for (int i = 0; i < ns; i++) {
            if (ah == 0 && !st->tables[td[i]].defined) return DC_NOT_MINE;
        }
        dc_reader reader = {data, end, header_end, 0, 0, 0, 0};
        dc_run_scan(&reader, scan, ns, st->tables, td, ah, al, st->restart_interval, st->mcus_across, st->mcus_down);
        if (reader.irregular) return DC_NOT_MINE;
        for (int i = 0; i < ns; i++) scan[i]->dc_started = 1;
    }
    *pos = end;
    return DC_OK;
}

/// Every output pixel from its blocks' DC values: libjpeg's 1x1 IDCT, chroma replicated,
/// YCbCr (or Adobe RGB, or grey) to RGBA.
static void dc_write_pixels(const dc_state *st, uint8_t *out, size_t stride, int width, int height) {
    for (int y = 0; y < height; y++) {
        uint8_t *row = out + (size_t)y * stride;
        for (int x = 0; x < width; x++) {
            int value[DC_MAX_COMPONENTS];
            for (int c = 0; c < st->ncomp; c++) {
                const dc_component *comp = &st->components[c];
                int bx = x * comp->h / st->hmax, by = y * comp->v / st->vmax;
                if (bx >= comp->padded_across) bx = comp->padded_across - 1;
                if (by >= comp->padded_down) by = comp->padded_down - 1;
                long dc = comp->dc[(size_t)by * (size_t)comp->padded_across + (size_t)bx];
                long v = ((dc * st->quant[comp->tq] + 4) >> 3) + 128;
                value[c] = (int)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
            uint8_t *p = row + 4 * (size_t)x;
            if (st->ncomp == 1) {
                p[0] = p[1] = p[2] = (uint8_t)value[0];
                p[3] = 255;
            } else if (st->adobe_transform == 0) {
                p[0] = (uint8_t)value[0];
                p[1] = (uint8_t)value[1];
                p[2] = (uint8_t)value[2];
                p[3] = 255;
            } else {
                dc_ycc_to_rgb(value[0], value[1], value[2], p);
            }
        }
    }
}

/// Walks the markers; returns DC_OK with `*saw_end` set when the file was read to its end.
static int dc_read_markers(dc_state *st, const uint8_t *data, size_t size, int width, int height, int max_scans,
                           mosaic_result *result, int *saw_end) {
    size_t pos = 2;
    while (pos + 2 <= size) {
        if (data[pos] != 0xFF || data[pos + 1] == 0xFF) { pos += 1; continue; }
        uint8_t marker = data[pos + 1];
        pos += 2;
        if (marker == 0xD9) { *saw_end = 1; break; }      // EOI
        if (marker >= 0xD0 && marker <= 0xD7) continue;  // a stray RSTn
        if (pos + 2 > size) break;
        size_t length = ((size_t)data[pos] << 8) | data[pos + 1];
        if (length < 2 || pos + length > size) break;
        const uint8_t *segment = data + pos + 2;
        size_t n = length - 2;
        int status = DC_OK;
        if (marker == 0xC2) {
            status = dc_read_frame(st, segment, n, width, height);
        } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            status = DC_NOT_MINE;                        // another kind of frame
        } else if (marker == 0xC4 || marker == 0xDB) {
            status = dc_read_tables(st, marker, segment, n);
        } else if (marker == 0xDD) {
            if (n >= 2) st->restart_interval = (segment[0] << 8) | segment[1];
        } else if (marker == 0xEE) {                     // APP14: Adobe's colour transform
            if (n >= 12 && memcmp(segment, "Adobe", 5) == 0) st->adobe_transform = segment[11];
        } else if (marker == 0xDA) {
            status = dc_read_scan(st, data, size, &pos, segment, n, pos + length, max_scans, result);
            if (status != DC_OK) return status;
            continue;
        }
        if (status != DC_OK) return status;
        pos += length;
    }
    if (!st->have_frame || st->scans == 0) return DC_NOT_MINE;
    for (int c = 0; c < st->ncomp; c++) {
        if (!st->components[c].dc_started) return DC_NOT_MINE;
    }
    return DC_OK;
}

int mosaic_jpeg_decode_dc(const uint8_t *data, size_t size, uint8_t *out, size_t stride, int width, int height,
                          int max_scans, mosaic_result *result) {
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    dc_state *st = calloc(1, sizeof *st);
    if (!st) return 0;
    st->hmax = 1;
    st->vmax = 1;
    st->adobe_transform = -1;
    int saw_end = 0;
    int status = dc_read_markers(st, data, size, width, height, max_scans, result, &saw_end);
    if (status == DC_OK) {
        if (!saw_end) {
            // Truncated: libjpeg warns "Premature end of JPEG file" and fills with grey;
            // here the DC read so far stands, with the same warning (and damage).
            result->warning_count += 1;
            result->damage_count += 1;
            snprintf(result->warning, MOSAIC_MESSAGE_SIZE, "Premature end of JPEG file");
            snprintf(result->damage, MOSAIC_MESSAGE_SIZE, "Premature end of JPEG file");
        }
        dc_write_pixels(st, out, stride, width, height);
    }
    for (int c = 0; c < DC_MAX_COMPONENTS; c++) free(st->components[c].dc);
    free(st);
    return status == DC_NOT_MINE ? 0 : 1;
}
