import CMosaicShims

/// How a file says its pixel values are to be read, as its codec found it: an embedded ICC
/// profile, or colour described by chromaticities and a tone curve (PNG's gAMA and cHRM;
/// the ITU-T H.273 code points of PNG's cICP and HEIF's nclx), or a description mosaic
/// does not convert. A file that says sRGB (or nothing) has no `ColorProfile`.
public enum ColorProfile: Sendable, Hashable {
    /// An embedded ICC profile (JPEG APP2, PNG iCCP, WebP ICCP, HEIF colr, TIFF tag 34675):
    /// RGB, grey or CMYK.
    case icc([UInt8])
    /// RGB with these primaries and white point, and one tone curve for the three channels.
    case rgb(Chromaticities, ToneCurve)
    /// A description mosaic does not convert (an HDR transfer such as PQ); why, for the
    /// warning. The pixels are then drawn as sRGB.
    case unsupported(String)

    /// The profile of ITU-T H.273 colour primaries and transfer characteristics (PNG cICP,
    /// HEIF nclx); nil when they are sRGB's (or unspecified). `source` names the box or
    /// chunk in messages.
    ///
    /// The BT.709 family of transfers (1, 6, 14, 15) is read with sRGB's curve, as
    /// browsers do for images: those curves are camera encodings, and the displays they
    /// are watched on decode with about sRGB's gamma. HDR transfers (PQ, HLG) are not
    /// tone-mapped: `.unsupported`.
    public static func coded(primaries: Int, transfer: Int, source: String) -> ColorProfile? {
        guard let chromaticities = Chromaticities.coded(primaries) else {
            return .unsupported("\(source): colour primaries \(primaries) are not supported")
        }
        let curve: ToneCurve
        switch transfer {
        case 1, 2, 6, 7, 13, 14, 15: curve = .sRGB
        case 4: curve = .gamma(2.2)
        case 5: curve = .gamma(2.8)
        case 8: curve = .linear
        case 16: return .unsupported("\(source): the HDR transfer PQ (16) is not tone-mapped")
        case 18: return .unsupported("\(source): the HDR transfer HLG (18) is not tone-mapped")
        default: return .unsupported("\(source): transfer characteristics \(transfer) are not supported")
        }
        return chromaticities == .sRGB && curve == .sRGB ? nil : .rgb(chromaticities, curve)
    }

    /// The profile of a PNG's gAMA (the encoding gamma times 100 000) and cHRM without an
    /// iCCP, sRGB or cICP chunk; nil when they describe sRGB: a gamma within 2% of 1/2.2
    /// (sRGB's curve is close to 2.2, and this is what most PNG writers put there) and no
    /// cHRM, or sRGB's own within 0.01.
    public static func png(gamma: Int?, chromaticities: Chromaticities?) -> ColorProfile? {
        let primaries = chromaticities ?? .sRGB
        let curve: ToneCurve
        if let gamma, gamma > 0 {
            let decoding = 100_000.0 / Double(gamma)
            curve = abs(decoding / 2.2 - 1) <= 0.02 ? .sRGB : .gamma(decoding)
        } else {
            curve = .sRGB
        }
        return primaries.isClose(to: .sRGB) && curve == .sRGB ? nil : .rgb(primaries, curve)
    }
}

extension ColorProfile: CustomStringConvertible {
    /// What the file declares, for people: "ICC profile Adobe RGB (1998)", "Display P3
    /// primaries, sRGB curve".
    public var description: String {
        switch self {
        case .icc(let bytes):
            var name = [CChar](repeating: 0, count: 256)
            let length = bytes.withUnsafeBufferPointer { mosaic_color_profile_name($0.baseAddress, $0.count, &name, name.count) }
            let text = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return text.isEmpty ? "ICC profile (\(bytes.count) bytes)" : "ICC profile \(text)"
        case .rgb(let chromaticities, let curve):
            return "\(chromaticities.name) primaries, \(curve)"
        case .unsupported(let reason):
            return "unsupported: \(reason)"
        }
    }
}

/// The CIE xy chromaticities of a white point and three primaries.
public struct Chromaticities: Sendable, Hashable {
    /// White, red, green, blue: x and y each.
    public var values: [Double]

    public init(white: (Double, Double), red: (Double, Double), green: (Double, Double), blue: (Double, Double)) {
        values = [white.0, white.1, red.0, red.1, green.0, green.1, blue.0, blue.1]
    }

    static let d65 = (0.3127, 0.3290)

    /// sRGB and BT.709.
    public static let sRGB = Chromaticities(white: d65, red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))
    /// Adobe RGB (1998).
    public static let adobeRGB = Chromaticities(white: d65, red: (0.64, 0.33), green: (0.21, 0.71), blue: (0.15, 0.06))
    /// Display P3 (SMPTE EG 432-1: DCI-P3's primaries, D65 white), phones' photos.
    public static let displayP3 = Chromaticities(white: d65, red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
    /// BT.2020 and BT.2100.
    public static let bt2020 = Chromaticities(white: d65, red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046))

    /// The chromaticities of H.273 colour primaries code point `code` (1 and 2, sRGB).
    public static func coded(_ code: Int) -> Chromaticities? {
        switch code {
        case 1, 2: return .sRGB
        case 4: return Chromaticities(white: (0.310, 0.316), red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08))
        case 5: return Chromaticities(white: d65, red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06))
        case 6, 7: return Chromaticities(white: d65, red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070))
        case 8: return Chromaticities(white: (0.310, 0.316), red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049))
        case 9: return .bt2020
        case 11: return Chromaticities(white: (0.314, 0.351), red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060))
        case 12: return .displayP3
        case 22: return Chromaticities(white: d65, red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077))
        default: return nil
        }
    }

    /// The name of well-known primaries ("Display P3"), else their values.
    public var name: String {
        let known: [(Chromaticities, String)] = [(.sRGB, "sRGB"), (.adobeRGB, "Adobe RGB"), (.displayP3, "Display P3"), (.bt2020, "BT.2020")]
        if let match = known.first(where: { isClose(to: $0.0) }) { return match.1 }
        return "(" + values.map { String(Double(Int(($0 * 10_000).rounded())) / 10_000) }.joined(separator: ", ") + ")"
    }

    /// Every value within 0.01 of `other`'s.
    func isClose(to other: Chromaticities) -> Bool {
        zip(values, other.values).allSatisfy { abs($0 - $1) <= 0.01 }
    }
}

/// How stored values map to light, per channel.
public enum ToneCurve: Sendable, Hashable, CustomStringConvertible {
    public var description: String {
        switch self {
        case .sRGB: return "sRGB curve"
        case .gamma(let exponent): return "gamma \(Double(Int((exponent * 100).rounded())) / 100)"
        case .linear: return "linear"
        }
    }

    /// IEC 61966-2-1's piecewise curve.
    case sRGB
    /// A pure power: light = value^exponent.
    case gamma(Double)
    /// Light = value.
    case linear

    /// Little CMS's parametric curve type and parameters (`cmsBuildParametricToneCurve`).
    var parametric: (type: Int32, parameters: [Double]) {
        switch self {
        case .sRGB: return (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case .gamma(let exponent): return (1, [exponent, 0, 0, 0, 0])
        case .linear: return (1, [1, 0, 0, 0, 0])
        }
    }
}
