#!/usr/bin/env bash
# `mosaic render --each` (one process) against GNU parallel running one `mosaic render`
# per album on the same cores, interleaved, RUNS times each; prints wall and CPU seconds
# (user + system) per run and their medians.
#
#   python3 Benchmarks/each/make_albums.py /tmp/bench-work/albums 40 50
#   MOSAIC=.build/release/mosaic bash Benchmarks/each/run_each.sh /tmp/bench-work/albums
set -euo pipefail
# Cold runs: no card cache (a second run would otherwise time cache hits).
export MOSAIC_CACHE=off
albums=${1:?albums folder}
mosaic=${MOSAIC:-.build/release/mosaic}
runs=${RUNS:-3}
jobs=${JOBS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
measure() {  # label, command...: appends "wall cpu" to $work/label
    local label=$1
    shift
    rm -rf "$work/out"
    mkdir -p "$work/out"
    /usr/bin/time -f "%e %U %S" -o "$work/t" "$@" > /dev/null
    awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' "$work/t" >> "$work/$label"
    echo "$label: $(tail -1 "$work/$label") (wall s, CPU s)"
}
for run in $(seq "$runs"); do
    measure each "$mosaic" render "$albums" --each -o "$work/out/{folder}.png" -q --no-progress
    measure parallel sh -c "ls -d '$albums'/*/ | parallel -j$jobs '$mosaic' render {} -o '$work/out/{/}.png' -q --no-progress"
done
for label in each parallel; do
    sort -n -k1 "$work/$label" | awk -v l="$label" '{ w[NR] = $1 } END { printf "%s median wall %.2f s", l, w[int((NR + 1) / 2)] }'
    sort -n -k2 "$work/$label" | awk '{ c[NR] = $2 } END { printf ", median CPU %.2f s\n", c[int((NR + 1) / 2)] }'
done
