#!/usr/bin/env python3
"""Wide-gamut copies of a folder of sRGB photos, for the colour-management check.

Each photo of SOURCE (JPEG or PNG, sRGB) is converted with Pillow's ImageCms (Little CMS,
relative colorimetric) into Adobe RGB (1998) (the profile of Debian's icc-profiles-free)
and into Display P3 (a matrix/TRC profile written here: DCI-P3 primaries, D65, sRGB's
curve, as phones use), and saved with the profile embedded as JPEG (quality 95), PNG
and WebP (quality 95) into OUT:

    python3 Benchmarks/quality/make_wide_gamut.py SampleImages /tmp/bench-work/wide
    python3 Benchmarks/quality/card_psnr.py .build/release/mosaic /tmp/bench-work/wide --icc --vips

Needs Pillow (pip install pillow) and icc-profiles-free (apt-get install icc-profiles-free).
"""
import io, os, struct, sys
import numpy as np
from PIL import Image, ImageCms, ImageOps

ADOBE = "/usr/share/color/icc/compatibleWithAdobeRGB1998.icc"


def s15(value):
    return struct.pack(">i", round(value * 65536))


def matrix_trc_profile(name, primaries, white=(0.3127, 0.3290)):
    """An ICC v2.4 display profile: `primaries` ((x, y) of red, green, blue), `white`,
    sRGB's tone curve; the colorants adapted to D50 with Bradford."""
    def xyz(x, y):
        return np.array([x / y, 1.0, (1 - x - y) / y])
    p = np.stack([xyz(*c) for c in primaries], 1)
    m = p * np.linalg.solve(p, xyz(*white))
    bradford = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
    d50 = np.array([0.9642, 1.0, 0.8249])
    cone = np.diag((bradford @ d50) / (bradford @ xyz(*white)))
    adapted = np.linalg.inv(bradford) @ cone @ bradford @ m
    curve = b"para" + bytes(4) + struct.pack(">HH", 3, 0) + b"".join(s15(v) for v in (2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045))
    text = name.encode() + b"\0"
    tags = [
        (b"desc", b"desc" + bytes(4) + struct.pack(">I", len(text)) + text + bytes(4) + bytes(4) + bytes(3) + bytes(67)),
        (b"cprt", b"text" + bytes(4) + b"No copyright, use freely\0"),
        (b"wtpt", b"XYZ " + bytes(4) + b"".join(s15(v) for v in d50)),
        (b"rXYZ", b"XYZ " + bytes(4) + b"".join(s15(v) for v in adapted[:, 0])),
        (b"gXYZ", b"XYZ " + bytes(4) + b"".join(s15(v) for v in adapted[:, 1])),
        (b"bXYZ", b"XYZ " + bytes(4) + b"".join(s15(v) for v in adapted[:, 2])),
        (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve),
    ]
    offset = 128 + 4 + 12 * len(tags)
    table, data = struct.pack(">I", len(tags)), b""
    for signature, body in tags:
        body += bytes(-len(body) % 4)
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"lcms" + struct.pack(">I", 0x02400000) + b"mntrRGB XYZ " + bytes(12) + b"acsp"
              + bytes(4) + bytes(4) + bytes(4) + bytes(4) + bytes(8) + struct.pack(">I", 0) + b"".join(s15(v) for v in d50)
              + bytes(4) + bytes(16))
    header += bytes(128 - len(header))
    return header + table + data


def main():
    source, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    srgb = ImageCms.createProfile("sRGB")
    targets = {
        "adobe": open(ADOBE, "rb").read(),
        "p3": matrix_trc_profile("Display P3 (mosaic benchmark)", [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]),
    }
    for name in sorted(os.listdir(source)):
        if not name.lower().endswith((".jpg", ".jpeg", ".png")):
            continue
        photo = ImageOps.exif_transpose(Image.open(os.path.join(source, name))).convert("RGB")
        stem = os.path.splitext(name)[0]
        for space, icc in targets.items():
            profile = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            wide = ImageCms.profileToProfile(photo, srgb, profile, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC)
            wide.save(os.path.join(out, f"{stem}-{space}.jpg"), quality=95, icc_profile=icc)
            wide.save(os.path.join(out, f"{stem}-{space}.png"), icc_profile=icc)
            wide.save(os.path.join(out, f"{stem}-{space}.webp"), quality=95, icc_profile=icc)
    print(f"wrote {len(os.listdir(out))} files to {out}")


if __name__ == "__main__":
    main()
