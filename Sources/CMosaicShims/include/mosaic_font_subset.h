// Font subsets for the PDF writer's text (font_subset.c): HarfBuzz's hb-subset.
#ifndef MOSAIC_FONT_SUBSET_H
#define MOSAIC_FONT_SUBSET_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a subset's glyphs are drawn.
enum {
    /// TrueType outlines (`glyf`): a PDF CIDFontType2 with a FontFile2.
    MOSAIC_FONT_TRUETYPE = 1,
    /// CFF outlines (`CFF `): a PDF CIDFontType0 with a FontFile3 of subtype OpenType.
    MOSAIC_FONT_CFF = 2,
};

/// A font subset: the font program's bytes, freed with mosaic_font_subset_free.
typedef struct {
    uint8_t *data;
    size_t length;
    /// MOSAIC_FONT_TRUETYPE or MOSAIC_FONT_CFF.
    int outlines;
} mosaic_font_subset;

/// Subsets face `index` of the font file at `path` (a TrueType or OpenType file, or a
/// collection) to `glyphs` (`count` glyph indices; glyph 0 is always kept),
/// keeping every glyph's index (HB_SUBSET_FLAGS_RETAIN_GIDS), so that the indices a
/// shaper gave stay valid in the subset; layout tables are dropped. MOSAIC_OK with
/// `subset` filled, or MOSAIC_ERROR (the font cannot be subset: `result.message` says
/// why), MOSAIC_OUT_OF_MEMORY.
mosaic_result mosaic_font_subset_make(
    const char *path, unsigned index, const uint32_t *glyphs, size_t count, mosaic_font_subset *subset);

/// Frees a subset's bytes.
void mosaic_font_subset_free(mosaic_font_subset *subset);

#ifdef __cplusplus
}
#endif

#endif
