// Font subsets through HarfBuzz's subsetter (libharfbuzz-subset, HarfBuzz 6 in Debian 12):
// the glyphs a PDF's text uses, with their indices kept, so that the glyph indices HarfBuzz
// shaped with address the same glyphs in the embedded font (CIDToGIDMap /Identity).
#include <hb-subset.h>
#include <hb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mosaic_font_subset.h"
#include "results.h"

mosaic_result mosaic_font_subset_make(
    const char *path, unsigned index, const uint32_t *glyphs, size_t count, mosaic_font_subset *subset) {
    memset(subset, 0, sizeof *subset);
    // HarfBuzz maps the file (or reads it when it cannot be mapped).
    hb_blob_t *blob = path == NULL ? NULL : hb_blob_create_from_file_or_fail(path);
    if (blob == NULL) return mosaic_error("the font file cannot be read");
    hb_face_t *face = hb_face_create(blob, index);
    hb_blob_destroy(blob);
    if (face == hb_face_get_empty() || hb_face_get_glyph_count(face) == 0) {
        hb_face_destroy(face);
        return mosaic_error("HarfBuzz finds no glyphs in the face");
    }
    hb_subset_input_t *input = hb_subset_input_create_or_fail();
    if (input == NULL) {
        hb_face_destroy(face);
        return mosaic_out_of_memory("memory for the subset's input");
    }
    hb_set_t *set = hb_subset_input_glyph_set(input);
    unsigned glyph_count = hb_face_get_glyph_count(face);
    hb_set_add(set, 0);
    for (size_t i = 0; i < count; i++) {
        if (glyphs[i] < glyph_count) hb_set_add(set, glyphs[i]);
    }
    // No code points: the PDF addresses glyphs by index; its ToUnicode map says what they
    // read as. Glyph indices kept; hinting kept (a printer's rasterizer may use it); the
    // layout tables (GSUB, GPOS...) are of no use to a PDF and dropped.
    hb_subset_input_set_flags(input, HB_SUBSET_FLAGS_RETAIN_GIDS | HB_SUBSET_FLAGS_NOTDEF_OUTLINE);
    hb_set_t *drop = hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
    static const char *const dropped[] = {"GSUB", "GPOS", "GDEF", "BASE", "JSTF", "MATH", "morx", "kerx", "kern", "DSIG", "COLR", "CPAL", "CBDT", "CBLC", "sbix", "SVG "};
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++) hb_set_add(drop, hb_tag_from_string(dropped[i], 4));
    hb_face_t *result_face = hb_subset_or_fail(face, input);
    hb_subset_input_destroy(input);
    hb_face_destroy(face);
    if (result_face == NULL) return mosaic_error("HarfBuzz could not subset the face");
    hb_blob_t *table_glyf = hb_face_reference_table(result_face, HB_TAG('g', 'l', 'y', 'f'));
    hb_blob_t *table_cff = hb_face_reference_table(result_face, HB_TAG('C', 'F', 'F', ' '));
    int outlines = hb_blob_get_length(table_glyf) > 0 ? MOSAIC_FONT_TRUETYPE : hb_blob_get_length(table_cff) > 0 ? MOSAIC_FONT_CFF : 0;
    hb_blob_destroy(table_glyf);
    hb_blob_destroy(table_cff);
    hb_blob_t *out = hb_face_reference_blob(result_face);
    hb_face_destroy(result_face);
    unsigned out_length = 0;
    const char *bytes = hb_blob_get_data(out, &out_length);
    if (outlines == 0 || bytes == NULL || out_length == 0) {
        hb_blob_destroy(out);
        return mosaic_error(outlines == 0 ? "the face has neither TrueType nor CFF outlines" : "HarfBuzz made an empty subset");
    }
    subset->data = malloc(out_length);
    if (subset->data == NULL) {
        hb_blob_destroy(out);
        return mosaic_out_of_memory("memory for the font subset");
    }
    memcpy(subset->data, bytes, out_length);
    subset->length = out_length;
    subset->outlines = outlines;
    hb_blob_destroy(out);
    return mosaic_ok();
}

void mosaic_font_subset_free(mosaic_font_subset *subset) {
    if (subset == NULL) return;
    free(subset->data);
    subset->data = NULL;
    subset->length = 0;
}
