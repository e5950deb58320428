// Colour management with Little CMS: a transform from an image's embedded ICC profile to
// sRGB, made once per profile and applied on the decoding threads (built without a cache,
// cmsDoTransform is reentrant). Intent: relative colorimetric with black-point
// compensation, as libvips's thumbnail and most browsers use for photos: in-gamut colours
// stay exact, out-of-gamut ones clip to the sRGB boundary, and the profile's black maps to
// sRGB's black.
#include "CMosaicShims.h"
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lcms2.h>

/// The fast path for matrix/TRC RGB profiles (nearly every RGB profile a photo carries:
/// Adobe RGB, Display P3, ProPhoto, and the ones built from chromaticities): each channel
/// through its tone curve to linear light, one 3x3 matrix to sRGB's linear light (both
/// colorants adapted to D50, as relative colorimetric does; black-point compensation is
/// nothing when both blacks are zero), clipped, then sRGB's curve from a table of 8193
/// steps. Within a level of Little CMS's own transform (tested), at several times its speed.
enum { MOSAIC_ENCODE_STEPS = 8192 };
typedef struct {
    float linear[3][256];
    float matrix[9];
    uint8_t encode[MOSAIC_ENCODE_STEPS + 1];
} mosaic_color_matrix;

/// The matrix path of `source`, or NULL when it is not a plain matrix/TRC RGB profile.
static mosaic_color_matrix *mosaic_color_matrix_create(cmsHPROFILE source) {
    if (cmsGetColorSpace(source) != cmsSigRgbData || !cmsIsMatrixShaper(source) ||
        cmsIsCLUT(source, INTENT_RELATIVE_COLORIMETRIC, LCMS_USED_AS_INPUT)) {
        return NULL;
    }
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    if (!srgb) return NULL;
    const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    double from[9], to[9];
    int ok = 1;
    for (int c = 0; c < 3 && ok; c++) {
        const cmsCIEXYZ *a = cmsReadTag(source, colorants[c]), *b = cmsReadTag(srgb, colorants[c]);
        ok = a && b;
        if (ok) {
            from[c] = a->X, from[3 + c] = a->Y, from[6 + c] = a->Z;
            to[c] = b->X, to[3 + c] = b->Y, to[6 + c] = b->Z;
        }
    }
    cmsCloseProfile(srgb);
    mosaic_color_matrix *path = ok ? malloc(sizeof *path) : NULL;
    if (!path) return NULL;
    // to^-1 * from: XYZ (D50) of the source's RGB, into sRGB's RGB.
    double det = to[0] * (to[4] * to[8] - to[5] * to[7]) - to[1] * (to[3] * to[8] - to[5] * to[6]) + to[2] * (to[3] * to[7] - to[4] * to[6]);
    if (fabs(det) < 1e-9) {
        free(path);
        return NULL;
    }
    double inverse[9] = {
        (to[4] * to[8] - to[5] * to[7]) / det, (to[2] * to[7] - to[1] * to[8]) / det, (to[1] * to[5] - to[2] * to[4]) / det,
        (to[5] * to[6] - to[3] * to[8]) / det, (to[0] * to[8] - to[2] * to[6]) / det, (to[2] * to[3] - to[0] * to[5]) / det,
        (to[3] * to[7] - to[4] * to[6]) / det, (to[1] * to[6] - to[0] * to[7]) / det, (to[0] * to[4] - to[1] * to[3]) / det};
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) {
            double v = inverse[3 * r] * from[c] + inverse[3 * r + 1] * from[3 + c] + inverse[3 * r + 2] * from[6 + c];
            ok = ok && isfinite(v) && fabs(v) < 1e6;
            path->matrix[3 * r + c] = (float)v;
        }
    }
    for (int c = 0; c < 3 && ok; c++) {
        cmsToneCurve *curve = cmsReadTag(source, curves[c]);
        ok = curve != NULL;
        for (int v = 0; ok && v < 256; v++) path->linear[c][v] = cmsEvalToneCurveFloat(curve, (cmsFloat32Number)(v / 255.0));
        for (int v = 0; ok && v < 256; v++) ok = isfinite(path->linear[c][v]);
        // A black above zero would need black-point compensation: Little CMS does that.
        ok = ok && fabsf(path->linear[c][0]) < 1e-4f;
    }
    for (int i = 0; ok && i <= MOSAIC_ENCODE_STEPS; i++) {
        double l = (double)i / MOSAIC_ENCODE_STEPS;
        double v = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
        path->encode[i] = (uint8_t)lround(v * 255);
    }
    if (!ok) {
        free(path);
        return NULL;
    }
    return path;
}

static void mosaic_color_matrix_apply(const mosaic_color_matrix *path, uint8_t *rgba, size_t pixels) {
    const float *m = path->matrix;
    for (size_t i = 0; i < pixels; i++) {
        uint8_t *p = rgba + 4 * i;
        float r = path->linear[0][p[0]], g = path->linear[1][p[1]], b = path->linear[2][p[2]];
        float out[3] = {m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b};
        for (int c = 0; c < 3; c++) {
            float v = out[c] < 0 ? 0 : out[c] > 1 ? 1 : out[c];
            p[c] = path->encode[(int)(v * MOSAIC_ENCODE_STEPS + 0.5f)];
        }
    }
}

mosaic_color_transform *mosaic_color_transform_create(const uint8_t *icc, size_t size, int exact, mosaic_result *result) {
    *result = mosaic_ok();
    cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
    if (!source) {
        *result = mosaic_error("the embedded ICC profile cannot be read");
        return NULL;
    }
    mosaic_color_matrix *matrix = exact ? NULL : mosaic_color_matrix_create(source);
    if (matrix) {
        mosaic_color_transform *wrapper = calloc(1, sizeof *wrapper);
        if (wrapper) wrapper->matrix = matrix;
        else free(matrix);
        cmsCloseProfile(source);
        if (!wrapper) *result = mosaic_error("out of memory");
        return wrapper;
    }
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    if (space != cmsSigRgbData && space != cmsSigGrayData && space != cmsSigCmykData) {
        cmsCloseProfile(source);
        *result = mosaic_error("the embedded ICC profile is not for RGB, grey or CMYK pixels");
        return NULL;
    }
    int grey = space == cmsSigGrayData, cmyk = space == cmsSigCmykData;
    // A grey profile goes to sRGB's grey (its tone curve): a grey profile built on sRGB's.
    cmsHPROFILE target = grey ? cmsCreateGrayProfile(cmsD50_xyY(), NULL) : cmsCreate_sRGBProfile();
    if (grey && target) {
        cmsCloseProfile(target);
        cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, (const cmsFloat64Number[]){2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045});
        target = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
        if (curve) cmsFreeToneCurve(curve);
    }
    // CMYK: four ink bytes in, RGBA out in the same four bytes (alpha set after).
    cmsUInt32Number input = grey ? TYPE_GRAYA_8 : cmyk ? TYPE_CMYK_8 : TYPE_RGBA_8;
    cmsUInt32Number output = grey ? TYPE_GRAYA_8 : TYPE_RGBA_8;
    cmsUInt32Number flags = cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE | (cmyk ? 0 : cmsFLAGS_COPY_ALPHA);
    cmsHTRANSFORM transform = target ? cmsCreateTransform(source, input, target, output, INTENT_RELATIVE_COLORIMETRIC, flags) : NULL;
    cmsCloseProfile(source);
    if (target) cmsCloseProfile(target);
    if (!transform) {
        *result = mosaic_error("no transform from the embedded ICC profile to sRGB");
        return NULL;
    }
    mosaic_color_transform *wrapper = malloc(sizeof *wrapper);
    if (!wrapper) {
        cmsDeleteTransform(transform);
        *result = mosaic_error("out of memory");
        return NULL;
    }
    wrapper->transform = transform;
    wrapper->grey = grey;
    wrapper->cmyk = cmyk;
    wrapper->matrix = NULL;
    return wrapper;
}

void mosaic_color_transform_apply(const mosaic_color_transform *transform, uint8_t *rgba, size_t pixels) {
    if (transform->matrix) {
        mosaic_color_matrix_apply(transform->matrix, rgba, pixels);
        return;
    }
    if (transform->cmyk) {
        // Pixel by pixel, each read before it is written: in place is safe.
        cmsDoTransform(transform->transform, rgba, rgba, (cmsUInt32Number)pixels);
        for (size_t i = 0; i < pixels; i++) rgba[4 * i + 3] = 255;
        return;
    }
    if (!transform->grey) {
        cmsDoTransform(transform->transform, rgba, rgba, (cmsUInt32Number)pixels);
        return;
    }
    // Grey: through a two-channel row buffer, a row of at most 4096 pixels at a time.
    uint8_t buffer[2 * 4096];
    for (size_t done = 0; done < pixels;) {
        size_t n = pixels - done < 4096 ? pixels - done : 4096;
        uint8_t *p = rgba + done * 4;
        for (size_t i = 0; i < n; i++) {
            buffer[2 * i] = p[4 * i];
            buffer[2 * i + 1] = p[4 * i + 3];
        }
        cmsDoTransform(transform->transform, buffer, buffer, (cmsUInt32Number)n);
        for (size_t i = 0; i < n; i++) p[4 * i] = p[4 * i + 1] = p[4 * i + 2] = buffer[2 * i];
        done += n;
    }
}

void mosaic_color_transform_free(mosaic_color_transform *transform) {
    if (!transform) return;
    if (transform->transform) cmsDeleteTransform(transform->transform);
    free(transform->matrix);
    free(transform);
}

/// The profile's bytes, malloc'd, or NULL.
uint8_t *mosaic_color_save(cmsHPROFILE profile, size_t *size) {
    *size = 0;
    if (!profile) return NULL;
    cmsUInt32Number length = 0;
    uint8_t *bytes = NULL;
    if (cmsSaveProfileToMem(profile, NULL, &length) && length > 0 && (bytes = malloc(length)) != NULL) {
        if (cmsSaveProfileToMem(profile, bytes, &length)) {
            *size = length;
        } else {
            free(bytes);
            bytes = NULL;
        }
    }
    cmsCloseProfile(profile);
    return bytes;
}

uint8_t *mosaic_color_rgb_profile(const double chromaticities[8], int curve_type, const double parameters[5], size_t *size) {
    *size = 0;
    cmsCIExyY white = {chromaticities[0], chromaticities[1], 1.0};
    cmsCIExyYTRIPLE primaries = {
        {chromaticities[2], chromaticities[3], 1.0}, {chromaticities[4], chromaticities[5], 1.0}, {chromaticities[6], chromaticities[7], 1.0}};
    cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, curve_type, parameters);
    if (!curve) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return mosaic_color_save(profile, size);
}

size_t mosaic_color_profile_name(const uint8_t *icc, size_t size, char *out, size_t capacity) {
    if (capacity == 0) return 0;
    out[0] = 0;
    cmsHPROFILE profile = cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
    if (!profile) return 0;
    cmsUInt32Number length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", out, (cmsUInt32Number)capacity);
    cmsCloseProfile(profile);
    out[capacity - 1] = 0;
    return length > 0 ? strlen(out) : 0;
}
