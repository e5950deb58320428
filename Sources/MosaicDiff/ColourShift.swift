import Foundation
import MosaicLayout

/// How far a region's colour moved, for the SSIM mode, which sees luma only (a red button
/// turned green of the same luma keeps SSIM 1): the mean colour of each image's pixels
/// over the region's box, in CIELAB (sRGB, D65, each pixel blended over white by its
/// alpha as pixelmatch blends), and CIEDE2000 between the two means (Sharma, Wu and
/// Dalal 2005). Anti-aliasing noise moves pixels both ways and hardly moves a mean; a
/// recoloured element moves it by its whole change.
enum ColourShift {
    /// sRGB byte to linear light.
    static let linear: [Double] = (0..<256).map { v in
        let c = Double(v) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    /// Sets each region's `deltaE`.
    static func measure(_ p1: ImageComparison.Plane, _ p2: ImageComparison.Plane, regions: inout [ChangedRegion]) {
        for r in regions.indices {
            regions[r].deltaE = ciede2000(mean(p1, regions[r].bounds), mean(p2, regions[r].bounds))
        }
    }

    /// The mean CIELAB colour of a plane's pixels over `box`.
    static func mean(_ plane: ImageComparison.Plane, _ box: Rect) -> (l: Double, a: Double, b: Double) {
        var sum = (l: 0.0, a: 0.0, b: 0.0)
        // Runs of one colour (most of a page) are converted once.
        var last: UInt32 = 0, lab = (l: 100.0, a: 0.0, b: 0.0), known = false
        for y in box.minY..<box.maxY {
            for x in box.minX..<box.maxX {
                let p = plane.base + plane.offset(x, y)
                let word = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
                if !known || word != last {
                    lab = self.lab(p[0], p[1], p[2], p[3])
                    last = word
                    known = true
                }
                sum.l += lab.l
                sum.a += lab.a
                sum.b += lab.b
            }
        }
        let n = Double(max(1, box.width * box.height))
        return (sum.l / n, sum.a / n, sum.b / n)
    }

    /// CIELAB (D65) of a straight-alpha sRGB pixel blended over white.
    static func lab(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ alpha: UInt8) -> (l: Double, a: Double, b: Double) {
        var (lr, lg, lb) = (linear[Int(r)], linear[Int(g)], linear[Int(b)])
        if alpha < 255 {
            // pixelmatch's blend over white, in sRGB bytes.
            let k = Double(alpha) / 255
            func over(_ c: UInt8) -> Double {
                let v = 255 + (Double(c) - 255) * k
                let s = v / 255
                return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
            }
            (lr, lg, lb) = (over(r), over(g), over(b))
        }
        let x = (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047
        let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
        let z = (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x), fy = f(y), fz = f(z)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIEDE2000 (kL = kC = kH = 1).
    static func ciede2000(_ c1: (l: Double, a: Double, b: Double), _ c2: (l: Double, a: Double, b: Double)) -> Double {
        let radians = Double.pi / 180
        let cAverage = (hypot(c1.a, c1.b) + hypot(c2.a, c2.b)) / 2
        let c7 = pow(cAverage, 7)
        let g = 0.5 * (1 - (c7 / (c7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * c1.a, a2 = (1 + g) * c2.a
        let cp1 = hypot(a1, c1.b), cp2 = hypot(a2, c2.b)
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / radians
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(c1.b, a1), h2 = hue(c2.b, a2)
        let dL = c2.l - c1.l, dC = cp2 - cp1
        var dh = 0.0
        if cp1 * cp2 != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (cp1 * cp2).squareRoot() * sin(dh / 2 * radians)
        let lAverage = (c1.l + c2.l) / 2, cpAverage = (cp1 + cp2) / 2
        var hAverage = h1 + h2
        if cp1 * cp2 != 0 {
            if abs(h1 - h2) <= 180 { hAverage = (h1 + h2) / 2 } else if h1 + h2 < 360 { hAverage = (h1 + h2 + 360) / 2 } else { hAverage = (h1 + h2 - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hAverage - 30) * radians) + 0.24 * cos(2 * hAverage * radians) + 0.32 * cos((3 * hAverage + 6) * radians)
            - 0.20 * cos((4 * hAverage - 63) * radians)
        let dTheta = 30 * exp(-pow((hAverage - 275) / 25, 2))
        let cp7 = pow(cpAverage, 7)
        let rc = 2 * (cp7 / (cp7 + pow(25, 7))).squareRoot()
        let l50 = (lAverage - 50) * (lAverage - 50)
        let sl = 1 + 0.015 * l50 / (20 + l50).squareRoot()
        let sc = 1 + 0.045 * cpAverage
        let sh = 1 + 0.015 * cpAverage * t
        let rt = -sin(2 * dTheta * radians) * rc
        let lTerm = dL / sl, cTerm = dC / sc, hTerm = dH / sh
        return (lTerm * lTerm + cTerm * cTerm + hTerm * hTerm + rt * cTerm * hTerm).squareRoot()
    }
}
