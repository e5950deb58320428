import CFontconfig
import CFreeType
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A FreeType face, opened once and shared. Only used under the library's lock.
final class Face {
    let face: FT_Face
    let path: String
    let index: Int
    /// Keeps FreeType alive as long as this face.
    let owner: FreeTypeHandle
    /// The size the face is set to now, in 26.6 pixels (FT_Set_Char_Size is not free).
    var currentSize: Int = 0

    init(face: FT_Face, path: String, index: Int, owner: FreeTypeHandle) {
        self.face = face
        self.path = path
        self.index = index
        self.owner = owner
    }

    deinit { FT_Done_Face(face) }

    func setSize(_ size26: Int) {
        if currentSize != size26 {
            FT_Set_Char_Size(face, 0, FT_F26Dot6(size26), 72, 72)
            currentSize = size26
        }
    }

    func glyphIndex(_ scalar: Unicode.Scalar) -> UInt32 {
        FT_Get_Char_Index(face, FT_ULong(scalar.value))
    }

    var hasKerning: Bool { (face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING)) != 0 }

    /// The face is a bold style (else a bold style set in it is emboldened by FreeType).
    var isBold: Bool { (face.pointee.style_flags & FT_Long(FT_STYLE_FLAG_BOLD)) != 0 }
}
