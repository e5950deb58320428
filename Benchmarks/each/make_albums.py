#!/usr/bin/env python3
"""ALBUMS folders of PHOTOS small photo-like JPEGs each (640 to 1280 px a side, smooth
gradients, shapes and sensor-like noise, an EXIF DateTimeOriginal a day apart per album)
for the `--each` benchmark. Deterministic.

    python3 Benchmarks/each/make_albums.py /tmp/bench-work/albums 40 50
"""
import os
import sys
from multiprocessing import Pool

import numpy as np
from PIL import Image, ImageDraw


def make(args):
    root, album, index = args
    path = os.path.join(root, f'album-{album:02d}', f'IMG_{index:04d}.jpg')
    if os.path.exists(path):
        return
    rng = np.random.default_rng(album * 1000 + index)
    w, h = (int(v) for v in rng.integers(640, 1281, size=2))
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    c0, c1 = rng.uniform(20, 235, size=(2, 3))
    t = (x / w * 0.6 + y / h * 0.4)[..., None]
    pixels = c0 * (1 - t) + c1 * t + rng.normal(0, 6, size=(h, w, 3))
    im = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    d = ImageDraw.Draw(im)
    for _ in range(4):
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        d.ellipse((x0, y0, x0 + int(rng.integers(40, w // 2)), y0 + int(rng.integers(40, h // 2))),
                  fill=tuple(int(v) for v in rng.integers(0, 256, size=3)))
    exif = Image.Exif()
    exif.get_ifd(0x8769)[0x9003] = f'2024:{1 + album // 28:02d}:{1 + album % 28:02d} {index // 4 % 24:02d}:{index % 60:02d}:00'
    im.save(path, quality=85, exif=exif)


def main():
    root, albums, photos = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for album in range(albums):
        os.makedirs(os.path.join(root, f'album-{album:02d}'), exist_ok=True)
    with Pool() as pool:
        pool.map(make, [(root, a, i) for a in range(albums) for i in range(photos)], chunksize=20)


if __name__ == '__main__':
    main()
