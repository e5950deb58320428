// Colour management with Little CMS: a transform from an image's embedded ICC profile to
// sRGB, made once per profile and applied on the decoding threads (built without a cache,
// cmsDoTransform is reentrant). Intent: relative colorimetric with black-point
// compensation, as libvips's thumbnail and most browsers use for photos: in-gamut colours
// stay exact, out-of-gamut ones clip to the sRGB boundary, and the profile's black maps to
// sRGB's black.
#include "CMosaicShims.h"
#include "results.h"

#include <stdlib.h>

#include <lcms2.h>

mosaic_color_transform *mosaic_color_transform_create(const uint8_t *icc, size_t size, mosaic_result *result) {
    *result = mosaic_ok();
    cmsHPROFILE source = cmsOpenProfileFromMem(icc, (cmsUInt32Number)size);
    if (!source) {
        *result = mosaic_error("the embedded ICC profile cannot be read");
        return NULL;
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
    return wrapper;
}

void mosaic_color_transform_apply(const mosaic_color_transform *transform, uint8_t *rgba, size_t pixels) {
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
    cmsDeleteTransform(transform->transform);
    free(transform);
}

/// The profile's bytes, malloc'd, or NULL.
static uint8_t *mosaic_color_save(cmsHPROFILE profile, size_t *size) {
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

/// Lab (D50) of CMYK inks (0 to 1) under the fixture's press: the uncalibrated formula
/// into sRGB, except that the cyan ink is only half as strong.
static int mosaic_color_fixture_press(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
    cmsHTRANSFORM to_lab = cargo;
    double k = 1 - in[3] / 65535.0;
    uint8_t rgb[3];
    for (int i = 0; i < 3; i++) rgb[i] = (uint8_t)(255 * (1 - (i == 0 ? 0.5 : 1.0) * in[i] / 65535.0) * k + 0.5);
    cmsDoTransform(to_lab, rgb, out, 1);
    return TRUE;
}

uint8_t *mosaic_color_cmyk_fixture_profile(size_t *size) {
    *size = 0;
    cmsHPROFILE srgb = cmsCreate_sRGBProfile();
    cmsHPROFILE lab = cmsCreateLab4Profile(NULL);
    cmsHTRANSFORM to_lab = srgb && lab ? cmsCreateTransform(srgb, TYPE_RGB_8, lab, TYPE_Lab_16, INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOCACHE) : NULL;
    if (srgb) cmsCloseProfile(srgb);
    if (lab) cmsCloseProfile(lab);
    if (!to_lab) return NULL;
    cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
    cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
    cmsStage *table = cmsStageAllocCLut16bit(NULL, 9, 4, 3, NULL);
    // LutAtoB's shape: A curves (identity), the table, B curves (identity).
    cmsStage *a = cmsStageAllocToneCurves(NULL, 4, NULL), *b = cmsStageAllocToneCurves(NULL, 3, NULL);
    int ok = profile && pipeline && table && a && b && cmsStageSampleCLut16bit(table, mosaic_color_fixture_press, to_lab, 0) &&
             cmsPipelineInsertStage(pipeline, cmsAT_END, a) && cmsPipelineInsertStage(pipeline, cmsAT_END, table) &&
             cmsPipelineInsertStage(pipeline, cmsAT_END, b);
    if (!ok) {
        if (table) cmsStageFree(table);
        if (a) cmsStageFree(a);
        if (b) cmsStageFree(b);
    }
    if (ok) {
        cmsSetProfileVersion(profile, 4.3);
        cmsSetDeviceClass(profile, cmsSigOutputClass);
        cmsSetColorSpace(profile, cmsSigCmykData);
        cmsSetPCS(profile, cmsSigLabData);
        ok = cmsWriteTag(profile, cmsSigAToB0Tag, pipeline) && cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ());
    }
    if (pipeline) cmsPipelineFree(pipeline);
    cmsDeleteTransform(to_lab);
    if (!ok) {
        if (profile) cmsCloseProfile(profile);
        return NULL;
    }
    return mosaic_color_save(profile, size);
}
