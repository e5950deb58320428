#!/usr/bin/env bash
# Builds out/mosaic_VERSION_ARCH.deb with dpkg-deb: the release binary with the Swift
# runtime linked in (--static-swift-stdlib, so no toolchain at run time), Depends from
# what it links (dpkg-shlibdeps) plus the default sheet's font, a man page per command
# (swift-argument-parser's generate-manual plugin, multi-page: mosaic.1, mosaic.render.1,
# ...), bash, zsh and fish completions where each shell looks, and under
# /usr/share/doc/mosaic the README, the copyright file and the sample photos.
# Needs the Swift toolchain, the -dev packages (scripts/install-system-packages.sh) and
# dpkg-dev; no network beyond the package's own dependency checkout.
# Usage: bash scripts/package-deb.sh [OUTPUT-DIRECTORY]   (default: out)
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

output=${1:-out}
version=$(sed -n 's/^ *public static let string = "\(.*\)"$/\1/p' Sources/Mosaic/Mosaic.swift)
arch=$(dpkg --print-architecture)
[ -n "$version" ] || { echo "package-deb: no version found in Sources/Mosaic/Mosaic.swift" >&2; exit 1; }
changelog_version=$(sed -n '1s/^mosaic (\([^)]*\)).*/\1/p' packaging/debian/changelog)
if [ "$changelog_version" != "$version" ]; then
    echo "package-deb: packaging/debian/changelog is at $changelog_version, mosaic at $version: add an entry" >&2
    exit 1
fi
# Every date in the package (the man pages', the files' times) is the last commit's, or
# SOURCE_DATE_EPOCH's, not the time of the build.
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
    SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH
day=$(date -u -d "@$SOURCE_DATE_EPOCH" +%F)

echo "== release build, Swift runtime linked in"
# No $ORIGIN rpath: the binary loads nothing from beside itself. Hardened as Debian builds
# its packages: the C code with _FORTIFY_SOURCE=2 at -O2 (a release build's optimization),
# every symbol bound at load and the relocations read-only then (-z now, -z relro).
# Reproducible: the folder it is built in is left out of every path the compilers record
# (C's __FILE__ and debug info, Swift's #file and debug info), so two builds of one commit,
# wherever they run, give the same bytes.
here=$(pwd -P)
build_flags=(
    -c release --static-swift-stdlib --disable-local-rpath --scratch-path .build-static
    -Xcc -D_FORTIFY_SOURCE=2 -Xcc "-ffile-prefix-map=$here=."
    -Xswiftc -file-prefix-map -Xswiftc "$here=." -Xswiftc -debug-prefix-map -Xswiftc "$here=."
    -Xlinker -z -Xlinker now -Xlinker -z -Xlinker relro -Xlinker --build-id=none
)
swift build "${build_flags[@]}" --product mosaic
binary=$(swift build "${build_flags[@]}" --show-bin-path)/mosaic
# Each listing read whole before it is searched: `grep -q` stops at the first match, and
# under pipefail the listing cut short by SIGPIPE would fail the check.
dynamic=$(readelf -d "$binary")
symbols=$(nm -D "$binary")
if ! grep -q 'FLAGS.*BIND_NOW' <<< "$dynamic"; then
    echo "package-deb: $binary is not linked with -z now" >&2
    exit 1
fi
if ! grep -q '__[a-z]*_chk@' <<< "$symbols"; then
    echo "package-deb: $binary calls no fortified C function (_FORTIFY_SOURCE=2)" >&2
    exit 1
fi
if ldd "$binary" | grep -q 'libswift\|libFoundation\|libdispatch'; then
    echo "package-deb: $binary still links a Swift runtime library:" >&2
    ldd "$binary" >&2
    exit 1
fi

echo "== man pages (generate-manual, multi-page)"
# Its own scratch folder: the plugin builds every product (dynamically linked), which
# must not replace the static binary above.
swift package --scratch-path .build-release generate-manual --multi-page --date "$day" --authors "the mosaic authors"
manuals=.build-release/plugins/GenerateManual/outputs/MosaicCLI

root=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-deb.XXXXXX")
package=$output/mosaic_${version}_${arch}.deb
# An interrupted run leaves no tree and no half-written package (the .deb is renamed into
# place whole).
trap 'rm -rf "$root" "$root.shlibs" "$package.partial"' EXIT
doc=$root/usr/share/doc/mosaic
install -d "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/man/man1" "$doc/examples" \
    "$root/usr/share/bash-completion/completions" "$root/usr/share/zsh/vendor-completions" \
    "$root/usr/share/fish/vendor_completions.d"

install -m 0755 "$binary" "$root/usr/bin/mosaic"
# .swift_modhash holds hashes of the Swift modules that change with the folder the build
# ran in (no prefix map reaches them), and a GNU build ID would be a hash of the whole file:
# the binary is linked without a build ID, and the hashes are zeroed in place, so that two
# builds of a commit give the same bytes. Neither is read when mosaic runs. (Removing the
# section instead makes strip drop the GNU_RELRO segment: lintian's hardening-no-relro.)
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/mosaic"
sections=$(readelf -SW "$root/usr/bin/mosaic")
read -r modhash_offset modhash_size < <(awk '{ for (i = 1; i < NF; i++) if ($i == ".swift_modhash") print $(i + 3), $(i + 4) }' <<< "$sections") || true
if [ -n "${modhash_size:-}" ] && [ $((16#$modhash_size)) -gt 0 ]; then
    dd if=/dev/zero of="$root/usr/bin/mosaic" bs=1 seek=$((16#$modhash_offset)) count=$((16#$modhash_size)) conv=notrunc status=none
fi
segments=$(readelf -lW "$root/usr/bin/mosaic")
if ! grep -q GNU_RELRO <<< "$segments"; then
    echo "package-deb: the packaged binary has no GNU_RELRO segment" >&2
    exit 1
fi

# A subcommand's page is named "mosaic render" in its NAME section, which man-db's whatis
# index cannot parse (lintian: bad-whatis-entry): NAME gets the page's own name
# (mosaic.render, so `whatis mosaic.render` and `apropos` find it) and the synopsis keeps
# the command as typed.
for page in "$manuals"/*.1; do
    awk '!named && /^\.Nm "/ { name = $0; sub(/^\.Nm "/, "", name); sub(/"$/, "", name)
                                dotted = name; gsub(/ /, ".", dotted); print ".Nm " dotted; named = 1; next }
         named == 1 && /^\.Nm$/ { print ".Nm \"" name "\""; named = 2; next }
         { print }' "$page" | gzip -9n >"$root/usr/share/man/man1/$(basename "$page").gz"
done

# bash-completion sources the file: no interpreter line (lintian: bash-completion-with-hashbang).
"$root/usr/bin/mosaic" --generate-completion-script bash | sed '1{/^#!/d}' >"$root/usr/share/bash-completion/completions/mosaic"
"$root/usr/bin/mosaic" --generate-completion-script zsh >"$root/usr/share/zsh/vendor-completions/_mosaic"
"$root/usr/bin/mosaic" --generate-completion-script fish >"$root/usr/share/fish/vendor_completions.d/mosaic.fish"

gzip -9n <README.md >"$doc/README.md.gz"
gzip -9n <packaging/debian/changelog >"$doc/changelog.gz"
install -m 0644 packaging/debian/copyright "$doc/copyright"
install -m 0644 SampleImages/*.jpg SampleImages/*.png SampleImages/*.json SampleImages/*.tsv SampleImages/CREDITS.md "$doc/examples/"

echo "== control file"
# dpkg-shlibdeps reads debian/control of the folder it runs in.
shlibs_work=$root.shlibs
mkdir -p "$shlibs_work/debian"
printf 'Source: mosaic\n\nPackage: mosaic\nArchitecture: any\n' >"$shlibs_work/debian/control"
shlibs=$(cd "$shlibs_work" && dpkg-shlibdeps -O "$root/usr/bin/mosaic" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlibs_work"
[ -n "$shlibs" ] || { echo "package-deb: dpkg-shlibdeps found no library dependencies" >&2; exit 1; }
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@SHLIBS@/$shlibs/" packaging/debian/control.in >"$root/DEBIAN/control"
(cd "$root" && find usr -type f -printf '%P\n' | LC_ALL=C sort | sed 's|^|usr/|' | xargs md5sum) >"$root/DEBIAN/md5sums"

find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f ! -path "$root/usr/bin/mosaic" -exec chmod 0644 {} +
find "$root" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$output"
dpkg-deb --root-owner-group -Zxz --build "$root" "$package.partial" >/dev/null
mv -f "$package.partial" "$package"
echo "== $package ($(du -k "$package" | cut -f1) KiB; installed $installed_size KiB)"
