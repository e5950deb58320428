#!/usr/bin/env bash
# The poster corpus: 40 ordinary clips, 8 each of H.264, HEVC, VP9, AV1 and MJPEG, for
# `mosaic render CLIPS` against `ffmpegthumbnailer -s 512` (run_posters.sh).
#
#   bash Benchmarks/video/make_poster_clips.sh /tmp/bench-work/clips [PHOTOS_DIR]
#
# Each clip pans slowly across one of the sample photos (upscaled, with temporal noise, as a
# phone's sensor gives), 30 fps, with a sound track, as a camera or phone records it:
#
# | codec | size | keyframes | container | bit rate | like |
# |---|---|---|---|---|---|
# | H.264 | 1920x1080 | every 1 s | .mp4, AAC | 12 Mbit/s | an Android phone |
# | HEVC | 1920x1080 | every 1 s | .mov, AAC | 6 Mbit/s | an iPhone |
# | VP9 | 1280x720 | every 5 s | .webm, Opus | 2 Mbit/s | a browser's or a screen recording |
# | AV1 | 1280x720 | every 5 s | .mkv, Opus | 1.5 Mbit/s | a download |
# | MJPEG | 1280x720 | every frame | .avi, PCM | quality 4 | a compact camera |
#
# Durations, per codec: 8, 15, 30, 6, 40, 12, 5 and 20 s. Of the H.264 and HEVC clips, 3 of 8
# are portrait, stored sideways with a display matrix (rotate 90), as phones store them.
# Lead-ins: clip 2 of each codec fades in from black over 0.5 s; clip 4 is black for 0.3 s,
# then fades in over 0.3 s (still black at 5%, not at 10%); clip 7 of H.264, VP9 and MJPEG
# is black for its first second of 5 (a lens cap: black at 10% and 20%, not at 30%). So 16
# of the 40 clips start dark, 3 are still black at 10%; the rest open on their picture.
#
# Needs Debian's ffmpeg (libx264, libx265, libvpx, libsvtav1). Deterministic apart from the
# encoders' threading; about 20 minutes on 2 idle cores (the 1080p noise and HEVC take
# most). A clip already made is kept (delete the folder to start again); INDICES="0 5"
# makes only those (0 to 39), JOBS=4 four at a time.
set -euo pipefail
export SVT_LOG=1  # SVT-AV1: errors only
out=${1:?output folder}
photos=${2:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/sample-photos}
mkdir -p "$out"
pictures=(astronaut.jpg chelsea.jpg coffee.jpg motorcycle.jpg rocket.jpg retina.jpg hubble-deep-field.jpg coins.png)
durations=(8 15 30 6 40 12 5 20)
jobs=${JOBS:-2}

clip() {  # index
    local i=$1 c=$(($1 / 8)) j=$(($1 % 8))
    local duration=${durations[$j]} picture=$photos/${pictures[$(((j + c) % 8))]}
    local codec size keyint container audio bitrate
    case $c in
    0) codec=h264 size=1920x1080 keyint=30 container=mp4 ;;
    1) codec=hevc size=1920x1080 keyint=30 container=mov ;;
    2) codec=vp9 size=1280x720 keyint=150 container=webm ;;
    3) codec=av1 size=1280x720 keyint=150 container=mkv ;;
    4) codec=mjpeg size=1280x720 keyint=1 container=avi ;;
    esac
    local w=${size%x*} h=${size#*x} rotate=0
    # Portrait phone clips: the picture made upright at h x w, stored turned a quarter
    # anticlockwise; the display matrix turns it back.
    if [[ $c -le 1 && ( $j -eq 0 || $j -eq 2 || $j -eq 4 ) ]]; then rotate=90; fi
    local pw=$w ph=$h
    if [[ $rotate -eq 90 ]]; then pw=$h ph=$w; fi
    local filter="crop=$pw:$ph:x='(iw-$pw)*t/$duration':y='(ih-$ph)*t/$duration',noise=alls=10:allf=t+u,format=yuv420p"
    case $j in
    1) filter+=",fade=t=in:st=0:d=0.5" ;;
    3) filter+=",fade=t=in:st=0.3:d=0.3" ;;
    6) if [[ $c -eq 0 || $c -eq 2 || $c -eq 4 ]]; then filter+=",fade=t=in:st=1:d=0.2"; fi ;;
    esac
    if [[ $rotate -eq 90 ]]; then filter+=",transpose=cclock"; fi
    local video
    case $codec in
    h264) video=(-c:v libx264 -preset veryfast -b:v 12M -maxrate 12M -bufsize 24M -g $keyint -keyint_min $keyint -sc_threshold 0 -pix_fmt yuv420p) ;;
    hevc) video=(-c:v libx265 -preset ultrafast -b:v 6M -x265-params "keyint=$keyint:min-keyint=$keyint:scenecut=0:log-level=error" -tag:v hvc1 -pix_fmt yuv420p) ;;
    vp9) video=(-c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 2M -g $keyint -pix_fmt yuv420p) ;;
    av1) video=(-c:v libsvtav1 -preset 12 -b:v 1500k -g $keyint -pix_fmt yuv420p) ;;
    mjpeg) video=(-c:v mjpeg -q:v 4 -pix_fmt yuvj420p) ;;
    esac
    case $container in
    mp4 | mov) audio=(-c:a aac -b:a 128k) ;;
    webm | mkv) audio=(-c:a libopus -b:a 96k) ;;
    avi) audio=(-c:a pcm_s16le) ;;
    esac
    local name encoded
    name=$(printf "%s/clip%02d-%s.%s" "$out" $((i + 1)) "$codec" "$container")
    if [[ -e $name ]]; then echo "$name (kept)"; return; fi
    encoded=$out/.encoding-$((i + 1)).$container
    # The picture scaled once (not on every frame of the loop).
    ffmpeg -nostdin -v error -y -i "$picture" -vf "scale=$((pw * 13 / 10)):$((ph * 13 / 10)):force_original_aspect_ratio=increase" \
        "$out/.picture-$((i + 1)).png"
    ffmpeg -nostdin -v error -y -loop 1 -framerate 30 -i "$out/.picture-$((i + 1)).png" \
        -f lavfi -i "sine=frequency=$((220 + 40 * j)):sample_rate=48000" \
        -filter_complex "[0:v]$filter[v]" -map "[v]" -map 1:a -t "$duration" -r 30 \
        "${video[@]}" "${audio[@]}" "$encoded"
    rm -f "$out/.picture-$((i + 1)).png"
    if [[ $rotate -eq 90 ]]; then
        # Debian's ffmpeg 5.1 writes the display matrix from the "rotate" tag only when it
        # copies the stream: 270 is a quarter turn clockwise to display (ffprobe: rotation -90,
        # as an iPhone's portrait clip).
        ffmpeg -nostdin -v error -y -i "$encoded" -map 0 -c copy -metadata:s:v:0 rotate=270 "$name"
        rm -f "$encoded"
    else
        mv "$encoded" "$name"
    fi
    echo "$name"
}
export -f clip
export photos out
export durations_list="${durations[*]}" pictures_list="${pictures[*]}"
for i in ${INDICES:-$(seq 0 39)}; do echo "$i"; done | xargs -P "$jobs" -I{} bash -c '
    durations=($durations_list); pictures=($pictures_list); clip {}'
