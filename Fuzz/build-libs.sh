#!/usr/bin/env bash
# Builds libjpeg-turbo, libpng and libexif from Debian's sources with the fuzzer's
# coverage instrumentation and AddressSanitizer, into .build/fuzz-libs, so that libFuzzer
# sees (and explores) the libraries' own branches, not just the shim's.
#   bash Fuzz/build-libs.sh
# Needs deb-src entries (added here when missing), cmake, and the Swift toolchain's clang.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
clang=${CLANG:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
prefix=$root/.build/fuzz-libs
work=$root/.build/fuzz-src
flags="-g -O1 -fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer"
mkdir -p "$prefix/include" "$prefix/lib" "$work"

if ! ls /etc/apt/sources.list.d/*.sources 2>/dev/null | xargs grep -q '^Types:.*deb-src'; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > /etc/apt/sources.list.d/debian-src.sources
    apt-get update -qq
fi
command -v cmake >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq cmake >/dev/null
cd "$work"
# The original tarballs are what we build; a missing Debian patch file is not an error.
for package in libjpeg-turbo libpng1.6 libexif; do
    ls ${package}_*.orig.tar.gz >/dev/null 2>&1 || apt-get source -qq --download-only "$package" >/dev/null 2>&1 || true
    ls ${package}_*.orig.tar.gz >/dev/null
done

# libjpeg-turbo: no SIMD (assembly is not instrumented), arithmetic coding on.
rm -rf jpeg && mkdir jpeg && tar xzf libjpeg-turbo_*.orig.tar.gz -C jpeg --strip-components=1
cmake -S jpeg -B jpeg/build -DCMAKE_C_COMPILER="$clang" -DCMAKE_C_FLAGS="$flags" -DWITH_SIMD=0 \
    -DENABLE_SHARED=0 -DWITH_ARITH_DEC=1 -DWITH_ARITH_ENC=1 -DCMAKE_BUILD_TYPE=None >/dev/null
make -C jpeg/build -j2 jpeg-static >/dev/null
cp jpeg/build/libjpeg.a "$prefix/lib/"
cp jpeg/jpeglib.h jpeg/jmorecfg.h jpeg/jerror.h jpeg/build/jconfig.h "$prefix/include/"

# libpng (zlib stays the system's).
rm -rf png && mkdir png && tar xzf libpng1.6_*.orig.tar.gz -C png --strip-components=1
(cd png && CC="$clang" CFLAGS="$flags" ./configure --disable-shared --enable-static >/dev/null && make -j2 libpng16.la >/dev/null)
cp png/.libs/libpng16.a "$prefix/lib/"
cp png/png.h png/pngconf.h png/pnglibconf.h "$prefix/include/"

# libexif: its tarball has no configure script; its sources need only a small config.h.
rm -rf exif && mkdir exif && tar xzf libexif_*.orig.tar.gz -C exif --strip-components=1
cat > exif/config.h <<'CONFIG'
#define GETTEXT_PACKAGE "libexif-12"
#define LOCALEDIR "/usr/share/locale"
CONFIG
(cd exif && for f in libexif/*.c libexif/*/*.c; do
    "$clang" $flags -I. -DHAVE_CONFIG_H -c "$f" -o "${f%.c}.o"
done && ar rcs libexif.a libexif/*.o libexif/*/*.o)
cp exif/libexif.a "$prefix/lib/"
mkdir -p "$prefix/include/libexif" && cp exif/libexif/*.h "$prefix/include/libexif/"
echo "instrumented libraries in $prefix"
