// Video through FFmpeg 5.1's libraries (Debian: libavformat59, libavcodec59, libswscale6,
// libavutil57), loaded with dlopen on first use: FFmpeg pulls in over a hundred shared
// objects, and a run that meets no video must not pay for them. The -dev headers give only
// the types; the few functions called are resolved with dlsym.
//
// A file is opened by path through FFmpeg's file protocol alone ("file:" prefix, protocol
// whitelist "file"), with an interrupt callback that ends any call past the clip's time
// limit. A frame is reached by seeking to the keyframe before its time and decoding forward;
// it is converted to RGBA and scaled to the size asked in one libswscale call.
#include "CMosaicShims.h"
#include "results.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// MARK: Loading

/// The functions mosaic calls, resolved once.
static struct {
    // libavutil
    AVFrame *(*av_frame_alloc)(void);
    void (*av_frame_free)(AVFrame **);
    void (*av_frame_unref)(AVFrame *);
    void (*av_frame_move_ref)(AVFrame *, AVFrame *);
    AVDictionaryEntry *(*av_dict_get)(const AVDictionary *, const char *, const AVDictionaryEntry *, int);
    int (*av_dict_set)(AVDictionary **, const char *, const char *, int);
    void (*av_dict_free)(AVDictionary **);
    double (*av_display_rotation_get)(const int32_t *);
    int (*av_strerror)(int, char *, size_t);
    void (*av_log_set_level)(int);
    const char *(*av_get_pix_fmt_name)(enum AVPixelFormat);
    const AVPixFmtDescriptor *(*av_pix_fmt_desc_get)(enum AVPixelFormat);
    // libavcodec
    const AVCodec *(*avcodec_find_decoder)(enum AVCodecID);
    AVCodecContext *(*avcodec_alloc_context3)(const AVCodec *);
    int (*avcodec_parameters_to_context)(AVCodecContext *, const AVCodecParameters *);
    int (*avcodec_open2)(AVCodecContext *, const AVCodec *, AVDictionary **);
    int (*avcodec_send_packet)(AVCodecContext *, const AVPacket *);
    int (*avcodec_receive_frame)(AVCodecContext *, AVFrame *);
    void (*avcodec_free_context)(AVCodecContext **);
    void (*avcodec_flush_buffers)(AVCodecContext *);
    const char *(*avcodec_get_name)(enum AVCodecID);
    const AVCodecDescriptor *(*avcodec_descriptor_get)(enum AVCodecID);
    AVPacket *(*av_packet_alloc)(void);
    void (*av_packet_free)(AVPacket **);
    void (*av_packet_unref)(AVPacket *);
    // libavformat
    AVFormatContext *(*avformat_alloc_context)(void);
    int (*avformat_open_input)(AVFormatContext **, const char *, const AVInputFormat *, AVDictionary **);
    int (*avformat_find_stream_info)(AVFormatContext *, AVDictionary **);
    void (*avformat_close_input)(AVFormatContext **);
    int (*av_find_best_stream)(AVFormatContext *, enum AVMediaType, int, int, const AVCodec **, int);
    int (*av_read_frame)(AVFormatContext *, AVPacket *);
    int (*av_seek_frame)(AVFormatContext *, int, int64_t, int);
    uint8_t *(*av_stream_get_side_data)(const AVStream *, enum AVPacketSideDataType, size_t *);
    // libswscale
    struct SwsContext *(*sws_getContext)(int, int, enum AVPixelFormat, int, int, enum AVPixelFormat, int, SwsFilter *, SwsFilter *,
                                         const double *);
    int (*sws_scale)(struct SwsContext *, const uint8_t *const[], const int[], int, int, uint8_t *const[], const int[]);
    void (*sws_freeContext)(struct SwsContext *);
    int (*sws_setColorspaceDetails)(struct SwsContext *, const int[4], int, const int[4], int, int, int, int);
    const int *(*sws_getCoefficients)(int);
} av;

static pthread_once_t mosaic_video_once = PTHREAD_ONCE_INIT;
static mosaic_result mosaic_video_loaded;

/// Opens `soname` (RTLD_LOCAL: FFmpeg's symbols stay out of the global namespace).
static void *mosaic_video_open_library(const char *soname, mosaic_result *result) {
    if (result->status != MOSAIC_OK) return NULL;
    void *handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *reason = dlerror();
        *result = mosaic_error("");
        snprintf(result->message, MOSAIC_MESSAGE_SIZE, "FFmpeg's %s could not be loaded: %s", soname, reason ? reason : "unknown");
    }
    return handle;
}

#define MOSAIC_RESOLVE(handle, name)                                                                                 \
    do {                                                                                                             \
        if (loaded.status == MOSAIC_OK) {                                                                            \
            *(void **)(&av.name) = dlsym(handle, #name);                                                            \
            if (!av.name) {                                                                                          \
                loaded = mosaic_error("");                                                                           \
                snprintf(loaded.message, MOSAIC_MESSAGE_SIZE, "FFmpeg has no function %s (another version?)", #name); \
            }                                                                                                        \
        }                                                                                                            \
    } while (0)

static void mosaic_video_load_once(void) {
    mosaic_result loaded = mosaic_ok();
    void *util = mosaic_video_open_library("libavutil.so.57", &loaded);
    void *codec = mosaic_video_open_library("libavcodec.so.59", &loaded);
    void *format = mosaic_video_open_library("libavformat.so.59", &loaded);
    void *scale = mosaic_video_open_library("libswscale.so.6", &loaded);
    MOSAIC_RESOLVE(util, av_frame_alloc);
    MOSAIC_RESOLVE(util, av_frame_free);
    MOSAIC_RESOLVE(util, av_frame_unref);
    MOSAIC_RESOLVE(util, av_frame_move_ref);
    MOSAIC_RESOLVE(util, av_dict_get);
    MOSAIC_RESOLVE(util, av_dict_set);
    MOSAIC_RESOLVE(util, av_dict_free);
    MOSAIC_RESOLVE(util, av_display_rotation_get);
    MOSAIC_RESOLVE(util, av_strerror);
    MOSAIC_RESOLVE(util, av_log_set_level);
    MOSAIC_RESOLVE(util, av_get_pix_fmt_name);
    MOSAIC_RESOLVE(util, av_pix_fmt_desc_get);
    MOSAIC_RESOLVE(codec, avcodec_find_decoder);
    MOSAIC_RESOLVE(codec, avcodec_alloc_context3);
    MOSAIC_RESOLVE(codec, avcodec_parameters_to_context);
    MOSAIC_RESOLVE(codec, avcodec_open2);
    MOSAIC_RESOLVE(codec, avcodec_send_packet);
    MOSAIC_RESOLVE(codec, avcodec_receive_frame);
    MOSAIC_RESOLVE(codec, avcodec_free_context);
    MOSAIC_RESOLVE(codec, avcodec_flush_buffers);
    MOSAIC_RESOLVE(codec, avcodec_get_name);
    MOSAIC_RESOLVE(codec, avcodec_descriptor_get);
    MOSAIC_RESOLVE(codec, av_packet_alloc);
    MOSAIC_RESOLVE(codec, av_packet_free);
    MOSAIC_RESOLVE(codec, av_packet_unref);
    MOSAIC_RESOLVE(format, avformat_alloc_context);
    MOSAIC_RESOLVE(format, avformat_open_input);
    MOSAIC_RESOLVE(format, avformat_find_stream_info);
    MOSAIC_RESOLVE(format, avformat_close_input);
    MOSAIC_RESOLVE(format, av_find_best_stream);
    MOSAIC_RESOLVE(format, av_read_frame);
    MOSAIC_RESOLVE(format, av_seek_frame);
    MOSAIC_RESOLVE(format, av_stream_get_side_data);
    MOSAIC_RESOLVE(scale, sws_getContext);
    MOSAIC_RESOLVE(scale, sws_scale);
    MOSAIC_RESOLVE(scale, sws_freeContext);
    MOSAIC_RESOLVE(scale, sws_setColorspaceDetails);
    MOSAIC_RESOLVE(scale, sws_getCoefficients);
    // FFmpeg prints nothing: what goes wrong comes back as statuses.
    if (loaded.status == MOSAIC_OK) av.av_log_set_level(AV_LOG_QUIET);
    mosaic_video_loaded = loaded;
}

mosaic_result mosaic_video_load(void) {
    pthread_once(&mosaic_video_once, mosaic_video_load_once);
    return mosaic_video_loaded;
}

// MARK: Opening

static double mosaic_video_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// An open file: its demuxer, its video stream, the clip's deadline.
typedef struct {
    AVFormatContext *format;
    AVStream *stream;
    int stream_index;
    /// CLOCK_MONOTONIC seconds after which every call is interrupted; 0: none.
    double deadline;
    int timed_out;
} mosaic_video_file;

static int mosaic_video_interrupt(void *opaque) {
    mosaic_video_file *file = opaque;
    if (file->deadline > 0 && mosaic_video_now() > file->deadline) {
        file->timed_out = 1;
        return 1;
    }
    return 0;
}

static mosaic_result mosaic_video_av_error(const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    av.av_strerror(code, text, sizeof text);
    mosaic_result result = mosaic_error("");
    snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%s: %s", what, text);
    return result;
}

/// True when `path` is an ISO media file (QuickTime, MP4) whose top-level boxes hold no
/// `moov`: the index a recorder writes last, missing from a file cut short.
static int mosaic_video_lacks_moov(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    int seen_box = 0, found = 0;
    uint64_t offset = 0;
    for (int boxes = 0; boxes < 10000; boxes++) {
        uint8_t header[16];
        if (fseeko(f, (off_t)offset, SEEK_SET) != 0 || fread(header, 1, 8, f) != 8) break;
        uint64_t size = ((uint64_t)header[0] << 24) | ((uint64_t)header[1] << 16) | ((uint64_t)header[2] << 8) | header[3];
        const char *type = (const char *)header + 4;
        int known = !memcmp(type, "ftyp", 4) || !memcmp(type, "moov", 4) || !memcmp(type, "mdat", 4) || !memcmp(type, "free", 4) ||
                    !memcmp(type, "wide", 4) || !memcmp(type, "skip", 4) || !memcmp(type, "uuid", 4) || !memcmp(type, "pnot", 4);
        if (!known && !seen_box) break;
        seen_box = 1;
        if (!memcmp(type, "moov", 4)) {
            found = 1;
            break;
        }
        if (size == 1) {
            if (fread(header + 8, 1, 8, f) != 8) break;
            size = 0;
            for (int i = 8; i < 16; i++) size = (size << 8) | header[i];
        } else if (size == 0) {
            break;  // to the end of the file
        }
        if (size < 8) break;
        offset += size;
    }
    fclose(f);
    return seen_box && !found;
}

/// Opens `path`: the demuxer, its headers and the best video stream. Reads the streams'
/// packets (`avformat_find_stream_info`) only when the headers leave the stream's size or
/// codec unknown.
static mosaic_result mosaic_video_open(const char *path, double timeout, mosaic_video_file *file, mosaic_video_info *info) {
    memset(file, 0, sizeof *file);
    file->stream_index = -1;
    file->deadline = timeout > 0 ? mosaic_video_now() + timeout : 0;
    mosaic_result result = mosaic_video_load();
    if (result.status != MOSAIC_OK) {
        info->failure = MOSAIC_VIDEO_UNAVAILABLE;
        return result;
    }
    file->format = av.avformat_alloc_context();
    if (!file->format) return mosaic_out_of_memory("the demuxer's context");
    file->format->interrupt_callback.callback = mosaic_video_interrupt;
    file->format->interrupt_callback.opaque = file;
    // The path is a file, never a URL: "file:" keeps "http:..." or "concat:..." names files,
    // and the whitelist keeps a playlist from opening anything but files.
    size_t length = strlen(path) + 6;
    char *url = malloc(length);
    if (!url) return mosaic_out_of_memory("the file's name");
    snprintf(url, length, "file:%s", path);
    AVDictionary *options = NULL;
    av.av_dict_set(&options, "protocol_whitelist", "file", 0);
    int status = av.avformat_open_input(&file->format, url, NULL, &options);
    av.av_dict_free(&options);
    free(url);
    if (status < 0) {
        // avformat_open_input frees the context on failure.
        file->format = NULL;
        if (file->timed_out) {
            info->failure = MOSAIC_VIDEO_TIMED_OUT;
            return mosaic_error("the clip's time limit passed while its headers were read");
        }
        if (mosaic_video_lacks_moov(path)) {
            info->failure = MOSAIC_VIDEO_INCOMPLETE;
            return mosaic_error("no index (moov atom): the file is incomplete");
        }
        return mosaic_video_av_error("the container could not be read", status);
    }
    AVFormatContext *format = file->format;
    snprintf(info->container, sizeof info->container, "%s", format->iformat && format->iformat->name ? format->iformat->name : "");
    info->stream_count = (int)format->nb_streams;
    int best = -1;
    for (unsigned i = 0; i < format->nb_streams; i++) {
        AVCodecParameters *parameters = format->streams[i]->codecpar;
        if (parameters->codec_type == AVMEDIA_TYPE_AUDIO) info->audio_streams++;
        if (parameters->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        // Cover art (an attached picture) is not the clip.
        if (format->streams[i]->disposition & AV_DISPOSITION_ATTACHED_PIC) continue;
        if (best < 0 || (int64_t)parameters->width * parameters->height >
                            (int64_t)format->streams[best]->codecpar->width * format->streams[best]->codecpar->height)
            best = (int)i;
    }
    if (best >= 0 && (format->streams[best]->codecpar->width <= 0 || format->streams[best]->codecpar->codec_id == AV_CODEC_ID_NONE)) {
        status = av.avformat_find_stream_info(format, NULL);
        if (status < 0 && file->timed_out) {
            info->failure = MOSAIC_VIDEO_TIMED_OUT;
            return mosaic_error("the clip's time limit passed while its streams were read");
        }
    }
    if (best < 0) {
        info->failure = MOSAIC_VIDEO_NO_VIDEO_STREAM;
        return mosaic_error(info->audio_streams > 0 ? "no video stream: audio only" : "no video stream");
    }
    file->stream_index = best;
    file->stream = format->streams[best];
    return mosaic_ok();
}

static void mosaic_video_close(mosaic_video_file *file) {
    if (file->format) av.avformat_close_input(&file->format);
}

static double mosaic_video_q(AVRational q) { return q.den != 0 ? (double)q.num / (double)q.den : 0; }

static void mosaic_video_copy_tag(AVDictionary *metadata, const char *key, char *out, size_t size) {
    if (out[0] || !metadata) return;
    AVDictionaryEntry *entry = av.av_dict_get(metadata, key, NULL, 0);
    if (entry && entry->value) snprintf(out, size, "%s", entry->value);
}

/// The frames a decoder of the stream may hold at once (`mosaic_video_info.decoder_frames`):
/// the decoded picture buffer its level allows at its frame size, plus the frame being
/// decoded. H.264: MaxDpbMbs of the level (Table A-1) over the frame's macroblocks, 16 at
/// most; HEVC: maxDpbSize from the level's MaxLumaPs (A.4.2). The level comes from the
/// MP4/Matroska configuration record (avcC byte 3, hvcC byte 12), which the headers hold,
/// else from the parameters (a stream probed further). 2 for an intra-only codec (MJPEG,
/// ProRes): the frame decoded and the one before it, which some keep to conceal damage.
/// 0 when unknown, or when the frame is too large for the level it declares (a stream that
/// breaks its level may hold anything up to the codec's maximum).
static int mosaic_video_decoder_frames(const AVCodecParameters *p) {
    const AVCodecDescriptor *descriptor = av.avcodec_descriptor_get(p->codec_id);
    if (descriptor && (descriptor->props & AV_CODEC_PROP_INTRA_ONLY)) return 2;
    if (p->width <= 0 || p->height <= 0) return 0;
    if (p->codec_id == AV_CODEC_ID_H264) {
        int level = p->extradata && p->extradata_size >= 4 && p->extradata[0] == 1 ? p->extradata[3] : p->level;
        static const int levels[][2] = {{9, 396},     {10, 396},     {11, 900},     {12, 2376},    {13, 2376},
                                        {20, 2376},   {21, 4752},    {22, 8100},    {30, 8100},    {31, 18000},
                                        {32, 20480},  {40, 32768},   {41, 32768},   {42, 34816},   {50, 110400},
                                        {51, 184320}, {52, 184320},  {60, 696320},  {61, 696320},  {62, 696320}};
        int64_t macroblocks = (int64_t)((p->width + 15) / 16) * ((p->height + 15) / 16);
        for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
            if (levels[i][0] != level) continue;
            int64_t frames = levels[i][1] / macroblocks;
            if (frames < 1) return 0;
            return (int)(frames > 16 ? 16 : frames) + 1;
        }
        return 0;
    }
    if (p->codec_id == AV_CODEC_ID_HEVC) {
        int level = p->extradata && p->extradata_size >= 13 && p->extradata[0] == 1 ? p->extradata[12] : p->level;
        static const int64_t levels[][2] = {{30, 36864},    {60, 122880},    {63, 245760},    {90, 552960},
                                            {93, 983040},   {120, 2228224},  {123, 2228224},  {150, 8912896},
                                            {153, 8912896}, {156, 8912896},  {180, 35651584}, {183, 35651584},
                                            {186, 35651584}};
        int64_t samples = (int64_t)p->width * p->height;
        for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
            if (levels[i][0] != level) continue;
            int64_t most = levels[i][1];
            if (samples > most) return 0;
            int frames = samples <= most >> 2 ? 16 : samples <= most >> 1 ? 12 : samples <= (3 * most) >> 2 ? 8 : 6;
            return frames + 1;
        }
        return 0;
    }
    return 0;
}

/// Fills `info` from the open file's headers.
static void mosaic_video_describe(mosaic_video_file *file, mosaic_video_info *info) {
    AVFormatContext *format = file->format;
    AVStream *stream = file->stream;
    AVCodecParameters *parameters = stream->codecpar;
    info->coded_width = parameters->width;
    info->coded_height = parameters->height;
    AVRational sar = parameters->sample_aspect_ratio;
    if (sar.num <= 0 || sar.den <= 0) sar = stream->sample_aspect_ratio;
    info->display_width = parameters->width;
    info->display_height = parameters->height;
    if (sar.num > 0 && sar.den > 0 && sar.num != sar.den) {
        double width = (double)parameters->width * sar.num / sar.den;
        info->display_width = width < 1 ? 1 : (width > 65535 ? 65535 : (int)lround(width));
    }
    size_t size = 0;
    const int32_t *matrix = (const int32_t *)av.av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (matrix && size >= 9 * sizeof(int32_t)) {
        // av_display_rotation_get: counterclockwise degrees of the matrix (rotation and
        // mirroring); a mirrored matrix has a negative determinant.
        double angle = av.av_display_rotation_get(matrix);
        if (isfinite(angle)) {
            long turns = lround(-angle / 90.0);
            info->rotation = (int)(((turns % 4) + 4) % 4) * 90;
        }
        int64_t determinant = (int64_t)matrix[0] * matrix[4] - (int64_t)matrix[1] * matrix[3];
        info->mirrored = determinant < 0;
    }
    info->duration = -1;
    if (stream->duration != AV_NOPTS_VALUE && stream->duration > 0)
        info->duration = (double)stream->duration * mosaic_video_q(stream->time_base);
    if (format->duration != AV_NOPTS_VALUE && format->duration > 0) {
        double container = (double)format->duration / AV_TIME_BASE;
        if (info->duration < 0 || container > info->duration) info->duration = container;
    }
    double rate = mosaic_video_q(stream->avg_frame_rate);
    if (!(rate > 0 && rate < 10000)) rate = mosaic_video_q(stream->r_frame_rate);
    info->frame_rate = rate > 0 && rate < 10000 ? rate : 0;
    if (parameters->codec_id != AV_CODEC_ID_NONE) {
        snprintf(info->codec, sizeof info->codec, "%s", av.avcodec_get_name(parameters->codec_id));
    } else {
        // An unknown codec: its tag, as the container names it ("aprn").
        uint32_t tag = parameters->codec_tag;
        char text[5] = {(char)(tag & 0xFF), (char)((tag >> 8) & 0xFF), (char)((tag >> 16) & 0xFF), (char)(tag >> 24), 0};
        for (int i = 0; i < 4; i++)
            if (text[i] < 32 || text[i] > 126) text[i] = '?';
        snprintf(info->codec, sizeof info->codec, "%s", tag ? text : "unknown");
    }
    if (parameters->format >= 0) {
        const char *name = av.av_get_pix_fmt_name((enum AVPixelFormat)parameters->format);
        snprintf(info->pixel_format, sizeof info->pixel_format, "%s", name ? name : "");
        const AVPixFmtDescriptor *descriptor = av.av_pix_fmt_desc_get((enum AVPixelFormat)parameters->format);
        info->bit_depth = descriptor ? descriptor->comp[0].depth : 8;
    } else {
        info->bit_depth = parameters->bits_per_raw_sample > 0 ? parameters->bits_per_raw_sample : 8;
    }
    info->color_transfer = parameters->color_trc;
    // Headers that name no pixel format (read from the first frame): an HDR transfer or a
    // 10-bit profile says the samples take two bytes (the decode budget counts them so).
    if (parameters->format < 0 && info->bit_depth <= 8 &&
        (parameters->color_trc == AVCOL_TRC_SMPTE2084 || parameters->color_trc == AVCOL_TRC_ARIB_STD_B67 ||
         (parameters->codec_id == AV_CODEC_ID_HEVC && parameters->profile == FF_PROFILE_HEVC_MAIN_10) ||
         (parameters->codec_id == AV_CODEC_ID_VP9 && parameters->profile >= FF_PROFILE_VP9_2)))
        info->bit_depth = 10;
    info->interlaced = parameters->field_order != AV_FIELD_UNKNOWN && parameters->field_order != AV_FIELD_PROGRESSIVE;
    info->decoder_frames = mosaic_video_decoder_frames(parameters);
    info->bit_rate = format->bit_rate > 0 ? format->bit_rate : 0;
    mosaic_video_copy_tag(format->metadata, "com.apple.quicktime.creationdate", info->local_creation, sizeof info->local_creation);
    mosaic_video_copy_tag(format->metadata, "creation_time", info->creation_time, sizeof info->creation_time);
    mosaic_video_copy_tag(stream->metadata, "creation_time", info->creation_time, sizeof info->creation_time);
    mosaic_video_copy_tag(format->metadata, "com.apple.quicktime.make", info->make, sizeof info->make);
    mosaic_video_copy_tag(format->metadata, "com.android.manufacturer", info->make, sizeof info->make);
    mosaic_video_copy_tag(format->metadata, "make", info->make, sizeof info->make);
    mosaic_video_copy_tag(format->metadata, "com.apple.quicktime.model", info->model, sizeof info->model);
    mosaic_video_copy_tag(format->metadata, "com.android.model", info->model, sizeof info->model);
    mosaic_video_copy_tag(format->metadata, "model", info->model, sizeof info->model);
    mosaic_video_copy_tag(format->metadata, "com.apple.quicktime.content.identifier", info->content_identifier, sizeof info->content_identifier);
}

mosaic_result mosaic_video_probe(const char *path, double timeout, mosaic_video_info *info) {
    memset(info, 0, sizeof *info);
    mosaic_video_file file;
    mosaic_result result = mosaic_video_open(path, timeout, &file, info);
    if (result.status == MOSAIC_OK) {
        mosaic_video_describe(&file, info);
        if (info->coded_width <= 0 || info->coded_height <= 0) {
            result = mosaic_error("the video stream gives no frame size");
            if (!av.avcodec_find_decoder(file.stream->codecpar->codec_id)) {
                info->failure = MOSAIC_VIDEO_NO_DECODER;
                snprintf(result.message, MOSAIC_MESSAGE_SIZE, "this FFmpeg cannot decode %s", info->codec);
            }
        }
    }
    mosaic_video_close(&file);
    return result;
}

// MARK: Decoding

/// The decoder of an open file's stream.
typedef struct {
    mosaic_video_file file;
    AVCodecContext *codec;
    AVPacket *packet;
    AVFrame *frame;
    /// The frame kept while decoding forward (the last one seen), for a clip that ends
    /// before the time asked (a header lying about its duration).
    AVFrame *last;
    int has_last;
    /// The demuxer reached the end: the decoder is being emptied.
    int draining;
    /// Frames received since the last seek, and the first one's time.
    int received;
    double first_time;
    struct SwsContext *scaler;
    int corrupt_packets;
    /// Frames received from the decoder (`mosaic_video_request.frames_decoded`).
    int frames_decoded;
    double start;
    double time_base;
    double frame_duration;
} mosaic_video_decoder;

/// The largest `lowres` (0 to the decoder's `max_lowres`: the stored size halved that many
/// times, rounded up as the decoder rounds) whose frames still cover `width` x `height`, the
/// size asked with the display's aspect (the sample aspect ratio stretches the width). Only
/// for codecs whose every frame is a keyframe (MJPEG): a reduced decode of predicted frames
/// (MPEG-2, MPEG-4 part 2) drifts from the full one along the group of pictures. Never for an
/// interlaced stream (its fields are taken apart in the conversion).
static int mosaic_video_lowres(const AVCodec *decoder, const mosaic_video_info *info, int width, int height) {
    const AVCodecDescriptor *descriptor = av.avcodec_descriptor_get(decoder->id);
    if (!descriptor || !(descriptor->props & AV_CODEC_PROP_INTRA_ONLY) || info->interlaced) return 0;
    int max_lowres = decoder->max_lowres;
    if (width <= 0 || height <= 0 || info->coded_width <= 0 || info->coded_height <= 0 || info->display_width <= 0) return 0;
    double stored_width = (double)width * info->coded_width / info->display_width;
    int lowres = 0;
    while (lowres < max_lowres && lowres < 3) {
        int next = lowres + 1;
        int w = (info->coded_width + (1 << next) - 1) >> next, h = (info->coded_height + (1 << next) - 1) >> next;
        if (w < stored_width || h < height) break;
        lowres = next;
    }
    return lowres;
}

/// Opens `path`'s decoder for frames converted to `width` x `height` (stored orientation,
/// display aspect). A decoder that can decode at a half, quarter or eighth of the stored size
/// (`lowres`, `mosaic_video_lowres`) does so when that still covers the size asked.
static mosaic_result mosaic_video_open_decoder(const char *path, const mosaic_video_request *request, int width, int height,
                                               mosaic_video_decoder *d, mosaic_video_info *info) {
    memset(d, 0, sizeof *d);
    mosaic_result result = mosaic_video_open(path, request->timeout, &d->file, info);
    if (result.status != MOSAIC_OK) return result;
    mosaic_video_describe(&d->file, info);
    AVStream *stream = d->file.stream;
    if (request->maximum_pixels > 0 && (int64_t)info->coded_width * info->coded_height > request->maximum_pixels) {
        result = mosaic_error("");
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "%dx%d frames are more than the limit of %lld pixels", info->coded_width,
                 info->coded_height, (long long)request->maximum_pixels);
        return result;
    }
    const AVCodec *decoder = av.avcodec_find_decoder(stream->codecpar->codec_id);
    if (!decoder) {
        info->failure = MOSAIC_VIDEO_NO_DECODER;
        result = mosaic_error("");
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "this FFmpeg cannot decode %s", info->codec);
        return result;
    }
    d->codec = av.avcodec_alloc_context3(decoder);
    d->packet = av.av_packet_alloc();
    d->frame = av.av_frame_alloc();
    d->last = av.av_frame_alloc();
    if (!d->codec || !d->packet || !d->frame || !d->last) return mosaic_out_of_memory("the decoder");
    int status = av.avcodec_parameters_to_context(d->codec, stream->codecpar);
    if (status < 0) return mosaic_video_av_error("the decoder could not be set up", status);
    // One thread: mosaic decodes several frames and clips at once, one per core.
    d->codec->thread_count = 1;
    d->codec->pkt_timebase = stream->time_base;
    d->codec->lowres = mosaic_video_lowres(decoder, info, width, height);
    status = av.avcodec_open2(d->codec, decoder, NULL);
    if (status < 0) {
        info->failure = MOSAIC_VIDEO_NO_DECODER;
        return mosaic_video_av_error("the decoder refused the stream", status);
    }
    d->time_base = mosaic_video_q(stream->time_base);
    d->start = stream->start_time != AV_NOPTS_VALUE ? (double)stream->start_time * d->time_base : 0;
    d->frame_duration = info->frame_rate > 0 ? 1.0 / info->frame_rate : 0.04;
    return mosaic_ok();
}

static void mosaic_video_close_decoder(mosaic_video_decoder *d) {
    if (d->scaler) av.sws_freeContext(d->scaler);
    if (d->frame) av.av_frame_free(&d->frame);
    if (d->last) av.av_frame_free(&d->last);
    if (d->packet) av.av_packet_free(&d->packet);
    if (d->codec) av.avcodec_free_context(&d->codec);
    mosaic_video_close(&d->file);
}

/// The time of `frame` in seconds from the stream's start.
static double mosaic_video_frame_time(const mosaic_video_decoder *d, const AVFrame *frame) {
    int64_t pts = frame->best_effort_timestamp != AV_NOPTS_VALUE ? frame->best_effort_timestamp : frame->pts;
    if (pts == AV_NOPTS_VALUE) return -1;
    return (double)pts * d->time_base - d->start;
}

/// Seeks to the keyframe before `time` (seconds from the start; `flags` 0: the keyframe
/// at or after it) and empties the decoder; 0 when the demuxer found none.
static int mosaic_video_seek_keyframe(mosaic_video_decoder *d, double time, int flags) {
    if (time < 0) time = 0;
    int64_t target = (int64_t)((time + d->start) / (d->time_base > 0 ? d->time_base : 1));
    int status = av.av_seek_frame(d->file.format, d->file.stream_index, target, flags);
    av.avcodec_flush_buffers(d->codec);
    d->has_last = 0;
    d->draining = 0;
    d->received = 0;
    return status >= 0;
}

/// Seeks to the keyframe before `time` (seconds from the start), else to the start, and
/// empties the decoder.
static void mosaic_video_seek(mosaic_video_decoder *d, double time) {
    if (!mosaic_video_seek_keyframe(d, time, AVSEEK_FLAG_BACKWARD)) mosaic_video_seek_keyframe(d, 0, AVSEEK_FLAG_BACKWARD);
}

/// Decodes forward from where the stream is: the frame shown at `time` (`exact`), or the
/// next one decoded. The frame is left in `d->frame`. At the end of the stream, the last
/// frame decoded is taken (a clip shorter than its header says).
static mosaic_result mosaic_video_decode_to(mosaic_video_decoder *d, double time, int exact, double *frame_time,
                                            mosaic_video_failure *failure) {
    AVFormatContext *format = d->file.format;
    // An exact frame is the one shown at `time`: the last whose time is not past it, so a
    // frame up to half a frame's duration late still counts.
    double tolerance = d->frame_duration / 2;
    for (;;) {
        if (d->file.deadline > 0 && mosaic_video_now() > d->file.deadline) {
            *failure = MOSAIC_VIDEO_TIMED_OUT;
            return mosaic_error("the clip's time limit passed while its frames were decoded");
        }
        if (!d->draining) {
            int status = av.av_read_frame(format, d->packet);
            if (status < 0) {
                if (d->file.timed_out) {
                    *failure = MOSAIC_VIDEO_TIMED_OUT;
                    return mosaic_error("the clip's time limit passed while its frames were read");
                }
                d->draining = 1;
                av.avcodec_send_packet(d->codec, NULL);
            } else {
                if (d->packet->stream_index == d->file.stream_index) {
                    // A frame shown before the time asked that no other frame refers to (a
                    // non-reference B-frame) is not decoded: the frame at the time does not
                    // need it. From half a frame before the time on, every frame is.
                    enum AVDiscard skip = AVDISCARD_DEFAULT;
                    int64_t pts = d->packet->pts != AV_NOPTS_VALUE ? d->packet->pts : d->packet->dts;
                    if (exact && time > 0 && pts != AV_NOPTS_VALUE && (double)pts * d->time_base - d->start + tolerance < time) skip = AVDISCARD_NONREF;
                    d->codec->skip_frame = skip;
                    int sent = av.avcodec_send_packet(d->codec, d->packet);
                    if (sent < 0 && sent != AVERROR(EAGAIN) && sent != AVERROR_EOF) d->corrupt_packets++;
                }
                av.av_packet_unref(d->packet);
            }
        }
        for (;;) {
            int status = av.avcodec_receive_frame(d->codec, d->frame);
            if (status == AVERROR(EAGAIN)) break;
            if (status == AVERROR_EOF) {
                if (d->has_last) {
                    av.av_frame_move_ref(d->frame, d->last);
                    *frame_time = mosaic_video_frame_time(d, d->frame);
                    return mosaic_ok();
                }
                *failure = MOSAIC_VIDEO_NO_FRAME;
                return mosaic_error("no frame of the clip could be decoded");
            }
            if (status < 0) {
                d->corrupt_packets++;
                if (d->draining) {
                    // A decoder that fails while draining has nothing more to give.
                    if (d->has_last) {
                        av.av_frame_move_ref(d->frame, d->last);
                        *frame_time = mosaic_video_frame_time(d, d->frame);
                        return mosaic_ok();
                    }
                    *failure = MOSAIC_VIDEO_NO_FRAME;
                    return mosaic_error("no frame of the clip could be decoded");
                }
                break;
            }
            double t = mosaic_video_frame_time(d, d->frame);
            d->frames_decoded++;
            if (d->received++ == 0) d->first_time = t;
            if (!exact || t < 0 || t + tolerance >= time) {
                *frame_time = t < 0 ? time : t;
                return mosaic_ok();
            }
            av.av_frame_unref(d->last);
            av.av_frame_move_ref(d->last, d->frame);
            d->has_last = 1;
        }
    }
}

/// Decodes the frame at `time` from the keyframe before it. A container indexes its
/// keyframes by decoding time, which with B-frames runs ahead of the presentation time (an
/// MP4's keyframe shown at 1.5 s may be decoded at 1.2 s): the seek aims that many frames
/// early, and when the first frame decoded is still past the time, seeks further back (2 s,
/// 10 s, then the start) rather than return a later frame.
static mosaic_result mosaic_video_seek_and_decode(mosaic_video_decoder *d, double time, int exact, double *frame_time,
                                                  mosaic_video_failure *failure) {
    int delay = d->file.stream->codecpar->video_delay;
    double margin = (delay > 0 ? delay + 1 : 0) * d->frame_duration;
    static const double steps[] = {0, 2, 10};
    for (int attempt = 0;; attempt++) {
        double target = attempt < 3 ? time - margin - steps[attempt] : 0;
        if (target < 0) target = 0;
        mosaic_video_seek(d, target);
        mosaic_result result = mosaic_video_decode_to(d, time, exact, frame_time, failure);
        if (result.status != MOSAIC_OK || !exact || target <= 0 || d->first_time < 0 || d->first_time <= time + d->frame_duration / 2) {
            return result;
        }
    }
}

// MARK: HDR

/// PQ (SMPTE ST 2084) and HLG (ARIB STD-B67) signals decoded to linear light, for each
/// 16-bit code: PQ in nits, HLG scene light (0...1). Built once.
static float mosaic_video_pq[65536], mosaic_video_hlg[65536];
/// Linear light (0...1, 4096 steps) to sRGB's 8-bit codes.
static uint8_t mosaic_video_srgb[4097];
static pthread_once_t mosaic_video_tables_once = PTHREAD_ONCE_INIT;

static void mosaic_video_build_tables(void) {
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    const double a = 0.17883277, b = 0.28466892, c = 0.55991073;
    for (int i = 0; i < 65536; i++) {
        double v = i / 65535.0;
        double p = pow(v, 1 / m2);
        mosaic_video_pq[i] = (float)(10000 * pow(fmax(p - c1, 0) / (c2 - c3 * p), 1 / m1));
        mosaic_video_hlg[i] = (float)(v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12);
    }
    for (int i = 0; i <= 4096; i++) {
        double l = i / 4096.0;
        double e = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055;
        mosaic_video_srgb[i] = (uint8_t)lround(fmin(1, fmax(0, e)) * 255);
    }
}

/// Tone maps `rows` of BT.2020 R'G'B' (RGB48, PQ or HLG coded) into sRGB RGBA8: to linear
/// light in nits (HLG through its OOTF for a 1000-nit display), scaled so that HDR
/// reference white (203 nits, BT.2408) is SDR white, luminance above 0.75 of it rolled off
/// smoothly towards 1 (hue kept: the three channels scaled alike), BT.2020 primaries
/// turned into BT.709's, out-of-gamut values clipped, sRGB-encoded.
static void mosaic_video_tone_map(const uint8_t *rgb48, size_t rgb48_stride, int hlg, uint8_t *out, size_t stride, int width, int height) {
    pthread_once(&mosaic_video_tables_once, mosaic_video_build_tables);
    const double reference_white = 203, knee = 0.75;
    for (int y = 0; y < height; y++) {
        const uint16_t *in = (const uint16_t *)(rgb48 + (size_t)y * rgb48_stride);
        uint8_t *row = out + (size_t)y * stride;
        for (int x = 0; x < width; x++) {
            double r, g, b;
            if (hlg) {
                r = mosaic_video_hlg[in[x * 3]];
                g = mosaic_video_hlg[in[x * 3 + 1]];
                b = mosaic_video_hlg[in[x * 3 + 2]];
                // The OOTF for a 1000-nit display: system gamma 1.2 on the scene's luminance.
                double ys = 0.2627 * r + 0.6780 * g + 0.0593 * b;
                double gain = ys > 0 ? 1000 * pow(ys, 0.2) : 0;
                r *= gain, g *= gain, b *= gain;
            } else {
                r = mosaic_video_pq[in[x * 3]];
                g = mosaic_video_pq[in[x * 3 + 1]];
                b = mosaic_video_pq[in[x * 3 + 2]];
            }
            r /= reference_white, g /= reference_white, b /= reference_white;
            double luminance = 0.2627 * r + 0.6780 * g + 0.0593 * b;
            if (luminance > knee) {
                double mapped = knee + (1 - knee) * (1 - exp(-(luminance - knee) / (1 - knee)));
                double scale = mapped / luminance;
                r *= scale, g *= scale, b *= scale;
            }
            double r709 = 1.6605 * r - 0.5876 * g - 0.0728 * b;
            double g709 = -0.1246 * r + 1.1329 * g - 0.0083 * b;
            double b709 = -0.0182 * r - 0.1006 * g + 1.1187 * b;
            uint8_t *p = row + (size_t)x * 4;
            p[0] = mosaic_video_srgb[(int)(fmin(1, fmax(0, r709)) * 4096 + 0.5)];
            p[1] = mosaic_video_srgb[(int)(fmin(1, fmax(0, g709)) * 4096 + 0.5)];
            p[2] = mosaic_video_srgb[(int)(fmin(1, fmax(0, b709)) * 4096 + 0.5)];
            p[3] = 255;
        }
    }
}

// MARK: Conversion

/// Converts and scales `d->frame` into `out` in one libswscale call, at the size asked
/// (never at the stored size first). An interlaced frame is deinterlaced in the same call:
/// its top field alone is scaled (every other row, the rows between interpolated by the
/// scaler), so the two fields' moments never comb. An HDR frame (PQ or HLG) is converted
/// to 16-bit R'G'B' at the size asked, then tone mapped into sRGB
/// (`mosaic_video_tone_map`).
static mosaic_result mosaic_video_convert(mosaic_video_decoder *d, uint8_t *out, size_t stride, int width, int height) {
    AVFrame *frame = d->frame;
    if (frame->width <= 0 || frame->height <= 0 || frame->format < 0) return mosaic_error("the decoder gave a frame without a size");
    if (d->scaler) av.sws_freeContext(d->scaler);
    d->scaler = NULL;
    enum AVPixelFormat pixel = (enum AVPixelFormat)frame->format;
    const AVPixFmtDescriptor *descriptor = av.av_pix_fmt_desc_get(pixel);
    int hlg = frame->color_trc == AVCOL_TRC_ARIB_STD_B67;
    int hdr = hlg || frame->color_trc == AVCOL_TRC_SMPTE2084;
    int field = frame->interlaced_frame && frame->height >= 4 && descriptor && !(descriptor->flags & (AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM));
    const uint8_t *planes_in[4] = {frame->data[0], frame->data[1], frame->data[2], frame->data[3]};
    int strides_in[4] = {frame->linesize[0], frame->linesize[1], frame->linesize[2], frame->linesize[3]};
    int source_height = frame->height;
    if (field) {
        for (int i = 0; i < 4; i++) strides_in[i] *= 2;
        source_height = frame->height / 2;
    }
    // Area averaging for reductions (the resampler does the last factor of two), bicubic
    // for the rare enlargement.
    int flags = (width < frame->width && height < source_height) ? SWS_AREA : SWS_BICUBIC;
    d->scaler = av.sws_getContext(frame->width, source_height, pixel, width, height, hdr ? AV_PIX_FMT_RGB48 : AV_PIX_FMT_RGBA,
                                  flags | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, NULL, NULL, NULL);
    if (!d->scaler) {
        mosaic_result result = mosaic_error("");
        const char *name = av.av_get_pix_fmt_name(pixel);
        snprintf(result.message, MOSAIC_MESSAGE_SIZE, "libswscale cannot convert %s frames", name ? name : "these");
        return result;
    }
    // The matrix the stream declares; unspecified: BT.709 for HD, BT.601 below.
    int space = frame->colorspace;
    int swsSpace = SWS_CS_DEFAULT;
    switch (space) {
    case AVCOL_SPC_BT709: swsSpace = SWS_CS_ITU709; break;
    case AVCOL_SPC_FCC: swsSpace = SWS_CS_FCC; break;
    case AVCOL_SPC_SMPTE240M: swsSpace = SWS_CS_SMPTE240M; break;
    case AVCOL_SPC_BT2020_NCL:
    case AVCOL_SPC_BT2020_CL: swsSpace = SWS_CS_BT2020; break;
    case AVCOL_SPC_BT470BG:
    case AVCOL_SPC_SMPTE170M: swsSpace = SWS_CS_ITU601; break;
    default: swsSpace = hdr ? SWS_CS_BT2020 : frame->height >= 720 ? SWS_CS_ITU709 : SWS_CS_ITU601; break;
    }
    int fullRange = frame->color_range == AVCOL_RANGE_JPEG || pixel == AV_PIX_FMT_YUVJ420P || pixel == AV_PIX_FMT_YUVJ422P ||
                    pixel == AV_PIX_FMT_YUVJ444P || pixel == AV_PIX_FMT_YUVJ440P;
    av.sws_setColorspaceDetails(d->scaler, av.sws_getCoefficients(swsSpace), fullRange, av.sws_getCoefficients(SWS_CS_DEFAULT), 1, 0,
                                1 << 16, 1 << 16);
    uint8_t *rgb48 = NULL;
    size_t rgb48_stride = (size_t)width * 6;
    if (hdr) {
        rgb48 = malloc(rgb48_stride * (size_t)height);
        if (!rgb48) return mosaic_out_of_memory("the HDR frame's 16-bit pixels");
    }
    uint8_t *planes[4] = {hdr ? rgb48 : out, NULL, NULL, NULL};
    int strides[4] = {hdr ? (int)rgb48_stride : (int)stride, 0, 0, 0};
    int rows = av.sws_scale(d->scaler, planes_in, strides_in, 0, source_height, planes, strides);
    if (rows != height) {
        free(rgb48);
        return mosaic_error("libswscale could not convert the frame");
    }
    if (hdr) {
        mosaic_video_tone_map(rgb48, rgb48_stride, hlg, out, stride, width, height);
        free(rgb48);
        return mosaic_ok();
    }
    // Opaque: a video frame has no alpha mosaic draws.
    for (int y = 0; y < height; y++) {
        uint8_t *row = out + (size_t)y * stride;
        for (int x = 0; x < width; x++) row[x * 4 + 3] = 255;
    }
    return mosaic_ok();
}

/// How usable a converted frame is as a poster: 0 when it is black, blank or a fade (its
/// luma dark and flat, or flat at any level), else its luma's spread.
static double mosaic_video_poster_score(const uint8_t *out, size_t stride, int width, int height) {
    double sum = 0, squares = 0;
    int step = (width * height > 65536) ? 2 : 1;
    long count = 0;
    for (int y = 0; y < height; y += step) {
        const uint8_t *row = out + (size_t)y * stride;
        for (int x = 0; x < width; x += step) {
            double luma = 0.2126 * row[x * 4] + 0.7152 * row[x * 4 + 1] + 0.0722 * row[x * 4 + 2];
            sum += luma;
            squares += luma * luma;
            count++;
        }
    }
    if (count == 0) return 0;
    double mean = sum / count;
    double spread = sqrt(fmax(0, squares / count - mean * mean));
    if (spread < 6) return 0;                // blank (a flat colour, black, white)
    if (mean < 28 && spread < 20) return 0;  // black or fading from or to black
    if (mean > 235 && spread < 20) return 0; // a white flash
    return spread;
}

/// `mosaic_video_poster_score` of a frame read from its luma plane (sampled on a grid of
/// about 96 x 96 points, limited range widened to full), without converting it; -1 when the
/// frame has no plain luma plane to read (RGB, palette, an HDR transfer): then convert it.
static double mosaic_video_frame_score(const AVFrame *frame) {
    const AVPixFmtDescriptor *descriptor = av.av_pix_fmt_desc_get((enum AVPixelFormat)frame->format);
    if (!descriptor || descriptor->nb_components < 1 || frame->width <= 0 || frame->height <= 0 || !frame->data[0]) return -1;
    if (descriptor->flags & (AV_PIX_FMT_FLAG_RGB | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL | AV_PIX_FMT_FLAG_BE)) return -1;
    if (frame->color_trc == AVCOL_TRC_SMPTE2084 || frame->color_trc == AVCOL_TRC_ARIB_STD_B67) return -1;
    AVComponentDescriptor luma = descriptor->comp[0];
    if (luma.plane != 0 || luma.shift != 0 || luma.depth < 8 || luma.depth > 16 || luma.step < 1) return -1;
    int wide = luma.depth > 8;
    int full = frame->color_range == AVCOL_RANGE_JPEG || frame->format == AV_PIX_FMT_YUVJ420P || frame->format == AV_PIX_FMT_YUVJ422P ||
               frame->format == AV_PIX_FMT_YUVJ444P || frame->format == AV_PIX_FMT_YUVJ440P;
    int xs = frame->width / 96 > 1 ? frame->width / 96 : 1, ys = frame->height / 96 > 1 ? frame->height / 96 : 1;
    double sum = 0, squares = 0;
    long count = 0;
    for (int y = 0; y < frame->height; y += ys) {
        const uint8_t *row = frame->data[0] + (ptrdiff_t)y * frame->linesize[0] + luma.offset;
        for (int x = 0; x < frame->width; x += xs) {
            const uint8_t *p = row + (size_t)x * (size_t)luma.step;
            double v = wide ? (double)(p[0] | (p[1] << 8)) / (double)(1 << (luma.depth - 8)) : p[0];
            if (!full) v = (v - 16) * 255.0 / 219.0;
            v = v < 0 ? 0 : v > 255 ? 255 : v;
            sum += v;
            squares += v * v;
            count++;
        }
    }
    if (count == 0) return -1;
    double mean = sum / count;
    double spread = sqrt(fmax(0, squares / count - mean * mean));
    if (spread < 6) return 0;
    if (mean < 28 && spread < 20) return 0;
    if (mean > 235 && spread < 20) return 0;
    return spread;
}

/// The time of `packet` in seconds from the stream's start (its presentation time, else its
/// decoding time); < -1e300 when it has neither.
static double mosaic_video_packet_time(const mosaic_video_decoder *d, const AVPacket *packet) {
    int64_t pts = packet->pts != AV_NOPTS_VALUE ? packet->pts : packet->dts;
    if (pts == AV_NOPTS_VALUE) return -HUGE_VAL;
    return (double)pts * d->time_base - d->start;
}

/// Decodes the keyframe the stream was just sought to, alone: its packet is sent, then the
/// end of the stream, so that a decoder that holds frames back for B-frames (H.264, HEVC)
/// gives it at once instead of decoding the frames after it first. The decoder is left
/// drained (`d->draining`): a seek must follow before more frames.
///
/// A keyframe whose packet gives its time, and that time lies outside `earliest...latest`
/// (seconds), is not decoded (`*decoded` is 0, `*frame_time` its packet's time): a keyframe
/// is shown at its packet's presentation time, so the poster's candidate is turned down
/// without the work of decoding it (a whole 1080p picture).
static mosaic_result mosaic_video_decode_keyframe(mosaic_video_decoder *d, double earliest, double latest, double *frame_time,
                                                  int *decoded, mosaic_video_failure *failure) {
    *decoded = 0;
    for (int packets = 0; packets < 10000; packets++) {
        int status = av.av_read_frame(d->file.format, d->packet);
        if (status < 0) {
            if (d->file.timed_out) {
                *failure = MOSAIC_VIDEO_TIMED_OUT;
                return mosaic_error("the clip's time limit passed while its frames were read");
            }
            break;
        }
        int ours = d->packet->stream_index == d->file.stream_index;
        if (ours) {
            double t = mosaic_video_packet_time(d, d->packet);
            if (t > -1e300 && (d->packet->flags & AV_PKT_FLAG_KEY) && !(t >= earliest && t <= latest)) {
                av.av_packet_unref(d->packet);
                d->draining = 1;
                *frame_time = t < 0 ? 0 : t;
                return mosaic_ok();
            }
            d->codec->skip_frame = AVDISCARD_DEFAULT;
            if (av.avcodec_send_packet(d->codec, d->packet) < 0) d->corrupt_packets++;
        }
        av.av_packet_unref(d->packet);
        if (ours) break;
    }
    d->draining = 1;
    av.avcodec_send_packet(d->codec, NULL);
    int status = av.avcodec_receive_frame(d->codec, d->frame);
    if (status < 0) {
        *failure = MOSAIC_VIDEO_NO_FRAME;
        return mosaic_error("the keyframe could not be decoded alone");
    }
    d->frames_decoded++;
    *decoded = 1;
    double t = mosaic_video_frame_time(d, d->frame);
    *frame_time = t < 0 ? 0 : t;
    return mosaic_ok();
}

/// The poster's first candidate: the keyframe a seek to 10% of the clip lands on, one frame
/// decoded, as a thumbnailer takes it: the keyframe before 10% if it lies from 5% on, else
/// the one after it if that lies before 20% (a keyframe outside is turned down by its
/// packet's time, undecoded). `*found` is 1 when it is not black, blank or a fade (judged as
/// `mosaic_video_frame_score` says); it is then converted into `out`. The decoder is left
/// drained: the candidates after it seek.
static mosaic_result mosaic_video_keyframe_poster(mosaic_video_decoder *d, double duration, uint8_t *out, size_t stride, int width,
                                                  int height, double *frame_time, mosaic_video_failure *failure, int *found) {
    double target = 0.10 * duration, tolerance = d->frame_duration / 2;
    *found = 0;
    int decoded = 0;
    mosaic_video_seek(d, target);
    mosaic_result result = mosaic_video_decode_keyframe(d, 0.05 * duration, target + tolerance, frame_time, &decoded, failure);
    if (result.status != MOSAIC_OK) return result;
    if (!(*frame_time >= 0.05 * duration && *frame_time <= target + tolerance)) {
        if (!mosaic_video_seek_keyframe(d, target, 0)) {
            mosaic_video_seek(d, 0);
            *frame_time = -1;
            return mosaic_ok();
        }
        result = mosaic_video_decode_keyframe(d, target - tolerance, 0.20 * duration, frame_time, &decoded, failure);
        if (result.status != MOSAIC_OK) return result;
        if (!(*frame_time >= target - tolerance && *frame_time <= 0.20 * duration)) return mosaic_ok();
    }
    if (!decoded) return mosaic_ok();
    double score = mosaic_video_frame_score(d->frame);
    if (score < 0) {
        result = mosaic_video_convert(d, out, stride, width, height);
        if (result.status != MOSAIC_OK) return result;
        score = mosaic_video_poster_score(out, stride, width, height);
        *found = score > 0;
        return mosaic_ok();
    }
    if (score > 0) {
        *found = 1;
        return mosaic_video_convert(d, out, stride, width, height);
    }
    return mosaic_ok();
}

mosaic_result mosaic_video_decode_frame(const char *path, mosaic_video_request *request, uint8_t *out, size_t stride,
                                        int width, int height, double *frame_time, mosaic_video_failure *failure) {
    *failure = MOSAIC_VIDEO_FAILED;
    *frame_time = 0;
    request->frames_decoded = 0;
    if (width <= 0 || height <= 0) return mosaic_error("the frame size asked is empty");
    mosaic_video_decoder d;
    mosaic_video_info info;
    memset(&info, 0, sizeof info);
    mosaic_result result = mosaic_video_open_decoder(path, request, width, height, &d, &info);
    if (result.status != MOSAIC_OK) {
        *failure = info.failure;
        mosaic_video_close_decoder(&d);
        return result;
    }
    double duration = info.duration > 0 ? info.duration : 0;
    if (request->time >= 0) {
        result = mosaic_video_seek_and_decode(&d, request->time, request->exact, frame_time, failure);
        if (result.status == MOSAIC_OK) result = mosaic_video_convert(&d, out, stride, width, height);
    } else {
        // A poster: from 10% of the clip, the first frame that is not black, blank or a
        // fade. The keyframe a seek to 10% lands on first (one frame decoded); then a few
        // candidates (each at most 12 frames), the best one kept. A frame is judged by its
        // luma plane where it has one (no conversion); only the frame kept is converted. A
        // candidate a little ahead of the last frame decoded is reached by decoding on, not
        // by a seek that would start again from the keyframe.
        static const double starts[] = {0.10, 0.20, 0.30, 0.05, 0.50};
        int found = 0, has_best = 0;
        uint8_t *best = NULL;
        double best_time = 0, position = -1;
        size_t bytes = (size_t)height * stride;
        if (duration > 0) {
            result = mosaic_video_keyframe_poster(&d, duration, out, stride, width, height, frame_time, failure, &found);
            if (result.status == MOSAIC_OK) {
                position = *frame_time;
            } else if (*failure != MOSAIC_VIDEO_TIMED_OUT && result.status != MOSAIC_OUT_OF_MEMORY) {
                // The candidates below say what is wrong with the clip, if anything is.
                result = mosaic_ok();
                *failure = MOSAIC_VIDEO_FAILED;
            }
        }
        for (size_t c = 0; c < sizeof starts / sizeof starts[0] && !found && result.status == MOSAIC_OK; c++) {
            double t = starts[c] * duration;
            if (position >= 0 && t > position && t - position <= 2.0 && !d.draining) {
                result = mosaic_video_decode_to(&d, t, 1, frame_time, failure);
            } else {
                result = mosaic_video_seek_and_decode(&d, t, 1, frame_time, failure);
            }
            if (result.status != MOSAIC_OK) break;
            for (int tries = 0; tries < 12; tries++) {
                position = *frame_time;
                double score = mosaic_video_frame_score(d.frame);
                int converted = 0;
                if (score < 0) {
                    result = mosaic_video_convert(&d, out, stride, width, height);
                    if (result.status != MOSAIC_OK) break;
                    score = mosaic_video_poster_score(out, stride, width, height);
                    converted = 1;
                }
                if (score > 0) {
                    found = 1;
                    if (!converted) result = mosaic_video_convert(&d, out, stride, width, height);
                    break;
                }
                // The first frame turned down is kept, for a clip with no other.
                if (!has_best) {
                    if (!converted) result = mosaic_video_convert(&d, out, stride, width, height);
                    if (result.status != MOSAIC_OK) break;
                    if (!best) best = malloc(bytes);
                    if (best) {
                        memcpy(best, out, bytes);
                        has_best = 1;
                        best_time = *frame_time;
                    }
                }
                // The next frame, decoding on.
                result = mosaic_video_decode_to(&d, 0, 0, frame_time, failure);
                if (result.status != MOSAIC_OK) break;
            }
            if (result.status != MOSAIC_OK) break;
            if (duration <= 0) break;
        }
        if (result.status != MOSAIC_OK && has_best && *failure != MOSAIC_VIDEO_TIMED_OUT) result = mosaic_ok();
        if (result.status == MOSAIC_OK && !found) {
            if (has_best) {
                memcpy(out, best, bytes);
                *frame_time = best_time;
            } else {
                result = mosaic_video_convert(&d, out, stride, width, height);
            }
        }
        free(best);
    }
    if (result.status == MOSAIC_OK && d.corrupt_packets > 0) {
        result.warning_count = d.corrupt_packets;
        result.damage_count = d.corrupt_packets;
        snprintf(result.warning, MOSAIC_MESSAGE_SIZE, "%d corrupt packets were skipped", d.corrupt_packets);
        snprintf(result.damage, MOSAIC_MESSAGE_SIZE, "%d corrupt packets were skipped", d.corrupt_packets);
    }
    request->frames_decoded = d.frames_decoded;
    mosaic_video_close_decoder(&d);
    return result;
}
