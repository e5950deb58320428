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
    /// A file FreeType cannot open as a font (`code` is FreeType's error code).
    case notAFont(path: String, code: Int32)
    /// No installed font matches the family (fontconfig found nothing usable).
    case familyNotFound(family: String)
    /// A size that is not a finite number above zero.
    case invalidFontSize(Double)
    /// FreeType itself failed to start.
    case freetype(code: Int32)

    public var description: String {
        switch self {
        case .fontNotFound(let path): return "\(path): no such font file"
        case .notAFont(let path, let code): return "\(path): not a font FreeType can read (error \(code))"
        case .familyNotFound(let family): return "no installed font for the family \"\(family)\""
        case .invalidFontSize(let size): return "font size \(size) must be a number above 0"
        case .freetype(let code): return "FreeType could not start (error \(code))"
        }
    }
}
