#!/usr/bin/env python3
"""N small generated images (JPEG, 64 to 200 px a side, varied aspect ratios) for the
scale benchmarks: boards of 10,000 to 1,000,000 cards. Deterministic for a seed.

    python3 Benchmarks/scale/make_small_images.py 100000 /tmp/bench-work/small-100k

Files go into subfolders of 1,000 (so no folder is too long to list) named
0000/000000.jpg ...; the colours, shapes and sizes follow the index, so any prefix of a
larger set is the smaller set.
"""
import os
import sys
from multiprocessing import Pool

from PIL import Image, ImageDraw


def make(args):
    index, root = args
    rng = (index * 2654435761) & 0xFFFFFFFF
    def next_int(n):
        nonlocal rng
        rng = (rng * 1103515245 + 12345) & 0x7FFFFFFF
        return rng % n
    w = 64 + next_int(137)
    h = 64 + next_int(137)
    base = (next_int(200) + 30, next_int(200) + 30, next_int(200) + 30)
    im = Image.new('RGB', (w, h), base)
    d = ImageDraw.Draw(im)
    for k in range(3):
        x0, y0 = next_int(w), next_int(h)
        colour = (next_int(256), next_int(256), next_int(256))
        if k % 2:
            d.ellipse((x0, y0, x0 + 10 + next_int(w), y0 + 10 + next_int(h)), fill=colour)
        else:
            d.rectangle((x0, y0, x0 + 10 + next_int(w), y0 + 10 + next_int(h)), fill=colour)
    d.text((4, 4), str(index), fill=(255, 255, 255))
    folder = os.path.join(root, f'{index // 1000:04d}')
    path = os.path.join(folder, f'{index:06d}.jpg')
    if not os.path.exists(path):
        im.save(path, quality=85)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    count, root = int(sys.argv[1]), sys.argv[2]
    for folder in range((count + 999) // 1000):
        os.makedirs(os.path.join(root, f'{folder:04d}'), exist_ok=True)
    with Pool() as pool:
        for done, _ in enumerate(pool.imap_unordered(make, ((i, root) for i in range(count)), chunksize=500)):
            pass
    print(f'{count} images in {root}')


if __name__ == '__main__':
    main()
