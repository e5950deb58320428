#!/usr/bin/env python3
"""PNG decoding beside `ImageBenchmark png-decode`: each file decoded whole, the file
already in memory, one thread, the median of RUNS per file, by

    libpng 1.6   (imagecodecs.png_decode)
    libspng 0.7  (imagecodecs.spng_decode)
    Pillow       (Image.open(BytesIO).load(): zlib and its own unfiltering)
    libvips      (pyvips new_from_buffer ... write_to_memory; its PNG loader is libspng)

    python3 png_decode_peers.py [--runs N] FILE...

Needs: pip install imagecodecs pillow pyvips numpy.  Run with VIPS_CONCURRENCY=1 so
that libvips uses one thread as the others do.
"""
import io
import statistics
import sys
import time


def main(argv):
    runs = 5
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = int(argv[i + 1])
        del argv[i:i + 2]
    files = argv
    import imagecodecs
    import pyvips
    from PIL import Image

    pyvips.cache_set_max(0)
    decoders = {
        "libpng": lambda data: imagecodecs.png_decode(data),
        "libspng": lambda data: imagecodecs.spng_decode(data),
        "Pillow": lambda data: Image.open(io.BytesIO(data)).load(),
        "libvips": lambda data: pyvips.Image.new_from_buffer(data, "", access="sequential").write_to_memory(),
    }
    medians = {name: [] for name in decoders}
    for path in files:
        data = open(path, "rb").read()
        line = [path]
        for name, decode in decoders.items():
            decode(data)  # warm-up
            times = []
            for _ in range(runs):
                start = time.perf_counter()
                decode(data)
                times.append(time.perf_counter() - start)
            medians[name].append(statistics.median(times))
            line.append("%s %.2f ms" % (name, medians[name][-1] * 1000))
        print("  ".join(line))
    for name, values in medians.items():
        print("%-8s median of the files' medians %.2f ms, sum %.2f ms" % (name, statistics.median(values) * 1000, sum(values) * 1000))


if __name__ == "__main__":
    main(sys.argv[1:])
