#!/usr/bin/env python3
"""The PNG fuzzer's pair seeds: two small PNGs of one size one after the other (a baseline
and an edited copy), rows filtered with a mix of all five filters as encoders choose them.
Run once; the seeds are kept:  python3 Fuzz/seeds-png-pairs/make_pairs.py"""
import os
import struct
import zlib


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filtered(rows, bpp):
    out = bytearray()
    above = bytes(len(rows[0]))
    for y, row in enumerate(rows):
        # Rows 8 to 12 filtered Up: a band moved by one amount has equal filtered bytes
        # below its first row, though the rows above them differ.
        kind = 2 if 8 <= y <= 12 else (y * 7 // 3) % 5
        out.append(kind)
        for i, v in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = above[i]
            c = above[i - bpp] if i >= bpp else 0
            pred = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            out.append((v - pred) & 0xFF)
        above = row
    return bytes(out)


def png(rows, width, color_type, bpp):
    header = struct.pack(">IIBBBBB", width, len(rows), 8, color_type, 0, 0, 0)
    data = zlib.compress(filtered(rows, bpp), 6)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def picture(width, height, bpp, seed):
    rows = []
    for y in range(height):
        rows.append(bytes(((x * 5 + y * 3 + c * 60 + seed) ^ (x * y)) & 0xFF for x in range(width) for c in range(bpp)))
    return rows


here = os.path.dirname(os.path.abspath(__file__))
for name, color_type, bpp in [("rgb", 2, 3), ("rgba", 6, 4), ("grey", 0, 1)]:
    width, height = 24, 20
    base = picture(width, height, bpp, 1)
    edited = list(base)
    edited[5] = bytes((v + 40) & 0xFF for v in base[5])
    for y in range(8, 12):
        edited[y] = bytes((v + 40) & 0xFF for v in base[y])
    edited[17] = bytes(reversed(base[17]))
    with open(os.path.join(here, "pair-%s.png" % name), "wb") as f:
        f.write(png(base, width, color_type, bpp) + png(edited, width, color_type, bpp))
