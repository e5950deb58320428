#!/usr/bin/env bash
# Proves the .deb in a clean Debian 12 root: mmdebstrap makes a minbase bookworm root from
# the archive this machine's own apt sources name, apt installs the package there with its
# dependencies from that archive (and man-db and bash-completion for the checks), then in
# the root: mosaic --version, a render of the sample photos, a diff of two images, the
# render command's man page and a bash completion. Needs root (mmdebstrap's root mode),
# mmdebstrap and network to the archive; about two minutes on 2 cores.
# Usage: bash scripts/test-deb.sh [PACKAGE.deb]   (default: builds it with package-deb.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "test-deb: FAILED: $*" >&2; exit 1; }

command -v mmdebstrap >/dev/null || fail "mmdebstrap is missing (apt-get install mmdebstrap)"
[ "$(id -u)" -eq 0 ] || fail "run as root (mmdebstrap's root mode, chroot)"

deb=${1:-}
if [ -z "$deb" ]; then
    bash scripts/package-deb.sh out
    deb=$(ls -t out/mosaic_*_"$(dpkg --print-architecture)".deb | head -1)
fi
[ -f "$deb" ] || fail "$deb: not a package file"

# The machine's own sources that name bookworm (one-line or deb822), handed to mmdebstrap
# as they are.
sources=()
for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] && grep -Eq '^[^#]*\bbookworm\b' "$file" && sources+=("$file")
done
[ ${#sources[@]} -gt 0 ] || fail "no apt source in /etc/apt names bookworm: nothing to build the root from"

# The root itself is mmdebstrap's (target /dev/null): it makes it in a folder of its own,
# mounts /proc and /dev there for the hooks, and unmounts and removes it at the end or on
# an interrupt; this folder holds only the package and the two scripts.
work=$(mktemp -d "${TMPDIR:-/tmp}/mosaic-test-deb.XXXXXX")
trap 'rm -rf --one-file-system "$work"' EXIT
# Under a fixed name, so no quote or space in the given name reaches the hooks' shell.
package=mosaic.deb
cp "$deb" "$work/$package"

# What runs in the root once the package is in. Each step says what it checks; the first
# that fails stops the run with its output above.
cat >"$work/check.sh" <<'CHECK'
set -eu
step() { echo "-- $*"; }
step "mosaic --version"
mosaic --version
! ldd /usr/bin/mosaic | grep 'not found'
step "mosaic render on the sample photos"
cd /tmp
mosaic render /usr/share/doc/mosaic/examples/manifest.json -o /tmp/sheet.png --width 900 --columns 3
test "$(head -c 8 /tmp/sheet.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a
mosaic render /usr/share/doc/mosaic/examples/manifest.json -o /tmp/dark.png --width 900 --columns 3 --theme dark --quiet
step "mosaic diff on two images (exit 1: they differ)"
status=0
mosaic diff /tmp/sheet.png /tmp/dark.png --output /tmp/diff.png || status=$?
test "$status" -eq 1
test -s /tmp/diff.png
mosaic diff /tmp/sheet.png /tmp/sheet.png
step "man mosaic.render"
MANPAGER=cat MANWIDTH=80 man mosaic.render >/tmp/man.txt
head -4 /tmp/man.txt
grep -q -- '--columns' /tmp/man.txt
whatis mosaic.render
step "bash completion of 'mosaic ren'"
bash -c '
    . /usr/share/bash-completion/bash_completion
    __load_completion mosaic
    COMP_LINE="mosaic ren"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(mosaic ren); COMP_CWORD=1
    _mosaic mosaic ren mosaic
    echo "${COMPREPLY[*]}"
    [ "${COMPREPLY[*]}" = render ]'
step "all passed"
CHECK

# Runs on this machine once the root is made; $1 is the root, $2 the package's name.
cat >"$work/hook.sh" <<'HOOK'
set -eu
root=$1 package=$2
# Every name in Depends and Recommends must resolve in the archive (the Noto fonts, about
# 100 MB, are not installed: the checks need only what Depends brings).
if ! chroot "$root" apt-get install --simulate -q "/tmp/$package" >"$root/tmp/simulate.log" 2>&1; then
    echo "the package's dependencies do not resolve in the archive:"
    grep -v '^Inst \|^Conf ' "$root/tmp/simulate.log"
    exit 1
fi
for name in $(dpkg-deb -f "$root/tmp/$package" Recommends | tr -d ','); do
    chroot "$root" apt-cache show "$name" >/dev/null || { echo "Recommends: $name is not in the archive"; exit 1; }
done
t0=$(date +%s.%N)
if ! chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "/tmp/$package" >"$root/tmp/apt.log" 2>&1; then
    cat "$root/tmp/apt.log"
    exit 1
fi
grep -E '^[0-9]+ upgraded|^Need to get|^Setting up mosaic' "$root/tmp/apt.log" || true
awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "== apt install of the package and its dependencies: %.1f s\n", b - a }'
echo "== checks in the root"
chroot "$root" sh /tmp/check.sh
HOOK

echo "== clean root: mmdebstrap minbase bookworm from ${sources[*]}"
start=$(date +%s)
mmdebstrap --mode=root --variant=minbase --include=man-db,bash-completion --quiet \
    --customize-hook="copy-in '$work/$package' '$work/check.sh' /tmp" \
    --customize-hook="sh '$work/hook.sh' \"\$1\" '$package'" \
    bookworm /dev/null "${sources[@]}" || fail "see the output above"
echo "== test-deb: passed in $(( $(date +%s) - start )) s ($(basename "$deb"), $(du -k "$deb" | cut -f1) KiB)"
