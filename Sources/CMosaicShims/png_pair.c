// Two PNGs of one size read together, for a diff (mosaic_png_decode_pair). A screenshot
// and its baseline differ in a few rows; their encoders chose the same filter for the rows
// that are equal, so most of the second file's filtered rows are byte for byte the
// first's. Such a row, below a row that is the same in both (or with a filter that looks
// only left: None, Sub), unfilters to the first file's row: it is copied instead of unfiltered
// and widened (the unfiltering is about half of what decoding a 4K PNG costs; the
// inflating, which cannot be shared, the other half). Both files are still inflated
// whole, their CRCs and Adler-32s checked: what each read gives is what reading it alone
// gives, the rows, warnings and errors included, and a file that fails is not read again.
#include "CMosaicShims.h"
#include "png_internal.h"
#include "results.h"

#include <string.h>

/// Rows compared a step: buffered at once (the fast path's buffer holds 16 rows at least).
enum { MOSAIC_PAIR_STEP = 16 };

/// Reads the next `count` rows of `b`, copying from `out_a` (the same rows of `a`, just
/// read from the `count` filtered rows at `raw_a`) those the filtered bytes and the row
/// above allow. `*same_above`: whether the row above is the same in both (in and out).
/// MOSAIC_OK, or the error of `b`'s read.
static mosaic_result mosaic_png_pair_rows(
    const uint8_t *raw_a, const uint8_t *out_a, mosaic_png_stream *b, uint8_t *out_b, size_t stride, int count,
    int *same_above, int *copied) {
    mosaic_png_fast *fast = b->fast;
    size_t step = fast->row_bytes + 1, row_size = (size_t)b->width * 4;
    const uint8_t *raw_b = fast->raw + fast->raw_start;
    // Whether each row's filtered bytes (its filter type first) are `a`'s. A filter past 4
    // fails the read of `a` before this: equal bytes never copy one.
    int equal[MOSAIC_PAIR_STEP];
    for (int r = 0; r < count; r++) equal[r] = memcmp(raw_a + (size_t)r * step, raw_b + (size_t)r * step, step) == 0;
    for (int r = 0; r < count;) {
        int end = r;
        // Rows that unfilter to `a`'s: equal bytes below a row that is the same, or with a
        // filter that looks only left (None, Sub).
        while (end < count && equal[end] && (*same_above || raw_b[(size_t)end * step] <= 1)) end++;
        if (end > r) {
            *same_above = 1;
            for (int k = r; k < end; k++) memcpy(out_b + (size_t)k * stride, out_a + (size_t)k * stride, row_size);
            fast->raw_start += (size_t)(end - r) * step;
            b->rows_left -= end - r;
            mosaic_png_fast_set_previous(fast, out_b + (size_t)(end - 1) * stride, (size_t)b->width);
            *copied += end - r;
            r = end;
            continue;
        }
        // Rows to unfilter: this one and those after it whose bytes differ (a row with equal
        // bytes may be copied, once the row above it is known to be the same).
        end = r + 1;
        while (end < count && !equal[end]) end++;
        mosaic_result result = mosaic_png_stream_read(b, out_b + (size_t)r * stride, stride, end - r);
        if (result.status != MOSAIC_OK) return result;
        // libpng took over (damaged image data): it reads the rest alone.
        if (b->fast != fast) return mosaic_ok();
        *same_above = memcmp(out_a + (size_t)(end - 1) * stride, out_b + (size_t)(end - 1) * stride, row_size) == 0;
        r = end;
    }
    return mosaic_ok();
}

/// Reads every row of both streams: together while both are read by the fast path, each
/// alone from where that stops. `read_a`, `read_b`: MOSAIC_OK or that stream's read error;
/// after an error of `a`, `b` is left where it stands (`read_b` then says nothing).
static void mosaic_png_pair_read(
    mosaic_png_stream *a, uint8_t *out_a, mosaic_png_stream *b, uint8_t *out_b, size_t stride, int *copied,
    mosaic_result *read_a, mosaic_result *read_b) {
    *read_a = mosaic_ok();
    *read_b = mosaic_ok();
    int same_above = 1;
    int y = 0;
    while (y < a->height && a->fast && b->fast && a->fast->channels == b->fast->channels) {
        int count = a->height - y < MOSAIC_PAIR_STEP ? a->height - y : MOSAIC_PAIR_STEP;
        size_t bytes = (size_t)count * (a->fast->row_bytes + 1);
        // Both steps buffered first, so that the reads below move nothing.
        if (!mosaic_png_fast_fill(a->fast, bytes) || !mosaic_png_fast_fill(b->fast, bytes)) break;
        mosaic_png_fast *fast_a = a->fast;
        const uint8_t *raw_a = fast_a->raw + fast_a->raw_start;
        *read_a = mosaic_png_stream_read(a, out_a + (size_t)y * stride, stride, count);
        if (read_a->status != MOSAIC_OK) return;
        if (a->fast != fast_a) {
            // `raw_a` went with the fast path: `b`'s step is read alone.
            *read_b = mosaic_png_stream_read(b, out_b + (size_t)y * stride, stride, count);
            break;
        }
        *read_b = mosaic_png_pair_rows(raw_a, out_a + (size_t)y * stride, b, out_b + (size_t)y * stride, stride, count, &same_above, copied);
        if (read_b->status != MOSAIC_OK) break;
        y += count;
    }
    // What is left of each (from where its own read stands).
    *read_a = mosaic_png_stream_read(a, out_a + (size_t)(a->height - a->rows_left) * stride, stride, a->rows_left);
    if (read_a->status != MOSAIC_OK || read_b->status != MOSAIC_OK) return;
    *read_b = mosaic_png_stream_read(b, out_b + (size_t)(b->height - b->rows_left) * stride, stride, b->rows_left);
}

/// A stream's outcome as mosaic_png_decode_streamed gives it: its read's error, else what
/// closing it says (its warnings, or damage after the rows). Frees the stream.
static mosaic_result mosaic_png_pair_outcome(mosaic_png_stream *stream, mosaic_result read) {
    mosaic_result closed = mosaic_png_stream_close(stream);
    return read.status == MOSAIC_OK ? closed : read;
}

int mosaic_png_decode_pair(
    const uint8_t *data_a, size_t size_a, uint8_t *out_a, mosaic_result *result_a,
    const uint8_t *data_b, size_t size_b, uint8_t *out_b, mosaic_result *result_b,
    size_t stride, int width, int height, int *copied_rows) {
    int copied = 0;
    if (copied_rows) *copied_rows = 0;
    mosaic_png_stream *a = mosaic_png_stream_open(data_a, size_a, width, height, result_a);
    if (!a) return 0;
    mosaic_png_stream *b = mosaic_png_stream_open(data_b, size_b, width, height, result_b);
    if (!b) {
        *result_a = mosaic_png_pair_outcome(a, mosaic_png_stream_read(a, out_a, stride, height));
        return 1;
    }
    mosaic_result read_a, read_b;
    mosaic_png_pair_read(a, out_a, b, out_b, stride, &copied, &read_a, &read_b);
    *result_a = mosaic_png_pair_outcome(a, read_a);
    mosaic_result outcome_b = mosaic_png_pair_outcome(b, read_b);
    if (read_a.status != MOSAIC_OK) return 0;
    *result_b = outcome_b;
    if (copied_rows) *copied_rows = copied;
    return 1;
}
