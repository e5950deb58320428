#!/usr/bin/env python3
"""A hostile pass over `mosaic diff --accept` and `--merge` (issue 35): each case builds a
baseline and a current folder, attacks the run (signals at random points, files and
folders swapped for links mid-run, FIFOs, odd names, overlapping folders, edited parts),
then checks that no baseline was lost (each is its old bytes or the compared new bytes,
or gone only when it was a removed pair and --accept-removed was given), that no
temporary file is left, that nothing outside the baseline changed, and the exit status
and message.

Not run in CI (a few minutes, root for mounts and chattr). Run as root from the
repository, after `swift build`:

    python3 Fuzz/hostile-approval.py [--seed N] [--only NAME] [--mosaic PATH]

Prints one line per case (PASS / FAIL and what was found) and exits 1 when a case fails.
Standard library only.
"""

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "MosaicDiffTests", "Fixtures")
A, B, NOISE, ALPHA = (os.path.join(FIXTURES, n) for n in ("text-changed-a.png", "text-changed-b.png", "noise-a.png", "alpha-a.png"))
MOSAIC = os.path.join(ROOT, ".build", "debug", "mosaic")


def read(path):
    with open(path, "rb") as f:
        return f.read()


def snapshot(root):
    """Every file under root (not following links): relative path -> bytes, or a marker."""
    files = {}
    for folder, dirs, names in os.walk(root):
        for name in names + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                files[rel] = ("link", os.readlink(path))
            elif os.path.isfile(path):
                files[rel] = read(path)
            else:
                files[rel] = ("special",)
    return files


def temporaries(root):
    return sorted(rel for rel in snapshot(root) if ".mosaic-" in rel and rel.endswith(".tmp"))


def put(path, source):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    shutil.copyfile(source, path)


def run(args, cwd=None, timeout=600):
    return subprocess.run([MOSAIC] + args, cwd=cwd, capture_output=True, timeout=timeout, env=dict(os.environ, MOSAIC_CACHE="off"))


def churning(args, step):
    """Runs mosaic with `args` while another thread calls `step()` over and over (each call
    one attack, its OSError ignored); the result."""
    stop = threading.Event()

    def loop():
        while not stop.is_set():
            try:
                step()
            except OSError:
                pass
    thread = threading.Thread(target=loop)
    thread.start()
    try:
        return run(args)
    finally:
        stop.set()
        thread.join()


def sh(script, *args):
    return subprocess.run(["sh", "-c", script, "sh"] + list(args), capture_output=True).returncode == 0


class Case:
    """A baseline `b` and a current `c` under a fresh folder, and the checks."""

    def __init__(self, name):
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="hostile-" + name.replace(" ", "-")[:30] + "-")
        self.b, self.c = os.path.join(self.dir, "b"), os.path.join(self.dir, "c")
        os.makedirs(self.b)
        os.makedirs(self.c)
        self.problems = []

    def pairs(self, count, folders=1, removed=0, added=0):
        """`count` changed pairs (spread over `folders` folders), `removed` baselines
        without a current image, `added` current images without a baseline."""
        for i in range(count):
            rel = f"f{i % folders}/p{i:05}.png" if folders > 1 else f"p{i:05}.png"
            put(os.path.join(self.b, rel), A)
            put(os.path.join(self.c, rel), B)
        for i in range(removed):
            put(os.path.join(self.b, f"gone/r{i:04}.png"), A)
        for i in range(added):
            put(os.path.join(self.c, f"new/a{i:04}.png"), ALPHA)

    def before(self):
        self.old, self.new, self.outside = snapshot(self.b), snapshot(self.c), snapshot_outside(self.dir, [self.b, self.c])

    def check(self, removed_allowed=True, temps_allowed=False):
        """Every baseline old or new (or gone when removed and allowed); nothing else
        changed; no temporary file (unless allowed: a SIGKILL)."""
        now = snapshot(self.b)
        for rel, data in self.old.items():
            if rel not in now:
                if not (removed_allowed and rel not in self.new):
                    self.problems.append(f"baseline {rel} lost")
            elif now[rel] != data and now[rel] != self.new.get(rel):
                self.problems.append(f"baseline {rel} is neither its old nor its new bytes")
        for rel, data in now.items():
            if rel in self.old or (".mosaic-" in rel and rel.endswith(".tmp")):
                continue
            if self.new.get(rel) != data:
                self.problems.append(f"{rel} appeared in the baseline with bytes never compared")
        temps = temporaries(self.b)
        if temps and not temps_allowed:
            self.problems.append(f"temporary files left: {temps[:3]}")
        if snapshot(self.c) != self.new:
            self.problems.append("the current folder changed")
        if snapshot_outside(self.dir, [self.b, self.c]) != self.outside:
            self.problems.append("a file outside both folders changed")

    def expect(self, result, status, stderr_contains=None):
        if result.returncode != status:
            self.problems.append(f"exit {result.returncode}, expected {status}: {result.stderr.decode(errors='replace')[:200]}")
        if stderr_contains is not None and stderr_contains not in result.stderr.decode(errors="replace"):
            self.problems.append(f"stderr lacks {stderr_contains!r}: {result.stderr.decode(errors='replace')[:200]}")

    def done(self):
        sh('umount -R "$1"/* 2>/dev/null; chattr -R -i -a "$1" 2>/dev/null; true', self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)
        return self.problems


def snapshot_outside(root, inside):
    files = {}
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if os.path.join(folder, d) not in inside]
        for name in names:
            path = os.path.join(folder, name)
            files[os.path.relpath(path, root)] = read(path) if os.path.isfile(path) and not os.path.islink(path) else ("other",)
    return files


# MARK: the cases

def interrupted(sig, rng, count=1500):
    """`sig` at a random moment of an approval of `count` changed pairs in 20 folders, 50
    removed and 50 added; then a second approval completes it and removes what is left."""
    def case():
        k = Case(f"signal {sig}")
        k.pairs(count, folders=20, removed=50, added=50)
        k.before()
        args = ["diff", k.b, k.c, "--accept", "--accept-removed", "-q", "--jobs", "2"]
        probe = Case("timing")
        shutil.rmtree(probe.b)
        shutil.copytree(k.b, probe.b)
        shutil.rmtree(probe.c)
        shutil.copytree(k.c, probe.c)
        start = time.time()
        run(["diff", probe.b, probe.c, "--accept", "--accept-removed", "-q", "--jobs", "2"])
        whole = time.time() - start
        probe.done()
        # Most of a run is the comparison; a third of the trials aim at its last tenth,
        # where the files are staged and renamed.
        delay = (rng.uniform(0.9, 1.0) if rng.random() < 0.34 else rng.uniform(0.1, 0.9)) * whole
        process = subprocess.Popen([MOSAIC] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, MOSAIC_CACHE="off"))
        time.sleep(delay)
        process.send_signal(sig)
        out, err = process.communicate()
        killed = process.returncode == -signal.SIGKILL
        if process.returncode not in (0, 128 + sig, -sig):
            k.problems.append(f"exit {process.returncode} after {sig}: {err.decode(errors='replace')[:200]}")
        k.check(temps_allowed=killed)
        now = snapshot(k.b)
        changed = sum(1 for rel in k.old if now.get(rel) != k.old[rel])
        left = len(temporaries(k.b))
        again = run(args)
        k.expect(again, 0)
        if snapshot(k.b) != k.new:
            k.problems.append("the second approval did not make the baseline the current folder")
        what = "finished before the signal" if process.returncode == 0 else f"exit {process.returncode}, {changed} of {len(k.old)} baselines changed, {left} temporary files (then removed)"
        return k, f"signal at {delay:.2f}s of {whole:.2f}s: {what}"
    return case


def swap_folder_for_link():
    """A baseline folder swapped for a link to a folder outside, over and over, while 600
    pairs are approved: nothing outside is written."""
    k = Case("folder swapped for a link")
    k.pairs(600, folders=3)
    os.makedirs(os.path.join(k.dir, "outside"))
    for i in range(200):
        put(os.path.join(k.dir, "outside", f"p{i * 3:05}.png"), NOISE)
    k.before()
    f0, moved, link = os.path.join(k.b, "f0"), os.path.join(k.dir, "f0-moved"), os.path.join(k.dir, "outside")

    def swap():
        time.sleep(0.002)
        os.rename(f0, moved)
        os.symlink(link, f0)
        time.sleep(0.002)
        os.unlink(f0)
        os.rename(moved, f0)
    result = churning(["diff", k.b, k.c, "--accept", "-q"], swap)
    if os.path.islink(os.path.join(k.b, "f0")):
        os.unlink(os.path.join(k.b, "f0"))
    if os.path.isdir(os.path.join(k.dir, "f0-moved")):
        os.rename(os.path.join(k.dir, "f0-moved"), os.path.join(k.b, "f0"))
    k.outside = {r: v for r, v in k.outside.items()}
    k.check()
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:120]}"


def swap_current_for_link():
    """Current images swapped for links to another file during the run: the approval
    writes the compared bytes or refuses (exit 2), never the link's target."""
    k = Case("current swapped for links")
    k.pairs(800)
    put(os.path.join(k.dir, "secret.png"), NOISE)
    k.before()
    names = sorted(os.listdir(k.c))

    def swap():
        path = os.path.join(k.c, random.choice(names))
        os.rename(path, path + ".away")
        os.symlink(os.path.join(k.dir, "secret.png"), path)
        time.sleep(0.001)
        os.unlink(path)
        os.rename(path + ".away", path)
    result = churning(["diff", k.b, k.c, "--accept", "-q"], swap)
    secret = read(os.path.join(k.dir, "secret.png"))
    for rel, data in snapshot(k.b).items():
        if data == secret:
            k.problems.append(f"{rel} became the link's target")
    k.check()
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:120]}"


def special_files():
    """FIFOs, a socket-like special and a directory where a baseline file is expected:
    failed pairs or refusals, never a deletion or a hang."""
    k = Case("special files")
    k.pairs(3)
    os.mkfifo(os.path.join(k.c, "fifo.png"))
    put(os.path.join(k.b, "fifo.png"), A)
    os.mkfifo(os.path.join(k.b, "bfifo.png"))
    put(os.path.join(k.c, "bfifo.png"), B)
    put(os.path.join(k.b, "dir.png", "inside.png"), A)
    put(os.path.join(k.c, "dir.png"), B)
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed"], timeout=60)
    k.check()
    if not os.path.isfile(os.path.join(k.b, "fifo.png")):
        k.problems.append("fifo.png's baseline deleted")
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:160]}"


def odd_names():
    """Names with control characters, a newline, invalid UTF-8, leading dashes and
    case-colliding pairs: each approved as itself."""
    k = Case("odd names")
    names = ["new\nline.png", "tab\there.png", "esc\x1b[31m.png", "-dash.png", "Case.png", "case.png", "CASE.PNG",
             "sp ace.png", "\u202eevil.png", "e\u0301.png", "\u00e9.png"]
    raw = [b"latin1-\xe9.png", b"bell\x07.png"]
    for n in names:
        put(os.path.join(k.b, n), A)
        put(os.path.join(k.c, n), B)
    for n in raw:
        put(os.path.join(k.b.encode(), n).decode("utf-8", "surrogateescape"), A)
        put(os.path.join(k.c.encode(), n).decode("utf-8", "surrogateescape"), B)
    put(os.path.join(k.b, "gone\nremoved.png"), A)
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed", "-q"])
    k.expect(result, 0)
    k.check()
    if snapshot(k.b) != k.new:
        k.problems.append("the baseline is not the current folder after approving every pair")
    return k, f"exit {result.returncode}"


def same_folder():
    """CURRENT == BASELINE, given twice, through a link and through a bind mount."""
    k = Case("current is baseline")
    k.pairs(4, removed=2)
    os.symlink(k.b, os.path.join(k.dir, "link"))
    os.makedirs(os.path.join(k.dir, "bound"))
    mounted = sh('mount --bind "$1" "$2"', k.b, os.path.join(k.dir, "bound"))
    k.before()
    outcomes = []
    for other in [k.b, os.path.join(k.dir, "link"), os.path.join(k.dir, "bound")] if mounted else [k.b, os.path.join(k.dir, "link")]:
        result = run(["diff", k.b, other, "--accept", "--accept-removed"])
        outcomes.append(result.returncode)
        if result.returncode not in (0, 2):
            k.problems.append(f"{other}: exit {result.returncode}")
    sh('umount "$1"', os.path.join(k.dir, "bound"))
    k.outside = snapshot_outside(k.dir, [k.b, k.c])
    k.check(removed_allowed=False)
    return k, f"exits {outcomes}{'' if mounted else ' (no bind mount)'}"


def overlapping():
    """Each folder inside the other, through a link and a bind mount: refused, nothing
    changed."""
    k = Case("overlapping")
    k.pairs(3, removed=2)
    put(os.path.join(k.b, "cur", "p00000.png"), B)
    os.symlink(os.path.join(k.b, "cur"), os.path.join(k.dir, "curlink"))
    os.makedirs(os.path.join(k.b, "mnt"))
    mounted = sh('mount --bind "$1" "$2"', k.c, os.path.join(k.b, "mnt"))
    k.before()
    tried = [(k.b, os.path.join(k.b, "cur")), (os.path.join(k.b, "cur"), k.b), (k.b, os.path.join(k.dir, "curlink"))]
    if mounted:
        tried += [(k.b, k.c), (k.c, k.b)]
    for base, cur in tried:
        result = run(["diff", base, cur, "--accept", "--accept-removed"])
        k.expect(result, 2, "overlap")
    sh('umount "$1"', os.path.join(k.b, "mnt"))
    k.old = {r: v for r, v in k.old.items() if not r.startswith("mnt/")}
    k.check(removed_allowed=False)
    return k, f"{len(tried)} overlaps refused{'' if mounted else ' (no bind mount)'}"


def removed_links():
    """A removed baseline that is a link to a file outside: the link goes, the file stays."""
    k = Case("removed link")
    k.pairs(2)
    put(os.path.join(k.dir, "precious.png"), NOISE)
    os.symlink(os.path.join(k.dir, "precious.png"), os.path.join(k.b, "link.png"))
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed"])
    k.check()
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:120]}"


def read_only_root():
    """The whole baseline on a read-only mount, and on a full tmpfs."""
    k = Case("read-only and full")
    k.pairs(20, removed=5, added=5)
    if not sh('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"', k.b):
        return k, "skipped: no mount"
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed"])
    k.expect(result, 2, "Read-only file system; no baseline was changed")
    sh('umount "$1"', k.b)
    k.check(removed_allowed=False)
    return k, f"exit {result.returncode}"


def full_disk(rng):
    """A tmpfs filled to a random point: the approval either completes or changes nothing."""
    k = Case("full disk")
    disk = os.path.join(k.dir, "disk")
    os.makedirs(disk)
    if not sh('mount -t tmpfs -o size=512k tmpfs "$1"', disk):
        return k, "skipped: no mount"
    k.b = os.path.join(disk, "b")
    os.makedirs(k.b)
    k.pairs(30, removed=10, added=10)
    sh('dd if=/dev/zero of="$1/fill" bs=4096 2>/dev/null; truncate -s -$2 "$1/fill"', disk, str(4096 * rng.randint(1, 40)))
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed", "-q"])
    now = snapshot(k.b)
    if result.returncode == 2 and now != k.old:
        k.problems.append("a failed approval changed baselines")
    if result.returncode == 0 and now != k.new:
        k.problems.append("an approval that succeeded is not the current folder")
    k.check()
    k.b = os.path.join(k.dir, "b")
    sh('umount "$1"', disk)
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:100]}"


def deep_names():
    """Names near PATH_MAX and folders 60 deep."""
    k = Case("deep names")
    deep = "/".join(["d" * 200] * 3) + "/x.png"
    put(os.path.join(k.b, deep), A)
    put(os.path.join(k.c, deep), B)
    many = "/".join(["f"] * 60) + "/y.png"
    put(os.path.join(k.b, many), A)
    k.before()
    result = run(["diff", k.b, k.c, "--accept", "--accept-removed", "-q"])
    k.expect(result, 0)
    k.check()
    return k, f"exit {result.returncode}"


def accept_from_escapes():
    """--accept-from naming ../, absolute paths, a name with a newline split in two."""
    k = Case("accept-from escapes")
    k.pairs(2)
    put(os.path.join(k.dir, "outside.png"), A)
    k.before()
    outcomes = []
    for name in ["../outside.png", "/etc/passwd", "p00000.png/../../outside.png", "./p00000.png", ""]:
        listing = os.path.join(k.dir, "list.txt")
        with open(listing, "w") as f:
            f.write(name + "\n")
        result = run(["diff", k.b, k.c, "--accept-from", listing])
        os.unlink(listing)
        outcomes.append(result.returncode)
    k.check()
    return k, f"exits {outcomes}"


def merges():
    """Parts of other runs, a duplicated key, a part edited to escape, a part 1.1 GiB
    sparse: refused, nothing written."""
    k = Case("merges")
    k.pairs(12)
    for i in range(4):
        put(os.path.join(k.c, f"p{i:05}.png"), A)  # some unchanged
    parts = os.path.join(k.dir, "parts")
    os.makedirs(parts)
    for s in range(3):
        run(["diff", k.b, k.c, "--shard", f"{s}/3", "--json", f"{parts}/part-{s}.json", "--html", f"{parts}/part-{s}.html", "-q"])
    k.before()
    text = read(f"{parts}/part-0.json").decode()
    edits = {
        "key twice": text.replace('"status" : "changed"', '"status" : "changed", "status" : "unchanged"', 1),
        "escape": text.replace('"folder" : "part-0_files"', '"folder" : "..\\/..\\/c_files"'),
        "verdict": text.replace('"status" : "changed"', '"status" : "unchanged"', 1),
    }
    outcomes = {}
    for what, body in edits.items():
        with open(f"{k.dir}/edited.json", "w") as f:
            f.write(body)
        result = run(["diff", "--merge", f"{k.dir}/edited.json", f"{parts}/part-1.json", f"{parts}/part-2.json", "--html", f"{k.dir}/m.html", "--json", f"{k.dir}/m.json"])
        outcomes[what] = result.returncode
        if result.returncode != 2 or os.path.exists(f"{k.dir}/m.html") or os.path.exists(f"{k.dir}/m.json"):
            k.problems.append(f"{what}: exit {result.returncode}, or a report written")
        os.unlink(f"{k.dir}/edited.json")
    with open(f"{k.dir}/huge.json", "wb") as f:
        f.truncate(1100 << 20)
    result = run(["diff", "--merge", f"{parts}/part-0.json", f"{k.dir}/huge.json", "--json", f"{k.dir}/m.json"])
    outcomes["huge"] = result.returncode
    if result.returncode != 2:
        k.problems.append(f"huge part: exit {result.returncode}")
    os.unlink(f"{k.dir}/huge.json")
    # Another run's part: the current folder changed, shard 1 run again.
    other = Case("other run")
    shutil.rmtree(other.b)
    shutil.copytree(k.b, other.b)
    shutil.rmtree(other.c)
    shutil.copytree(k.c, other.c)
    put(os.path.join(other.c, "p00011.png"), NOISE)
    run(["diff", other.b, other.c, "--shard", "1/3", "--json", f"{k.dir}/other-1.json", "-q"])
    result = run(["diff", "--merge", f"{parts}/part-0.json", f"{k.dir}/other-1.json", f"{parts}/part-2.json", "--json", f"{k.dir}/m.json"])
    outcomes["other run"] = result.returncode
    if result.returncode != 2:
        k.problems.append(f"other run's part: exit {result.returncode}")
    other.done()
    os.unlink(f"{k.dir}/other-1.json")
    k.outside = snapshot_outside(k.dir, [k.b, k.c])
    k.check()
    return k, f"exits {outcomes}"


def single_files():
    """A single-file pair: the baseline a link, immutable, or the current a link to it."""
    k = Case("single files")
    put(os.path.join(k.b, "x.png"), A)
    put(os.path.join(k.c, "x.png"), B)
    put(os.path.join(k.dir, "target.png"), NOISE)
    os.symlink(os.path.join(k.dir, "target.png"), os.path.join(k.b, "link.png"))
    k.before()
    outcomes = []
    outcomes.append(run(["diff", os.path.join(k.b, "link.png"), os.path.join(k.c, "x.png"), "--accept"]).returncode)
    immutable = sh('chattr +i "$1"', os.path.join(k.b, "x.png"))
    if immutable:
        result = run(["diff", os.path.join(k.b, "x.png"), os.path.join(k.c, "x.png"), "--accept"])
        outcomes.append(result.returncode)
        k.expect(result, 2, "Operation not permitted; no baseline was changed")
        sh('chattr -i "$1"', os.path.join(k.b, "x.png"))
    os.symlink(os.path.join(k.b, "x.png"), os.path.join(k.c, "same.png"))
    outcomes.append(run(["diff", os.path.join(k.b, "x.png"), os.path.join(k.c, "same.png"), "--accept"]).returncode)
    os.unlink(os.path.join(k.c, "same.png"))
    k.new = snapshot(k.c)
    k.check(removed_allowed=False)
    return k, f"exits {outcomes}{'' if immutable else ' (no chattr)'}"


def vanishing_current():
    """Current images deleted and put back, or replaced by a folder, while 800 pairs are
    approved: refused or approved, never a half."""
    k = Case("vanishing current")
    k.pairs(800, added=100)
    k.before()
    names = sorted(os.listdir(k.c))

    def churn():
        path = os.path.join(k.c, random.choice(names))
        if not os.path.isfile(path):
            return
        os.rename(path, path + ".away")
        os.mkdir(path)
        time.sleep(0.001)
        os.rmdir(path)
        os.rename(path + ".away", path)
    result = churning(["diff", k.b, k.c, "--accept", "-q"], churn)
    k.check()
    now = snapshot(k.b)
    if result.returncode == 2 and now != k.old:
        k.problems.append("a refused approval changed baselines")
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:100]}"


def baseline_turned_folder():
    """Baseline files replaced by folders (holding a file) while 800 pairs are approved:
    the folder is never removed with what it holds."""
    k = Case("baseline turned folder")
    k.pairs(800, removed=50)
    k.before()
    hits = []
    names = sorted(n for n in os.listdir(k.b) if n.endswith(".png"))

    def churn():
        name = random.choice(names)
        path = os.path.join(k.b, name)
        os.rename(path, path + ".away")
        os.mkdir(path)
        with open(os.path.join(path, "keep.txt"), "w") as f:
            f.write("keep")
        time.sleep(0.002)
        if not os.path.isfile(os.path.join(path, "keep.txt")):
            hits.append(name)
        os.unlink(os.path.join(path, "keep.txt"))
        os.rmdir(path)
        os.rename(path + ".away", path)
    result = churning(["diff", k.b, k.c, "--accept", "--accept-removed", "-q"], churn)
    for rel in list(snapshot(k.b)):
        if rel.endswith(".away"):
            os.rename(os.path.join(k.b, rel), os.path.join(k.b, rel[:-5])) if not os.path.exists(os.path.join(k.b, rel[:-5])) else None
    if hits:
        k.problems.append(f"a folder's file was removed: {hits[:3]}")
    k.check()
    return k, f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()[:100]}"


def duplicate_names_and_shards():
    """--accept-only one name twice (and spelt two ways); a merge given one part twice."""
    k = Case("duplicates")
    k.pairs(6)
    parts = os.path.join(k.dir, "parts")
    os.makedirs(parts)
    for s in range(2):
        run(["diff", k.b, k.c, "--shard", f"{s}/2", "--json", f"{parts}/part-{s}.json", "-q"])
    k.before()
    twice = run(["diff", k.b, k.c, "--accept-only", "p00000.png", "--accept-only", "p00000.png", "--accept-only", "p00000.png/"])
    merged = run(["diff", "--merge", f"{parts}/part-0.json", f"{parts}/part-0.json", "--json", f"{k.dir}/m.json"])
    k.expect(merged, 2)
    k.outside = snapshot_outside(k.dir, [k.b, k.c])
    k.check()
    return k, f"accept-only twice: exit {twice.returncode}; one part twice: exit {merged.returncode}"


def main():
    global MOSAIC
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--only")
    parser.add_argument("--mosaic", default=MOSAIC)
    parser.add_argument("--signals", type=int, default=3, help="trials per signal")
    options = parser.parse_args()
    MOSAIC = options.mosaic
    rng = random.Random(options.seed)
    random.seed(options.seed)
    cases = []
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        for t in range(options.signals):
            cases.append((f"{sig.name} during an approval #{t + 1}", interrupted(sig, rng)))
    cases += [
        ("a baseline folder swapped for a link", swap_folder_for_link),
        ("current images swapped for links", swap_current_for_link),
        ("FIFOs and a folder where a file goes", special_files),
        ("control characters, newlines, case collisions", odd_names),
        ("CURRENT == BASELINE (twice, link, bind mount)", same_folder),
        ("overlap (inside, link, bind mount)", overlapping),
        ("a removed baseline that is a link", removed_links),
        ("a read-only baseline", read_only_root),
        ("a disk filled to a random point", lambda: full_disk(rng)),
        ("a disk filled to another point", lambda: full_disk(rng)),
        ("names near PATH_MAX, 60 folders deep", deep_names),
        ("--accept-from escapes", accept_from_escapes),
        ("merges: other run, key twice, escape, verdict, huge", merges),
        ("single-file pairs: a link, immutable, the same file", single_files),
        ("current images vanishing and turned into folders", vanishing_current),
        ("baselines turned into folders mid-run", baseline_turned_folder),
        ("a name given twice, a part given twice", duplicate_names_and_shards),
    ]
    failed = 0
    for name, case in cases:
        if options.only and options.only not in name:
            continue
        try:
            k, note = case()
            problems = k.done()
        except Exception as error:  # the harness itself broke: say so
            problems, note = [f"harness: {error!r}"], ""
        failed += bool(problems)
        print(f"{'FAIL' if problems else 'PASS'}  {name}: {note}")
        for p in problems[:5]:
            print(f"      {p}")
        sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
