#!/usr/bin/env bash
# Installs the Debian packages that mosaic builds and tests with, only those missing:
# the -dev packages of the C libraries it links (libpng, zlib, ISA-L, xxHash (header only), libjpeg-turbo, libwebp, giflib, libheif, libtiff, LibRaw, libjxl (and its djxl, which the JPEG XL tests compare with), Little CMS, libexif, FFmpeg's libavformat, libavcodec, libswscale and libavutil (headers; loaded at run time), FreeType,
# fontconfig, HarfBuzz with its subsetter), pkg-config, the fixed fonts that the text tests use, Chromium, in which
# the tests open the HTML reports (headless), and poppler-utils, with which they read the PDFs back. With --packaging, also what
# scripts/package-deb.sh and scripts/test-deb.sh use: dpkg-dev, lintian, mmdebstrap.
set -euo pipefail

packages=(
    pkg-config
    libpng-dev
    zlib1g-dev
    libisal-dev
    libwebp-dev
    libgif-dev
    libheif-dev
    libtiff-dev
    libraw-dev
    libjxl-dev
    libjxl-tools
    liblcms2-dev
    libjpeg62-turbo-dev
    libexif-dev
    libxxhash-dev
    libavformat-dev
    libavcodec-dev
    libswscale-dev
    libavutil-dev
    libfreetype-dev
    libfontconfig1-dev
    libharfbuzz-dev
    libfribidi-dev
    libicu-dev
    fonts-dejavu-core
    fonts-wqy-microhei
    fonts-noto-core
    fonts-noto-color-emoji
    chromium
    poppler-utils
    git
)
if [ "${1:-}" = "--packaging" ]; then
    packages+=(dpkg-dev lintian mmdebstrap)
fi

missing=()
for package in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "system packages: all present"
    exit 0
fi

echo "system packages: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system packages: done"
