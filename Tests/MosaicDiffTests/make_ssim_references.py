#!/usr/bin/env python3
"""Makes the SSIM pairs in Fixtures/ssim/ and the scores scikit-image gives for them (and
for the pixelmatch pairs in Fixtures/), into Fixtures/ssim/ssim-references.json.
SSIMTests asserts that `mosaic diff --metric ssim` gives the same within 0.001; the tests
need no Python. Run once from this folder (pip install scikit-image pillow numpy):
python3 make_ssim_references.py

Luma as mosaic takes it: pixelmatch's Y of each pixel blended over white by its alpha.
A pair's score: structural_similarity(gaussian_weights=True, sigma=1.5,
use_sample_covariance=False, data_range=255). A region's: the mean of the same call's
full map over the region's box (the pairs here change solid rectangles on flat ground,
so pixelmatch's regions are exactly the boxes listed).
"""
import glob
import json
import os
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter
from skimage.metrics import structural_similarity

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "Fixtures", "ssim")


def luma(path):
    a = np.asarray(Image.open(path).convert("RGBA"), dtype=np.float64)
    alpha = a[..., 3:4] / 255.0
    rgb = 255 + (a[..., :3] - 255) * alpha
    return rgb[..., 0] * 0.29889531 + rgb[..., 1] * 0.58662247 + rgb[..., 2] * 0.11448223


def ssim(a, b):
    return structural_similarity(a, b, gaussian_weights=True, sigma=1.5, use_sample_covariance=False, data_range=255, full=True)


def ui(button=(40, 60, 120, 84), edge_noise=0, seed=1):
    """A page: grey bars, a dark button, text-like strokes; `edge_noise` changes the
    strokes' anti-aliased edge pixels by up to that many levels."""
    # The strokes drawn at 4x and shrunk (anti-aliased edges); bars and button after, solid.
    big = Image.new("RGB", (640, 480), (250, 250, 252))
    bd = ImageDraw.Draw(big)
    for k in range(6):
        bd.line([(40 + k * 90, 400), (90 + k * 90, 440)], fill=(20, 20, 20), width=5)
    img = big.resize((160, 120), Image.LANCZOS)
    d = ImageDraw.Draw(img)
    for i in range(4):
        d.rectangle([10, 10 + i * 10, 150, 14 + i * 10], fill=(225, 228, 235))
    d.rectangle(button, fill=(30, 90, 200))
    if edge_noise:
        rng = random.Random(seed)
        px = img.load()
        for y in range(95, 115):
            for x in range(5, 155):
                r, g, b = px[x, y]
                if 40 < r < 230:  # an anti-aliased edge pixel of the strokes
                    v = rng.randint(-edge_noise, edge_noise)
                    px[x, y] = tuple(max(0, min(255, c + v)) for c in (r, g, b))
    return img


def photo(seed=3):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    img = Image.fromarray(base).resize((240, 180), Image.BICUBIC).filter(ImageFilter.GaussianBlur(2))
    return img


def main():
    os.makedirs(OUT, exist_ok=True)
    pairs = {}
    ui().save(os.path.join(OUT, "button-a.png"))
    ui(button=(46, 64, 126, 88)).save(os.path.join(OUT, "button-moved-b.png"))
    ui(edge_noise=35).save(os.path.join(OUT, "button-aa-noise-b.png"))
    # Three solid changes far apart on flat ground: the regions' boxes are these.
    three = ui()
    d = ImageDraw.Draw(three)
    boxes = [(10, 50, 18, 12), (140, 52, 8, 6), (70, 100, 4, 4)]
    for (x, y, w, h), colour in zip(boxes, [(200, 30, 30), (30, 160, 60), (250, 200, 0)]):
        d.rectangle([x, y, x + w - 1, y + h - 1], fill=colour)
    three.save(os.path.join(OUT, "button-three-b.png"))
    photo().save(os.path.join(OUT, "photo-a.png"))
    p = np.asarray(photo(), dtype=np.int16) + np.random.default_rng(7).integers(-6, 7, (180, 240, 3))
    Image.fromarray(np.clip(p, 0, 255).astype(np.uint8)).save(os.path.join(OUT, "photo-noise-b.png"))
    # Straight alpha, half transparent, against opaque.
    t = Image.new("RGBA", (48, 40), (30, 90, 200, 128))
    ImageDraw.Draw(t).ellipse([8, 6, 40, 34], fill=(200, 40, 40, 255))
    t.save(os.path.join(OUT, "half-alpha-a.png"))
    t2 = t.copy()
    ImageDraw.Draw(t2).rectangle([20, 14, 30, 26], fill=(20, 20, 20, 60))
    t2.save(os.path.join(OUT, "half-alpha-b.png"))

    def add(name, a, b, regions=()):
        s, full = ssim(luma(a), luma(b))
        entry = {"baseline": os.path.relpath(a, os.path.join(HERE, "Fixtures")), "current": os.path.relpath(b, os.path.join(HERE, "Fixtures")), "ssim": float(s)}
        if regions:
            entry["regions"] = [{"x": x, "y": y, "width": w, "height": h, "ssim": float(full[y:y + h, x:x + w].mean())} for x, y, w, h in regions]
        pairs[name] = entry

    j = lambda *p: os.path.join(OUT, *p)
    add("button-moved", j("button-a.png"), j("button-moved-b.png"), [(40, 60, 87, 29)])
    add("button-aa-noise", j("button-a.png"), j("button-aa-noise-b.png"))
    add("button-three", j("button-a.png"), j("button-three-b.png"), boxes)
    add("photo-noise", j("photo-a.png"), j("photo-noise-b.png"))
    add("half-alpha", j("half-alpha-a.png"), j("half-alpha-b.png"))
    for a in sorted(glob.glob(os.path.join(HERE, "Fixtures", "*-a.png"))):
        add(os.path.basename(a)[:-6], a, a[:-6] + "-b.png")
    with open(j("ssim-references.json"), "w") as f:
        json.dump(pairs, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
