// Line-break opportunities from ICU's line-break iterator. ICU's C API has versioned names
// (ubrk_open_72): its headers rename the calls here, so Swift sees only these wrappers.
#include "CMosaicShims.h"
#include <stdio.h>
#include <unicode/ubrk.h>
#include <unicode/utypes.h>
#include <stdlib.h>
#include <string.h>

struct mosaic_line_breaker {
    UBreakIterator *iterator;
    /// The UTF-16 text of the last call, and per UTF-16 unit the scalar it belongs to.
    UChar *text;
    int32_t *scalar_of_unit;
    int32_t capacity;
};

mosaic_line_breaker *mosaic_line_breaker_open(char message[MOSAIC_MESSAGE_SIZE]) {
    UErrorCode status = U_ZERO_ERROR;
    // The root locale: the rules of UAX #14, and dictionaries chosen by script.
    UBreakIterator *iterator = ubrk_open(UBRK_LINE, "", NULL, 0, &status);
    if (U_FAILURE(status) || iterator == NULL) {
        snprintf(message, MOSAIC_MESSAGE_SIZE, "ICU line breaking: %s", u_errorName(status));
        return NULL;
    }
    mosaic_line_breaker *breaker = calloc(1, sizeof *breaker);
    if (breaker == NULL) {
        ubrk_close(iterator);
        snprintf(message, MOSAIC_MESSAGE_SIZE, "ICU line breaking: out of memory");
        return NULL;
    }
    breaker->iterator = iterator;
    return breaker;
}

void mosaic_line_breaker_close(mosaic_line_breaker *breaker) {
    if (breaker == NULL) return;
    ubrk_close(breaker->iterator);
    free(breaker->text);
    free(breaker->scalar_of_unit);
    free(breaker);
}

static int reserve(mosaic_line_breaker *breaker, int32_t units) {
    if (units <= breaker->capacity) return 1;
    int32_t capacity = units < 64 ? 64 : units;
    UChar *text = realloc(breaker->text, (size_t)capacity * sizeof(UChar));
    if (text == NULL) return 0;
    breaker->text = text;
    int32_t *map = realloc(breaker->scalar_of_unit, ((size_t)capacity + 1) * sizeof(int32_t));
    if (map == NULL) return 0;
    breaker->scalar_of_unit = map;
    breaker->capacity = capacity;
    return 1;
}

int mosaic_line_breaks(mosaic_line_breaker *breaker, const uint32_t *scalars, int32_t count, uint8_t *kinds) {
    memset(kinds, MOSAIC_BREAK_NONE, (size_t)count + 1);
    kinds[count] = MOSAIC_BREAK_MANDATORY;
    if (count == 0) return 0;
    if (count > INT32_MAX / 2 - 1 || !reserve(breaker, count * 2)) return -1;
    int32_t units = 0;
    for (int32_t i = 0; i < count; i++) {
        uint32_t c = scalars[i];
        breaker->scalar_of_unit[units] = i;
        if (c >= 0x10000) {
            c -= 0x10000;
            breaker->text[units++] = (UChar)(0xD800 + (c >> 10));
            breaker->scalar_of_unit[units] = i;
            breaker->text[units++] = (UChar)(0xDC00 + (c & 0x3FF));
        } else {
            breaker->text[units++] = (UChar)c;
        }
    }
    breaker->scalar_of_unit[units] = count;
    UErrorCode status = U_ZERO_ERROR;
    ubrk_setText(breaker->iterator, breaker->text, units, &status);
    if (U_FAILURE(status)) return -1;
    for (int32_t b = ubrk_first(breaker->iterator); b != UBRK_DONE; b = ubrk_next(breaker->iterator)) {
        if (b <= 0 || b >= units) continue;
        int hard = ubrk_getRuleStatus(breaker->iterator) >= UBRK_LINE_HARD;
        kinds[breaker->scalar_of_unit[b]] = hard ? MOSAIC_BREAK_MANDATORY : MOSAIC_BREAK_ALLOWED;
    }
    return 0;
}
