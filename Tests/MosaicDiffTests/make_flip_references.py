#!/usr/bin/env python3
"""Makes the FLIP pairs in Fixtures/flip/ (and takes the SSIM pairs in Fixtures/ssim/) and
the mean FLIP that flip-evaluator 1.7 (NVIDIA's reference, PyPI) gives for each, into
Fixtures/flip/flip-references.json. FLIPTests asserts that `mosaic diff --metric flip`
gives the same within 0.001; the tests need no Python. Run once from this folder
(pip install flip-evaluator==1.7 pillow numpy): python3 make_flip_references.py

Inputs as flip-evaluator reads LDR sRGB: opaque RGB bytes / 255 as float32; default
viewing conditions (67 pixels per degree); the mean of the whole error map. A region's
figure: the map's mean over the region's box.
"""
import json
import os

import flip_evaluator as flip
import numpy as np
from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "Fixtures")
OUT = os.path.join(FIXTURES, "flip")


def load(path):
    return np.asarray(Image.open(path).convert("RGB"), dtype=np.float32) / np.float32(255)


def page(button_colour=(200, 40, 40), text_dx=0, seed=5):
    """A small screen: a header bar, text-like lines of glyph blocks, a button."""
    rng = np.random.default_rng(seed)
    img = Image.new("RGB", (200, 150), (248, 248, 250))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, 199, 17], fill=(30, 50, 90))
    for line in range(5):
        x = 10 + text_dx
        y = 28 + line * 14
        while x < 180:
            w = int(rng.integers(3, 9))
            d.rectangle([x, y, x + w - 1, y + 7], fill=(40, 40, 40))
            x += w + int(rng.integers(1, 4))
    d.rectangle([120, 110, 180, 134], fill=button_colour)
    return img


def main():
    os.makedirs(OUT, exist_ok=True)
    j = lambda *p: os.path.join(OUT, *p)
    page().save(j("page-a.png"))
    page(button_colour=(40, 130, 60)).save(j("page-green-button-b.png"))
    page(button_colour=(204, 44, 40)).save(j("page-slight-button-b.png"))
    page(text_dx=1).save(j("page-text-moved-b.png"))
    # A gradient band edited in its middle: a colour change on non-flat ground.
    g = np.tile(np.linspace(0, 255, 120, dtype=np.float32), (90, 1))
    rgb = np.stack([g, 255 - g, np.full_like(g, 128)], axis=-1).astype(np.uint8)
    Image.fromarray(rgb).save(j("gradient-a.png"))
    rgb2 = rgb.copy()
    rgb2[30:60, 40:80] = (255 - rgb2[30:60, 40:80]).astype(np.uint8)
    Image.fromarray(rgb2).save(j("gradient-b.png"))

    pairs = {}

    def add(name, a, b, regions=()):
        ref, test = load(a), load(b)
        error_map, mean, _ = flip.evaluate(ref, test, "LDR", applyMagma=False)
        error_map = np.asarray(error_map).reshape(ref.shape[:2])
        entry = {"baseline": os.path.relpath(a, FIXTURES), "current": os.path.relpath(b, FIXTURES), "flip": float(mean)}
        if regions:
            entry["regions"] = [{"x": x, "y": y, "width": w, "height": h, "flip": float(error_map[y:y + h, x:x + w].mean())} for x, y, w, h in regions]
        pairs[name] = entry

    add("page-green-button", j("page-a.png"), j("page-green-button-b.png"), [(120, 110, 61, 25)])
    add("page-slight-button", j("page-a.png"), j("page-slight-button-b.png"))
    add("page-text-moved", j("page-a.png"), j("page-text-moved-b.png"))
    # pixelmatch's regions: the inverted middle columns stay within its threshold.
    add("gradient", j("gradient-a.png"), j("gradient-b.png"), [(40, 30, 13, 30), (67, 30, 13, 30)])
    ssim = os.path.join(FIXTURES, "ssim")
    add("button-aa-noise", os.path.join(ssim, "button-a.png"), os.path.join(ssim, "button-aa-noise-b.png"))
    add("button-moved", os.path.join(ssim, "button-a.png"), os.path.join(ssim, "button-moved-b.png"))
    add("photo-noise", os.path.join(ssim, "photo-a.png"), os.path.join(ssim, "photo-noise-b.png"))
    with open(j("flip-references.json"), "w") as f:
        json.dump(pairs, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
