#!/usr/bin/env python3
"""Where the wall of a poster run goes: a timeline of `mosaic render CLIPS` from perf.

    sudo python3 Benchmarks/video/poster_timeline.py .build/release/mosaic /tmp/bench-work/clips [--calls]

Puts perf uprobes on the shim's `mosaic_video_probe` and `mosaic_video_decode_frame` (entry
and return: each call's span and thread) and samples every thread's CPU (cpu-clock, 2 kHz),
then prints: each thread's CPU seconds, the span of the probe phase and of the decodes, the
sum of the decode calls' walls over the decodes' span (how many ran at once on average),
how many cores the run kept busy in each 100 ms, and, with --calls, every call. Needs perf
with uprobes (root) and a binary with its symbols (a release build has them). The probes
are removed afterwards. The machine's load changes the walls, not the shape: compare runs
made one after the other.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

GROUP = "mosaic_timeline"
FUNCTIONS = {"probe": "mosaic_video_probe", "decode": "mosaic_video_decode_frame"}


def perf(*arguments, check=True):
    return subprocess.run(["perf", *arguments], capture_output=True, check=check)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mosaic")
    parser.add_argument("clips")
    parser.add_argument("--calls", action="store_true", help="list every probe and decode call")
    parser.add_argument("--frequency", type=int, default=2000)
    args = parser.parse_args()
    binary = os.path.realpath(args.mosaic)
    perf("probe", "-d", f"{GROUP}:*", check=False)
    for name, function in FUNCTIONS.items():
        perf("probe", "-x", binary, "-a", f"{GROUP}:{name}={function}")
        perf("probe", "-x", binary, "-a", f"{GROUP}:{name}_end={function}%return")
    work = tempfile.mkdtemp()
    data = os.path.join(work, "perf.data")
    try:
        perf("record", "-q", "-F", str(args.frequency), "-e", "cpu-clock", "-e", f"{GROUP}:*", "-o", data, "--",
             binary, "render", args.clips, "-o", os.path.join(work, "posters.png"), "-q", "--no-progress", "--no-cache")
        script = perf("script", "-i", data, "-F", "comm,tid,time,event").stdout.decode("utf-8", "replace")
    finally:
        perf("probe", "-d", f"{GROUP}:*", check=False)
    samples, events = [], []
    for line in script.splitlines():
        match = re.match(r"\s*(.*?)\s+(\d+)\s+([\d.]+):\s+(\S+):", line)
        if not match:
            continue
        comm, tid, time, event = match.group(1), int(match.group(2)), float(match.group(3)), match.group(4)
        if event.startswith("cpu-clock"):
            samples.append((time, tid, comm))
        else:
            events.append((time, tid, event.split(":")[1]))
    if not samples:
        sys.exit("perf recorded no samples")
    period = 1 / args.frequency
    start, end = min(s[0] for s in samples), max(s[0] for s in samples)
    print(f"run: {end - start:.3f} s, CPU {len(samples) * period:.3f} s")
    per_thread = collections.Counter(s[1] for s in samples)
    names = {s[1]: s[2] for s in samples}
    for tid, count in per_thread.most_common():
        print(f"  thread {tid} ({names[tid]}): CPU {count * period:.3f} s")
    open_calls, calls = {}, []
    for time, tid, event in sorted(events):
        if event in FUNCTIONS:
            open_calls[tid] = (time, event)
        elif tid in open_calls and event.startswith(open_calls[tid][1]):
            begun, name = open_calls.pop(tid)
            calls.append((begun - start, time - start, tid, name))
    for name in FUNCTIONS:
        spans = [(a, b) for a, b, _, n in calls if n == name]
        if not spans:
            continue
        first, last = min(a for a, _ in spans), max(b for _, b in spans)
        total = sum(b - a for a, b in spans)
        entered = sum(1 for _, _, event in events if event == name)
        print(f"{name}: {len(spans)} calls timed of {entered} entered, from {first:.3f} to {last:.3f} s; their walls sum to {total:.3f} s, "
              f"{total / max(last - first, 1e-9):.2f} at once on average")
    if args.calls:
        for begun, ended, tid, name in sorted(calls):
            cpu = sum(1 for s in samples if s[1] == tid and begun <= s[0] - start <= ended) * period
            print(f"  {name:6s} thread {tid} {begun:7.3f} to {ended:7.3f} s: wall {ended - begun:.3f} s, CPU {cpu:.3f} s")
    bins = collections.Counter(int((s[0] - start) / 0.1) for s in samples)
    print("cores busy, each 100 ms: " + " ".join(f"{bins[i] * period / 0.1:.1f}" for i in range(int((end - start) / 0.1) + 1)))


if __name__ == "__main__":
    main()
