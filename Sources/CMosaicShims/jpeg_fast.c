// A sequential JPEG shrunk on load to 1/8 or 1/4, without libjpeg, giving libjpeg's bytes.
//
// At these scales libjpeg spends most of its time in Huffman decoding (one table lookup
// for the code, another step for the value's bits, per coefficient) and in zeroing and
// storing the coefficients of every block. This reader decodes the common coefficients
// (code and value together within 9 bits) in one lookup, as stb_image does, and keeps its
// blocks in registers' reach; the rest is libjpeg's arithmetic, so that the pixels are the
// ones libjpeg (libjpeg-turbo 2.1, with do_fancy_upsampling off) writes:
// - the scaled IDCTs of jidctred.c (1x1, 2x2, 4x4; its constants and rounding);
// - libjpeg's choice of each component's IDCT size (jdmaster.c): subsampled chroma is
//   scaled up by its IDCT, not upsampled, where the ratio allows;
// - the YCbCr to RGB arithmetic of jdcolor.c.
//
// Only what it can do exactly is taken: 8-bit baseline or extended Huffman files whose one
// scan holds every component, greyscale or YCbCr at 4:4:4 or 4:2:0, with or without
// restart markers. Anything else, and anything libjpeg would warn about (bytes before a
// marker, a scan that runs into a marker, a JFIF version it does not know, an odd Adobe
// transform, an undefined table, a code no table holds), returns 0 and the caller decodes
// with libjpeg, whose warnings and judgement then apply. Plain C, no setjmp: every failure
// is a return.
#include "CMosaicShims.h"

#include <stdlib.h>
#include <string.h>

enum { FAST_BITS = 9 };

typedef struct {
    /// Codes of at most FAST_BITS bits: (length << 8) | symbol, 0 for a longer code.
    uint16_t look[1 << FAST_BITS];
    /// AC codes whose value's bits fit too: (value << 16) | (run << 8) | (all bits).
    int32_t fast_ac[1 << FAST_BITS];
    int32_t maxcode[18];
    int32_t mincode[17];
    int valptr[17];
    uint8_t symbols[256];
    int defined;
} fj_huffman;

typedef struct {
    int id, h, v, tq, td, ta;
    /// The IDCT's output size (1, 2 or 4) for this component.
    int scaled;
    int predictor;
} fj_component;

typedef struct {
    const uint8_t *p, *end;
    uint64_t buffer;
    /// Bits in `buffer`, and how many of them are zeros put after the data's end.
    int count, padded;
} fj_bits;

typedef struct {
    fj_huffman dc[4], ac[4];
    /// In natural order, as libjpeg's IDCTs multiply them: 16-bit signed.
    int16_t quant[4][64];
    int quant_defined[4];
    fj_component components[3];
    int ncomp, width, height, hmax, vmax, restart_interval;
    int saw_jfif, adobe_transform, saw_frame;
} fj_state;

/// Natural order of the zig-zag index; 16 more entries as libjpeg has them never used here.
static const uint8_t fj_zigzag[64] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// MARK: Bits

static inline void fj_refill(fj_bits *b) {
    while (b->count <= 56) {
        unsigned c = 0;
        if (b->padded == 0 && b->p < b->end) {
            c = *b->p;
            if (c == 0xFF) {
                if (b->p + 1 < b->end && b->p[1] == 0) {
                    b->p += 2;
                } else {
                    // A marker (or the data's end): zeros from here; `p` stays on it.
                    c = 0;
                    b->padded += 8;
                }
            } else {
                b->p++;
            }
        } else {
            b->padded += 8;
        }
        b->buffer |= (uint64_t)c << (56 - b->count);
        b->count += 8;
    }
}

static inline void fj_consume(fj_bits *b, int n) {
    b->buffer <<= n;
    b->count -= n;
}

static inline int fj_extend(int bits, int s) { return bits < (1 << (s - 1)) ? bits - (1 << s) + 1 : bits; }

/// The value of the next `s` bits (1 to 16), consumed.
static inline int fj_take(fj_bits *b, int s) {
    int bits = (int)(b->buffer >> (64 - s));
    fj_consume(b, s);
    return fj_extend(bits, s);
}

/// The next symbol of `table`, or -1 for a code it does not hold. Needs 16 bits buffered.
static inline int fj_symbol(fj_bits *b, const fj_huffman *table) {
    unsigned e = table->look[b->buffer >> (64 - FAST_BITS)];
    if (e) {
        fj_consume(b, (int)(e >> 8));
        return (int)(e & 0xFF);
    }
    for (int l = FAST_BITS + 1; l <= 16; l++) {
        int32_t code = (int32_t)(b->buffer >> (64 - l));
        if (code <= table->maxcode[l]) {
            fj_consume(b, l);
            return table->symbols[table->valptr[l] + code - table->mincode[l]];
        }
    }
    return -1;
}

/// Builds the decoding tables as libjpeg's jpeg_make_d_derived_tbl checks them; 0 when
/// libjpeg would refuse the table.
static int fj_define(fj_huffman *t, const uint8_t *counts, const uint8_t *symbols, int total, int is_ac) {
    memset(t, 0, sizeof *t);
    memcpy(t->symbols, symbols, (size_t)total);
    int32_t code = 0;
    int k = 0;
    for (int l = 1; l <= 16; l++) {
        t->valptr[l] = k;
        t->mincode[l] = code;
        for (int i = 0; i < counts[l - 1]; i++) {
            if (code >= (1 << l)) return 0;
            if (l <= FAST_BITS) {
                int shift = FAST_BITS - l;
                for (int fill = 0; fill < (1 << shift); fill++) t->look[(code << shift) | fill] = (uint16_t)((l << 8) | symbols[k]);
            }
            code++;
            k++;
        }
        t->maxcode[l] = counts[l - 1] ? code - 1 : -1;
        code <<= 1;
    }
    t->maxcode[17] = 0x7FFFFFFF;
    if (is_ac) {
        for (int i = 0; i < (1 << FAST_BITS); i++) {
            unsigned e = t->look[i];
            if (!e) continue;
            int l = (int)(e >> 8), symbol = (int)(e & 0xFF), run = symbol >> 4, s = symbol & 15;
            if (s == 0 || l + s > FAST_BITS) continue;
            int bits = (i >> (FAST_BITS - l - s)) & ((1 << s) - 1);
            t->fast_ac[i] = (int32_t)((uint32_t)fj_extend(bits, s) << 16) | (run << 8) | (l + s);
        }
    } else {
        for (int i = 0; i < total; i++) {
            if (symbols[i] > 15) return 0;
        }
    }
    t->defined = 1;
    return 1;
}

// MARK: Blocks

/// Decodes one block's coefficients into `block` (zeroed), in natural order; with `ac`
/// false the AC values are read past, not kept. 0 on a code no table holds or a run past
/// the block's end.
static inline int fj_block(fj_bits *b, const fj_huffman *dc, const fj_huffman *ac, int *predictor, int16_t *block, int keep_ac) {
    fj_refill(b);
    int s = fj_symbol(b, dc);
    if (s < 0) return 0;
    if (s) {
        if (b->count < 32) fj_refill(b);
        *predictor += fj_take(b, s);
    }
    block[0] = (int16_t)*predictor;
    for (int k = 1; k < 64;) {
        if (b->count < 32) fj_refill(b);
        int32_t f = ac->fast_ac[b->buffer >> (64 - FAST_BITS)];
        if (f) {
            k += (f >> 8) & 15;
            fj_consume(b, f & 0xFF);
            if (k > 63) return 0;
            if (keep_ac) block[fj_zigzag[k]] = (int16_t)(f >> 16);
            k++;
            continue;
        }
        int symbol = fj_symbol(b, ac);
        if (symbol < 0) return 0;
        int run = symbol >> 4, size = symbol & 15;
        if (size) {
            k += run;
            if (k > 63) return 0;
            int value = fj_take(b, size);
            if (keep_ac) block[fj_zigzag[k]] = (int16_t)value;
            k++;
        } else if (run == 15) {
            k += 16;
        } else {
            break;
        }
    }
    return 1;
}

// MARK: libjpeg's reduced IDCTs (jidctred.c) and range limit

enum { CONST_BITS = 13, PASS1_BITS = 2 };
#define FJ_DESCALE(x, n) (((x) + ((int64_t)1 << ((n)-1))) >> (n))

/// libjpeg's IDCT range limit: the 10-bit wrapped value, clamped around 128.
static inline uint8_t fj_limit(int64_t x) {
    int v = (int)(x & 1023);
    if (v < 128) return (uint8_t)(v + 128);
    if (v < 512) return 255;
    if (v < 896) return 0;
    return (uint8_t)(v - 896);
}

static inline void fj_idct_1x1(const int16_t *in, const int16_t *q, uint8_t *out) {
    int64_t dc = (int64_t)in[0] * q[0];
    out[0] = fj_limit(FJ_DESCALE(dc, 3));
}

static void fj_idct_2x2(const int16_t *in, const int16_t *q, uint8_t *out, int stride) {
    int work[16];
    for (int c = 0; c < 8; c++) {
        if (c == 2 || c == 4 || c == 6) continue;
        const int16_t *col = in + c;
        const int16_t *qc = q + c;
        if (col[8] == 0 && col[24] == 0 && col[40] == 0 && col[56] == 0) {
            int dc = (int)(int32_t)(((int64_t)col[0] * qc[0]) * (1 << PASS1_BITS));
            work[c] = dc;
            work[8 + c] = dc;
            continue;
        }
        int64_t tmp10 = ((int64_t)col[0] * qc[0]) * (1 << (CONST_BITS + 2));
        int64_t tmp0 = ((int64_t)col[56] * qc[56]) * -5906 + ((int64_t)col[40] * qc[40]) * 6967 + ((int64_t)col[24] * qc[24]) * -10426 +
                       ((int64_t)col[8] * qc[8]) * 29692;
        work[c] = (int)FJ_DESCALE(tmp10 + tmp0, CONST_BITS - PASS1_BITS + 2);
        work[8 + c] = (int)FJ_DESCALE(tmp10 - tmp0, CONST_BITS - PASS1_BITS + 2);
    }
    for (int r = 0; r < 2; r++) {
        const int *w = work + r * 8;
        uint8_t *o = out + r * stride;
        if (w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0) {
            uint8_t v = fj_limit(FJ_DESCALE((int64_t)w[0], PASS1_BITS + 3));
            o[0] = v;
            o[1] = v;
            continue;
        }
        int64_t tmp10 = (int64_t)w[0] * (1 << (CONST_BITS + 2));
        int64_t tmp0 = (int64_t)w[7] * -5906 + (int64_t)w[5] * 6967 + (int64_t)w[3] * -10426 + (int64_t)w[1] * 29692;
        o[0] = fj_limit(FJ_DESCALE(tmp10 + tmp0, CONST_BITS + PASS1_BITS + 3 + 2));
        o[1] = fj_limit(FJ_DESCALE(tmp10 - tmp0, CONST_BITS + PASS1_BITS + 3 + 2));
    }
}

static void fj_idct_4x4(const int16_t *in, const int16_t *q, uint8_t *out, int stride) {
    int work[32];
    for (int c = 0; c < 8; c++) {
        if (c == 4) continue;
        const int16_t *col = in + c;
        const int16_t *qc = q + c;
        if (col[8] == 0 && col[16] == 0 && col[24] == 0 && col[40] == 0 && col[48] == 0 && col[56] == 0) {
            int dc = (int)(int32_t)(((int64_t)col[0] * qc[0]) * (1 << PASS1_BITS));
            work[c] = dc;
            work[8 + c] = dc;
            work[16 + c] = dc;
            work[24 + c] = dc;
            continue;
        }
        int64_t tmp0 = ((int64_t)col[0] * qc[0]) * (1 << (CONST_BITS + 1));
        int64_t z2 = (int64_t)col[16] * qc[16], z3 = (int64_t)col[48] * qc[48];
        int64_t tmp2 = z2 * 15137 + z3 * -6270;
        int64_t tmp10 = tmp0 + tmp2, tmp12 = tmp0 - tmp2;
        int64_t z1 = (int64_t)col[56] * qc[56], z4 = (int64_t)col[8] * qc[8];
        z2 = (int64_t)col[40] * qc[40];
        z3 = (int64_t)col[24] * qc[24];
        tmp0 = z1 * -1730 + z2 * 11893 + z3 * -17799 + z4 * 8697;
        tmp2 = z1 * -4176 + z2 * -4926 + z3 * 7373 + z4 * 20995;
        work[c] = (int)FJ_DESCALE(tmp10 + tmp2, CONST_BITS - PASS1_BITS + 1);
        work[24 + c] = (int)FJ_DESCALE(tmp10 - tmp2, CONST_BITS - PASS1_BITS + 1);
        work[8 + c] = (int)FJ_DESCALE(tmp12 + tmp0, CONST_BITS - PASS1_BITS + 1);
        work[16 + c] = (int)FJ_DESCALE(tmp12 - tmp0, CONST_BITS - PASS1_BITS + 1);
    }
    for (int r = 0; r < 4; r++) {
        const int *w = work + r * 8;
        uint8_t *o = out + r * stride;
        if (w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0) {
            uint8_t v = fj_limit(FJ_DESCALE((int64_t)w[0], PASS1_BITS + 3));
            o[0] = o[1] = o[2] = o[3] = v;
            continue;
        }
        int64_t tmp0 = (int64_t)w[0] * (1 << (CONST_BITS + 1));
        int64_t tmp2 = (int64_t)w[2] * 15137 + (int64_t)w[6] * -6270;
        int64_t tmp10 = tmp0 + tmp2, tmp12 = tmp0 - tmp2;
        int64_t z1 = w[7], z2 = w[5], z3 = w[3], z4 = w[1];
        tmp0 = z1 * -1730 + z2 * 11893 + z3 * -17799 + z4 * 8697;
        tmp2 = z1 * -4176 + z2 * -4926 + z3 * 7373 + z4 * 20995;
        o[0] = fj_limit(FJ_DESCALE(tmp10 + tmp2, CONST_BITS + PASS1_BITS + 3 + 1));
        o[3] = fj_limit(FJ_DESCALE(tmp10 - tmp2, CONST_BITS + PASS1_BITS + 3 + 1));
        o[1] = fj_limit(FJ_DESCALE(tmp12 + tmp0, CONST_BITS + PASS1_BITS + 3 + 1));
        o[2] = fj_limit(FJ_DESCALE(tmp12 - tmp0, CONST_BITS + PASS1_BITS + 3 + 1));
    }
}

static inline void fj_idct(int scaled, const int16_t *in, const int16_t *q, uint8_t *out, int stride) {
    if (scaled == 1) {
        fj_idct_1x1(in, q, out);
    } else if (scaled == 2) {
        fj_idct_2x2(in, q, out, stride);
    } else {
        fj_idct_4x4(in, q, out, stride);
    }
}

/// libjpeg's ycc_rgb_convert (jdcolor.c, SCALEBITS 16), into RGBA.
static inline void fj_ycc_to_rgba(int y, int cb, int cr, uint8_t *out) {
    const int64_t one_half = (int64_t)1 << 15;
    int64_t x = cr - 128, w = cb - 128;
    int64_t r = y + ((91881 * x + one_half) >> 16);
    int64_t g = y + ((-22554 * w + one_half - 46802 * x) >> 16);
    int64_t b = y + ((116130 * w + one_half) >> 16);
    out[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r);
    out[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g);
    out[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b);
    out[3] = 255;
}

// MARK: Markers

static inline int fj_u16(const uint8_t *p) { return (p[0] << 8) | p[1]; }

static int fj_read_frame(fj_state *st, const uint8_t *s, size_t n) {
    if (st->saw_frame || n < 6 || s[0] != 8) return 0;
    st->height = fj_u16(s + 1);
    st->width = fj_u16(s + 3);
    st->ncomp = s[5];
    if (st->width < 1 || st->height < 1 || (st->ncomp != 1 && st->ncomp != 3) || n != 6 + 3 * (size_t)st->ncomp) return 0;
    for (int i = 0; i < st->ncomp; i++) {
        fj_component *c = &st->components[i];
        c->id = s[6 + 3 * i];
        c->h = s[7 + 3 * i] >> 4;
        c->v = s[7 + 3 * i] & 15;
        c->tq = s[8 + 3 * i];
        if (c->tq > 3) return 0;
    }
    if (st->ncomp == 1) {
        // One component: its sampling factors make no difference to a scan of it alone.
        if (st->components[0].h < 1 || st->components[0].v < 1 || st->components[0].h > 4 || st->components[0].v > 4) return 0;
        st->components[0].h = st->components[0].v = 1;
    } else {
        const fj_component *y = &st->components[0];
        if (!((y->h == 1 && y->v == 1) || (y->h == 2 && y->v == 2))) return 0;
        for (int i = 1; i < 3; i++) {
            if (st->components[i].h != 1 || st->components[i].v != 1) return 0;
        }
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                if (st->components[i].id == st->components[j].id) return 0;
            }
        }
    }
    st->hmax = st->components[0].h;
    st->vmax = st->components[0].v;
    st->saw_frame = 1;
    return 1;
}

static int fj_read_tables(fj_state *st, uint8_t marker, const uint8_t *s, size_t n) {
    size_t at = 0;
    if (marker == 0xC4) {
        while (at < n) {
            if (at + 17 > n) return 0;
            int tc = s[at] >> 4, th = s[at] & 15;
            if (tc > 1 || th > 3) return 0;
            int total = 0;
            for (int i = 0; i < 16; i++) total += s[at + 1 + i];
            if (total > 256 || at + 17 + (size_t)total > n) return 0;
            if (!fj_define(tc ? &st->ac[th] : &st->dc[th], s + at + 1, s + at + 17, total, tc)) return 0;
            at += 17 + (size_t)total;
        }
        return 1;
    }
    while (at < n) {
        int pq = s[at] >> 4, tq = s[at] & 15;
        if (pq > 1 || tq > 3) return 0;
        size_t bytes = pq ? 128 : 64;
        if (at + 1 + bytes > n) return 0;
        for (int k = 0; k < 64; k++) {
            int value = pq ? fj_u16(s + at + 1 + 2 * k) : s[at + 1 + k];
            st->quant[tq][fj_zigzag[k]] = (int16_t)(uint16_t)value;
        }
        st->quant_defined[tq] = 1;
        at += 1 + bytes;
    }
    return 1;
}

/// The colour space libjpeg takes for three components (jdapimin.c): YCbCr unless an Adobe
/// marker says RGB or the component ids spell it; only YCbCr is taken here.
static int fj_is_ycc(const fj_state *st) {
    if (st->ncomp == 1) return 1;
    if (st->saw_jfif) return 1;
    if (st->adobe_transform >= 0) return st->adobe_transform == 1;
    const fj_component *c = st->components;
    return !(c[0].id == 82 && c[1].id == 71 && c[2].id == 66);
}

// MARK: The scan

typedef struct {
    fj_state *st;
    uint8_t *out;
    size_t stride;
    int width, height;
    /// Luma's IDCT size (the scale in eighths).
    int scale;
} fj_target;

/// Decodes the scan that starts at `*pos`; 1 when every MCU was read cleanly and the scan
/// ended at a marker, `*pos` then on that marker.
static int fj_decode_scan(const fj_target *t, const uint8_t *data, size_t size, size_t *pos) {
    fj_state *st = t->st;
    const int hmax = st->hmax, vmax = st->vmax, s = t->scale;
    const int mcu_w = 8 * hmax, mcu_h = 8 * vmax;
    const int across = (st->width + mcu_w - 1) / mcu_w, down = (st->height + mcu_h - 1) / mcu_h;
    const int tile_w = hmax * s, tile_h = vmax * s;
    // Each component's IDCT size (jdmaster.c): doubled while its subsampling ratio allows.
    for (int i = 0; i < st->ncomp; i++) {
        fj_component *c = &st->components[i];
        int size = s;
        while (size < 8 && (hmax * s) % (c->h * size * 2) == 0 && (vmax * s) % (c->v * size * 2) == 0) size *= 2;
        if (size * c->h != tile_w || size * c->v != tile_h || size > 4) return 0;
        c->scaled = size;
        c->predictor = 0;
    }
    uint8_t planes[3][16 * 16];
    int16_t block[64];
    fj_bits bits = {data + *pos, data + size, 0, 0, 0};
    const int total = across * down;
    int restarts = 0;
    for (int m = 0; m < total; m++) {
        const int mx = m % across, my = m / across;
        for (int ci = 0; ci < st->ncomp; ci++) {
            fj_component *c = &st->components[ci];
            const fj_huffman *dc = &st->dc[c->td], *ac = &st->ac[c->ta];
            const int16_t *q = st->quant[c->tq];
            const int keep_ac = c->scaled > 1;
            for (int by = 0; by < c->v; by++) {
                for (int bx = 0; bx < c->h; bx++) {
                    if (keep_ac) memset(block, 0, sizeof block);
                    if (!fj_block(&bits, dc, ac, &c->predictor, block, keep_ac)) return 0;
                    fj_idct(c->scaled, block, q, planes[ci] + by * c->scaled * tile_w + bx * c->scaled, tile_w);
                }
            }
        }
        // Every bit read was data, not the zeros put after a marker.
        if (bits.count < bits.padded) return 0;
        const int x0 = mx * tile_w, y0 = my * tile_h;
        const int w = t->width - x0 < tile_w ? t->width - x0 : tile_w;
        const int h = t->height - y0 < tile_h ? t->height - y0 : tile_h;
        for (int y = 0; y < h; y++) {
            uint8_t *o = t->out + (size_t)(y0 + y) * t->stride + (size_t)x0 * 4;
            const uint8_t *py = planes[0] + y * tile_w;
            if (st->ncomp == 1) {
                for (int x = 0; x < w; x++, o += 4) o[0] = o[1] = o[2] = py[x], o[3] = 255;
            } else {
                const uint8_t *pb = planes[1] + y * tile_w, *pr = planes[2] + y * tile_w;
                for (int x = 0; x < w; x++, o += 4) fj_ycc_to_rgba(py[x], pb[x], pr[x], o);
            }
        }
        const int last = m + 1 == total;
        const int restart = st->restart_interval > 0 && (m + 1) % st->restart_interval == 0 && !last;
        if (restart || last) {
            // The interval ends on a byte boundary at a marker: fewer than 8 data bits left
            // (its padding), then fill bytes and the marker. Anything else is libjpeg's.
            fj_refill(&bits);
            if (bits.count - bits.padded >= 8) return 0;
            const uint8_t *p = bits.p;
            if (p >= bits.end || *p != 0xFF) return 0;
            while (p + 1 < bits.end && p[1] == 0xFF) p++;
            if (p + 1 >= bits.end) return 0;
            if (restart) {
                if (p[1] != 0xD0 + (restarts & 7)) return 0;
                restarts++;
                bits = (fj_bits){p + 2, data + size, 0, 0, 0};
                for (int ci = 0; ci < st->ncomp; ci++) st->components[ci].predictor = 0;
            } else {
                *pos = (size_t)(p - data);
            }
        }
    }
    return 1;
}

int mosaic_jpeg_decode_fast(const uint8_t *data, size_t size, int scale_num, uint8_t *out, size_t stride, int width, int height,
                            int *has_icc) {
    *has_icc = 0;
    if ((scale_num != 1 && scale_num != 2) || size < 4 || data[0] != 0xFF || data[1] != 0xD8) return 0;
    if (width < 1 || height < 1 || stride < (size_t)width * 4) return 0;
    fj_state *st = calloc(1, sizeof *st);
    if (!st) return 0;
    st->adobe_transform = -1;
    int done = 0, scanned = 0;
    size_t pos = 2;
    while (pos + 2 <= size) {
        if (data[pos] != 0xFF) break;  // bytes between markers: libjpeg warns
        uint8_t marker = data[pos + 1];
        if (marker == 0xFF) {
            pos++;
            continue;
        }
        if (marker == 0xD9) {
            done = scanned;
            break;
        }
        if (scanned || pos + 4 > size) break;  // a second scan, markers after the scan: libjpeg's
        size_t length = (size_t)fj_u16(data + pos + 2);
        if (length < 2 || pos + 2 + length > size) break;
        const uint8_t *segment = data + pos + 4;
        size_t n = length - 2;
        int ok = 1;
        if (marker == 0xC0 || marker == 0xC1) {
            ok = fj_read_frame(st, segment, n);
        } else if (marker == 0xC4 || marker == 0xDB) {
            ok = fj_read_tables(st, marker, segment, n);
        } else if (marker == 0xDD) {
            ok = n == 2;
            if (ok) st->restart_interval = fj_u16(segment);
        } else if (marker == 0xE0) {
            if (n >= 14 && memcmp(segment, "JFIF\0", 5) == 0) {
                // libjpeg warns of a JFIF major version it does not know.
                ok = segment[5] == 1;
                st->saw_jfif = 1;
            }
        } else if (marker == 0xE2) {
            if (n >= 12 && memcmp(segment, "ICC_PROFILE", 12) == 0) *has_icc = 1;
        } else if (marker == 0xEE) {
            if (n >= 12 && memcmp(segment, "Adobe", 5) == 0) st->adobe_transform = segment[11];
        } else if ((marker >= 0xE1 && marker <= 0xEF) || marker == 0xFE) {
            // Application data and comments: nothing here.
        } else if (marker == 0xDA) {
            if (!st->saw_frame || n < 1 || segment[0] != st->ncomp || n != 4 + 2 * (size_t)st->ncomp || !fj_is_ycc(st)) break;
            for (int i = 0; i < st->ncomp && ok; i++) {
                fj_component *c = &st->components[i];
                c->td = segment[2 + 2 * i] >> 4;
                c->ta = segment[2 + 2 * i] & 15;
                ok = segment[1 + 2 * i] == c->id && c->td < 4 && c->ta < 4 && st->dc[c->td].defined && st->ac[c->ta].defined &&
                     st->quant_defined[c->tq];
            }
            const uint8_t *spectral = segment + 1 + 2 * st->ncomp;
            if (!ok || spectral[0] != 0 || spectral[1] != 63 || spectral[2] != 0) break;
            fj_target target = {st, out, stride, width, height, scale_num};
            if ((st->width * scale_num + 7) / 8 != width || (st->height * scale_num + 7) / 8 != height) break;
            pos += 2 + length;
            if (!fj_decode_scan(&target, data, size, &pos)) break;
            scanned = 1;
            continue;
        } else {
            ok = 0;  // any other marker: libjpeg's
        }
        if (!ok) break;
        pos += 2 + length;
    }
    free(st);
    return done;
}
