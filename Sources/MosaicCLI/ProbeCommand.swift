import ArgumentParser
import Foundation
import Mosaic

/// `mosaic probe FILE...`: what each file's headers say, without decoding a pixel.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print what the headers of images and videos say (format, size, orientation).",
        discussion: "Exit status: 0 when every file was probed, 1 when one was not, 64 for a usage error.")

    @Argument(help: "The image files and videos.")
    var files: [String]

    @Flag(help: "One JSON array instead of a line per file.")
    var json = false

    struct Entry: Encodable {
        /// The path for people; `pathBytes`, its exact bytes in base64 when it is not UTF-8
        /// (`ReportedName`).
        var path: String
        var pathBytes: String?
        var format: String?
        var width: Int?
        var height: Int?
        var orientation: Int?
        var orientedWidth: Int?
        var orientedHeight: Int?
        var hasAlpha: Bool?
        var progressive: Bool?
        var bitDepth: Int?
        var colorModel: String?
        /// The colour the file declares (an ICC profile, code points...); absent for sRGB.
        var colorProfile: String?
        /// Bytes the decoder holds besides its output (progressive JPEG coefficients).
        var decodeMemory: Int?
        /// When the picture was taken (EXIF), ISO 8601 with the offset when the file gives one.
        var captured: String?
        /// The camera's make and model (EXIF; a video's container).
        var camera: String?
        /// The exposure (EXIF) and the rating, title and description (embedded XMP).
        var shooting: ShootingData?
        /// "google" or "samsung" for a Motion Photo (a clip inside the still).
        var motionPhoto: String?
        /// The gain map the photo carries beside its standard image: "ultrahdr", "iso21496"
        /// or "apple" (the card draws the standard image).
        var gainMap: String?
        /// Apple's content identifier (a Live Photo's still and clip share it).
        var contentIdentifier: String?
        /// A video's facts: seconds, frames a second, codec, container, stored frame size,
        /// pixel format, bits a second.
        var duration: Double?
        var frameRate: Double?
        var codec: String?
        var container: String?
        var codedWidth: Int?
        var codedHeight: Int?
        var pixelFormat: String?
        var bitRate: Int?
        var error: String?

        init(
            name: ReportedName, format: String? = nil, width: Int? = nil, height: Int? = nil, orientation: Int? = nil,
            orientedWidth: Int? = nil, orientedHeight: Int? = nil, hasAlpha: Bool? = nil, progressive: Bool? = nil,
            bitDepth: Int? = nil, colorModel: String? = nil, colorProfile: String? = nil, decodeMemory: Int? = nil, error: String? = nil
        ) {
            (path, pathBytes) = (name.display, name.sourceBytes)
            (self.format, self.width, self.height, self.orientation) = (format, width, height, orientation)
            (self.orientedWidth, self.orientedHeight, self.hasAlpha, self.progressive) = (orientedWidth, orientedHeight, hasAlpha, progressive)
            (self.bitDepth, self.colorModel, self.colorProfile, self.decodeMemory, self.error) = (bitDepth, colorModel, colorProfile, decodeMemory, error)
        }
    }

    func run() throws {
        try reportingErrors(probeFiles)
    }

    /// A video's line: "clip.mov: video h264 1920x1080, displayed 1080x1920 (rotated 90°),
    /// 0:12 (12.03 s), 29.97 fps, yuv420p, in mov,mp4..., taken ..., camera".
    static func videoLine(_ path: String, _ info: ImageInfo, _ video: VideoInfo) -> String {
        var line = "\(FileNames.display(path)): video \(video.codec) \(info.width)x\(info.height)"
        if video.codedWidth != info.width || video.codedHeight != info.height { line += " (stored \(video.codedWidth)x\(video.codedHeight))" }
        if info.orientation != .up { line += ", displayed \(info.orientedWidth)x\(info.orientedHeight) (orientation \(info.orientation))" }
        if let duration = video.duration {
            line += ", \(VideoInfo.timestamp(duration)) (" + String(format: "%.2f", duration) + " s)"
        } else {
            line += ", duration unknown"
        }
        line += ", \(video.frameRateText) fps"
        if !video.pixelFormat.isEmpty { line += ", \(video.pixelFormat)" }
        if info.bitDepth != 8 { line += " \(info.bitDepth)-bit" }
        line += ", in \(video.container)"
        if let captured = info.captured { line += ", taken \(captured)" }
        if let camera = info.camera { line += ", \(camera)" }
        if let identifier = info.contentIdentifier { line += ", content identifier \(identifier)" }
        return line
    }

    /// ", 24-70mm, ISO 400, f/2.8, 1/250 s, 50 mm, rated 4, titled ..." for what is known.
    static func shootingText(_ shooting: ShootingData) -> String {
        var parts: [String] = []
        if let lens = shooting.lens { parts.append(lens) }
        if let iso = shooting.iso { parts.append("ISO \(iso)") }
        if let f = shooting.aperture { parts.append(CaptionMode.apertureText(f)) }
        if let t = shooting.exposureTime { parts.append(CaptionMode.shutterText(t)) }
        if let mm = shooting.focalLength { parts.append(CaptionMode.focalText(mm)) }
        if let rating = shooting.rating { parts.append(rating < 0 ? "rejected" : "rated \(rating)") }
        if let title = shooting.title { parts.append("titled \"\(title)\"") }
        return parts.isEmpty ? "" : ", " + parts.joined(separator: ", ")
    }

    func probeFiles() throws {
        var decoder = ImageDecoder()
        decoder.readsCaptureDate = true
        decoder.readsCamera = true
        decoder.readsExposure = true
        decoder.readsXMP = true
        decoder.findsMotionPhotos = true
        decoder.readsContentIdentifier = true
        var entries: [Entry] = []
        var failed = 0
        for path in files {
            let info: ImageInfo, profile: ColorProfile?
            do throws(ImageDecodingError) {
                info = try decoder.probe(path)
                profile = try decoder.colorProfile(path)
            } catch {
                failed += 1
                entries.append(Entry(name: ReportedName(path), error: error.description))
                if !json { printError("error: \(error.description)") }
                continue
            }
            var entry = Entry(
                name: ReportedName(path), format: info.format.rawValue, width: info.width, height: info.height,
                orientation: info.orientation.rawValue, orientedWidth: info.orientedWidth,
                orientedHeight: info.orientedHeight, hasAlpha: info.hasAlpha, progressive: info.isProgressive,
                bitDepth: info.bitDepth, colorModel: info.colorModel.name, colorProfile: profile?.description, decodeMemory: info.decodeMemory)
            (entry.captured, entry.camera) = (info.captured?.description, info.camera)
            (entry.shooting, entry.motionPhoto, entry.gainMap) = (info.shooting, info.motionPhoto?.rawValue, info.gainMap?.rawValue)
            entry.contentIdentifier = info.contentIdentifier
            if let video = info.video {
                (entry.duration, entry.frameRate, entry.codec, entry.container) = (video.duration, video.frameRate, video.codec, video.container)
                (entry.codedWidth, entry.codedHeight, entry.pixelFormat, entry.bitRate) = (video.codedWidth, video.codedHeight, video.pixelFormat, video.bitRate)
                (entry.progressive, entry.hasAlpha) = (nil, nil)
            }
            entries.append(entry)
            if !json, let video = info.video {
                try Terminal.print(Self.videoLine(path, info, video))
            } else if !json {
                var line = "\(FileNames.display(path)): \(decoder.codecs.codec(of: info.format)?.name ?? info.format.rawValue.uppercased()) \(info.width)x\(info.height), \(info.colorModel)"
                if info.bitDepth != 8 { line += " \(info.bitDepth)-bit" }
                if info.hasAlpha { line += ", alpha" }
                if let interlacing = info.interlacing { line += ", \(interlacing.rawValue)" }
                line += ", orientation \(info.orientation)"
                if info.orientation != .up { line += ", displayed \(info.orientedWidth)x\(info.orientedHeight)" }
                if let profile { line += ", \(profile)" }
                if let captured = info.captured { line += ", taken \(captured)" }
                if let camera = info.camera { line += ", \(camera)" }
                if let shooting = info.shooting { line += Self.shootingText(shooting) }
                if let motion = info.motionPhoto { line += ", a \(motion) Motion Photo" }
                if let gainMap = info.gainMap { line += ", gain map (\(gainMap.name); the standard image is drawn)" }
                if let identifier = info.contentIdentifier { line += ", content identifier \(identifier)" }
                try Terminal.print(line)
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(entries)
            try Terminal.writeOutput(data + Data("\n".utf8))
        }
        if failed > 0 { throw ExitCode(1) }
    }
}
