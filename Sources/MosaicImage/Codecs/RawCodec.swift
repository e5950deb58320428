import MosaicLayout

import CMosaicShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Camera RAW files through LibRaw (`raw.c`): Canon CR2, CR3 and CRW, Nikon NEF, Sony ARW,
/// Fujifilm RAF, Olympus ORF, Panasonic RW2, Pentax PEF, Adobe DNG and whatever else LibRaw
/// opens. Recognised by content: its own signature (CR3, RAF, ORF, RW2, CRW, CR2), or a
/// TIFF whose first directory is a RAW's, so this codec is asked before TIFF's.
///
/// Shrink-on-load (`RawDrawing.auto`): the largest embedded JPEG preview that covers the
/// size asked for and has the raw image's aspect (within 1%), decoded with JPEG's DCT
/// scaling; else LibRaw's half-size development when it covers the size, else the full
/// demosaic. A preview in Adobe RGB is converted to sRGB. A raw image LibRaw cannot develop
/// (a coding it lacks, data cut short) is drawn from its largest preview with a warning,
/// and a damaged preview gives way to the raw data, also with a warning; a file with
/// neither is `ImageDecodingError.undrawable`.
public struct RawCodec: ImageCodec {
    public static let format = ImageFormat(rawValue: "raw")
    public var format: ImageFormat { Self.format }
    public var fileExtensions: [String] {
        ["dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "rwl", "pef", "srw", "x3f", "erf", "mrw", "3fr", "iiq", "kdc", "dcr"]
    }

    /// What a card is drawn from.
    public let drawing: RawDrawing

    public init(drawing: RawDrawing = .auto) {
        self.drawing = drawing
    }

    public var settings: String { drawing == .auto ? "" : drawing.rawValue }

    public func matches(signature: [UInt8]) -> Bool {
        signature.withUnsafeBufferPointer { mosaic_raw_recognize($0.baseAddress, $0.count) } != 0
    }

    public func matches(header: [UInt8]) -> Bool {
        header.withUnsafeBufferPointer { mosaic_raw_recognize($0.baseAddress, $0.count) } != 0
    }

    /// LibRaw reads a RAW's structure wherever it lies (a RAF's sizes follow its preview):
    /// the probe wants the whole file, but for a TIFF-based RAW whose directories and
    /// previews' headers lie in the bytes read.
    public func probe(_ bytes: [UInt8], isWholeFile: Bool, path: String) throws(ImageDecodingError) -> ImageInfo? {
        guard let raw = try Self.rawInfo(bytes, useLibRaw: true, whole: isWholeFile, path: path) else { return nil }
        let previews = Self.previews(raw)
        var info = raw.image.imageInfo(format, interlacing: nil, colorModel: .other(Self.modelName(raw, previews: previews.count)))
        info.previews = previews.isEmpty ? nil : previews.map { Size(width: Int($0.width), height: Int($0.height)) }
        return info
    }

    /// "DNG raw, 2 previews": the kind and what it holds, for `mosaic probe`.
    static func modelName(_ raw: mosaic_raw_info, previews: Int) -> String {
        let kind = messageText(raw.kind)
        let holds = previews == 0 ? "no preview" : previews == 1 ? "1 preview" : "\(previews) previews"
        return "\(kind) raw, \(holds)"
    }

    /// The Exif of a TIFF-based RAW (the file itself) or of a RAF's embedded JPEG.
    public func exifBlock(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard let raw = try? Self.rawInfo(bytes, useLibRaw: false, path: ""), raw.exif_length > 0 else { return nil }
        let start = Int(raw.exif_offset), end = start + Int(raw.exif_length)
        guard start >= 0, end <= bytes.count, start < end else { return nil }
        return bytes[start..<end]
    }

    static func rawInfo(_ bytes: [UInt8], useLibRaw: Bool, path: String) throws(ImageDecodingError) -> mosaic_raw_info {
        // A whole file never asks for more.
        try rawInfo(bytes, useLibRaw: useLibRaw, whole: true, path: path) ?? mosaic_raw_info()
    }

    /// The shim's probe; nil when `bytes` are a prefix that does not serve.
    static func rawInfo(_ bytes: [UInt8], useLibRaw: Bool, whole: Bool, path: String) throws(ImageDecodingError) -> mosaic_raw_info? {
        var raw = mosaic_raw_info()
        let result = bytes.withUnsafeBufferPointer { mosaic_raw_probe($0.baseAddress, $0.count, useLibRaw ? 1 : 0, whole ? 1 : 0, &raw) }
        if result.status == MOSAIC_NEED_MORE_DATA { return nil }
        if result.status == MOSAIC_OUT_OF_MEMORY { throw .outOfMemory(path: path, bytes: bytes.count) }
        guard result.status == MOSAIC_OK else { throw .undrawable(path: path, format: format, reason: result.messageText) }
        return raw
    }

    /// The previews the shim found, largest first.
    static func previews(_ raw: mosaic_raw_info) -> [mosaic_raw_preview] {
        withUnsafeBytes(of: raw.previews) { Array($0.bindMemory(to: mosaic_raw_preview.self).prefix(Int(raw.preview_count))) }
    }

    // MARK: Choosing

    /// What a card of a RAW is drawn from.
    enum Source: Equatable {
        /// The preview of this index (largest first).
        case preview(Int)
        /// LibRaw's development, half-size or full.
        case develop(half: Bool)
    }

    /// The source `drawing` picks for an image of `info` (stored size `size`, previews
    /// `previews` as stored) to cover `minimumSize` (upright; nil: full size).
    static func source(_ drawing: RawDrawing, info: ImageInfo, previews: [Size], minimumSize: Size?) -> Source {
        let wanted = minimumSize.map { info.orientation.swapsAxes ? Size(width: $0.height, height: $0.width) : $0 }
        let halfCovers = wanted.map { (info.width / 2) >= $0.width && (info.height / 2) >= $0.height } ?? false
        switch drawing {
        case .full: return .develop(half: false)
        case .preview: return previews.isEmpty ? .develop(half: halfCovers) : .preview(0)
        case .auto:
            let aspect = Double(info.width) / Double(info.height)
            if let wanted, let index = previews.firstIndex(where: {
                $0.width >= wanted.width && $0.height >= wanted.height && abs(Double($0.width) / Double($0.height) / aspect - 1) <= 0.01
            }) {
                return .preview(index)
            }
            return .develop(half: halfCovers)
        }
    }

    // MARK: Decoding

    public func decode(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let raw = try Self.rawInfo(bytes, useLibRaw: false, path: request.path)
        let found = Self.previews(raw)
        let undrawable = messageText(raw.undrawable)
        var previews = found.map { Size(width: Int($0.width), height: Int($0.height)) }
        // A preview only LibRaw knows (CR3, ORF): the probe's sizes say it exists.
        var source = Self.source(drawing, info: info, previews: info.previews ?? previews, minimumSize: request.minimumSize)
        if case .preview(let index) = source, let sizes = info.previews {
            let size = sizes[index]
            if let match = previews.firstIndex(of: size) { source = .preview(match) } else { previews = [] }
        }
        let (scannedPreviews, entries) = previews.isEmpty ? try previewsFromLibRaw(bytes, path: request.path) : (previews, found)
        switch source {
        case .preview(let index) where index < entries.count:
            do throws(ImageDecodingError) {
                let decoded = try decodePreview(bytes, entries[index], info: info, request: request)
                if let warning = decoded.warning, warning.isDataLoss, undrawable.isEmpty {
                    return try develop(bytes, half: false, info: info, request: request, instead: "the embedded preview is damaged (\(warning.message))")
                }
                return decoded
            } catch {
                guard undrawable.isEmpty, !request.strict else { throw error }
                return try develop(bytes, half: false, info: info, request: request, instead: "the embedded preview cannot be read (\(error.reason))")
            }
        case .preview:
            return try develop(bytes, half: false, info: info, request: request, instead: nil)
        case .develop(let half):
            guard undrawable.isEmpty else {
                return try drawLargestPreview(bytes, entries, sizes: scannedPreviews, info: info, request: request, because: undrawable)
            }
            do throws(ImageDecodingError) {
                let developed = try develop(bytes, half: half, info: info, request: request, instead: nil)
                // Damaged raw data with a preview: the preview, with the damage as warning.
                if let warning = developed.warning, warning.isDataLoss, !entries.isEmpty {
                    return try drawLargestPreview(bytes, entries, sizes: scannedPreviews, info: info, request: request, because: "the raw data is damaged (\(warning.message))")
                }
                return developed
            } catch {
                if case .outOfMemory = error { throw error }
                if case .overMemoryLimit = error { throw error }
                let reason: String
                if case .undrawable(_, _, let text) = error { reason = text } else { reason = error.reason }
                return try drawLargestPreview(bytes, entries, sizes: scannedPreviews, info: info, request: request, because: reason)
            }
        }
    }

    /// How much of a file's start is read for its directories, and then, when the preview
    /// wanted does not start within it, how much at most before the whole file is read.
    static let directoryPrefix = 256 << 10
    static let largestPrefix = 4 << 20

    /// A card from a preview, reading only the file's directories (a prefix, where a
    /// camera's TIFF-based RAW keeps them) and the preview's own bytes: the raw data, most
    /// of the file, is never read. nil when the preview cannot be found so (directories
    /// past the prefix, a RAF or CR3, the file changed since its probe), when the preview
    /// is damaged or gives a warning, or when the source is the raw data: the whole file
    /// is then read and `decode` judges it, fallbacks and `--strict` included.
    public func decodeReadingParts(ofFile path: String, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage? {
        guard let sizes = info.previews, case .preview(let index) = Self.source(drawing, info: info, previews: sizes, minimumSize: request.minimumSize),
            index < sizes.count
        else { return nil }
        let wanted = sizes[index]
        guard let (descriptor, size) = try? FileBytes.openRegular(path) else { return nil }
        defer { close(descriptor) }
        var prefixLength = min(size, Self.directoryPrefix)
        while prefixLength > 0 {
            guard let prefix = FileBytes.read(descriptor: descriptor, at: 0, count: prefixLength), prefix.count == prefixLength else { return nil }
            let whole = prefixLength == size
            guard matches(header: prefix),
                let raw = try? Self.rawInfo(prefix, useLibRaw: false, whole: whole, path: path)
            else { return nil }
            if let entry = Self.previews(raw).first(where: { Int($0.width) == wanted.width && Int($0.height) == wanted.height }) {
                let offset = Int(entry.offset), length = Int(entry.length)
                guard offset >= 0, length > 0, offset <= size - length,
                    let jpeg = offset + length <= prefix.count
                        ? Array(prefix[offset..<(offset + length)]) : FileBytes.read(descriptor: descriptor, at: offset, count: length),
                    jpeg.count == length
                else { return nil }
                var alone = entry
                alone.offset = 0
                guard let decoded = try? decodePreview(jpeg, alone, info: info, request: request), decoded.warning == nil else { return nil }
                return decoded
            }
            if whole || prefixLength >= Self.largestPrefix { return nil }
            prefixLength = min(size, Self.largestPrefix)
        }
        return nil
    }

    /// LibRaw's thumbnail where the walk found none (CR3, ORF).
    func previewsFromLibRaw(_ bytes: [UInt8], path: String) throws(ImageDecodingError) -> ([Size], [mosaic_raw_preview]) {
        guard let raw = try? Self.rawInfo(bytes, useLibRaw: true, path: path) else { return ([], []) }
        let entries = Self.previews(raw)
        return (entries.map { Size(width: Int($0.width), height: Int($0.height)) }, entries)
    }

    /// The largest preview, with a warning that the raw data could not be drawn; the file
    /// is undrawable when it has none.
    func drawLargestPreview(
        _ bytes: [UInt8], _ entries: [mosaic_raw_preview], sizes: [Size], info: ImageInfo, request: DecodeRequest, because reason: String
    ) throws(ImageDecodingError) -> DecodedImage {
        guard let largest = entries.first else { throw .undrawable(path: request.path, format: format, reason: reason) }
        if request.strict { throw .damaged(path: request.path, message: reason) }
        var decoded = try decodePreview(bytes, largest, info: info, request: request)
        let message = "\(reason); drawn from its \(largest.width)x\(largest.height) preview"
        decoded.warning = DecodingWarning(path: request.path, message: message, count: 1 + (decoded.warning?.count ?? 0), isDataLoss: true)
        return decoded
    }

    /// The preview `entry` through the JPEG codec (DCT scaling to the size asked), in sRGB.
    func decodePreview(_ bytes: [UInt8], _ entry: mosaic_raw_preview, info: ImageInfo, request: DecodeRequest) throws(ImageDecodingError) -> DecodedImage {
        let start = Int(entry.offset), end = start + Int(entry.length)
        guard start >= 0, end <= bytes.count, start < end else { throw .damaged(path: request.path, message: "the preview lies outside the file") }
        let jpeg = Array(bytes[start..<end])
        let codec = JPEGCodec()
        guard var jpegInfo = try codec.probe(jpeg, isWholeFile: true, path: request.path) else {
            throw .damaged(path: request.path, message: "the preview's headers are incomplete")
        }
        // The RAW's orientation is the caller's; the preview is stored as the sensor is.
        jpegInfo.orientation = .up
        var wanted = request
        wanted.minimumSize = request.minimumSize.map { info.orientation.swapsAxes ? Size(width: $0.height, height: $0.width) : $0 }
        var decoded = try codec.decode(jpeg, info: jpegInfo, request: wanted)
        if entry.adobe_rgb != 0, request.manageColor, codec.colorProfile(jpeg) == nil,
            let color = colorConversion(.rgb(.adobeRGB, .gamma(563.0 / 256.0)), request: request, cmyk: false)
        {
            color.apply(&decoded.bitmap.pixels)
        }
        decoded.info = info
        return decoded
    }

    /// LibRaw's development (`half` size or full), with a warning when it stands `instead`
    /// of a preview.
    func develop(_ bytes: [UInt8], half: Bool, info: ImageInfo, request: DecodeRequest, instead reason: String?) throws(ImageDecodingError) -> DecodedImage {
        var out: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0, height: Int32 = 0
        let limit = max(0, request.limits.maximumDecodeMemory)
        let result = bytes.withUnsafeBufferPointer { mosaic_raw_develop($0.baseAddress, $0.count, half ? 1 : 0, limit, &out, &width, &height) }
        defer { free(out) }
        if result.status == MOSAIC_OUT_OF_MEMORY {
            let needed = decodedBytes(info, minimumSize: nil)
            if needed > limit { throw .overMemoryLimit(path: request.path, bytes: needed, limit: limit) }
            throw .outOfMemory(path: request.path, bytes: needed)
        }
        guard result.status == MOSAIC_OK, let out, width > 0, height > 0 else {
            throw .undrawable(path: request.path, format: format, reason: result.messageText)
        }
        var warning = try result.warning(path: request.path, strict: request.strict)
        let count = Int(width) * Int(height) * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress?.update(from: out, count: count)
            initialized = count
        }
        guard let bitmap = Bitmap(width: Int(width), height: Int(height), pixels: pixels) else {
            throw .codec(path: request.path, format: format, message: "LibRaw returned \(width)x\(height)")
        }
        if let reason {
            if request.strict { throw .damaged(path: request.path, message: reason) }
            warning = DecodingWarning(path: request.path, message: "\(reason); drawn from the raw data", count: 1, isDataLoss: true)
        }
        return DecodedImage(bitmap: bitmap, info: info, scaleEighths: 8, reduction: half ? 2 : 1, warning: warning)
    }

    /// The chosen source's memory: the preview's DCT-scaled pixels and its bytes, or
    /// LibRaw's buffers.
    public func decodedBytes(_ info: ImageInfo, minimumSize: Size?) -> Int {
        let previews = info.previews ?? []
        switch Self.source(drawing, info: info, previews: previews, minimumSize: minimumSize) {
        case .preview(let index) where index < previews.count:
            let preview = previews[index]
            let eighths = minimumSize.map { JPEGCodec.dctScale(stored: preview, orientation: info.orientation, minimumSize: $0) } ?? 8
            let output = ((preview.width * eighths + 7) / 8) * ((preview.height * eighths + 7) / 8) * 4
            return output + preview.width * preview.height / 4
        case .preview: return mosaic_raw_develop_bytes(Int32(info.width), Int32(info.height), 0)
        case .develop(let half): return mosaic_raw_develop_bytes(Int32(info.width), Int32(info.height), half ? 1 : 0)
        }
    }
}

/// What a RAW's card is drawn from (`--raw`).
public enum RawDrawing: String, Sendable, Hashable, CaseIterable, Codable {
    /// The largest embedded preview that covers the card twice over with the raw image's
    /// aspect, else LibRaw's half-size or full development (the smallest that covers it).
    case auto
    /// The largest embedded preview, whatever its size (the raw data when there is none).
    case preview
    /// The full development of the raw data (demosaiced by LibRaw).
    case full
}

extension ImageFormat {
    /// Camera RAW (`RawCodec`).
    public static let raw = RawCodec.format
}
