import CFontconfig
import CFreeType
import CHarfBuzz
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A FreeType face, opened once and shared, with the HarfBuzz font that shapes with it.
/// Only used under the library's lock.
final class Face {
    let face: FT_Face
    let path: String
    let index: Int
    /// Keeps FreeType alive as long as this face.
    let owner: FreeTypeHandle
    /// The size the face is set to now, in 26.6 pixels (FT_Set_Char_Size is not free).
    var currentSize: Int = 0
    /// HarfBuzz's font over `face` (it holds a reference to the FreeType face), made on
    /// first use.
    private var shapingFont: OpaquePointer? = nil
    /// For a face of fixed bitmap sizes only (colour emoji): the strike's size in 26.6
    /// pixels, which shaped advances and bitmaps are scaled from.
    private(set) var strikeSize26: Int = 0

    init(face: FT_Face, path: String, index: Int, owner: FreeTypeHandle) {
        self.face = face
        self.path = path
        self.index = index
        self.owner = owner
    }

    deinit {
        if let shapingFont { hb_font_destroy(shapingFont) }
        FT_Done_Face(face)
    }

    /// A face of outlines (else of fixed bitmap sizes, as colour emoji fonts are).
    var isScalable: Bool { (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE)) != 0 }

    /// The face has colour glyphs (CBDT bitmaps, or COLR layers).
    var hasColor: Bool { (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR)) != 0 }

    /// Sets the face to `size26` (26.6 pixels); returns the factor from the face's units
    /// at that setting to `size26`: 1 for outlines, the caption size over the strike's size
    /// for a bitmap face (its nearest strike is selected).
    @discardableResult
    func setSize(_ size26: Int) -> Double {
        if currentSize != size26 {
            if isScalable {
                FT_Set_Char_Size(face, 0, FT_F26Dot6(size26), 72, 72)
            } else if face.pointee.num_fixed_sizes > 0, let sizes = face.pointee.available_sizes {
                // The smallest strike at least as large, else the largest: scaled down
                // reads better than scaled up.
                var best = 0
                for i in 0..<Int(face.pointee.num_fixed_sizes) {
                    let s = Int(sizes[i].y_ppem), b = Int(sizes[best].y_ppem)
                    if (s >= size26 && (b < size26 || s < b)) || (b < size26 && s > b) { best = i }
                }
                FT_Select_Size(face, FT_Int(best))
                strikeSize26 = Int(sizes[best].y_ppem)
            }
            currentSize = size26
            if let shapingFont { hb_ft_font_changed(shapingFont) }
        }
        return isScalable || strikeSize26 <= 0 ? 1 : Double(size26) / Double(strikeSize26)
    }

    /// HarfBuzz's font for this face at its current size.
    var hbFont: OpaquePointer {
        if let shapingFont { return shapingFont }
        // HarfBuzz gives an empty font rather than none when it runs out of memory.
        let font: OpaquePointer = hb_ft_font_create_referenced(face) ?? hb_font_get_empty()
        // Advances as FreeType hints them, as the glyphs are drawn (hinted, at whole pixels).
        hb_ft_font_set_load_flags(font, Int32(FT_LOAD_DEFAULT) | (hasColor ? Int32(FT_LOAD_COLOR) : 0))
        shapingFont = font
        return font
    }

    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    /// The face is a bold style (else a bold style set in it is emboldened by FreeType).
    var isBold: Bool { (face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD)) != 0 }

    /// What FreeType's synthetic bold adds to an advance at the current size (26.6 px),
    /// as `FT_GlyphSlot_Embolden` computes it.
    var emboldenStrength: Int32 {
        guard let size = face.pointee.size else { return 0 }
        return Int32(FT_MulFix(FT_Long(face.pointee.units_per_EM), size.pointee.metrics.y_scale) / 24)
    }
}
