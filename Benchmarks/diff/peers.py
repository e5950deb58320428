#!/usr/bin/env python3
"""The peers of `mosaic diff` over two folders of PNG pairs (matched by name).

    python3 peers.py blazediff BASE CUR    one process looping over the pairs, as timed:
                                           blazediff.compare(a, b, antialiasing=True),
                                           pixelmatch's default mode, threshold 0.1
    python3 peers.py check BASE CUR REPORT the counts, outside any timing: pixelmatch's
                                           (pybind11-pixelmatch, an exact C++ port), mosaic's
                                           (REPORT: `mosaic diff --json`) and blazediff's, per
                                           pair; exits 1 when mosaic's differ from pixelmatch's
    python3 peers.py time RUNS 'CMD A' 'CMD B'
                                           A and B in turn (A B A B ..., one warm-up each), each
                                           run's wall, CPU (user + system) and peak RSS from
                                           wait4; prints medians and the median of the A/B
                                           wall ratios taken pair by pair
"""
import json
import os
import sys


def pairs(base, cur):
    names = sorted(n for n in os.listdir(base) if n.lower().endswith(".png") and os.path.exists(os.path.join(cur, n)))
    return [(n, os.path.join(base, n), os.path.join(cur, n)) for n in names]


def blazediff_loop(base, cur):
    import blazediff
    for _, a, b in pairs(base, cur):
        blazediff.compare(a, b, threshold=0.1, antialiasing=True)


def check(base, cur, report):
    import blazediff
    import numpy as np
    import pybind11_pixelmatch as pm
    from PIL import Image

    mosaic = {p["path"]: p.get("differingPixels", 0) for p in json.load(open(report))["pairs"]}
    options = pm.Options()
    options.threshold = 0.1
    options.includeAA = False
    bad = 0
    print("%-16s %12s %12s %12s" % ("pair", "pixelmatch", "mosaic", "blazediff"))
    for name, a, b in pairs(base, cur):
        ia = np.ascontiguousarray(np.asarray(Image.open(a).convert("RGBA")))
        ib = np.ascontiguousarray(np.asarray(Image.open(b).convert("RGBA")))
        ref = pm.pixelmatch(ia, ib, options=options)
        blaze = blazediff.compare(a, b, threshold=0.1, antialiasing=True).diff_count or 0
        ours = mosaic.get(name)
        bad += ours != ref
        print("%-16s %12d %12s %12d%s" % (name, ref, ours, blaze, "" if ours == ref else "  MISMATCH"))
    print("mosaic equals pixelmatch on %d of %d pairs" % (len(pairs(base, cur)) - bad, len(pairs(base, cur))))
    sys.exit(1 if bad else 0)


def run_once(command):
    import shlex
    import subprocess
    import time
    start = time.monotonic()
    child = subprocess.Popen(shlex.split(command), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - start
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def time_pair(runs, a, b):
    import statistics
    run_once(a)
    run_once(b)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run_once(a))
        tb.append(run_once(b))
    for name, t in (("A", ta), ("B", tb)):
        print("%s  wall %.3f s  cpu %.3f s  peak %.0f MB" % (
            name, statistics.median(x[0] for x in t), statistics.median(x[1] for x in t), statistics.median(x[2] for x in t)))
    print("A/B wall %.2f  cpu %.2f (medians of the pairs' ratios, %d pairs)" % (
        statistics.median(x[0] / y[0] for x, y in zip(ta, tb)), statistics.median(x[1] / y[1] for x, y in zip(ta, tb)), runs))


if __name__ == "__main__":
    if sys.argv[1] == "time":
        time_pair(int(sys.argv[2]), sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "blazediff":
        blazediff_loop(sys.argv[2], sys.argv[3])
    else:
        check(sys.argv[2], sys.argv[3], sys.argv[4])
