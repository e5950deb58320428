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
    if (space != cmsSigRgbData && space != cmsSigGrayData) {
        cmsCloseProfile(source);
        *result = mosaic_error("the embedded ICC profile is not for RGB or grey pixels");
        return NULL;
    }
    int grey = space == cmsSigGrayData;
    // A grey profile goes to sRGB's grey (its tone curve): a grey profile built on sRGB's.
    cmsHPROFILE target = grey ? cmsCreateGrayProfile(cmsD50_xyY(), NULL) : cmsCreate_sRGBProfile();
    if (grey && target) {
        cmsCloseProfile(target);
        cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, (const cmsFloat64Number[]){2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045});
        target = curve ? cmsCreateGrayProfile(cmsD50_xyY(), curve) : NULL;
        if (curve) cmsFreeToneCurve(curve);
    }
    cmsUInt32Number format = grey ? TYPE_GRAYA_8 : TYPE_RGBA_8;
    cmsHTRANSFORM transform = target ? cmsCreateTransform(source, format, target, format, INTENT_RELATIVE_COLORIMETRIC,
                                                          cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE | cmsFLAGS_COPY_ALPHA)
                                     : NULL;
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
    return wrapper;
}

void mosaic_color_transform_apply(const mosaic_color_transform *transform, uint8_t *rgba, size_t pixels) {
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

size_t mosaic_color_adobe_rgb_profile(uint8_t *out, size_t capacity) {
    // Adobe RGB (1998): D65 white, its primaries, gamma 563/256.
    cmsCIExyY white = {0.3127, 0.3290, 1.0};
    cmsCIExyYTRIPLE primaries = {{0.6400, 0.3300, 1.0}, {0.2100, 0.7100, 1.0}, {0.1500, 0.0600, 1.0}};
    cmsToneCurve *gamma = cmsBuildGamma(NULL, 563.0 / 256.0);
    cmsToneCurve *curves[3] = {gamma, gamma, gamma};
    cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
    cmsFreeToneCurve(gamma);
    if (!profile) return 0;
    cmsUInt32Number size = 0;
    cmsSaveProfileToMem(profile, NULL, &size);
    if (size == 0 || size > capacity || !cmsSaveProfileToMem(profile, out, &size)) size = 0;
    cmsCloseProfile(profile);
    return size;
}
