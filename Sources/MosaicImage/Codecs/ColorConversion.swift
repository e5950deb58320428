/// What a decode does about colour: a transform to sRGB, or a warning saying why the
/// pixels are drawn as they are (taken as sRGB).
struct ColorConversion {
    let entry: ColorTransforms.Entry?
    let warning: DecodingWarning?

    /// The decoder must hand over CMYK ink bytes, which `apply` turns into RGBA.
    var takesCMYK: Bool { entry?.isCMYK ?? false }

    func apply(_ pixels: inout [UInt8]) { entry?.apply(&pixels) }
}

extension ImageCodec {
    /// The conversion of pixels decoded from `bytes` to sRGB: nil when the file declares
    /// none (or sRGB) or the request does not manage colour. A profile that cannot be used
    /// is a warning (never data loss): the pixels stay as they are, taken as sRGB. `cmyk`:
    /// the file's pixels are CMYK, which a CMYK profile converts (and nothing else does:
    /// without one, the decoder's own formula).
    func colorConversion(_ bytes: [UInt8], request: DecodeRequest, cmyk: Bool = false) -> ColorConversion? {
        guard request.manageColor else { return nil }
        return colorConversion(colorProfile(bytes), request: request, cmyk: cmyk)
    }

    /// The conversion for `profile`, the colour the file declares (read by the codec with
    /// its decode): as `colorConversion(_:request:cmyk:)`.
    func colorConversion(_ profile: ColorProfile?, request: DecodeRequest, cmyk: Bool) -> ColorConversion? {
        guard request.manageColor, let profile else { return nil }
        let entry = ColorTransforms.shared.entry(profile)
        let problem: String
        if let failure = entry.failure {
            problem = failure
        } else if entry.isCMYK != cmyk {
            problem = entry.isCMYK ? "the embedded ICC profile is for CMYK pixels, the image's are not" : "the embedded ICC profile is not for the image's CMYK pixels"
        } else {
            return ColorConversion(entry: entry, warning: nil)
        }
        let drawn = cmyk ? "converted without a profile" : "drawn as sRGB"
        return ColorConversion(entry: nil, warning: DecodingWarning(path: request.path, message: "\(problem); \(drawn)", count: 1))
    }
}
