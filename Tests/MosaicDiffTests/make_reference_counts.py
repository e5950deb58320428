#!/usr/bin/env python3
"""Makes the image pairs in Fixtures/ and the differing-pixel counts that the reference
implementation of pixelmatch (its Python port on PyPI, `pip install pixelmatch pillow`)
gives for them, into Fixtures/reference-counts.json. MosaicDiffTests asserts that
MosaicDiff gives the same counts. Run from this folder: python3 make_reference_counts.py
"""
import json
import random

from PIL import Image, ImageDraw, ImageFont
from pixelmatch.contrib.PIL import pixelmatch

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
W, H = 96, 64


def canvas(color=(255, 255, 255, 255)):
    return Image.new("RGBA", (W, H), color)


def text(offset=0, word="Mosaic"):
    img = canvas()
    draw = ImageDraw.Draw(img)
    draw.text((8 + offset, 16), word, font=ImageFont.truetype(FONT, 22), fill=(20, 20, 20, 255))
    return img


def shape(dx=0, dy=0, color=(30, 90, 200, 255)):
    # Drawn at 4x and shrunk: anti-aliased edges.
    big = Image.new("RGBA", (W * 4, H * 4), (255, 255, 255, 255))
    draw = ImageDraw.Draw(big)
    draw.ellipse((40 + dx * 4, 30 + dy * 4, 200 + dx * 4, 190 + dy * 4), fill=color)
    draw.rectangle((250, 60, 340, 200), fill=(200, 40, 40, 255))
    return big.resize((W, H), Image.LANCZOS)


def alpha(a=128):
    img = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    draw.rectangle((10, 10, 60, 50), fill=(0, 120, 255, a))
    draw.ellipse((40, 20, 90, 60), fill=(255, 60, 0, 200))
    return img


def noise(seed, amount):
    rng = random.Random(seed)
    img = shape()
    px = img.load()
    for y in range(H):
        for x in range(W):
            r, g, b, a = px[x, y]
            d = rng.randint(-amount, amount)
            px[x, y] = (max(0, min(255, r + d)), max(0, min(255, g + d)), max(0, min(255, b + d)), a)
    return img


PAIRS = {
    "text-shifted": (text(0), text(1)),
    "text-changed": (text(0, "Mosaic"), text(0, "Mosaik")),
    "shape-shifted": (shape(0, 0), shape(1, 0)),
    "shape-colour": (shape(), shape(color=(60, 140, 120, 255))),
    "alpha": (alpha(128), alpha(96)),
    "noise": (noise(1, 40), noise(2, 40)),
    "identical": (shape(), shape()),
}

counts = {}
for name, (a, b) in PAIRS.items():
    a.save(f"Fixtures/{name}-a.png")
    b.save(f"Fixtures/{name}-b.png")
    for threshold in (0.05, 0.1, 0.3):
        for include_aa in (False, True):
            n = pixelmatch(a, b, threshold=threshold, includeAA=include_aa)
            counts[f"{name} {threshold} {include_aa}"] = n
with open("Fixtures/reference-counts.json", "w") as f:
    json.dump(counts, f, indent=1, sort_keys=True)
print(json.dumps(counts, indent=1, sort_keys=True))
