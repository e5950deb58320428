#!/usr/bin/env bash
# A tile pyramid rendered in N shards under GNU parallel, then assembled:
#   scripts/render-sharded-parallel.sh N OUTPUT.dzi INPUT... [mosaic render options]
# On one machine the shards run side by side (parallel's --jobs, default: the cores);
# with PARALLEL_SSHLOGIN="host1,host2" they run on those machines, which must see the same
# files at the same paths (inputs, mosaic, and the output's folder: shared storage).
# A failed shard is retried twice; run the script again to redo only what is missing.
# MOSAIC names the mosaic binary (default: mosaic on the PATH).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,9p' "$0" >&2
    exit 64
fi
count=$1 output=$2
shift 2
mosaic=${MOSAIC:-mosaic}
shards="$(dirname "$output")/$(basename "$output" .dzi).shards"
todo=()
for index in $(seq 0 $((count - 1))); do
    [ -s "$shards/$index-of-$count/shard.json" ] || todo+=("$index")
done
if [ ${#todo[@]} -gt 0 ]; then
    ssh=()
    [ -n "${PARALLEL_SSHLOGIN:-}" ] && ssh=(--sshlogin "$PARALLEL_SSHLOGIN" --workdir "$PWD")
    parallel "${ssh[@]}" --retries 3 --halt soon,fail=1 --line-buffer --tag \
        "$mosaic" render "$@" -o "$output" --shard "{}/$count" --quiet --jobs 1 ::: "${todo[@]}"
fi
"$mosaic" assemble "$output"
