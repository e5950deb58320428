#!/usr/bin/env bash
# A Deep Zoom pyramid of many small images, by mosaic and by libvips, in one run:
#   Benchmarks/scale/run_pyramid_peers.sh LIST.txt [COLUMNS]
# LIST.txt holds one image path a line (Benchmarks/scale/make_small_images.py makes the
# images; `find DIR -name '*.jpg' | sort > LIST.txt`). Both make a 1800 px wide board of
# COLUMNS (default 24) columns and write its pyramid (254 px tiles, overlap 1, JPEG Q85):
#   mosaic:  mosaic render --files-from LIST -o OUT.dzi --columns C (masonry, captions),
#            and the same as a grid without captions (libvips's board)
#   libvips: each image thumbnailed to its cell (pyvips thumbnail, kept in memory as
#            vipsthumbnail leaves it), arrayjoin into a grid, dzsave (one process: a shell
#            line cannot hold 100,000 names for vips arrayjoin).
# Prints wall time, CPU and peak RSS of each (GNU time). MOSAIC names the binary.
set -euo pipefail
# Cold runs: no card cache (a second run would otherwise time cache hits).
export MOSAIC_CACHE=off
list=$1 columns=${2:-24}
mosaic=${MOSAIC:-mosaic}
work=$(mktemp -d /tmp/pyramid-peers.XXXXXX)
trap 'rm -rf "$work"' EXIT
count=$(wc -l < "$list")
cell=$(( (1800 - 2 * 32 - (columns - 1) * 16) / columns ))
echo "$count images, $columns columns, cells of $cell px"

/usr/bin/time -f "mosaic:  %e s wall, %U s user, %S s sys, %M KB peak" \
    "$mosaic" render --files-from "$list" --columns "$columns" -o "$work/mosaic.dzi" --quiet
echo "  $(find "$work/mosaic_files" -type f | wc -l) files, $(du -sh "$work/mosaic_files" | cut -f1), $(grep -o 'Width="[0-9]*" Height="[0-9]*"' "$work/mosaic.dzi")"
/usr/bin/time -f "mosaic grid, no captions (libvips's board):  %e s wall, %U s user, %S s sys, %M KB peak" \
    "$mosaic" render --files-from "$list" --columns "$columns" --layout grid --caption none -o "$work/grid.dzi" --quiet
echo "  $(find "$work/grid_files" -type f | wc -l) files, $(du -sh "$work/grid_files" | cut -f1), $(grep -o 'Width="[0-9]*" Height="[0-9]*"' "$work/grid.dzi")"

cat > "$work/vips.py" <<PY
import sys, pyvips
files = [line.rstrip('\n') for line in open(sys.argv[1])]
cells = [pyvips.Image.thumbnail(f, $cell, height=$cell).copy_memory() for f in files]
board = pyvips.Image.arrayjoin(cells, across=$columns, shim=16, halign='centre', valign='centre', background=[243, 244, 246])
board = board.embed(32, 32, board.width + 64, board.height + 64, extend='background', background=[243, 244, 246])
board.dzsave(sys.argv[2], tile_size=254, overlap=1, suffix='.jpeg[Q=85]')
print(f'  board {board.width}x{board.height}')
PY
/usr/bin/time -f "libvips: %e s wall, %U s user, %S s sys, %M KB peak" python3 "$work/vips.py" "$list" "$work/vips"
echo "  $(find "$work/vips_files" -type f | wc -l) files, $(du -sh "$work/vips_files" | cut -f1)"
