import MosaicSync
import CFontconfig
import CFreeType

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The FreeType library handle: freed only when the last face that needs it is gone.
final class FreeTypeHandle {
    let library: FT_Library

    init(_ library: FT_Library) { self.library = library }
    deinit { FT_Done_FreeType(library) }
}

/// Opens fonts (files, or families through fontconfig), finds per character a face that
/// has it (the primary face first, then the given fallbacks, then fontconfig's choice), and
/// caches faces.
///
/// `@unchecked Sendable`: every call into it, and every FreeType call on its faces, is
/// made under `lock`: by the typesetters that use it (they take this same lock) and by its
/// own public members.
public final class FontLibrary: @unchecked Sendable {
    /// Guards the caches below and FreeType: shared by every `Typesetter` of this library.
    let lock = Locked(())
    let handle: FreeTypeHandle
    /// Faces by (path, index).
    var faces: [String: Face] = [:]
    /// The fallback chosen for a scalar, by primary face path.
    var fallbackCache: [FallbackKey: Face?] = [:]
    let systemFallback: Bool
    /// Fallback sources tried, in order, before fontconfig.
    let fallbacks: [FontSource]
    var fallbackFaces: [Face]? = nil
    /// Scalars that no face has, reported once.
    public var missingCharacters: Set<Unicode.Scalar> { lock.withLock { _ in missing } }
    /// The font files opened so far ("path#index"), sorted: what a sheet laid out with this
    /// library draws its text with.
    public var openedFaces: [String] { lock.withLock { _ in faces.keys.sorted() } }
    var missing: Set<Unicode.Scalar> = []

    struct FallbackKey: Hashable {
        var primary: String
        var scalar: UInt32
        var colour: Bool
    }

    /// - Parameters:
    ///   - fallbacks: faces to try for characters the primary face lacks, in order.
    ///   - systemFallback: after those, ask fontconfig for any installed face that has the
    ///     character (turn off for reproducible tests).
    public init(fallbacks: [FontSource] = [], systemFallback: Bool = true) throws(TextError) {
        var library: FT_Library? = nil
        let code = FT_Init_FreeType(&library)
        guard code == 0, let library else { throw .freetype(code: code) }
        self.handle = FreeTypeHandle(library)
        self.fallbacks = fallbacks
        self.systemFallback = systemFallback
    }

    /// Opens `source` (bold when asked: for a family, fontconfig's bold face; for a file,
    /// the file as it is).
    func face(_ source: FontSource, bold: Bool = false) throws(TextError) -> Face {
        switch source {
        case .file(let path, let index):
            // A bold face beside the file, named as font families name them
            // (DejaVuSans.ttf, DejaVuSans-Bold.ttf), when there is one.
            if bold, let boldPath = Self.boldSibling(of: path), let face = try? openFace(path: boldPath, index: index) {
                return face
            }
            return try openFace(path: path, index: index)
        case .family(let family):
            guard let (path, index, matched) = Self.match(family: family, bold: bold, character: nil) else {
                throw .familyNotFound(family: family, substitute: nil)
            }
            // fontconfig always finds something; a named family it does not have is an
            // error (a typo or a missing font should not silently become another face).
            let generic = Self.genericFamilies.contains(family.lowercased())
            if !generic, !matched.isEmpty, !matched.contains(where: { Self.sameFamily($0, family) }) {
                // The default family, not installed here: fontconfig's sans-serif.
                if family == FontSource.defaultFamily { return try face(.family("sans-serif"), bold: bold) }
                throw .familyNotFound(family: family, substitute: matched[0])
            }
            return try openFace(path: path, index: index)
        }
    }

    func openFace(path: String, index: Int) throws(TextError) -> Face {
        let key = "\(path)#\(index)"
        if let face = faces[key] { return face }
        guard access(path, R_OK) == 0 else { throw .fontNotFound(path: path) }
        // FreeType would wait forever on a FIFO, and read a device until it gave up.
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path: path) }
        var face: FT_Face? = nil
        let code = FT_New_Face(handle.library, path, FT_Long(index), &face)
        guard code == 0, let face else { throw .notAFont(path: path, code: code) }
        let opened = Face(face: face, path: path, index: index, owner: handle)
        faces[key] = opened
        return opened
    }

    static func boldSibling(of path: String) -> String? {
        guard let dot = path.lastIndex(of: "."), !path[..<dot].hasSuffix("-Bold") else { return nil }
        let stem = path[..<dot].hasSuffix("-Regular") ? String(path[..<dot].dropLast(8)) : String(path[..<dot])
        let candidate = stem + "-Bold" + path[dot...]
        return access(candidate, R_OK) == 0 ? candidate : nil
    }

    /// The first face that has `scalar`: `primary`, then the fallbacks, then fontconfig.
    /// nil when none has it (the primary face then draws its missing-glyph box).
    /// With `colour` (an emoji followed by variation selector 16), fontconfig's emoji face
    /// comes first, and the primary face only when no colour face has it.
    func face(for scalar: Unicode.Scalar, primary: Face, colour: Bool = false) -> Face? {
        if !colour && primary.glyphIndex(scalar) != 0 { return primary }
        let key = FallbackKey(primary: primary.path, scalar: scalar.value, colour: colour)
        if let cached = fallbackCache[key] { return cached }
        var found: Face? = nil
        if fallbackFaces == nil {
            fallbackFaces = fallbacks.compactMap { source in try? face(source) }
        }
        for candidate in fallbackFaces ?? [] where candidate.glyphIndex(scalar) != 0 {
            found = candidate
            break
        }
        // Emoji first from fontconfig's emoji family (colour), the rest from sans-serif; a
        // bold primary face asks for a bold fallback.
        let families = colour || scalar.properties.isEmojiPresentation ? ["emoji", "sans-serif"] : ["sans-serif"]
        for family in families where found == nil && systemFallback {
            if let (path, index, _) = Self.match(family: family, bold: primary.isBold, character: scalar),
                let candidate = try? openFace(path: path, index: index), candidate.glyphIndex(scalar) != 0
            {
                found = candidate
            }
        }
        if found == nil, colour, primary.glyphIndex(scalar) != 0 { found = primary }
        if found == nil { missing.insert(scalar) }
        fallbackCache[key] = found
        return found
    }

    /// The families fontconfig resolves by its own configuration: any face is the answer.
    static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy", "emoji", "math"]

    /// Family names compared as people write them: case and spaces do not matter.
    static func sameFamily(_ a: String, _ b: String) -> Bool {
        a.lowercased().filter { !$0.isWhitespace } == b.lowercased().filter { !$0.isWhitespace }
    }

    /// fontconfig's best file for a family (and a character it must have), and the family
    /// names of the face it chose.
    static func match(family: String, bold: Bool, character: Unicode.Scalar?) -> (String, Int, [String])? {
        fontconfigLock.withLock { _ in
            guard let config = FcConfigGetCurrent() ?? { FcInit(); return FcConfigGetCurrent() }(),
                let pattern = FcPatternCreate()
            else { return nil }
            defer { FcPatternDestroy(pattern) }
            family.withCString { name in
                _ = name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) { FcPatternAddString(pattern, FC_FAMILY, $0) }
            }
            if bold { FcPatternAddInteger(pattern, FC_WEIGHT, FC_WEIGHT_BOLD) }
            var charset: OpaquePointer? = nil
            if let character {
                charset = FcCharSetCreate()
                FcCharSetAddChar(charset, character.value)
                FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            }
            defer { if let charset { FcCharSetDestroy(charset) } }
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let matched = FcFontMatch(config, pattern, &result) else { return nil }
            defer { FcPatternDestroy(matched) }
            var file: UnsafeMutablePointer<FcChar8>? = nil
            guard FcPatternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            var index: Int32 = 0
            if FcPatternGetInteger(matched, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
            let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
            // A face may carry several family names (localized ones): all of them count.
            var families: [String] = []
            var name: UnsafeMutablePointer<FcChar8>? = nil
            while FcPatternGetString(matched, FC_FAMILY, Int32(families.count), &name) == FcResultMatch, let name {
                families.append(String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)))
            }
            return (path, Int(index), families)
        }
    }

    /// fontconfig is not thread-safe either: one lock for the whole process.
    static let fontconfigLock = Locked(())
}
