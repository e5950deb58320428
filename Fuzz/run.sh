#!/usr/bin/env bash
# Fuzz the C shim (probe, decode, EXIF) with libFuzzer and AddressSanitizer.
#   bash Fuzz/run.sh jpeg 600     # format (jpeg|png|webp|gif|heif|tiff|raw|jxl|video), seconds
# Needs the Swift toolchain's clang (it ships libFuzzer). With the libraries built by
# Fuzz/build-libs.sh (instrumented, so libFuzzer explores their branches too) it links
# those; otherwise the system's -dev packages (then only the shim is instrumented).
# Seeds: the sample photos and the corpus kept in Fuzz/corpus-<format> between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
format=${1:-jpeg}
seconds=${2:-60}
clang=${CLANG:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
out=.build/fuzz
mkdir -p "$out" "Fuzz/corpus-$format"
define=""
[ "$format" = png ] && define="-DMOSAIC_FUZZ_PNG"
[ "$format" = webp ] && define="-DMOSAIC_FUZZ_WEBP"
[ "$format" = gif ] && define="-DMOSAIC_FUZZ_GIF"
[ "$format" = heif ] && define="-DMOSAIC_FUZZ_HEIF"
[ "$format" = tiff ] && define="-DMOSAIC_FUZZ_TIFF"
[ "$format" = raw ] && define="-DMOSAIC_FUZZ_RAW"
[ "$format" = jxl ] && define="-DMOSAIC_FUZZ_JXL"
[ "$format" = video ] && define="-DMOSAIC_FUZZ_VIDEO"
libs=.build/fuzz-libs
if [ -f "$libs/lib/libjpeg.a" ]; then
    includes="-I $libs/include $(pkg-config --cflags-only-I harfbuzz-subset | sed 's|-I/usr/include/libpng16||')"
    link="$libs/lib/libjpeg.a $libs/lib/libpng16.a $libs/lib/libexif.a $(pkg-config --libs zlib libisal libwebpdemux libwebpmux libheif libtiff-4 lcms2 icu-uc harfbuzz-subset) -lgif -lraw_r -ljxl -ljxl_threads -lm"
    echo "fuzzing with instrumented libraries from $libs"
else
    includes=$(pkg-config --cflags libpng libjpeg libexif zlib libisal libwebpdemux libheif libtiff-4 lcms2 icu-uc harfbuzz-subset)
    link="$(pkg-config --libs libpng libjpeg libexif zlib libisal libwebpdemux libwebpmux libheif libtiff-4 lcms2 icu-uc harfbuzz-subset) -lgif -lraw_r -ljxl -ljxl_threads"
    echo "fuzzing the shim over the system libraries (run Fuzz/build-libs.sh for deeper coverage)"
fi
"$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $define \
    -I Sources/CMosaicShims/include $includes \
    Sources/CMosaicShims/*.c Fuzz/fuzz_image.c $link -o "$out/fuzz-$format"
seeds=$(mktemp -d)
case "$format" in
    jpeg) cp SampleImages/*.jpg "$seeds"/ ;;
    png) cp SampleImages/*.png Fuzz/seeds-png-pairs/*.png "$seeds"/ ;;
    webp) cp Fuzz/seeds-webp/*.webp "$seeds"/ ;;
    gif) cp Fuzz/seeds-gif/*.gif "$seeds"/ ;;
    heif) cp Fuzz/seeds-heif/* "$seeds"/ ;;
    tiff) cp Fuzz/seeds-tiff/* "$seeds"/ ;;
    # Small files from libjxl's encoder (Fuzz/seeds-jxl/README.md).
    jxl) cp Fuzz/seeds-jxl/*.jxl "$seeds"/ ;;
    raw) cp Tests/MosaicImageTests/Fixtures/Raw/*.{cr2,cr3,crw,dng,raf,nef,rw2,mrw,kdc} "$seeds"/ ;;
    # Tiny clips made with ffmpeg (Fuzz/seeds-video/README.md).
    video) cp Fuzz/seeds-video/*.mp4 Fuzz/seeds-video/*.avi Fuzz/seeds-video/*.mov "$seeds"/ ;;
esac
LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}" \
"$out/fuzz-$format" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
    "Fuzz/corpus-$format" "$seeds"
