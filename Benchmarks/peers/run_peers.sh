#!/usr/bin/env bash
# run_peers.sh - time contact-sheet generators side by side on one folder of photos.
#
# Usage:  run_peers.sh CORPUS_DIR
#
# Every peer turns the same sorted list of images (*.jpg *.jpeg *.png *.webp
# *.heic *.heif *.avif, any case, top level of CORPUS_DIR) into ONE PNG contact sheet: SHEET_COLUMNS
# columns, SHEET_WIDTH px wide, SHEET_GAP px between tiles.  Each tile sits in
# a square cell of SHEET_WIDTH/SHEET_COLUMNS px and is fitted inside
# (cell - gap) px, centred, on white (so the sheet is a GRID, not masonry).
#
# Peers (select with PEERS="..."; default: all but im.nohint; an exported
# MAGICK_CONFIGURE_PATH applies to every im.* peer):
#   im.fast     ImageMagick montage with the jpeg:size decode hint, no labels
#   im.z1       im.fast writing the PNG with zlib level 1 (fastest montage)
#   im.labels   im.fast + -auto-orient + -label %f (file name under each tile)
#   im.relaxed  im.fast with a relaxed ImageMagick resource policy (the
#               stock Debian policy.xml caps memory 256MiB, map 512MiB,
#               disk 1GiB, width/height 16KP, area 128MP)
#   im.nohint   montage without the decode hint nor -thumbnail (not in the
#               default list: under the stock policy it fails even on 24
#               12-MP photos)
#   vips.cli    one vipsthumbnail process -> PPM tiles, then vips arrayjoin
#   vips.cli2   two vipsthumbnail processes (xargs -P2, one thread each),
#               then vips arrayjoin
#   vips.py     pyvips in one process: thumbnail (2 threads) + arrayjoin
#               (skipped when "import pyvips" fails)
#   floor       libjpeg-turbo djpeg -scale M/8 of every JPEG (xargs -P2),
#               full PNG decode (pngtopnm, xargs -P2), and encoding one PNG
#               of the final sheet size from a raw buffer (pnmtopng, vips):
#               reported as separate rows plus their sum
#   mosaic      $MOSAIC render CORPUS_DIR -o OUT.png --columns C --width W
#               (skipped when MOSAIC is unset; MOSAIC may hold several words)
#
# Environment (defaults):
#   SHEET_COLUMNS=6 SHEET_WIDTH=1800 SHEET_GAP=8
#   RUNS=3            timed runs per peer (the table shows the median)
#   WARMUP=1          untimed runs first (warm page cache, check it works)
#   BENCH_WORK=/tmp/bench-work        scratch root
#   RUN_DIR=$BENCH_WORK/run-<corpus name>   outputs, tiles, raw timings
#   PEERS="im.fast im.z1 im.labels im.relaxed vips.cli vips.cli2 vips.py floor mosaic"
#   TIME_BIN=GNU time found on PATH (apt-get install time)
#   PYTHON=python3    for vips.py and for reading image headers
#   SHEET_THREADS=2   thread pool size of vips.py
#
# Measurement: each run is `$TIME_BIN -v bash run_peers.sh --step PEER`; wall
# is bash's EPOCHREALTIME around that call, cpu = user + sys of the whole
# process tree, peak_rss = "Maximum resident set size", i.e. the LARGEST
# SINGLE process of the tree (not the sum of processes running at once, so
# for the xargs -P2 rows the machine-wide peak can be up to twice that).
# Table: median wall and cpu over RUNS, max peak RSS over RUNS, output size
# read from the PNG header.  Raw rows: $RUN_DIR/runs.tsv; summary:
# $RUN_DIR/summary.tsv.
#
# Needs: bash 5, GNU time, coreutils, imagemagick (montage), libvips-tools
# (vipsthumbnail, vips), libjpeg-turbo-progs (djpeg), netpbm (pngtopnm,
# pnmtopng), python3; optional: pyvips (pip install pyvips).
# Limitation: the vips CLI peers name tiles after the input's base name, so
# they are skipped unless names are unique without extension and blank-free.

set -euo pipefail
# Cold runs: no card cache (a second run would otherwise time cache hits).
export MOSAIC_CACHE=off
SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/$(basename "${BASH_SOURCE[0]}")

# ---------------------------------------------------------------- peers ----
# Each step_* runs with: INPUTS (array), OUT, COLS, CELL, THUMB, HALF, WIDTH,
# CORPUS, RUN_DIR, and a fresh scratch dir SCRATCH.

# jpeg:size lets libjpeg decode at 1/2, 1/4 or 1/8 scale (DCT scaling);
# -thumbnail shrinks every picture right after it is read, so the list held
# in memory stays small (without it 200 x 12 MP spill the pixel cache to
# disk); -depth 8 because montage writes a 16-bit PNG otherwise.
step_im.fast() {
  montage -define "jpeg:size=${THUMB}x${THUMB}" -thumbnail "${THUMB}x${THUMB}" "${INPUTS[@]}" \
    -geometry "${THUMB}x${THUMB}+${HALF}+${HALF}" -tile "${COLS}x" \
    -background white -depth 8 "$OUT"
}

# the fastest montage found: im.fast with zlib level 1 for the PNG (about
# 10% bigger file; the default level costs ~30% of montage's time on 200)
step_im.z1() {
  montage -define "jpeg:size=${THUMB}x${THUMB}" -thumbnail "${THUMB}x${THUMB}" "${INPUTS[@]}" \
    -geometry "${THUMB}x${THUMB}+${HALF}+${HALF}" -tile "${COLS}x" \
    -background white -depth 8 -define png:compression-level=1 "$OUT"
}

step_im.labels() {
  montage -define "jpeg:size=${THUMB}x${THUMB}" -auto-orient -thumbnail "${THUMB}x${THUMB}" \
    -label '%f' "${INPUTS[@]}" \
    -geometry "${THUMB}x${THUMB}+${HALF}+${HALF}" -tile "${COLS}x" \
    -background white -depth 8 "$OUT"
}

# im.fast under a relaxed ImageMagick policy (written to $RUN_DIR/im-policy
# at start-up; MAGICK_CONFIGURE_PATH makes montage read it instead of the
# distribution's policy.xml): shows what the stock limits cost or forbid.
step_im.relaxed() {
  MAGICK_CONFIGURE_PATH="$RUN_DIR/im-policy" step_im.fast
}

step_im.nohint() {
  montage "${INPUTS[@]}" \
    -geometry "${THUMB}x${THUMB}+${HALF}+${HALF}" -tile "${COLS}x" \
    -background white -depth 8 "$OUT"
}

# tiles as PPM: the PPM saver cannot hold alpha, so RGBA inputs are
# flattened on white while saving; vipsthumbnail applies EXIF orientation.
_vips_join() {
  local list="" f b
  for f in "${INPUTS[@]}"; do b=${f##*/}; list+="$SCRATCH/${b%.*}.ppm "; done
  vips arrayjoin "$list" "$OUT" --across "$COLS" --hspacing "$CELL" --vspacing "$CELL" \
    --halign centre --valign centre --background 255
}

step_vips.cli() {
  vipsthumbnail -s "${THUMB}x${THUMB}" -o "$SCRATCH/%s.ppm[background=255]" "${INPUTS[@]}"
  _vips_join
}

step_vips.cli2() {
  local n=${#INPUTS[@]}
  printf '%s\0' "${INPUTS[@]}" |
    VIPS_CONCURRENCY=1 xargs -0 -P2 -n $(( (n + 1) / 2 )) \
      vipsthumbnail -s "${THUMB}x${THUMB}" -o "$SCRATCH/%s.ppm[background=255]"
  _vips_join
}

step_vips.py() {
  "$PYTHON" "$RUN_DIR/sheet_pyvips.py" "$OUT" "$COLS" "$CELL" "$THUMB" "${INPUTS[@]}"
}

step_floor.decode-jpeg() {
  xargs -0 -P2 -n2 djpeg -outfile /dev/null -scale < "$RUN_DIR/floor_jpeg.lst"
}

step_floor.decode-png() {
  xargs -0 -P2 -n1 pngtopnm < "$RUN_DIR/floor_png.lst" > /dev/null
}

step_floor.encode-png() {
  pnmtopng "$RUN_DIR/sheet.ppm" > "$OUT"
}

step_floor.encode-png-vips() {
  vips copy "$RUN_DIR/sheet.v" "$OUT"
}

step_mosaic() {
  local -a cmd
  read -r -a cmd <<< "$MOSAIC"
  "${cmd[@]}" render "$CORPUS" -o "$OUT" --columns "$COLS" --width "$WIDTH"
}

# ------------------------------------------------------- step mode ---------
if [[ "${1:-}" == "--step" ]]; then
  name=$2
  mapfile -d '' INPUTS < "$RUN_DIR/inputs.lst"
  "step_$name"
  exit $?
fi

# ------------------------------------------------------------- driver ------
CORPUS=${1:?usage: run_peers.sh CORPUS_DIR   (see the header for the environment)}
CORPUS=$(cd "$CORPUS" && pwd)
COLS=${SHEET_COLUMNS:-6}
WIDTH=${SHEET_WIDTH:-1800}
GAP=${SHEET_GAP:-8}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}
BENCH_WORK=${BENCH_WORK:-/tmp/bench-work}
RUN_DIR=${RUN_DIR:-$BENCH_WORK/run-$(basename "$CORPUS")}
PEERS=${PEERS:-"im.fast im.z1 im.labels im.relaxed vips.cli vips.cli2 vips.py floor mosaic"}
TIME_BIN=${TIME_BIN:-$(type -P time || true)}
PYTHON=${PYTHON:-python3}
MOSAIC=${MOSAIC:-}

[[ -n "$TIME_BIN" ]] && "$TIME_BIN" -v true >/dev/null 2>&1 ||
  { echo "GNU time not found (apt-get install time, or set TIME_BIN)" >&2; exit 2; }

CELL=$(( WIDTH / COLS ))
THUMB=$(( CELL - GAP ))
HALF=$(( GAP / 2 ))
(( CELL * COLS == WIDTH && GAP % 2 == 0 )) ||
  echo "note: width $WIDTH / $COLS columns with gap $GAP is not exact; sheets will be $(( CELL * COLS )) px wide" >&2

mkdir -p "$RUN_DIR/out"
export CORPUS RUN_DIR COLS CELL THUMB HALF WIDTH PYTHON MOSAIC

# the input list, sorted the same way for everybody
find "$CORPUS" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' -o -iname '*.webp' \
  -o -iname '*.heic' -o -iname '*.heif' -o -iname '*.avif' \) -print0 |
  LC_ALL=C sort -z > "$RUN_DIR/inputs.lst"
mapfile -d '' INPUTS < "$RUN_DIR/inputs.lst"
N=${#INPUTS[@]}
(( N > 0 )) || { echo "no *.jpg/*.jpeg/*.png/*.webp/*.heic/*.avif in $CORPUS" >&2; exit 2; }

# headers -> floor lists (scale M/8: the smallest DCT scaling whose output
# still covers the fitted tile), a one-line corpus description
"$PYTHON" - "$RUN_DIR" "$THUMB" > "$RUN_DIR/corpus.txt" <<'PY'
import os, struct, sys
run_dir, box = sys.argv[1], int(sys.argv[2])
names = open(os.path.join(run_dir, "inputs.lst"), "rb").read().split(b"\0")[:-1]
def jpeg_size(f):
    with open(f, "rb") as fh:
        if fh.read(2) != b"\xff\xd8": return None
        while True:
            b = fh.read(1)
            while b and b != b"\xff": b = fh.read(1)
            while b == b"\xff": b = fh.read(1)
            if not b: return None
            m = b[0]
            if m in (0xD8, 0x01) or 0xD0 <= m <= 0xD7: continue
            ln = struct.unpack(">H", fh.read(2))[0]
            if m in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">xHH", fh.read(5))
                return w, h, m == 0xC2
            fh.seek(ln - 2, 1)
def png_size(f):
    with open(f, "rb") as fh:
        d = fh.read(26)
    if d[:8] != b"\x89PNG\r\n\x1a\n": return None
    w, h = struct.unpack(">II", d[16:24])
    return w, h, d[25]
jl, pl, mp, nj, nprog, npng, nother = [], [], 0.0, 0, 0, 0, 0
for n in names:
    f = os.fsdecode(n)
    j = jpeg_size(f)
    if j:
        w, h, prog = j
        s = min(box / w, box / h)                      # fit into box x box
        tw, th = max(1, round(w * s)), max(1, round(h * s))
        m = next((m for m in range(1, 9) if (w * m + 7) // 8 >= tw and (h * m + 7) // 8 >= th), 8)
        jl.append(b"%d/8\0" % m + n + b"\0")
        nj += 1; nprog += prog; mp += w * h / 1e6
        continue
    p = png_size(f)
    if p:
        pl.append(n + b"\0"); npng += 1; mp += p[0] * p[1] / 1e6
    else:
        nother += 1
stems = [os.path.splitext(os.path.basename(n))[0] for n in names]
unsafe = os.path.join(run_dir, "vips_cli_unsafe")
if len(set(stems)) != len(stems) or any(c.isspace() for st in stems for c in st.decode(errors="replace")):
    open(unsafe, "w").write("duplicate base names or blanks in names\n")
elif os.path.exists(unsafe):
    os.remove(unsafe)
open(os.path.join(run_dir, "floor_jpeg.lst"), "wb").write(b"".join(jl))
open(os.path.join(run_dir, "floor_png.lst"), "wb").write(b"".join(pl))
print("%d JPEG (%d progressive), %d PNG, %d WebP/HEIF/AVIF, %.0f megapixels of JPEG and PNG" % (nj, nprog, npng, nother, mp))
PY
mkdir -p "$RUN_DIR/im-policy"
cat > "$RUN_DIR/im-policy/policy.xml" <<'XML'
<policymap>
  <policy domain="resource" name="memory" value="8GiB"/>
  <policy domain="resource" name="map" value="8GiB"/>
  <policy domain="resource" name="disk" value="16GiB"/>
  <policy domain="resource" name="width" value="128KP"/>
  <policy domain="resource" name="height" value="128KP"/>
  <policy domain="resource" name="area" value="4GP"/>
</policymap>
XML

cat > "$RUN_DIR/sheet_pyvips.py" <<'PY'
# one-process libvips contact sheet: thumbnail (shrink-on-load, EXIF
# auto-rotate) in 2 threads, flatten alpha on white, centre in the cell,
# arrayjoin, PNG save
import os, sys
from concurrent.futures import ThreadPoolExecutor
import pyvips
out, cols, cell, thumb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
files = sys.argv[5:]
def tile(f):
    t = pyvips.Image.thumbnail(f, thumb, height=thumb)
    if t.hasalpha():
        t = t.flatten(background=255)
    if t.bands < 3:
        t = t.colourspace("srgb")
    t = t.gravity("centre", cell, cell, extend="background", background=255)
    return t.copy_memory()
with ThreadPoolExecutor(int(os.environ.get("SHEET_THREADS", "2"))) as ex:
    tiles = list(ex.map(tile, files))
pyvips.Image.arrayjoin(tiles, across=cols).write_to_file(out)
PY

# ------------------------------------------------------------ timing -------
RUNS_TSV=$RUN_DIR/runs.tsv
SUMMARY=$RUN_DIR/summary.tsv
printf 'peer\trun\trc\twall_s\tuser_s\tsys_s\tpeak_rss_kb\tother_cpu_s\n' > "$RUNS_TSV"
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

busy_ticks() {  # machine-wide non-idle CPU ticks so far (0 when unknown)
  awk '/^cpu / { print $2+$3+$4+$7+$8+$9; exit }' /proc/stat 2>/dev/null || echo 0
}

png_dims() {  # WxH from the IHDR chunk
  local f=$1 sig
  [[ -s "$f" ]] || { echo "-"; return; }
  sig=$(od -An -tx1 -N8 "$f" | tr -d ' \n')
  [[ "$sig" == 89504e470d0a1a0a ]] || { echo "not-png"; return; }
  od -An -tu1 -j16 -N8 "$f" |
    awk '{ printf "%dx%d\n", (($1*256+$2)*256+$3)*256+$4, (($5*256+$6)*256+$7)*256+$8 }'
}

one_run() {  # peer run-index; appends a row to runs.tsv, returns the peer's rc
  local peer=$1 idx=$2 out="$RUN_DIR/out/$1.png" tfile=$RUN_DIR/time.txt
  local scratch t0 t1 b0 b1 rc
  scratch=$(mktemp -d "$RUN_DIR/scratch.XXXXXX")
  rm -f "$out"
  b0=$(busy_ticks); t0=$EPOCHREALTIME
  set +e
  SCRATCH=$scratch OUT=$out "$TIME_BIN" -v -o "$tfile" bash "$SELF" --step "$peer" \
    > "$RUN_DIR/$peer.log" 2>&1
  rc=$?
  set -e
  t1=$EPOCHREALTIME; b1=$(busy_ticks)
  rm -rf "$scratch"
  awk -v peer="$peer" -v idx="$idx" -v rc="$rc" -v t0="$t0" -v t1="$t1" \
      -v b0="$b0" -v b1="$b1" -v hz="$HZ" -F': ' '
    /User time \(seconds\)/ {u=$2} /System time \(seconds\)/ {s=$2}
    /Maximum resident set size/ {m=$2}
    END { o = (b1-b0)/hz - u - s; if (o < 0) o = 0
          printf "%s\t%s\t%d\t%.3f\t%.2f\t%.2f\t%d\t%.2f\n", peer, idx, rc, t1-t0, u, s, m, o }' \
    "$tfile" >> "$RUNS_TSV"
  return "$rc"
}

median() { sort -g | awk '{a[NR]=$1} END { if (NR == 0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2 }'; }

have() { type -P "$1" > /dev/null; }

echo "corpus: $CORPUS ($N images: $(cat "$RUN_DIR/corpus.txt"))" >&2
echo "sheet: $COLS columns x ${CELL}px cells, tiles fit ${THUMB}x${THUMB}, gap $GAP -> width $(( CELL * COLS )); runs=$RUNS warmup=$WARMUP" >&2
echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2

# which peers can run here
TODO=()
for p in $PEERS; do
  case $p in
    im.*)
      if have montage; then TODO+=("$p"); else echo "skip $p: montage not found" >&2; fi ;;
    vips.cli|vips.cli2)
      if [[ -e "$RUN_DIR/vips_cli_unsafe" ]]; then echo "skip $p: input base names repeat or hold blanks" >&2
      elif have vipsthumbnail && have vips; then TODO+=("$p"); else echo "skip $p: vips tools not found" >&2; fi ;;
    vips.py)
      if "$PYTHON" -c 'import pyvips' 2>/dev/null; then TODO+=("$p"); else echo "skip vips.py: no pyvips" >&2; fi ;;
    floor)
      if have djpeg && [[ -s "$RUN_DIR/floor_jpeg.lst" ]]; then TODO+=(floor.decode-jpeg); fi
      if have pngtopnm && [[ -s "$RUN_DIR/floor_png.lst" ]]; then TODO+=(floor.decode-png); fi
      if have vips; then
        if have pnmtopng; then TODO+=(floor.encode-png); fi
        TODO+=(floor.encode-png-vips)
      fi ;;
    mosaic)
      if [[ -n "$MOSAIC" ]]; then TODO+=(mosaic); else echo "skip mosaic: MOSAIC is unset" >&2; fi ;;
    *) echo "unknown peer $p" >&2 ;;
  esac
done


# the floor encodes a real sheet of the final size, held as a raw buffer
prepare_floor_encode() {  # returns 1 when no reference sheet can be made
  local c ref="" sc
  for c in vips.cli2 vips.cli vips.py im.fast im.z1; do
    if [[ -s "$RUN_DIR/out/$c.png" ]]; then ref=$RUN_DIR/out/$c.png; break; fi
  done
  if [[ -z "$ref" ]]; then
    for c in vips.py vips.cli2 im.fast; do
      [[ $c == vips.cli2 && -e "$RUN_DIR/vips_cli_unsafe" ]] && continue
      sc=$(mktemp -d "$RUN_DIR/scratch.XXXXXX")
      if SCRATCH=$sc OUT=$RUN_DIR/out/ref.png bash "$SELF" --step "$c" > "$RUN_DIR/ref.log" 2>&1 &&
         [[ -s "$RUN_DIR/out/ref.png" ]]; then
        ref=$RUN_DIR/out/ref.png
      fi
      rm -rf "$sc"
      [[ -n "$ref" ]] && break
    done
  fi
  [[ -n "$ref" ]] || return 1
  vips copy "$ref" "$RUN_DIR/sheet.v" && vips copy "$ref" "$RUN_DIR/sheet.ppm"
}

# warm-up (untimed in the table; a peer failing here is not run again)
declare -A FAILED=()
prepared=""
for p in "${TODO[@]}"; do
  if [[ $p == floor.encode-* && -z "$prepared" ]]; then
    prepared=ok
    prepare_floor_encode || { prepared=no; echo "  no reference sheet: floor.encode-* skipped" >&2; }
  fi
  if [[ $p == floor.encode-* && $prepared == no ]]; then FAILED[$p]=1; continue; fi
  for (( i = 1; i <= WARMUP; i++ )); do
    if ! one_run "$p" "w$i"; then FAILED[$p]=1; echo "  $p failed in warm-up (see $RUN_DIR/$p.log)" >&2; break; fi
  done
done

# timed runs, round-robin so that drift in machine load hits every peer alike
for (( r = 1; r <= RUNS; r++ )); do
  for p in "${TODO[@]}"; do
    [[ -n "${FAILED[$p]:-}" ]] && continue
    one_run "$p" "$r" || true
  done
  echo "  round $r/$RUNS done, load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null)" >&2
done

# summary
printf 'tool\twall_s\tcpu_s\tpeak_rss_MB\tout_WxH\tout_bytes\twall_min-max\tother_cpu_s\tstatus\n' > "$SUMMARY"
for p in "${TODO[@]}"; do
  if [[ -n "${FAILED[$p]:-}" ]]; then sel='$2 ~ /^w/'; else sel='$2 !~ /^w/'; fi
  rows=$(awk -F'\t' -v p="$p" "NR > 1 && \$1 == p && $sel" "$RUNS_TSV")
  [[ -n "$rows" ]] || continue
  mw=$(cut -f4 <<< "$rows" | median)
  mc=$(awk -F'\t' '{ printf "%.2f\n", $5 + $6 }' <<< "$rows" | median)
  mo=$(cut -f8 <<< "$rows" | median)
  lo=$(cut -f4 <<< "$rows" | sort -g | head -1)
  hi=$(cut -f4 <<< "$rows" | sort -g | tail -1)
  rss=$(cut -f7 <<< "$rows" | sort -g | tail -1)
  bad=$(awk -F'\t' '$3 != 0 { print "rc=" $3; exit }' <<< "$rows")
  out=$RUN_DIR/out/$p.png
  if [[ -n "$bad" ]]; then
    status="$bad: $(grep -m1 -v '^[[:space:]]*$' "$RUN_DIR/$p.log" | cut -c1-100)"
  elif [[ $p == floor.decode-* ]]; then
    status=ok
  elif [[ -s "$out" ]]; then
    status=ok
  else
    status=no-output
  fi
  [[ -n "${FAILED[$p]:-}" ]] && status="$status (warm-up only)"
  bytes=-; [[ -s "$out" ]] && bytes=$(stat -c %s "$out")
  printf '%s\t%.2f\t%.2f\t%.0f\t%s\t%s\t%.2f-%.2f\t%.2f\t%s\n' "$p" "$mw" "$mc" \
    "$(( rss / 1024 ))" "$(png_dims "$out")" "$bytes" "$lo" "$hi" "$mo" "$status" >> "$SUMMARY"
done

# floor sum: jpeg decode + png decode + the cheaper of the two encoders
awk -F'\t' '
  $1 == "floor.decode-jpeg" || $1 == "floor.decode-png" { w += $2; c += $3; if ($4 > m) m = $4; n++ }
  $1 ~ /^floor.encode-png/ && $9 == "ok" { if (ew == "" || $2 < ew) { ew = $2; ec = $3; em = $4; eo = $5; eb = $6 } }
  END { if (n && ew != "") printf "floor.sum\t%.2f\t%.2f\t%.0f\t%s\t%s\t-\t-\tdecode rows + the cheaper encode row\n", w + ew, c + ec, (em > m ? em : m), eo, eb }
' "$SUMMARY" >> "$SUMMARY"

echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
echo
if have column; then column -t -s $'\t' "$SUMMARY"; else cat "$SUMMARY"; fi
echo
echo "wall/cpu: median of $RUNS runs; peak_rss: largest single process, max over runs;"
echo "other_cpu_s: CPU seconds used by everything else on the machine during a run (median) - noise."
echo "raw runs: $RUNS_TSV   outputs: $RUN_DIR/out/"
