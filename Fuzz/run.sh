#!/usr/bin/env bash
# Fuzz the C shim (probe, decode, EXIF) with libFuzzer and AddressSanitizer.
#   bash Fuzz/run.sh jpeg 600     # format (jpeg|png), seconds
# Needs the Swift toolchain's clang (it ships libFuzzer) and the -dev packages.
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
"$clang" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined $define \
    -I Sources/CMosaicShims/include $(pkg-config --cflags libpng libjpeg libexif) \
    Sources/CMosaicShims/*.c Fuzz/fuzz_image.c \
    $(pkg-config --libs libpng libjpeg libexif) -o "$out/fuzz-$format"
seeds=$(mktemp -d)
case "$format" in
    jpeg) cp SampleImages/*.jpg "$seeds"/ ;;
    png) cp SampleImages/*.png "$seeds"/ ;;
esac
"$out/fuzz-$format" -max_total_time="$seconds" -max_len=300000 -rss_limit_mb=2048 -print_final_stats=1 \
    "Fuzz/corpus-$format" "$seeds"
