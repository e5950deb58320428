import MosaicLayout

import CMosaicShims

/// Video through FFmpeg's libraries (`video.c`, loaded on first use: a run without videos
/// never loads them): every container and codec Debian's FFmpeg reads, recognised by the
/// container's signature. The probe reads the headers only (display size with the sample
/// aspect ratio, rotation, duration, frame rate, codec, creation time, camera); a decode
/// seeks to the keyframe before its frame's time and decodes forward, converting and
/// reducing in one libswscale step. Files are read by path (`readsFromPath`): a clip's
/// index may lie at the end of gigabytes.
public struct VideoCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "video")
    public var format: ImageFormat { Self.format }
    public var name: String { "video" }
    public var fileExtensions: [String] {
        ["mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "flv", "wmv", "asf", "mpg", "mpeg", "3gp", "3g2", "ogv", "mts", "m2ts", "m2t"]
    }
    public var readsFromPath: Bool { true }

    /// The ISO media brands of video files (QuickTime, MP4, 3GPP, camera brands). HEIF and
    /// AVIF brands belong to `HEIFCodec`; Canon's "crx " is a raw photo.
    static let brands: Set<String> = [
        "qt  ", "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "mp41", "mp42", "M4V ", "M4VP", "M4VH", "M4A ", "avc1", "3gp4", "3gp5",
        "3gp6", "3g2a", "3ge6", "3gs7", "MSNV", "XAVC", "dash", "mmp4", "f4v ", "NDAS", "CAEP", "ndxh",
    ]

    public init() {}

    public func matches(signature: [UInt8]) -> Bool {
        func ascii(_ text: String, at offset: Int) -> Bool {
            signature.count >= offset + text.utf8.count && signature[offset..<(offset + text.utf8.count)].elementsEqual(text.utf8)
        }
        if ascii("ftyp", at: 4), signature.count >= 12 { return Self.brands.contains(String(decoding: signature[8..<12], as: UTF8.self)) }
        // QuickTime files that start with another atom.
        if ["moov", "mdat", "wide", "pnot"].contains(where: { ascii($0, at: 4) }) { return true }
        if signature.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return true }  // Matroska, WebM
        if ascii("RIFF", at: 0) && ascii("AVI ", at: 8) { return true }
        if signature.starts(with: [0x46, 0x4C, 0x56, 0x01]) { return true }  // FLV
        if signature.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return true }  // ASF, WMV
        if signature.starts(with: [0x00, 0x00, 0x01, 0xBA]) { return true }  // MPEG program stream
        return false
    }

    /// A header the signature does not place: an MPEG transport stream (a camcorder's
    /// `.mts`, a broadcast's `.ts`), known by its sync byte starting 188-byte packets (192
    /// with Blu-ray's 4-byte time codes, `.m2ts`), three at least.
    public func matches(header: [UInt8]) -> Bool {
        matches(signature: Array(header.prefix(CodecRegistry.signatureLength))) || Self.isTransportStream(header)
    }

    /// The bytes a header check needs: three packets of 192 bytes.
    public static let transportStreamHeader = 3 * 192

    static func isTransportStream(_ header: [UInt8]) -> Bool {
        for (offset, size) in [(0, 188), (4, 192)] {
            let packets = min(8, max(0, header.count - offset) / size)
            if packets >= 3, (0..<packets).allSatisfy({ header[offset + $0 * size] == 0x47 }) { return true }
        }
        return false
    }

    /// A video is probed from its file (`probe(file:request:)`).
    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        try probe(file: path, request: DecodeRequest(path: path))
    }

    public func probe(file path: String, request: DecodeRequest) throws(ImageDecodingError) -> ImageInfo {
        var raw = mosaic_video_info()
        let result = FileNames.withSystemPath(path) { mosaic_video_probe($0, request.video.clipTimeout, &raw) }
        guard result.status == MOSAIC_OK else {
            throw Self.error(result, failure: raw.failure, audioStreams: Int(raw.audio_streams), codec: messageText(raw.codec), path: path, timeout: request.video.clipTimeout)
        }
        return Self.imageInfo(raw)
    }

    /// The headers' facts as an `ImageInfo`: the size displayed before rotation, the
    /// rotation as an orientation.
    static func imageInfo(_ raw: mosaic_video_info) -> ImageInfo {
        let orientation: Orientation
        switch (raw.rotation, raw.mirrored != 0) {
        case (90, false): orientation = .right
        case (180, false): orientation = .down
        case (270, false): orientation = .left
        case (0, true): orientation = .upMirrored
        case (90, true): orientation = .rightMirrored
        case (180, true): orientation = .downMirrored
        case (270, true): orientation = .leftMirrored
        default: orientation = .up
        }
        var info = ImageInfo(
            format: format, width: Int(raw.display_width), height: Int(raw.display_height), orientation: orientation, hasAlpha: false,
            bitDepth: max(1, Int(raw.bit_depth)), colorModel: .ycbcr)
        info.video = VideoInfo(
            duration: raw.duration > 0 ? raw.duration : nil, frameRate: raw.frame_rate > 0 ? raw.frame_rate : nil, codec: messageText(raw.codec),
            container: messageText(raw.container), codedWidth: Int(raw.coded_width), codedHeight: Int(raw.coded_height),
            bitRate: raw.bit_rate > 0 ? Int(raw.bit_rate) : nil, pixelFormat: messageText(raw.pixel_format),
            decoderFrames: raw.decoder_frames > 0 ? Int(raw.decoder_frames) : nil)
        // QuickTime's local time with its offset first, then the container's UTC time.
        info.captured = creationDate(messageText(raw.local_creation)) ?? creationDate(messageText(raw.creation_time))
        let identifier = messageText(raw.content_identifier)
        if !identifier.isEmpty { info.contentIdentifier = identifier }
        let camera = [messageText(raw.make), messageText(raw.model)].filter { !$0.isEmpty }
        if !camera.isEmpty {
            // The model often repeats the make ("Apple" "iPhone 12"; "Canon" "Canon EOS R6").
            let make = camera.count == 2 && camera[1].lowercased().hasPrefix(camera[0].lowercased()) ? [camera[1]] : camera
            info.camera = make.joined(separator: " ")
        }
        return info
    }

    /// A container's date ("2023-07-14T18:22:05+0200", "2023-07-14T16:22:05.000000Z",
    /// "2023-07-14 18:22:05"): its wall-clock time and offset (Z: UTC); nil when it is none.
    static func creationDate(_ text: String) -> CaptureDate? {
        let chars = Array(text.utf8)
        guard chars.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                guard i < chars.count, chars[i] >= 48, chars[i] <= 57 else { return nil }
                value = value * 10 + Int(chars[i] - 48)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
            let second = number(17, 2), year > 1904
        else { return nil }
        var i = 19
        if i < chars.count, chars[i] == UInt8(ascii: ".") {
            i += 1
            while i < chars.count, chars[i] >= 48, chars[i] <= 57 { i += 1 }
        }
        var offset: Int?
        if i < chars.count {
            if chars[i] == UInt8(ascii: "Z") {
                offset = 0
            } else if chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
                let sign = chars[i] == UInt8(ascii: "-") ? -1 : 1
                let colon = i + 3 < chars.count && chars[i + 3] == UInt8(ascii: ":") ? 1 : 0
                if let h = number(i + 1, 2), let m = number(i + 3 + colon, 2) { offset = sign * (h * 60 + m) }
            }
        }
        return CaptureDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetMinutes: offset)
    }

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        try decode(file: request.path, info: info, request: request)
    }

    public func decode(file path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        try checkDecodeMemory(info, request: request)
        let out = Self.outputSize(info, minimumSize: request.minimumSize)
        var storage = try shimOutput(width: out.width, height: out.height, info: info, request: request)
        var videoRequest = mosaic_video_request()
        videoRequest.time = Self.time(of: info, poster: request.video.poster)
        videoRequest.exact = request.video.exactFrames ? 1 : 0
        videoRequest.timeout = request.video.clipTimeout
        videoRequest.maximum_pixels = Int64(request.limits.maximumInputPixels)
        var frameTime = 0.0
        var failure = MOSAIC_VIDEO_FAILED
        let result = FileNames.withSystemPath(path) { cPath in
            storage.withUnsafeMutableBufferPointer { output in
                mosaic_video_decode_frame(cPath, &videoRequest, output.baseAddress, out.width * 4, Int32(out.width), Int32(out.height), &frameTime, &failure)
            }
        }
        if result.status == MOSAIC_OUT_OF_MEMORY { throw .outOfMemory(path: path, bytes: decodedBytes(info, minimumSize: request.minimumSize)) }
        guard result.status == MOSAIC_OK else {
            throw Self.error(result, failure: failure, audioStreams: 0, codec: info.video?.codec ?? "?", path: path, timeout: request.video.clipTimeout)
        }
        let warning = try result.warning(path: path, strict: request.strict)
        guard let bitmap = Bitmap(width: out.width, height: out.height, pixels: storage) else {
            throw .video(path: path, problem: .library(message: "the decoder returned \(storage.count) bytes for \(out.width)x\(out.height)"))
        }
        return DecodedImage(bitmap: bitmap, info: info, scaleEighths: 8, reduction: 1, warning: warning)
    }

    /// The time a card of `info` shows: its frame's, or the poster's (-1: chosen while
    /// decoding), in seconds.
    static func time(of info: ImageInfo, poster: PosterTime) -> Double {
        if let time = info.video?.frameTime { return time }
        let duration = info.video?.duration ?? 0
        switch poster {
        case .auto: return -1
        case .seconds(let seconds): return duration > 0 ? min(seconds, duration) : seconds
        case .fraction(let fraction): return fraction * duration
        }
    }

    /// The size a frame is converted to (as stored, before rotation, with the display's
    /// aspect): the displayed size reduced to still cover `minimumSize` (upright pixels),
    /// never enlarged.
    static func outputSize(_ info: ImageInfo, minimumSize: Size?) -> Size {
        let (w, h) = (max(1, info.width), max(1, info.height))
        guard let minimumSize, minimumSize.width > 0, minimumSize.height > 0 else { return Size(width: w, height: h) }
        let stored = info.orientation.swapsAxes ? (minimumSize.height, minimumSize.width) : (minimumSize.width, minimumSize.height)
        let scale = min(1, max(Double(stored.0) / Double(w), Double(stored.1) / Double(h)))
        return Size(width: max(1, Int((Double(w) * scale).rounded(.up))), height: max(1, Int((Double(h) * scale).rounded(.up))))
    }

    /// The decoder's own frames at the stored size and bit depth (the reference frames and
    /// those on their way out: `VideoInfo.decoderFrames`, the decoded picture buffer the
    /// stream's level allows, else `unknownDecoderFrames`), the frame kept for a clip that
    /// ends early, and the converted result (with, for a clip of more than 8 bits, which may
    /// be HDR, its 16-bit R'G'B' before the tone map, at the converted size).
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let coded = (info.video?.codedWidth ?? info.width) * (info.video?.codedHeight ?? info.height)
        let sample = info.bitDepth > 8 ? 2 : 1
        let frame = coded * 3 / 2 * sample
        let out = Self.outputSize(info, minimumSize: minimumSize)
        let frames = (info.video?.decoderFrames ?? Self.unknownDecoderFrames) + 1
        return frames * frame + out.width * out.height * (info.bitDepth > 8 ? 10 : 4)
    }

    /// The frames a decoder is taken to hold when the headers do not bound it: about ten
    /// (VP9's and AV1's eight reference slots, the frame decoded, one on its way out).
    public static let unknownDecoderFrames = 10

    static func error(
        _ result: mosaic_result, failure: mosaic_video_failure, audioStreams: Int, codec: String, path: String, timeout: Double
    ) -> ImageDecodingError {
        if result.status == MOSAIC_OUT_OF_MEMORY { return .outOfMemory(path: path, bytes: 0) }
        let message = result.messageText
        switch failure {
        case MOSAIC_VIDEO_UNAVAILABLE: return .video(path: path, problem: .unavailable(message: message))
        case MOSAIC_VIDEO_NO_VIDEO_STREAM: return .video(path: path, problem: .noVideoStream(audioStreams: audioStreams))
        case MOSAIC_VIDEO_INCOMPLETE: return .video(path: path, problem: .incomplete)
        case MOSAIC_VIDEO_NO_DECODER: return .video(path: path, problem: .unknownCodec(codec: codec))
        case MOSAIC_VIDEO_TIMED_OUT: return .video(path: path, problem: .timedOut(seconds: timeout))
        case MOSAIC_VIDEO_NO_FRAME: return .video(path: path, problem: .noFrame(message: message))
        default: return .video(path: path, problem: .library(message: message))
        }
    }
}

extension ImageFormat {
    /// A video (`VideoCodec`).
    public static let video = VideoCodec.format
}
