#!/usr/bin/env bash
# run_diff.sh - `mosaic diff` beside blazediff on 4K screenshot pairs, counts checked.
#
# Usage:  run_diff.sh [WORK_DIR]      (default /tmp/diff-bench)
#
# 1. makes the pairs (make_screens.py: 16 dashboard pages with three small edits, 8
#    sheets of photos with two, 8 pages whose pixels are equal but whose files differ),
#    in WORK_DIR/all, and one folder pair per set (pages, sheets, same);
# 2. checks the counts outside any timing: mosaic's (its --json) against pixelmatch's
#    (pybind11-pixelmatch), blazediff's beside them;
# 3. times, per set, `mosaic diff BASE CUR --json R -q` (A) against one Python process
#    looping over the pairs with blazediff.compare(..., antialiasing=True) (B), in turn.
#
# Needs: a release build (swift build -c release), pip install blazediff
# pybind11-pixelmatch pillow numpy.  Environment: RUNS=5, MOSAIC=<repo>/.build/release/mosaic.
set -euo pipefail
# Cold runs: no card cache (a second run would otherwise time cache hits).
export MOSAIC_CACHE=off
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/diff-bench}
runs=${RUNS:-5}
mosaic=${MOSAIC:-$here/../../.build/release/mosaic}
[ -d "$work/all/current" ] || python3 "$here/make_screens.py" "$work/all"
for set in page sheet same; do
    for side in baseline current; do
        mkdir -p "$work/$set/$side"
        ln -f "$work/all/$side/$set"-*.png "$work/$set/$side/"
    done
done
"$mosaic" diff "$work/all/baseline" "$work/all/current" --json "$work/all.json" -q || true
python3 "$here/peers.py" check "$work/all/baseline" "$work/all/current" "$work/all.json"
for set in page sheet same; do
    echo "== $set: A mosaic diff, B blazediff"
    python3 "$here/peers.py" time "$runs" \
        "$mosaic diff $work/$set/baseline $work/$set/current --json $work/$set.json -q" \
        "python3 $here/peers.py blazediff $work/$set/baseline $work/$set/current"
done
