#!/usr/bin/env python3
"""Poster cards of a folder of clips: `mosaic render CLIPS` against `ffmpegthumbnailer -s 512`
run over the same clips two at a time, in alternation (paired runs), RUNS times each.

    bash Benchmarks/video/make_poster_clips.sh /tmp/bench-work/clips
    python3 Benchmarks/video/run_posters.py .build/release/mosaic /tmp/bench-work/clips [--runs 5]

Prints each run's wall and CPU seconds (user + system, /usr/bin/time), the medians and the
ratio of the medians, then, clip by clip, the time of the frame each tool shows and whether
it is black (mean luma under 28 with a spread under 20, or a spread under 6: the test
mosaic's `--poster auto` applies). mosaic's frame times come from its image map (`--json`);
ffmpegthumbnailer's thumbnail is matched against ffmpeg's decode of every frame from 0 to
40% of the clip (the nearest by mean absolute difference). Needs ffmpeg, ffmpegthumbnailer,
Pillow and numpy.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image


def timed(command):
    """Runs `command`; (wall, CPU) seconds from /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r") as times:
        subprocess.run(["/usr/bin/time", "-f", "%e %U %S", "-o", times.name] + command, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, user, system = (float(x) for x in open(times.name).read().split()[-3:])
    return wall, user + system


def black(gray):
    """The poster test: dark and flat, or flat."""
    mean, spread = float(gray.mean()), float(gray.std())
    return spread < 6 or (mean < 28 and spread < 20)


def luma(image):
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64)
    return 0.2126 * rgb[..., 0] + 0.7152 * rgb[..., 1] + 0.0722 * rgb[..., 2]


def duration(path):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def frame_times(path, images, width=128):
    """The times of the frames of `path` (0 to 40% of it) that `images` show (each a
    (picture, fraction of its rows to compare from the top)): the nearest of ffmpeg's frames
    by mean absolute difference, all compared at `width` pixels wide."""
    end = 0.4 * duration(path)
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=avg_frame_rate",
                            "-of", "csv=p=0", path], capture_output=True, text=True, check=True).stdout.strip()
    num, den = (float(x) for x in probe.split(",")[0].split("/"))
    first = images[0][0]
    height = max(2, round(width * first.size[1] / first.size[0] / 2) * 2)
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-t", f"{end:.3f}", "-vf", f"scale={width}:{height}:flags=area",
                          "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    frame_bytes = width * height * 3
    frames = [luma(Image.frombuffer("RGB", (width, height), raw[i * frame_bytes:(i + 1) * frame_bytes]))
              for i in range(len(raw) // frame_bytes)]
    times = []
    for image, rows in images:
        ours = luma(image.resize((width, height), Image.BOX))
        cut = max(1, int(height * rows))
        index = min(range(len(frames)), key=lambda i: float(np.abs(frames[i][:cut] - ours[:cut]).mean()))
        times.append(index * den / num)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mosaic")
    parser.add_argument("clips")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--poster", default=None, help="mosaic's --poster (default: its own, auto)")
    parser.add_argument("--thumbnailer-time", default=None, help="ffmpegthumbnailer's -t (default: its own, 10%%)")
    parser.add_argument("--no-frames", action="store_true", help="skip the table of frames shown")
    args = parser.parse_args()
    clips = sorted(os.path.join(args.clips, name) for name in os.listdir(args.clips) if not name.startswith("."))
    work = tempfile.mkdtemp()
    thumbs = os.path.join(work, "thumbs")
    os.makedirs(thumbs)
    sheet, image_map = os.path.join(work, "posters.png"), os.path.join(work, "posters.json")
    mosaic = [args.mosaic, "render", args.clips, "-o", sheet, "--json", image_map, "-q", "--no-progress", "--no-cache"]
    if args.poster:
        mosaic += ["--poster", args.poster]
    extra = f" -t {args.thumbnailer_time}" if args.thumbnailer_time else ""
    thumbnailer = ["sh", "-c", f"ls '{args.clips}'/* | xargs -P {args.jobs} -I{{}} sh -c "
                   f"'ffmpegthumbnailer -s 512{extra} -i \"{{}}\" -o {thumbs}/$(basename \"{{}}\").jpg 2>/dev/null'"]
    results = {"mosaic": [], "ffmpegthumbnailer": []}
    for run in range(args.runs):
        for label, command in (("mosaic", mosaic), ("ffmpegthumbnailer", thumbnailer)):
            wall, cpu = timed(command)
            results[label].append((wall, cpu))
            print(f"run {run + 1} {label}: wall {wall:.2f} s, CPU {cpu:.2f} s", flush=True)
    medians = {label: (statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for label, runs in results.items()}
    for label, (wall, cpu) in medians.items():
        print(f"{label}: median wall {wall:.2f} s, median CPU {cpu:.2f} s")
    ratios = [m[0] / t[0] for m, t in zip(results["mosaic"], results["ffmpegthumbnailer"])]
    print(f"mosaic / ffmpegthumbnailer: {medians['mosaic'][0] / medians['ffmpegthumbnailer'][0]:.2f}x wall (median of the paired ratios "
          f"{statistics.median(ratios):.2f}x), {medians['mosaic'][1] / medians['ffmpegthumbnailer'][1]:.2f}x CPU")
    if args.no_frames:
        shutil.rmtree(work)
        return
    cards = {}
    page = Image.open(sheet).convert("RGB")
    for element in json.load(open(image_map))["elements"]:
        if element.get("kind") != "card":
            continue
        box = element["imageFrame"]
        x, y, w, h = box["origin"]["x"], box["origin"]["y"], box["size"]["width"], box["size"]["height"]
        cards[os.path.basename(element["source"])] = page.crop((x, y, x + w, y + h))
    print("\n| clip | duration | mosaic's frame | black | ffmpegthumbnailer's frame | black |\n|---|---|---|---|---|---|")
    blacks = {"mosaic": 0, "ffmpegthumbnailer": 0}
    for clip in clips:
        name = os.path.basename(clip)
        thumbnail = Image.open(os.path.join(thumbs, name + ".jpg")).convert("RGB")
        card = cards[name]
        # The card's badge (bottom left) is left out of the comparisons.
        ours_time, theirs_time = frame_times(clip, [(card, 0.7), (thumbnail, 1.0)])
        ours_black = black(luma(card)[: int(card.size[1] * 0.7)])
        theirs_black = black(luma(thumbnail))
        blacks["mosaic"] += ours_black
        blacks["ffmpegthumbnailer"] += theirs_black
        print(f"| {name} | {duration(clip):.1f} s | {ours_time:.2f} s | {'yes' if ours_black else 'no'} | "
              f"{theirs_time:.2f} s | {'yes' if theirs_black else 'no'} |", flush=True)
    print(f"\nblack posters: mosaic {blacks['mosaic']}, ffmpegthumbnailer {blacks['ffmpegthumbnailer']} of {len(clips)}")
    shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
