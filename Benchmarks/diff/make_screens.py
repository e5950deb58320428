#!/usr/bin/env python3
"""Screenshot pairs for timing `mosaic diff` beside blazediff (run_diff.sh).

    python3 make_screens.py OUT [--pages 16] [--sheets 8] [--same 8] [--size 3840x2160]

writes OUT/baseline/ and OUT/current/, pairs matched by name:
  page-NN.png   a dashboard-like page: flat backgrounds, a header bar, rules, dense
                anti-aliased text, rounded cards with anti-aliased edges, charts, photos;
                the current one has three small edits (a word, an icon moved 1 px, a
                button recoloured)
  sheet-NN.png  a sheet of photos with captions; one photo retouched in a small patch,
                one caption changed
  same-NN.png   a page whose pixels are equal on both sides but whose files differ (other
                zlib level, a text chunk): the "identical" case
Everything comes from a seed (the pair's number): the same command gives the same files.
Photos are the repository's SampleImages/, resized.
"""
import argparse
import glob
import os
import random

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = sorted(glob.glob(os.path.join(HERE, "..", "..", "SampleImages", "*.jpg")) +
                 glob.glob(os.path.join(HERE, "..", "..", "SampleImages", "*.png")))
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
WORDS = ("revenue latency request deploy cluster region users error budget window shard queue "
         "retry commit branch review merge release build cache index query storage backup alert "
         "metric trace span node pod service ingress volume quota limit tenant invoice ledger").split()

_photos = {}


def photo(i, w, h):
    """SampleImages photo i, cropped to fill w x h."""
    src = _photos.get(i)
    if src is None:
        src = Image.open(SAMPLES[i % len(SAMPLES)]).convert("RGB")
        _photos[i] = src
    scale = max(w / src.width, h / src.height)
    im = src.resize((max(w, round(src.width * scale)), max(h, round(src.height * scale))), Image.BICUBIC)
    x, y = (im.width - w) // 2, (im.height - h) // 2
    return im.crop((x, y, x + w, y + h))


def smooth_shape(img, box, fill, radius=0, ellipse=False, scale=4):
    """A rounded rectangle or ellipse with anti-aliased edges (drawn 4x, reduced)."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    mask = Image.new("L", (w * scale, h * scale), 0)
    d = ImageDraw.Draw(mask)
    if ellipse:
        d.ellipse((0, 0, w * scale - 1, h * scale - 1), fill=255)
    else:
        d.rounded_rectangle((0, 0, w * scale - 1, h * scale - 1), radius=radius * scale, fill=255)
    mask = mask.resize((w, h), Image.LANCZOS)
    img.paste(Image.new("RGB", (w, h), fill), (x0, y0), mask)


def chart(img, box, rng, colour):
    """An anti-aliased line chart (drawn 4x, reduced) over rules."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    s = 4
    layer = Image.new("L", (w * s, h * s), 0)
    d = ImageDraw.Draw(layer)
    points, v = [], h * s / 2
    for k in range(0, w * s, 24 * s):
        v = min(h * s - 8, max(8, v + rng.uniform(-1, 1) * h * s / 8))
        points.append((k, v))
    d.line(points, fill=255, width=3 * s, joint="curve")
    layer = layer.resize((w, h), Image.LANCZOS)
    draw = ImageDraw.Draw(img)
    for k in range(5):
        yy = y0 + k * h // 4
        draw.line((x0, min(yy, y1 - 1), x1, min(yy, y1 - 1)), fill=(225, 228, 232))
    img.paste(Image.new("RGB", (w, h), colour), (x0, y0), layer)


def paragraph(draw, x, y, width, lines, rng, font, colour=(40, 44, 52), edit=None):
    """Dense text; with edit=(line, word), that word is replaced."""
    lh = font.size + 6
    for n in range(lines):
        words = [rng.choice(WORDS) for _ in range(width // (font.size * 4))]
        if edit is not None and edit[0] == n:
            words[edit[1] % len(words)] = "changed"
        draw.text((x, y + n * lh), " ".join(words), font=font, fill=colour)
    return y + lines * lh


def page(seed, size, edited):
    rng = random.Random(seed)
    W, H = size
    img = Image.new("RGB", (W, H), (246, 247, 249))
    draw = ImageDraw.Draw(img)
    f = W / 3840
    small = ImageFont.truetype(FONT, max(9, int(22 * f)))
    body = ImageFont.truetype(FONT, max(10, int(26 * f)))
    title = ImageFont.truetype(BOLD, max(12, int(44 * f)))
    # Header bar, sidebar.
    draw.rectangle((0, 0, W, int(110 * f)), fill=(28, 36, 52))
    draw.text((int(40 * f), int(30 * f)), "Operations dashboard %d" % seed, font=title, fill=(255, 255, 255))
    side = int(520 * f)
    draw.rectangle((0, int(110 * f), side, H), fill=(236, 239, 243))
    y = int(150 * f)
    for n in range(28):
        draw.text((int(40 * f), y), "%s %s" % (rng.choice(WORDS).title(), rng.choice(WORDS)), font=body, fill=(60, 66, 80))
        y += int(52 * f)
    # Icon in the sidebar: moved 1 px in the edited page.
    ix = int(440 * f) + (1 if edited else 0)
    smooth_shape(img, (ix, int(160 * f), ix + int(40 * f), int(200 * f)), (52, 120, 246), ellipse=True)
    # Cards: 3 columns.
    col_w = (W - side - int(160 * f)) // 3
    edit_card = rng.randrange(6)
    for c in range(6):
        cx = side + int(40 * f) + (c % 3) * (col_w + int(40 * f))
        cy = int(150 * f) + (c // 3) * int(980 * f)
        smooth_shape(img, (cx, cy, cx + col_w, cy + int(940 * f)), (255, 255, 255), radius=int(18 * f))
        draw.text((cx + int(30 * f), cy + int(24 * f)), "%s %s" % (rng.choice(WORDS).title(), rng.choice(WORDS)), font=title, fill=(28, 36, 52))
        inner = (cx + int(30 * f), cy + int(100 * f), cx + col_w - int(30 * f), cy + int(420 * f))
        if c % 2 == 0:
            img.paste(photo(seed * 7 + c, inner[2] - inner[0], inner[3] - inner[1]), inner[:2])
        else:
            chart(img, inner, rng, (232, 84, 60) if c % 3 else (40, 160, 120))
        yy = paragraph(draw, cx + int(30 * f), cy + int(450 * f), col_w - int(60 * f), 14, rng, small,
                       edit=(3, 5) if edited and c == edit_card else None)
        # A button: recoloured in the edited page.
        bcol = (52, 120, 246) if not (edited and c == (edit_card + 1) % 6) else (60, 126, 250)
        smooth_shape(img, (cx + int(30 * f), yy + int(20 * f), cx + int(250 * f), yy + int(80 * f)), bcol, radius=int(12 * f))
        draw.text((cx + int(60 * f), yy + int(34 * f)), "Open", font=body, fill=(255, 255, 255))
    return img


def sheet(seed, size, edited):
    rng = random.Random(seed)
    W, H = size
    img = Image.new("RGB", (W, H), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    f = W / 3840
    font = ImageFont.truetype(FONT, max(9, int(24 * f)))
    cols, rows = 6, 4
    gap = int(24 * f)
    cw = (W - gap * (cols + 1)) // cols
    ch = (H - gap * (rows + 1)) // rows - int(44 * f)
    target = rng.randrange(cols * rows)
    for k in range(cols * rows):
        x = gap + (k % cols) * (cw + gap)
        y = gap + (k // cols) * (ch + gap + int(44 * f))
        im = photo(seed * 31 + k, cw, ch)
        if edited and k == target:
            # A retouched patch: 30 x 20 px slightly brighter.
            patch = im.crop((cw // 2, ch // 2, cw // 2 + 30, ch // 2 + 20)).point(lambda v: min(255, v + 24))
            im.paste(patch, (cw // 2, ch // 2))
        img.paste(im, (x, y))
        caption = "IMG_%04d.jpg  %s" % (seed * 100 + k, rng.choice(WORDS))
        if edited and k == (target + 5) % (cols * rows):
            caption += " (edited)"
        draw.text((x, y + ch + int(8 * f)), caption, font=font, fill=(50, 50, 50))
    return img


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--pages", type=int, default=16)
    ap.add_argument("--sheets", type=int, default=8)
    ap.add_argument("--same", type=int, default=8)
    ap.add_argument("--size", default="3840x2160")
    a = ap.parse_args()
    size = tuple(int(v) for v in a.size.split("x"))
    for side in ("baseline", "current"):
        os.makedirs(os.path.join(a.out, side), exist_ok=True)

    def save(im, side, name, **kw):
        im.save(os.path.join(a.out, side, name), **kw)

    for n in range(a.pages):
        save(page(n, size, False), "baseline", "page-%02d.png" % n, compress_level=6)
        save(page(n, size, True), "current", "page-%02d.png" % n, compress_level=6)
    for n in range(a.sheets):
        save(sheet(100 + n, size, False), "baseline", "sheet-%02d.png" % n, compress_level=6)
        save(sheet(100 + n, size, True), "current", "sheet-%02d.png" % n, compress_level=6)
    for n in range(a.same):
        im = page(200 + n, size, False)
        save(im, "baseline", "same-%02d.png" % n, compress_level=6)
        info = PngImagePlugin.PngInfo()
        info.add_text("Software", "another encoder")
        save(im, "current", "same-%02d.png" % n, compress_level=3, pnginfo=info)


if __name__ == "__main__":
    main()
