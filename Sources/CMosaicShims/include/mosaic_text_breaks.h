// Line breaking through ICU (text_breaks.c).
#ifndef MOSAIC_TEXT_BREAKS_H
#define MOSAIC_TEXT_BREAKS_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif
