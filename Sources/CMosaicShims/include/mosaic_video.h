// Video through FFmpeg's libraries (video.c), loaded on first use with dlopen: a run that
// meets no video never loads them. Files are opened by path (a video's index may lie at
// its end), through FFmpeg's file protocol only.
#ifndef MOSAIC_VIDEO_H
#define MOSAIC_VIDEO_H

#include <stddef.h>
#include <stdint.h>

#include "mosaic_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Why a video call failed, besides its message.
typedef enum {
    MOSAIC_VIDEO_FAILED = 0,
    /// FFmpeg's libraries could not be loaded (`message` has dlerror's text).
    MOSAIC_VIDEO_UNAVAILABLE = 1,
    /// The file has streams but none of video (`audio_streams` says how many of audio).
    MOSAIC_VIDEO_NO_VIDEO_STREAM = 2,
    /// An ISO media file without its index (moov atom): cut short while it was written.
    MOSAIC_VIDEO_INCOMPLETE = 3,
    /// No decoder in this FFmpeg for the stream's codec (`codec` names it).
    MOSAIC_VIDEO_NO_DECODER = 4,
    /// The clip's time limit passed.
    MOSAIC_VIDEO_TIMED_OUT = 5,
    /// No frame could be decoded.
    MOSAIC_VIDEO_NO_FRAME = 6,
} mosaic_video_failure;

/// What a video's container and stream headers say (no frame decoded).
typedef struct {
    /// The failure kind when the call fails.
    mosaic_video_failure failure;
    /// The stored frame size in pixels.
    int coded_width;
    int coded_height;
    /// The size displayed before rotation: the sample aspect ratio applied (width scaled).
    int display_width;
    int display_height;
    /// Clockwise degrees to turn the stored frame upright: 0, 90, 180 or 270.
    int rotation;
    /// The display matrix mirrors the frame horizontally.
    int mirrored;
    /// Seconds; < 0 when unknown.
    double duration;
    /// Frames a second (average, else the stream's base rate); 0 when unknown.
    double frame_rate;
    /// FFmpeg's short name of the codec ("h264", "mpeg4") or of the unknown tag.
    char codec[32];
    /// The pixel format ("yuv420p"); "" when unknown.
    char pixel_format[32];
    /// Bits per sample of the pixel format (8, 10...).
    int bit_depth;
    /// AVColorTransferCharacteristic (16 PQ, 18 HLG).
    int color_transfer;
    /// The stream is interlaced (field order other than progressive).
    int interlaced;
    /// Frames the stream's decoder may hold at once: its decoded picture buffer as the
    /// codec's level bounds it (H.264, HEVC) and the frame being decoded; 2 for a codec whose
    /// every frame is a keyframe; 0 when the headers do not say.
    int decoder_frames;
    /// Streams in the file, and of them audio.
    int stream_count;
    int audio_streams;
    /// Bits per second of the file; 0 when unknown.
    int64_t bit_rate;
    /// QuickTime's com.apple.quicktime.creationdate (local time with its offset), else "".
    char local_creation[48];
    /// The container's creation_time (UTC), else "".
    char creation_time[48];
    /// The camera's make and model where the container names them, else "".
    char make[64];
    char model[64];
    /// The container's short name ("mov,mp4,m4a,3gp,3g2,mj2").
    char container[48];
    /// QuickTime's com.apple.quicktime.content.identifier (a Live Photo's clip: the UUID its
    /// still's maker note holds), else "".
    char content_identifier[64];
} mosaic_video_info;

/// What frame to decode.
typedef struct {
    /// Seconds from the clip's start; < 0: a poster, chosen by `mosaic_video_decode_frame`
    /// (the keyframe a seek to 10% lands on, else the first frame from 10% on, that is not
    /// black, blank or a fade).
    double time;
    /// 1: the frame shown at `time` (decoded from the keyframe before it); 0: the first frame
    /// at or after the keyframe before `time` (fast seek).
    int exact;
    /// Seconds the call may take in all (opening included); <= 0: no limit.
    double timeout;
    /// Largest stored frame size (width x height) the decoder may hold, for the budget.
    int64_t maximum_pixels;
    /// Set by `mosaic_video_decode_frame`: the frames it received from the decoder (the work
    /// the call did), for tests and measurements.
    int frames_decoded;
} mosaic_video_request;

/// Loads FFmpeg's libraries (once; later calls return the first result).
mosaic_result mosaic_video_load(void);

/// Reads the headers of the video at `path`. `info->failure` says why it failed.
mosaic_result mosaic_video_probe(const char *path, double timeout, mosaic_video_info *info);

/// Decodes one frame of the video at `path` into `out` (RGBA8, opaque, `width` x `height`
/// pixels of the stored frame's orientation, `stride` bytes a row), converted and scaled in
/// one libswscale step. `*frame_time` receives the frame's time (seconds from the start),
/// `*failure` why it failed. Corrupt packets are skipped (counted as damage warnings).
mosaic_result mosaic_video_decode_frame(const char *path, mosaic_video_request *request, uint8_t *out, size_t stride,
                                        int width, int height, double *frame_time, mosaic_video_failure *failure);

#ifdef __cplusplus
}
#endif

#endif
