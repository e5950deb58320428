// The only C code in mosaic: fences around libjpeg(-turbo), libpng, libwebp, giflib,
// libheif, libtiff, libjxl, Little CMS and libexif, the PNG writer's filter and deflate, the PNG
// reader's own image-data path, and the few hot loops that need instructions Swift's
// vectors do not reach (resample.c).
//
// Every function returns a status and, on failure, copies the library's own message into
// the result. setjmp/longjmp stay inside these files: libjpeg's error_exit and libpng's
// png_error jump back to a setjmp in the same C function, never across a Swift frame.
// Neither library prints anything. Input comes from memory buffers or C stdio files, never
// through a Swift callback.
#ifndef MOSAIC_SHIMS_H
#define MOSAIC_SHIMS_H

// One header per library behind this umbrella (Swift imports the module, C files the header
// they need).
#include "mosaic_types.h"

#include "mosaic_jpeg.h"
#include "mosaic_color.h"
#include "mosaic_webp.h"
#include "mosaic_heif.h"
#include "mosaic_jxl.h"
#include "mosaic_tiff.h"
#include "mosaic_raw.h"
#include "mosaic_gif.h"
#include "mosaic_video.h"
#include "mosaic_png.h"
#include "mosaic_exif.h"
#include "mosaic_tempfiles.h"
#include "mosaic_memory.h"
#include "mosaic_resample.h"
#include "mosaic_text_breaks.h"
#include "mosaic_font_subset.h"
#include "mosaic_ssim.h"
#include "mosaic_hash.h"
#include "mosaic_versions.h"
#include "mosaic_flip.h"
#include "mosaic_filecopy.h"

// The sheet encoders, a header each.
#include "mosaic_jpeg_write.h"
#include "mosaic_webp_write.h"
#include "mosaic_heif_write.h"
#include "mosaic_flate_write.h"

#endif
