// Video fixtures through libavcodec's own encoders (MPEG-4 part 2, MJPEG: Debian's FFmpeg
// has both; H.264 through libx264, which Debian's links) and libavformat's muxers, so the tests need no ffmpeg program. Each frame
// carries its index as a pattern: eight bars across the top half, bar k white when bit k of
// the index is set, black otherwise, on grey; a white square marks the top-left corner.
#include "CMosaicFixtures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/display.h>
#include <libavutil/opt.h>

static int fixture_fail(char *message, size_t size, const char *what, int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {0};
    if (code < 0) av_strerror(code, text, sizeof text);
    snprintf(message, size, "%s%s%s", what, code < 0 ? ": " : "", text);
    return -1;
}

/// Fills `frame` (planar YUV 4:2:0) with the pattern of `index`.
static void fixture_pattern(AVFrame *frame, int index, int black, int full_range) {
    int width = frame->width, height = frame->height;
    uint8_t low = full_range ? 0 : 16, high = full_range ? 255 : 235;
    for (int y = 0; y < height; y++) {
        uint8_t *row = frame->data[0] + (size_t)y * frame->linesize[0];
        for (int x = 0; x < width; x++) {
            uint8_t value = 128;
            if (black) {
                value = low;
            } else if (y < height / 8 && x < width / 8) {
                value = high;  // the corner mark
            } else if (y >= height / 4 && y < height / 2) {
                int bar = x * 8 / width;
                value = (index >> bar) & 1 ? high : low;
            }
            row[x] = value;
        }
    }
    for (int plane = 1; plane < 3; plane++)
        for (int y = 0; y < (height + 1) / 2; y++) memset(frame->data[plane] + (size_t)y * frame->linesize[plane], 128, (size_t)(width + 1) / 2);
}

/// The 10-bit limited-range code of a signal value (0...1).
static uint16_t fixture_code10(double signal) { return (uint16_t)lround(64 + fmin(1, fmax(0, signal)) * 876); }

/// PQ's signal for `nits`.
static double fixture_pq(double nits) {
    const double m1 = 0.1593017578125, m2 = 78.84375, c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
    double y = pow(nits / 10000, m1);
    return pow((c1 + c2 * y) / (1 + c3 * y), m2);
}

/// Fills a yuv420p10 `frame`: the top half HDR reference white, the bottom half 10 nits.
static void fixture_hdr_pattern(AVFrame *frame, int hlg) {
    // HLG: 75% is reference white; 10 nits on a 1000-nit display is scene light
    // 0.01^(1/1.2), whose signal is sqrt(3 E).
    uint16_t white = fixture_code10(hlg ? 0.75 : fixture_pq(203));
    uint16_t dim = fixture_code10(hlg ? sqrt(3 * pow(0.01, 1 / 1.2)) : fixture_pq(10));
    for (int y = 0; y < frame->height; y++) {
        uint16_t *row = (uint16_t *)(frame->data[0] + (size_t)y * frame->linesize[0]);
        for (int x = 0; x < frame->width; x++) row[x] = y < frame->height / 2 ? white : dim;
    }
    for (int plane = 1; plane < 3; plane++)
        for (int y = 0; y < (frame->height + 1) / 2; y++) {
            uint16_t *row = (uint16_t *)(frame->data[plane] + (size_t)y * frame->linesize[plane]);
            for (int x = 0; x < (frame->width + 1) / 2; x++) row[x] = 512;
        }
}

/// Stripes the bottom half of an 8-bit `frame`: even rows white, odd rows black.
static void fixture_fields(AVFrame *frame) {
    for (int y = frame->height / 2; y < frame->height; y++) memset(frame->data[0] + (size_t)y * frame->linesize[0], y % 2 ? 16 : 235, (size_t)frame->width);
}

static int fixture_write_packets(AVCodecContext *codec, AVFormatContext *format, AVStream *stream, AVFrame *frame, char *message, size_t size) {
    int status = avcodec_send_frame(codec, frame);
    if (status < 0) return fixture_fail(message, size, "send a frame", status);
    AVPacket *packet = av_packet_alloc();
    for (;;) {
        status = avcodec_receive_packet(codec, packet);
        if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) break;
        if (status < 0) {
            av_packet_free(&packet);
            return fixture_fail(message, size, "encode", status);
        }
        av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
        packet->stream_index = stream->index;
        status = av_interleaved_write_frame(format, packet);
        if (status < 0) {
            av_packet_free(&packet);
            return fixture_fail(message, size, "write a packet", status);
        }
    }
    av_packet_free(&packet);
    return 0;
}

static int fixture_audio(AVFormatContext *format, char *message, size_t size) {
    const AVCodec *encoder = avcodec_find_encoder(AV_CODEC_ID_PCM_S16LE);
    if (!encoder) return fixture_fail(message, size, "no PCM encoder", 0);
    AVStream *stream = avformat_new_stream(format, NULL);
    AVCodecContext *codec = avcodec_alloc_context3(encoder);
    codec->sample_fmt = AV_SAMPLE_FMT_S16;
    codec->sample_rate = 8000;
    av_channel_layout_default(&codec->ch_layout, 1);
    codec->time_base = (AVRational){1, 8000};
    int status = avcodec_open2(codec, encoder, NULL);
    if (status < 0) return fixture_fail(message, size, "open the PCM encoder", status);
    avcodec_parameters_from_context(stream->codecpar, codec);
    stream->time_base = codec->time_base;
    status = avformat_write_header(format, NULL);
    if (status < 0) return fixture_fail(message, size, "write the header", status);
    AVFrame *frame = av_frame_alloc();
    frame->format = AV_SAMPLE_FMT_S16;
    frame->nb_samples = 800;
    av_channel_layout_copy(&frame->ch_layout, &codec->ch_layout);
    av_frame_get_buffer(frame, 0);
    for (int block = 0; block < 10; block++) {
        int16_t *samples = (int16_t *)frame->data[0];
        for (int i = 0; i < 800; i++) samples[i] = (int16_t)(8000 * sin((block * 800 + i) * 0.3));
        frame->pts = block * 800;
        if (fixture_write_packets(codec, format, stream, frame, message, size) < 0) return -1;
    }
    fixture_write_packets(codec, format, stream, NULL, message, size);
    av_frame_free(&frame);
    avcodec_free_context(&codec);
    return 0;
}

int mosaic_write_video_fixture(const mosaic_video_fixture *f, char *message, size_t size) {
    message[0] = 0;
    AVFormatContext *format = NULL;
    int status = avformat_alloc_output_context2(&format, NULL, f->container, f->path);
    if (status < 0 || !format) return fixture_fail(message, size, "no muxer", status);
    if (f->creation_time) av_dict_set(&format->metadata, "creation_time", f->creation_time, 0);
    if (f->apple_creation) av_dict_set(&format->metadata, "com.apple.quicktime.creationdate", f->apple_creation, 0);
    if (f->make) av_dict_set(&format->metadata, "com.apple.quicktime.make", f->make, 0);
    if (f->model) av_dict_set(&format->metadata, "com.apple.quicktime.model", f->model, 0);
    if (f->content_identifier) av_dict_set(&format->metadata, "com.apple.quicktime.content.identifier", f->content_identifier, 0);
    status = avio_open(&format->pb, f->path, AVIO_FLAG_WRITE);
    if (status < 0) return fixture_fail(message, size, "open the file", status);
    int result = 0;
    if (f->audio_only) {
        result = fixture_audio(format, message, size);
    } else {
        int mjpeg = f->codec && !strcmp(f->codec, "mjpeg");
        int h264 = f->codec && !strcmp(f->codec, "h264");
        int hdr = f->hdr_transfer != 0;
        enum AVCodecID id = hdr ? AV_CODEC_ID_FFV1 : f->interlaced ? AV_CODEC_ID_MPEG2VIDEO : mjpeg ? AV_CODEC_ID_MJPEG : h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MPEG4;
        const AVCodec *encoder = avcodec_find_encoder(id);
        if (!encoder) return fixture_fail(message, size, "no encoder", 0);
        AVStream *stream = avformat_new_stream(format, NULL);
        AVCodecContext *codec = avcodec_alloc_context3(encoder);
        codec->width = f->width;
        codec->height = f->height;
        codec->time_base = (AVRational){1, f->fps > 0 ? f->fps : 25};
        codec->framerate = (AVRational){f->fps > 0 ? f->fps : 25, 1};
        codec->pix_fmt = hdr ? AV_PIX_FMT_YUV420P10 : mjpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P;
        if (hdr) {
            codec->color_trc = (enum AVColorTransferCharacteristic)f->hdr_transfer;
            codec->color_primaries = AVCOL_PRI_BT2020;
            codec->colorspace = AVCOL_SPC_BT2020_NCL;
            codec->color_range = AVCOL_RANGE_MPEG;
        }
        if (f->interlaced) {
            codec->flags |= AV_CODEC_FLAG_INTERLACED_DCT | AV_CODEC_FLAG_INTERLACED_ME;
            codec->field_order = AV_FIELD_TT;
        }
        codec->gop_size = f->gop > 0 ? f->gop : 12;
        codec->max_b_frames = f->b_frames;
        codec->bit_rate = 4000000;
        codec->flags |= AV_CODEC_FLAG_QSCALE;
        codec->global_quality = FF_QP2LAMBDA * 3;
        if (f->sar_num > 0 && f->sar_den > 0) codec->sample_aspect_ratio = (AVRational){f->sar_num, f->sar_den};
        if (format->oformat->flags & AVFMT_GLOBALHEADER) codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
        if (f->level > 0) codec->level = f->level;
        if (h264) av_opt_set(codec->priv_data, "preset", "ultrafast", 0);
        status = avcodec_open2(codec, encoder, NULL);
        if (status < 0) return fixture_fail(message, size, "open the encoder", status);
        avcodec_parameters_from_context(stream->codecpar, codec);
        stream->time_base = codec->time_base;
        stream->sample_aspect_ratio = codec->sample_aspect_ratio;
        stream->avg_frame_rate = codec->framerate;
        if (f->rotation) {
            int32_t *matrix = (int32_t *)av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, 9 * sizeof(int32_t));
            // As ffmpeg reads it: av_display_rotation_get of this matrix is -rotation, and
            // ffmpeg's autorotate turns the frame `rotation` degrees clockwise.
            if (matrix) av_display_rotation_set(matrix, (double)f->rotation);
        }
        AVDictionary *options = NULL;
        if (f->apple_creation || f->make || f->content_identifier) av_dict_set(&options, "movflags", "use_metadata_tags", 0);
        status = avformat_write_header(format, &options);
        av_dict_free(&options);
        if (status < 0) return fixture_fail(message, size, "write the header", status);
        AVFrame *frame = av_frame_alloc();
        frame->format = codec->pix_fmt;
        frame->width = f->width;
        frame->height = f->height;
        av_frame_get_buffer(frame, 0);
        for (int i = 0; i < f->frames && result == 0; i++) {
            av_frame_make_writable(frame);
            if (hdr) {
                fixture_hdr_pattern(frame, f->hdr_transfer == AVCOL_TRC_ARIB_STD_B67);
            } else {
                fixture_pattern(frame, i, i < f->black_frames, mjpeg);
                if (f->interlaced) {
                    fixture_fields(frame);
                    frame->interlaced_frame = 1;
                    frame->top_field_first = 1;
                }
            }
            frame->pts = i;
            result = fixture_write_packets(codec, format, stream, frame, message, size);
        }
        if (result == 0) result = fixture_write_packets(codec, format, stream, NULL, message, size);
        av_frame_free(&frame);
        avcodec_free_context(&codec);
    }
    if (result == 0) {
        status = av_write_trailer(format);
        if (status < 0) result = fixture_fail(message, size, "write the trailer", status);
    }
    avio_closep(&format->pb);
    avformat_free_context(format);
    return result;
}

int mosaic_video_fixture_can_encode(const char *codec) {
    enum AVCodecID id = !strcmp(codec, "h264") ? AV_CODEC_ID_H264 : !strcmp(codec, "mjpeg") ? AV_CODEC_ID_MJPEG : AV_CODEC_ID_MPEG4;
    return avcodec_find_encoder(id) != NULL;
}
