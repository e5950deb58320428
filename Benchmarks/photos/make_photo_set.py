#!/usr/bin/env python3
"""A set of real photographs (public domain or CC0) for the quality and speed benchmarks.

Takes the photos scikit-image ships in its wheel (PyPI) and the public-domain planetary
and lunar maps of Debian's stellarium-data package, and writes them to OUT as JPEG
(baseline and progressive, quality 90) and PNG, with CREDITS.md. Nothing is installed:
the wheel is fetched with `pip download` and the package with `apt-get download`.

    python3 Benchmarks/photos/make_photo_set.py [OUT]      (default /tmp/bench-work/photos)

Needs Pillow (pip install pillow), pip, and apt-get (Debian).
"""
import glob, os, subprocess, sys, tempfile, zipfile
from PIL import Image

Image.MAX_IMAGE_PIXELS = None

# (file in skimage/data, licence as scikit-image states it)
SKIMAGE = [
    ("astronaut.png", "public domain (NASA, Eileen Collins)"),
    ("brick.png", "CC0 (CC0Textures, Bricks25)"),
    ("camera.png", "CC0 (Lav Varshney)"),
    ("cell.png", "CC0"),
    ("chelsea.png", "CC0 (Stefan van der Walt)"),
    ("clock_motion.png", "public domain (Stefan van der Walt)"),
    ("coffee.png", "CC0 (Rachel Michetti)"),
    ("coins.png", "no known copyright restrictions (Brooklyn Museum)"),
    ("grass.png", "CC0 (CC0Textures)"),
    ("gravel.png", "CC0 (CC0Textures, Gravel04)"),
    ("horse.png", "CC0 (Andreas Preuss)"),
    ("hubble_deep_field.jpg", "public domain (NASA)"),
    ("moon.png", "no known copyright restrictions"),
    ("retina.jpg", "CC0 (Mikael Häggström)"),
    ("rocket.jpg", "public domain (SpaceX)"),
    ("text.png", "public domain"),
]

# (file in /usr/share/stellarium/textures, licence as the package's copyright file states it)
STELLARIUM = [
    ("moon_4k.jpg", "public domain (USGS Astrogeology, Clementine data)"),
    ("moon.png", "public domain (USGS Astrogeology, Clementine data)"),
    ("earthmap.png", "public domain (NASA Earth Observatory, Reto Stockli, MODIS)"),
    ("ganymede.png", "public domain (USGS)"),
    ("dione.png", "public domain (NASA CICLOPS, Cassini)"),
    ("tethys.png", "public domain (NASA CICLOPS, Cassini)"),
    ("rhea.png", "public domain (NASA CICLOPS, Cassini)"),
    ("enceladus.png", "public domain (NASA CICLOPS, Cassini)"),
    ("mimas.png", "public domain (NASA CICLOPS, Cassini)"),
]


def fetch(work):
    """The scikit-image wheel's data folder and stellarium-data's textures folder."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "scikit-image==0.26.0", "-d", work],
                   check=True)
    wheel = glob.glob(os.path.join(work, "scikit_image-*.whl"))[0]
    with zipfile.ZipFile(wheel) as z:
        z.extractall(os.path.join(work, "wheel"), [n for n in z.namelist() if n.startswith("skimage/data/")])
    subprocess.run(["apt-get", "download", "stellarium-data"], cwd=work, check=True, stdout=subprocess.DEVNULL)
    deb = glob.glob(os.path.join(work, "stellarium-data_*.deb"))[0]
    subprocess.run(["dpkg-deb", "-x", deb, os.path.join(work, "deb")], check=True)
    return (os.path.join(work, "wheel/skimage/data"), os.path.join(work, "deb/usr/share/stellarium/textures"))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/bench-work/photos"
    os.makedirs(out, exist_ok=True)
    credits = ["# Real-photo benchmark set: sources and licences", "",
               "Made by Benchmarks/photos/make_photo_set.py from scikit-image 0.26.0's wheel (`skimage/data/`)",
               "and Debian's stellarium-data (`textures/`, licences from its copyright file).", "",
               "| file | source | licence |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        skimage, textures = fetch(work)
        sources = [(os.path.join(skimage, f), "scikit-image " + f, l) for f, l in SKIMAGE]
        sources += [(os.path.join(textures, f), "stellarium-data " + f, l) for f, l in STELLARIUM]
        for index, (path, origin, licence) in enumerate(sources):
            image = Image.open(path)
            image.load()
            stem = os.path.splitext(os.path.basename(path))[0].replace("_", "-")
            if origin.startswith("stellarium"):
                stem = "planet-" + stem
            rgb = image.convert("L" if image.mode in ("L", "I", "I;16") else "RGB")
            # Every photo as a JPEG, every other one progressive; those with alpha or in
            # grey also as a PNG (as such files come).
            name = f"{stem}.jpg"
            rgb.save(os.path.join(out, name), quality=90, progressive=index % 2 == 1)
            credits.append(f"| {name} | {origin} | {licence} |")
            if image.mode in ("RGBA", "LA", "P", "L"):
                name = f"{stem}.png"
                image.save(os.path.join(out, name))
                credits.append(f"| {name} | {origin} | {licence} |")
    with open(os.path.join(out, "CREDITS.md"), "w") as f:
        f.write("\n".join(credits) + "\n")
    print(f"{out}: {len(credits) - 7} images")


if __name__ == "__main__":
    main()
