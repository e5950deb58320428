#!/usr/bin/env bash
# Fuzz mosaic's text parsers (JSON and CSV manifests, colours, caption modes, fonts, and
# assemble's shard records), and the crop modes over images of extreme aspect, with
# libFuzzer and AddressSanitizer: every module is built with coverage instrumentation.
#   bash Fuzz/run-parsers.sh 60     # seconds
# Seeds: SampleImages' manifests, Fuzz/seeds-shards' records; the corpus is kept in Fuzz/corpus-parsers between runs.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
swift build --package-path Fuzz/Parsers --scratch-path .build-fuzz-parsers \
    -Xswiftc -sanitize=fuzzer,address 2>&1 | grep -vE "warning: Cannot export local symbol" || true
binary=.build-fuzz-parsers/debug/ParserFuzzer
[ -x "$binary" ] || { echo "the parser fuzzer did not build" >&2; exit 1; }
mkdir -p Fuzz/corpus-parsers
seeds=$(mktemp -d)
# The first byte picks the parser: 0 JSON, 1 CSV, 2 colour, 3 caption mode, 4 font,
# 5 a shard's record (assemble's input), 6 the crop modes (a bitmap's size, a card's size,
# pixels: strips 5000x10, 7000x60 and 16384x1 into a 4:3 card), 7 IPTC (Photoshop's
# resources with IIM records), 8 an XMP packet.
{ printf '\x00'; cat SampleImages/manifest.json; } > "$seeds/json"
{ printf '\x01'; printf 'path,title,description,section\ncoins.png,"Coins, old",Greek,Science\n'; } > "$seeds/csv"
{ printf '\x02'; printf '#11182730'; } > "$seeds/colour"
{ printf '\x03'; printf '{stem}\\n{width}x{height}'; } > "$seeds/caption"
printf '\x06\x13\x88\x00\x0a\x00\xc8\x00\x96\x10\x80\xf0\x20' > "$seeds/crop-5000x10"
printf '\x06\x1b\x58\x00\x3c\x00\x96\x00\xc8\x33\x99' > "$seeds/crop-7000x60"
printf '\x06\xbf\xff\x00\x00\x00\xc8\x00\x96\x01\xfe' > "$seeds/crop-16384x1"
printf '\x078BIM\x04\x04\x00\x00\x00\x00\x00\x0e\x1c\x02\x05\x00\x04Kept\x1c\x02\x78\x00\x00' > "$seeds/iptc"
{ printf '\x08'; printf '<rdf:Description xmp:Rating="4"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">T &amp; U</rdf:li></rdf:Alt></dc:title></rdf:Description>'; } > "$seeds/xmp"
for record in Fuzz/seeds-shards/*.json; do { printf '\x05'; cat "$record"; } > "$seeds/shard-$(basename "$record")"; done
"$binary" -max_total_time="$seconds" -max_len=8192 -rss_limit_mb=2048 -print_final_stats=1 Fuzz/corpus-parsers "$seeds"
