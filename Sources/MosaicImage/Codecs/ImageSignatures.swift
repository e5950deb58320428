/// The image formats mosaic knows by their first bytes without reading them: so that a
/// folder's HEIC or WebP photos are named in the summary as images it cannot read, not
/// counted among "other files".
public enum ImageSignatures {
    /// The name of the image format `signature` (a file's first 16 bytes, fewer for a
    /// shorter file) starts, when it is one mosaic has no codec for; nil otherwise.
    public static func unreadableFormat(_ signature: [UInt8]) -> String? {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            signature.count >= offset + bytes.count && Array(signature[offset..<(offset + bytes.count)]) == bytes
        }
        func ascii(_ text: String, at offset: Int = 0) -> Bool { starts(Array(text.utf8), at: offset) }
        // ISO base media files (HEIF, AVIF, JPEG 2000...) name their brand at 8.
        if ascii("ftyp", at: 4), signature.count >= 12 {
            let brand = String(decoding: signature[8..<12], as: UTF8.self)
            switch brand {
            case "mif2": return "HEIF"
            case "jp2 ", "jpx ": return "JPEG 2000"
            default: return nil
            }
        }
        if ascii("BM") && signature.count >= 14 { return "BMP" }
        if starts([0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20]) { return "JPEG 2000" }
        if ascii("8BPS") { return "Photoshop" }
        if starts([0x76, 0x2F, 0x31, 0x01]) { return "OpenEXR" }
        if ascii("qoif") { return "QOI" }
        if starts([0x00, 0x00, 0x01, 0x00]) && signature.count >= 6 && signature[4] != 0 { return "ICO" }
        return nil
    }
}
