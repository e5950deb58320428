import MosaicImage
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
}
