// The versions of the image libraries mosaic decodes with (part of the card cache's keys:
// an entry made with another version of a library is never used).
#ifndef MOSAIC_VERSIONS_H
#define MOSAIC_VERSIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/// "libjpeg-turbo 2.1.5; libpng 1.6.39; ...": the linked libraries' own versions where they
/// report one at run time, else the headers' (a static string, made once).
const char *mosaic_decoder_library_versions(void);

#ifdef __cplusplus
}
#endif

#endif
