// A CMYK output profile for the colour-management tests, through Little CMS.
#include "CMosaicFixtures.h"
// The shim's helpers for results (mosaic_ok, mosaic_error), not part of its interface.
#include "../../Sources/CMosaicShims/results.h"

#include <stdlib.h>

#include <lcms2.h>

/// The profile's bytes, malloc'd, or NULL (color.c; closes the profile).
uint8_t *mosaic_color_save(cmsHPROFILE profile, size_t *size);

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
