#!/usr/bin/env python3
"""A set of large PNGs to score card quality on (with card_psnr.py): artwork (gradients,
hard-edged shapes, thin strokes), screenshots (text, one-pixel rules, flat panels, an
alpha channel on some) and fine textures (cloth, noise, stripes near the card's
frequency limit). Seeded: the same files every run.

    python3 Benchmarks/quality/make_large_pngs.py FOLDER [--count 3]

Needs Pillow and numpy (pip install pillow numpy).
"""
import argparse, math, os
import numpy as np
from PIL import Image, ImageDraw, ImageFont

SIZES = [(3840, 2160), (2560, 1440), (4000, 3000), (2160, 3840)]


def font(size):
    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"):
        if os.path.exists(path):
            return ImageFont.truetype(path, size)
    return ImageFont.load_default()


def artwork(rng, width, height):
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    base = np.stack([
        128 + 100 * np.sin(x / width * math.tau * rng.uniform(0.5, 2) + rng.uniform(0, 6)),
        128 + 100 * np.cos(y / height * math.tau * rng.uniform(0.5, 2)),
        255 * (x + y) / (width + height),
    ], axis=-1)
    image = Image.fromarray(np.clip(base, 0, 255).astype(np.uint8), "RGB")
    draw = ImageDraw.Draw(image)
    for _ in range(60):
        x0, y0 = rng.integers(0, width), rng.integers(0, height)
        x1, y1 = x0 + rng.integers(20, width // 3), y0 + rng.integers(20, height // 3)
        colour = tuple(int(c) for c in rng.integers(0, 256, 3))
        shape = rng.integers(0, 3)
        if shape == 0:
            draw.ellipse((x0, y0, x1, y1), fill=colour)
        elif shape == 1:
            draw.rectangle((x0, y0, x1, y1), outline=colour, width=int(rng.integers(1, 12)))
        else:
            draw.polygon([(x0, y0), (x1, y0 + 40), (x0 + 80, y1)], fill=colour)
    for _ in range(200):
        x0, y0 = rng.integers(0, width, 2)
        draw.line((x0, y0, x0 + rng.integers(-900, 900), y0 + rng.integers(-900, 900)), fill=(0, 0, 0), width=int(rng.integers(1, 4)))
    return image


def screenshot(rng, width, height, alpha):
    image = Image.new("RGBA" if alpha else "RGB", (width, height), (246, 246, 248, 255 if not alpha else 0))
    draw = ImageDraw.Draw(image)
    small, large = font(max(11, height // 150)), font(max(20, height // 50))
    # A window, a sidebar, a title bar, then rows of text divided by one-pixel rules.
    draw.rectangle((40, 40, width - 40, height - 40), fill=(255, 255, 255, 255), outline=(200, 200, 205, 255))
    draw.rectangle((40, 40, width - 40, 110), fill=(52, 101, 164, 255))
    draw.text((70, 55), "Quarterly report - draft 7 (final)", fill=(255, 255, 255, 255), font=large)
    draw.rectangle((40, 110, 420, height - 40), fill=(236, 238, 242, 255))
    words = "the quick brown fox jumps over lazy dog mosaic card sheet pixel render tile lanczos".split()
    y = 130
    while y < height - 80:
        draw.text((60, y), " ".join(rng.choice(words, 3)), fill=(40, 40, 40, 255), font=small)
        draw.text((450, y), " ".join(rng.choice(words, int(rng.integers(6, 16)))), fill=(20, 20, 20, 255), font=small)
        y += small.size + 8
        draw.line((450, y - 3, width - 60, y - 3), fill=(210, 210, 215, 255), width=1)
    for _ in range(8):
        x0, y0 = int(rng.integers(500, width - 500)), int(rng.integers(200, height - 400))
        draw.rectangle((x0, y0, x0 + 360, y0 + 220), fill=(255, 255, 255, 255), outline=(120, 120, 130, 255), width=2)
        for i in range(0, 360, 24):
            draw.rectangle((x0 + i + 4, y0 + 220 - int(rng.integers(20, 200)), x0 + i + 18, y0 + 216), fill=(230, 120, 40, 255))
    return image


def texture(rng, width, height, kind):
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    if kind == 0:  # woven cloth: two fine sine gratings and thread noise
        value = 128 + 60 * np.sin(x * 0.9) * np.sin(y * 0.7) + rng.normal(0, 18, (height, width))
        rgb = np.stack([value, value * 0.8 + 30, value * 0.6 + 50], axis=-1)
    elif kind == 1:  # coloured noise, a little smoothed: gravel, sand
        noise = rng.integers(0, 256, (height // 2 + 1, width // 2 + 1, 3)).astype(np.float32)
        rgb = noise.repeat(2, 0).repeat(2, 1)[:height, :width]
    else:  # stripes whose period sweeps through the card's limit, and a zone plate
        radius2 = (x - width / 2) ** 2 + (y - height / 2) ** 2
        value = 128 + 110 * np.sin(radius2 * (math.pi / (4 * max(width, height))))
        stripes = 128 + 110 * np.sin(x * (0.02 + 0.3 * y / height))
        rgb = np.stack([value, stripes, (value + stripes) / 2], axis=-1)
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--count", type=int, default=3, help="images of each kind")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    rng = np.random.default_rng(24)
    for i in range(args.count):
        width, height = SIZES[i % len(SIZES)]
        artwork(rng, width, height).save(os.path.join(args.folder, f"art{i}-artwork.png"), compress_level=1)
        screenshot(rng, width, height, alpha=i % 2 == 1).save(os.path.join(args.folder, f"screen{i}-screenshot.png"), compress_level=1)
        texture(rng, width, height, i % 3).save(os.path.join(args.folder, f"texture{i}-texture.png"), compress_level=1)


if __name__ == "__main__":
    main()
