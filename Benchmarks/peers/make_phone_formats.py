#!/usr/bin/env python3
"""HEIC and WebP copies of 100 phone-sized photos of corpus M, for the peer benchmark.

Takes the first 100 JPEGs of CORPUS_M (make_corpus.py --only M) that are 4032x3024 or
3024x4032 and writes each as HEIC (x265, quality 80, preset ultrafast: the encoder's speed
does not change how fast a file decodes) into OUT/heic100 and as lossy WebP (quality 80)
into OUT/webp100:

    python3 Benchmarks/peers/make_phone_formats.py /tmp/bench-work/corpus-M /tmp/bench-work
    PEERS="vips.cli vips.cli2 mosaic" MOSAIC=.build/release/mosaic bash Benchmarks/peers/run_peers.sh /tmp/bench-work/heic100

Needs Pillow and pillow-heif (pip install pillow pillow-heif). Files already written are
kept, so an interrupted run continues.
"""
import glob, os, sys
from PIL import Image
import pillow_heif

pillow_heif.register_heif_opener()


def main():
    corpus, out = sys.argv[1], sys.argv[2]
    heic, webp = os.path.join(out, "heic100"), os.path.join(out, "webp100")
    os.makedirs(heic, exist_ok=True)
    os.makedirs(webp, exist_ok=True)
    count = 0
    for path in sorted(glob.glob(os.path.join(corpus, "*.jpg"))):
        photo = Image.open(path)
        if photo.size not in ((4032, 3024), (3024, 4032)):
            continue
        photo = photo.convert("RGB")
        stem = os.path.splitext(os.path.basename(path))[0]
        if not os.path.exists(os.path.join(webp, stem + ".webp")):
            photo.save(os.path.join(webp, stem + ".webp"), quality=80)
        if not os.path.exists(os.path.join(heic, stem + ".heic")):
            photo.save(os.path.join(heic, stem + ".heic"), quality=80, enc_params={"preset": "ultrafast"})
        count += 1
        if count == 100:
            break
    print(f"{count} photos in {heic} and {webp}")


if __name__ == "__main__":
    main()
