#!/usr/bin/env python3
"""Crop windows that libvips's smartcrop (attention) picks on the SampleImages, for
Tests/MosaicImageTests/CropFocusTests.swift: prints Swift literal lines
(name, window width, window height, left, top). Needs pyvips (pip install pyvips) and libvips.

Run: python3 Benchmarks/quality/smartcrop_reference.py SampleImages
"""
import os
import sys

import pyvips

root = sys.argv[1] if len(sys.argv) > 1 else "SampleImages"
names = sorted(n for n in os.listdir(root) if n.lower().endswith((".jpg", ".png")))
cases = []
for name in names:
    image = pyvips.Image.new_from_file(os.path.join(root, name)).autorot()
    w, h = image.width, image.height
    # Windows of the shapes a sheet crops to: a square cell, and a wide or tall one.
    shapes = [(1, 1), (3, 1)] if h >= w else [(1, 1), (1, 2)]
    for aw, ah in shapes:
        if w / h > aw / ah:
            ww, wh = round(h * aw / ah), h
        else:
            ww, wh = w, round(w * ah / aw)
        if (ww, wh) == (w, h):
            continue
        cropped = image.smartcrop(ww, wh, interesting="attention")
        cases.append((name, ww, wh, -cropped.xoffset, -cropped.yoffset))
version = f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"
print(f"    // libvips {version}, smartcrop attention: (file, window width, height, left, top)")
for case in cases[:20]:
    print(f'    ("{case[0]}", {case[1]}, {case[2]}, {case[3]}, {case[4]}),')
