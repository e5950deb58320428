import CFontconfig
import CFreeType
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why text could not be set up.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A font file that does not exist or cannot be read.
    case fontNotFound(path: String)
    /// A font path that is a directory, a FIFO or a device, not a file.
    case notARegularFile(path: String)
    /// A file FreeType cannot open as a font (`code` is FreeType's error code).
    case notAFont(path: String, code: Int32)
    /// No installed font has the family; `substitute` is the family fontconfig would have
    /// used instead, if any.
    case familyNotFound(family: String, substitute: String?)
    /// A size that is not a finite number above zero.
    case invalidFontSize(Double)
    /// FreeType itself failed to start.
    case freetype(code: Int32)
    /// The font at `path` could not be cut to the glyphs a PDF uses (HarfBuzz's subsetter's
    /// `message`).
    case subset(path: String, message: String)

    public var description: String {
        switch self {
        case .fontNotFound(let path): return "\(path): no such font file"
        case .notARegularFile(let path): return "\(path): not a regular file, so not a font"
        case .notAFont(let path, let code): return "\(path): not a font FreeType can read (error \(code))"
        case .familyNotFound(let family, let substitute):
            let instead = substitute.map { " (fontconfig would use \"\($0)\" instead)" } ?? ""
            return "no installed font for the family \"\(family)\"\(instead); name an installed family or a font file"
        case .invalidFontSize(let size): return "font size \(size) must be a number above 0"
        case .freetype(let code): return "FreeType could not start (error \(code))"
        case .subset(let path, let message): return "\(path): cannot embed the font's glyphs in the PDF: \(message)"
        }
    }
}
