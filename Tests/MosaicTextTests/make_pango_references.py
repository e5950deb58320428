#!/usr/bin/env python3
"""Pango's drawing of the caption strings that ScriptTests.matchesPango compares mosaic's
with (issue 28): each string in its Noto family, bold, 24 px, by `pango-view` (Debian
pango1.0-tools), cropped to its ink and written as a plain PGM of coverage (0 paper,
255 ink) into Fixtures/pango-<name>.pgm. Run once where Pango is installed; the test
needs no Pango.

    python3 Tests/MosaicTextTests/make_pango_references.py
"""
import os
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))

# name, family, text: keep in step with ScriptTests.pangoCases.
CASES = [
    ("arabic", "Noto Sans Arabic", "مرحبا بالعالم الجميل"),
    ("hebrew", "Noto Sans Hebrew", "השדה העמוק של האבל"),
    ("hindi", "Noto Sans Devanagari", "क्षत्रिय और स्त्री का प्रश्न"),
    ("thai", "Noto Sans Thai", "ที่นี่มีน้ำใจ ผู้ใหญ่"),
    ("latin", "Noto Sans", "AVATAR Wave office Tokyo"),
]


def main():
    for name, family, text in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            png = os.path.join(tmp, "out.png")
            # 24 pt at 72 dpi is 24 px.
            subprocess.run(["pango-view", "-q", "--dpi=72", "--margin=12", f"--font={family} Bold 24", "-o", png, "--text", text],
                           check=True)
            grey = Image.open(png).convert("L")
        ink = grey.point(lambda v: 255 - v)
        box = ink.getbbox()
        if box is None:
            sys.exit(f"{name}: pango-view drew nothing")
        ink = ink.crop(box)
        path = os.path.join(HERE, "Fixtures", f"pango-{name}.pgm")
        with open(path, "w") as f:
            f.write(f"P2\n{ink.width} {ink.height}\n255\n")
            pixels = ink.tobytes()
            for y in range(ink.height):
                f.write(" ".join(str(v) for v in pixels[y * ink.width:(y + 1) * ink.width]) + "\n")
        print(f"{path}: {ink.width}x{ink.height}")


if __name__ == "__main__":
    main()
