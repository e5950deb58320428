import Foundation
import Testing

import MosaicText

/// mosaic's captions against Pango's drawing of the same strings (issue 28's target): each
/// string in its Noto family, bold, 24 px. Pango's references are fixtures made once by
/// `make_pango_references.py` (pango-view); CI needs no Pango.
///
/// The score: both inked boxes blurred by a Gaussian of 1 px; mosaic's scaled to Pango's
/// height, its width then within 6% of Pango's and scaled to it; the Pearson correlation of
/// the two at the best shift of up to 6 px each way. Shaped, reordered text scores >= 0.9;
/// text drawn unshaped, in memory order, 0.16-0.83.
@Suite struct PangoCorrelationTests {
    static let cases: [(String, String, String)] = [
        ("arabic", "NotoSansArabic-Bold", "مرحبا بالعالم الجميل"),
        ("hebrew", "NotoSansHebrew-Bold", "השדה העמוק של האבל"),
        ("hindi", "NotoSansDevanagari-Bold", "क्षत्रिय और स्त्री का प्रश्न"),
        ("thai", "NotoSansThai-Bold", "ที่นี่มีน้ำใจ ผู้ใหญ่"),
        ("latin", "NotoSans-Bold", "AVATAR Wave office Tokyo"),
    ]

    @Test(arguments: cases)
    func matchesPango(name: String, font: String, text: String) throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/pango-\(name).pgm").path
        let pango = try GreyImage(pgm: String(contentsOfFile: path, encoding: .utf8))
        let t = Typesetter(fonts: try FontLibrary(systemFallback: false))
        let layout = try t.layout(text, style: TextStyle(font: .file(TestFonts.noto(font)), bold: true, size: 24, alignment: .left), width: 2000)
        try #require(layout.lines.count == 1)
        var mask = CoverageMask(width: layout.lines[0].width + 40, height: layout.height + 40)
        t.draw(layout, into: &mask, x: 20, y: 20)
        let bounds = mask.inkBounds
        try #require(bounds != nil, "\(name): no ink")
        guard let box = bounds else { return }
        let mosaic = GreyImage(mask, box)
        let scaled = mosaic.resized(width: Int((Double(mosaic.width) * Double(pango.height) / Double(mosaic.height)).rounded()), height: pango.height)
        let ratio = Double(scaled.width) / Double(pango.width)
        #expect(abs(ratio - 1) <= 0.06, "\(name): width \(scaled.width) at Pango's height, Pango's \(pango.width)")
        let score = scaled.resized(width: pango.width, height: pango.height).blurred().correlation(with: pango.blurred(), shift: 6)
        #expect(score >= 0.9, "\(name): correlation \(score)")
    }
}

/// A grey image of Doubles (0 paper, 255 ink) for the correlation above.
struct GreyImage {
    var width: Int
    var height: Int
    var pixels: [Double]

    init(width: Int, height: Int, pixels: [Double]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    init(pgm text: String) throws {
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).dropFirst().compactMap { Double($0) }
        try #require(numbers.count >= 3)
        self.init(width: Int(numbers[0]), height: Int(numbers[1]), pixels: Array(numbers.dropFirst(3)))
        try #require(pixels.count == width * height)
    }

    /// The part of `mask` inside `box`.
    init(_ mask: CoverageMask, _ box: (x: Int, y: Int, width: Int, height: Int)) {
        var pixels: [Double] = []
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) { pixels.append(Double(mask[x, y])) }
        }
        self.init(width: box.width, height: box.height, pixels: pixels)
    }

    func at(_ x: Int, _ y: Int) -> Double { x < 0 || y < 0 || x >= width || y >= height ? 0 : pixels[y * width + x] }

    /// Bilinear resampling, pixel centres aligned.
    func resized(width w: Int, height h: Int) -> GreyImage {
        var out = [Double](repeating: 0, count: w * h)
        for y in 0..<h {
            let sy = (Double(y) + 0.5) * Double(height) / Double(h) - 0.5
            let y0 = Int(sy.rounded(.down)), fy = sy - Double(y0)
            for x in 0..<w {
                let sx = (Double(x) + 0.5) * Double(width) / Double(w) - 0.5
                let x0 = Int(sx.rounded(.down)), fx = sx - Double(x0)
                let clampX = { (v: Int) in min(max(v, 0), width - 1) }, clampY = { (v: Int) in min(max(v, 0), height - 1) }
                let a = at(clampX(x0), clampY(y0)), b = at(clampX(x0 + 1), clampY(y0))
                let c = at(clampX(x0), clampY(y0 + 1)), d = at(clampX(x0 + 1), clampY(y0 + 1))
                out[y * w + x] = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy
            }
        }
        return GreyImage(width: w, height: h, pixels: out)
    }

    /// A Gaussian blur of sigma 1 px (radius 3), separable, paper beyond the edges.
    func blurred() -> GreyImage {
        let kernel = (-3...3).map { exp(-Double($0 * $0) / 2) }
        let total = kernel.reduce(0, +)
        var rows = [Double](repeating: 0, count: pixels.count)
        for y in 0..<height {
            for x in 0..<width { rows[y * width + x] = (-3...3).reduce(0.0) { $0 + kernel[$1 + 3] * at(x + $1, y) } / total }
        }
        let horizontal = GreyImage(width: width, height: height, pixels: rows)
        var out = rows
        for y in 0..<height {
            for x in 0..<width { out[y * width + x] = (-3...3).reduce(0.0) { $0 + kernel[$1 + 3] * horizontal.at(x, y + $1) } / total }
        }
        return GreyImage(width: width, height: height, pixels: out)
    }

    /// The highest Pearson correlation of this image shifted by up to `shift` pixels each
    /// way against `other` (same size), over `other`'s pixels.
    func correlation(with other: GreyImage, shift: Int) -> Double {
        var best = -1.0
        let n = Double(other.pixels.count)
        let meanB = other.pixels.reduce(0, +) / n
        for dy in -shift...shift {
            for dx in -shift...shift {
                var a: [Double] = []
                a.reserveCapacity(other.pixels.count)
                for y in 0..<other.height {
                    for x in 0..<other.width { a.append(at(x + dx, y + dy)) }
                }
                let meanA = a.reduce(0, +) / n
                var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
                for i in 0..<a.count {
                    let da = a[i] - meanA, db = other.pixels[i] - meanB
                    covariance += da * db
                    varianceA += da * da
                    varianceB += db * db
                }
                if varianceA > 0 && varianceB > 0 { best = max(best, covariance / (varianceA * varianceB).squareRoot()) }
            }
        }
        return best
    }
}
