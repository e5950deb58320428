#!/usr/bin/env python3
"""Thumbnail quality of a mosaic sheet, card by card.

Renders FOLDER with mosaic (no captions, shadows, corners or padding, on white), reads the
image frames from the --json map, and compares each card's pixels with a reference made
from the full-resolution source (EXIF-oriented) resized with Pillow's Lanczos to the
card's frame. With --vips, libvips's thumbnail of each source at the same size (pyvips,
`thumbnail(size="force")`, flattened on white) is scored against the same reference.
Prints PSNR in dB per card and the median and minimum of each tool.

With --icc, a source's embedded ICC profile is applied to its reference first (Pillow's
ImageCms to sRGB, relative colorimetric with black-point compensation, as mosaic does),
libvips exports its thumbnails to sRGB, and the figures are also given per group of files
named alike (the part of the name after the last "-", with the extension: "adobe.jpg").

    python3 Benchmarks/quality/card_psnr.py MOSAIC FOLDER [--columns 6] [--width 1800] [--vips] [--icc]

Needs Pillow and numpy (pip install pillow numpy), and pyvips for --vips.
"""
import argparse, io, json, math, os, subprocess, sys, tempfile
import numpy as np
from PIL import Image, ImageCms, ImageOps

Image.MAX_IMAGE_PIXELS = None
try:  # HEIF and AVIF references (pip install pillow-heif)
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pass


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mosaic")
    parser.add_argument("folder")
    parser.add_argument("--columns", type=int, default=6)
    parser.add_argument("--width", type=int, default=1800)
    parser.add_argument("--vips", action="store_true", help="score libvips's thumbnail too")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--icc", action="store_true", help="colour-manage the references; figures per group")
    args = parser.parse_args()
    if args.vips:
        import pyvips
    out = tempfile.mkdtemp()
    sheet, mapping = os.path.join(out, "sheet.png"), os.path.join(out, "map.json")
    subprocess.run([args.mosaic, "render", args.folder, "-o", sheet, "--json", mapping, "--columns", str(args.columns),
                    "--width", str(args.width), "--caption", "none", "--shadow", "none", "--corner-radius", "0",
                    "--padding", "0", "--background", "white", "--card-background", "white", "--no-progress", "-q",
                    "--max-aspect", "1000"], check=True)
    page = np.asarray(Image.open(sheet).convert("RGB"))
    cards = [e for e in json.load(open(mapping))["elements"] if e["kind"] == "card" and not e.get("failure")]
    scores, peer, groups = [], [], {}
    for card in cards:
        f = card["imageFrame"]
        x, y, w, h = f["origin"]["x"], f["origin"]["y"], f["size"]["width"], f["size"]["height"]
        source = ImageOps.exif_transpose(Image.open(card["source"]))
        icc = source.info.get("icc_profile")
        if args.icc and icc:
            source = ImageCms.profileToProfile(
                source.convert("RGB") if source.mode not in ("RGB", "CMYK", "L") else source, ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                ImageCms.createProfile("sRGB"), renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB",
                flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)
        if source.mode in ("RGBA", "LA", "P"):
            source = source.convert("RGBA")
            white = Image.new("RGBA", source.size, (255, 255, 255, 255))
            source = Image.alpha_composite(white, source)
        reference = np.asarray(source.convert("RGB").resize((w, h), Image.LANCZOS))
        score = psnr(page[y:y + h, x:x + w], reference)
        scores.append(score)
        group = os.path.basename(card["source"]).rsplit("-", 1)[-1]
        groups.setdefault(group, {}).setdefault("mosaic", []).append(score)
        line = f"{score:6.2f} dB  {w}x{h}  {os.path.basename(card['source'])}"
        if args.vips:
            options = {"export_profile": "srgb"} if args.icc else {}
            thumb = pyvips.Image.thumbnail(card["source"], w, height=h, size="force", **options)
            if thumb.hasalpha():
                thumb = thumb.flatten(background=[255] * (thumb.bands - 1))
            if thumb.bands < 3:
                thumb = thumb.colourspace("srgb")
            pixels = np.ndarray(buffer=thumb.write_to_memory(), dtype=np.uint8, shape=[thumb.height, thumb.width, thumb.bands])
            peer.append(psnr(pixels[:, :, :3], reference))
            groups[group].setdefault("libvips", []).append(peer[-1])
            line += f"   libvips {peer[-1]:6.2f} dB"
        if not args.quiet:
            print(line)
    def summary(label, values):
        values = sorted(values)
        return f"{label}: {len(values)} cards, median {values[len(values) // 2]:.2f} dB, min {values[0]:.2f} dB"
    if args.icc:
        for group in sorted(groups):
            print(group.ljust(12), "   ".join(summary(name, values) for name, values in groups[group].items()))
    for name, values in (("mosaic", scores), ("libvips", peer)):
        if values:
            print(summary(name, values))


if __name__ == "__main__":
    sys.exit(main())
