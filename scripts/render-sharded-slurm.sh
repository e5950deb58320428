#!/usr/bin/env bash
# A tile pyramid rendered in N shards as a Slurm job array, then assembled by a job that
# waits for the whole array:
#   scripts/render-sharded-slurm.sh N OUTPUT.dzi INPUT... [mosaic render options]
# Every node must see the inputs, mosaic and the output's folder at the same paths
# (shared storage). Each array task renders shard $SLURM_ARRAY_TASK_ID of N; a failed task
# can be resubmitted alone (sbatch --array=K ...); the assembly names missing shards.
# MOSAIC names the mosaic binary (default: mosaic on the PATH); SBATCH_OPTIONS adds
# sbatch options (a partition, an account, a time limit).
set -euo pipefail
if [ $# -lt 3 ]; then
    sed -n '2,10p' "$0" >&2
    exit 64
fi
count=$1 output=$2
shift 2
mosaic=$(command -v "${MOSAIC:-mosaic}")
output=$(realpath -m "$output")
arguments=$(printf ' %q' "$@")
logs="$(dirname "$output")/$(basename "$output" .dzi).slurm-logs"
mkdir -p "$logs"
# shellcheck disable=SC2086
render=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=mosaic-shards --array=0-$((count - 1)) --cpus-per-task=1 \
    --output="$logs/shard-%a.log" --chdir="$PWD" \
    --wrap="exec $(printf %q "$mosaic") render$arguments -o $(printf %q "$output") --shard \$SLURM_ARRAY_TASK_ID/$count --jobs 1 --quiet")
# shellcheck disable=SC2086
assemble=$(sbatch --parsable ${SBATCH_OPTIONS:-} --job-name=mosaic-assemble --dependency=afterok:"$render" \
    --output="$logs/assemble.log" --chdir="$PWD" \
    --wrap="exec $(printf %q "$mosaic") assemble $(printf %q "$output")")
echo "submitted shards $render (array of $count) and assembly $assemble; logs in $logs"
if [ "${WAIT:-}" = 1 ]; then
    while squeue -h -j "$render,$assemble" 2>/dev/null | grep -q .; do sleep 1; done
    sacct -n -X -j "$render,$assemble" -o JobID,State,Elapsed 2>/dev/null || true
    cat "$logs/assemble.log"
fi
