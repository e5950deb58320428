/// Why an image could not be written.
public enum ImageEncodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The temporary file beside the destination could not be created.
    case cannotCreate(path: String, reason: String)
    /// Writing the file beside its destination failed (`reason` is the system's: "No space
    /// left on device"); it was removed, and the destination is as it was.
    case cannotWrite(path: String, reason: String)
    /// Writing to a stream that is no file mosaic puts in place (standard output) failed.
    case streamFailed(name: String, reason: String)
    /// libpng failed while writing.
    case png(path: String, message: String)
    /// libjpeg failed while writing.
    case jpeg(path: String, message: String)
    /// libwebp (or libwebpmux) failed while encoding.
    case webp(path: String, message: String)
    /// libheif or its AV1 encoder failed (or there is no AV1 encoder).
    case avif(path: String, message: String)
    /// libjxl failed while encoding a JPEG XL.
    case jxl(path: String, message: String)
    /// A side longer than the format allows (`format` names it: "JPEG", "WebP", "AVIF").
    case sideTooLong(path: String, width: Int, height: Int, format: String, maximumSide: Int)
    /// The finished file could not be moved into place.
    case cannotRename(path: String, reason: String)
    /// A parameter out of range (`field` names it).
    case invalidParameter(field: String, value: Int)
    /// Rows pushed that do not fit the image.
    case rowMismatch(path: String, message: String)
    /// The image to write has more pixels than `ImageLimits.maximumOutputPixels`.
    case tooLarge(path: String, width: Int, height: Int, limit: Int)
    /// A PDF's text could not embed a font's glyphs (`message`: the font file and the
    /// subsetter's reason).
    case font(path: String, message: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): cannot create: \(reason)"
        case .cannotWrite(let path, let reason): return "\(path): cannot write: \(reason) (nothing was replaced)"
        case .streamFailed(let name, let reason): return "\(name): cannot write: \(reason)"
        case .png(let path, let message): return "\(path): cannot write PNG: \(message)"
        case .jpeg(let path, let message): return "\(path): cannot write JPEG: \(message)"
        case .webp(let path, let message): return "\(path): cannot write WebP: \(message)"
        case .avif(let path, let message): return "\(path): cannot write AVIF: \(message)"
        case .jxl(let path, let message): return "\(path): cannot write JPEG XL: \(message)"
        case .sideTooLong(let path, let width, let height, let format, let maximumSide):
            return "\(path): \(width)x\(height) is more than a \(format) holds (\(maximumSide) pixels a side)"
        case .cannotRename(let path, let reason): return "\(path): cannot move the finished file into place: \(reason)"
        case .invalidParameter(let field, let value): return "\(field) \(value) is out of range"
        case .rowMismatch(let path, let message): return "\(path): \(message)"
        case .font(let path, let message): return "\(path): cannot write the PDF's text: \(message)"
        case .tooLarge(let path, let width, let height, let limit):
            return "\(path): \(width)x\(height) is more than the limit of \(limit) pixels for an output image"
        }
    }
}
