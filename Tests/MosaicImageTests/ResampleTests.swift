@testable import MosaicImage
import Testing

@Suite struct ResampleTests {
    /// Premultiplication is exact rounding for every 8-bit colour and alpha pair.
    @Test func premultiplyEveryPair() {
        for a in 0...255 {
            for v in 0...255 {
                let expected = UInt8((Double(v * a) / 255).rounded())
                #expect(premultiply(UInt8(v), UInt8(a)) == expected)
            }
        }
    }

    /// The four-at-a-time premultiplication of a decode (`premultiplyInPlace`) is
    /// `premultiply` on every colour and alpha pair, with alpha kept, opaque runs and a
    /// tail shorter than four included.
    @Test func premultiplyInPlaceEqualsTheScalarOnEveryPair() {
        var pixels: [UInt8] = []
        for a in 0...255 {
            for v in 0...255 { pixels += [UInt8(v), UInt8(255 - v), UInt8(v / 2), UInt8(a)] }
        }
        pixels += [10, 20, 30, 255, 10, 20, 30, 128, 200, 100, 50, 7]
        var result = pixels
        premultiplyInPlace(&result)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            let alpha = pixels[i + 3]
            let expected = (0..<3).map { premultiply(pixels[i + $0], alpha) } + [alpha]
            #expect(Array(result[i..<(i + 4)]) == expected)
        }
    }

    @Test func boxHalvesByAveraging() {
        var source = Bitmap(width: 4, height: 2)
        let values: [UInt8] = [0, 100, 200, 40, 10, 30, 60, 80]
        for (i, v) in values.enumerated() { source[i % 4, i / 4] = RGBA(red: v, green: v, blue: v) }
        let half = source.resampled(width: 2, height: 1, filter: .box)
        #expect(half[0, 0].red == 35)  // (0 + 100 + 10 + 30) / 4
        #expect(half[1, 0].red == 95)  // (200 + 40 + 60 + 80) / 4
    }

    @Test(arguments: ResamplingFilter.allCases)
    func aFlatColourStaysFlat(filter: ResamplingFilter) {
        let colour = RGBA(straightRed: 200, green: 100, blue: 50, alpha: 180)
        let source = Bitmap(width: 97, height: 61, fill: colour)
        for (w, h) in [(10, 7), (300, 200), (97, 1), (1, 1), (50, 61)] {
            let result = source.resampled(width: w, height: h, filter: filter)
            #expect((result.width, result.height) == (w, h))
            #expect(result.pixels.indices.allSatisfy { result.pixels[$0] == source.pixels[$0 % 4] }, "\(w)x\(h)")
        }
    }

    /// Lanczos overshoots at hard edges; the result must stay valid premultiplied RGBA.
    @Test func overshootStaysPremultiplied() {
        var source = Bitmap(width: 40, height: 1)
        for x in 0..<40 { source[x, 0] = x % 2 == 0 ? RGBA(red: 255, green: 255, blue: 255) : RGBA(red: 0, green: 0, blue: 0, alpha: 0) }
        let result = source.resampled(width: 17, height: 3)
        for i in stride(from: 0, to: result.pixels.count, by: 4) {
            #expect(result.pixels[i] <= result.pixels[i + 3] && result.pixels[i + 1] <= result.pixels[i + 3])
        }
    }

    @Test func cropToFillKeepsTheCentre() {
        // A wide image: left third red, middle green, right third blue. Filling a square
        // keeps the middle.
        var source = Bitmap(width: 300, height: 100)
        for y in 0..<100 {
            for x in 0..<300 {
                source[x, y] = x < 100 ? RGBA(red: 255, green: 0, blue: 0) : x < 200 ? RGBA(red: 0, green: 255, blue: 0) : RGBA(red: 0, green: 0, blue: 255)
            }
        }
        let square = source.resampledToFill(width: 50, height: 50)
        #expect((square.width, square.height) == (50, 50))
        #expect(square[25, 25] == RGBA(red: 0, green: 255, blue: 0))
        // (The filter reaches 6 source pixels around each sample, so the outermost samples
        // see a little of the neighbouring thirds; these do not.)
        #expect(square[4, 25] == RGBA(red: 0, green: 255, blue: 0) && square[45, 25] == RGBA(red: 0, green: 255, blue: 0))
        // A tall target keeps the middle too.
        let tall = source.resampledToFill(width: 10, height: 40)
        #expect(tall[5, 20] == RGBA(red: 0, green: 255, blue: 0))
    }

    @Test func upscaleAndIdentity() {
        let source = Bitmap(width: 3, height: 2, fill: RGBA(red: 9, green: 8, blue: 7))
        #expect(source.resampled(width: 3, height: 2) == source)
        let big = source.resampled(width: 30, height: 20)
        #expect(big[29, 19] == RGBA(red: 9, green: 8, blue: 7))
        #expect(source.resampled(width: 0, height: -3).width == 1)
    }

    /// The passes run in C with 16-bit multiply-adds of two taps (SSE2) and a tail for an
    /// odd tap count and a row not a multiple of 8 bytes: every byte equals a plain sum of
    /// the same fixed-point taps, on noisy premultiplied pixels, for reductions, odd
    /// sizes, a crop region and enlargements.
    @Test(arguments: ResamplingFilter.allCases)
    func thePassesEqualAPlainSum(filter: ResamplingFilter) {
        var generator = SystemRandomNumberGenerator()
        var source = Bitmap(width: 53, height: 37)
        for y in 0..<37 {
            for x in 0..<53 {
                source[x, y] = RGBA(straightRed: .random(in: 0...255, using: &generator), green: .random(in: 0...255, using: &generator),
                                    blue: .random(in: 0...255, using: &generator), alpha: .random(in: 0...255, using: &generator))
            }
        }
        func plain(_ width: Int, _ height: Int, region: SourceRegion) -> [UInt8] {
            let h = Contributions(inputCount: 53, outputCount: width, regionStart: region.x, regionLength: region.width, filter: filter)
            let v = Contributions(inputCount: 37, outputCount: height, regionStart: region.y, regionLength: region.height, filter: filter)
            func store(_ sum: [Int32]) -> [UInt8] {
                let alpha = min(max(sum[3] >> 14, 0), 255)
                return (0..<3).map { UInt8(min(max(sum[$0] >> 14, 0), alpha)) } + [UInt8(alpha)]
            }
            var rows: [[UInt8]] = []
            for y in 0..<37 {
                var row: [UInt8] = []
                for x in 0..<width {
                    var sum = [Int32](repeating: 1 << 13, count: 4)
                    for t in 0..<h.counts[x] {
                        for c in 0..<4 { sum[c] += Int32(h.weights[x * h.stride + t]) * Int32(source.pixels[(y * 53 + h.starts[x] + t) * 4 + c]) }
                    }
                    row += store(sum)
                }
                rows.append(row)
            }
            var out: [UInt8] = []
            for y in 0..<height {
                for b in stride(from: 0, to: width * 4, by: 4) {
                    var sum = [Int32](repeating: 1 << 13, count: 4)
                    for t in 0..<v.counts[y] {
                        for c in 0..<4 { sum[c] += Int32(v.weights[y * v.stride + t]) * Int32(rows[v.starts[y] + t][b + c]) }
                    }
                    out += store(sum)
                }
            }
            return out
        }
        let whole = SourceRegion(x: 0, y: 0, width: 53, height: 37)
        for (w, h, region) in [(17, 11, whole), (9, 30, whole), (3, 2, whole), (53, 36, whole), (120, 75, whole), (7, 7, SourceRegion(x: 8.5, y: 0, width: 37, height: 37))] {
            let result = source.resampled(width: w, height: h, filter: filter, region: region)
            #expect(result.pixels == plain(w, h, region: region), "\(w)x\(h)")
        }
    }
}
