import Foundation
import MosaicText

/// The fixed fonts the tests use (installed by scripts/install-system-packages.sh), never
/// whatever fontconfig would pick on this machine.
enum TestFonts {
    static let regular = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    static let cjk = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
    /// The Noto faces of the world's scripts (fonts-noto-core, fonts-noto-color-emoji).
    static func noto(_ name: String) -> String { "/usr/share/fonts/truetype/noto/\(name).ttf" }

    /// DejaVu Sans falling back to fixed Noto files for Arabic, Hebrew, Devanagari, Thai and
    /// colour emoji, then WenQuanYi: no fontconfig choice.
    static let world: Typesetter = {
        let fallbacks: [FontSource] = ["NotoSansArabic-Regular", "NotoSansHebrew-Regular", "NotoSansDevanagari-Regular", "NotoSansThai-Regular", "NotoColorEmoji"]
            .map { .file(noto($0)) } + [.file(cjk)]
        return Typesetter(fonts: try! FontLibrary(fallbacks: fallbacks, systemFallback: false))
    }()

    /// One typesetter for all tests: DejaVu Sans, falling back to WenQuanYi Micro Hei only.
    static let typesetter: Typesetter = {
        let library = try! FontLibrary(fallbacks: [.file(cjk)], systemFallback: false)
        return Typesetter(fonts: library)
    }()

    static func style(
        size: Double = 13, bold: Bool = false, lines: Int? = nil, alignment: TextAlignment = .left, direction: TextDirection = .auto
    ) -> TextStyle {
        TextStyle(font: .file(bold ? TestFonts.bold : TestFonts.regular), size: size, maximumLines: lines, alignment: alignment, direction: direction)
    }
}

