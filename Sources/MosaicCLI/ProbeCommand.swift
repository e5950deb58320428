import ArgumentParser
import Foundation
import Mosaic

/// `mosaic probe FILE...`: what each file's headers say, without decoding a pixel.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print the format, size, EXIF orientation and colour profile of images, without decoding them.",
        discussion: "Exit status: 0 when every file was probed, 1 when one could not be (a FIFO, socket or device is named, never opened) or standard output could not be written, 64 for a usage error.")

    @Argument(help: "The image files (\(CodecRegistry.standard.formatNames), recognised by their signature).")
    var files: [String]

    @Flag(help: "Print one JSON array with an object per file instead of a line per file.")
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
        /// The camera's make and model (EXIF).
        var camera: String?
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

    func probeFiles() throws {
        var decoder = ImageDecoder()
        decoder.readsCaptureDate = true
        decoder.readsCamera = true
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
            entries.append(entry)
            if !json {
                var line = "\(FileNames.display(path)): \(info.format.rawValue.uppercased()) \(info.width)x\(info.height), \(info.colorModel)"
                if info.bitDepth != 8 { line += " \(info.bitDepth)-bit" }
                if info.hasAlpha { line += ", alpha" }
                if let interlacing = info.interlacing { line += ", \(interlacing.rawValue)" }
                line += ", orientation \(info.orientation)"
                if info.orientation != .up { line += ", displayed \(info.orientedWidth)x\(info.orientedHeight)" }
                if let profile { line += ", \(profile)" }
                if let captured = info.captured { line += ", taken \(captured)" }
                if let camera = info.camera { line += ", \(camera)" }
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
