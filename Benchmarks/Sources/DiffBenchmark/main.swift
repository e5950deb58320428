// Image comparison figures, release builds only.
//
//   DiffBenchmark make DIR     writes DIR/a.png and DIR/b.png: 3840x2160, photo-like, the
//                              second with a changed region and faint noise everywhere
//   DiffBenchmark compare A B  compares two PNGs in process (decoded once), 5 runs
//
// The whole command to time beside ImageMagick is `mosaic diff A B` against
// `compare -metric AE A B null:`.
import Mosaic

#if canImport(Glibc)
import Glibc
#endif

func seconds(_ d: Duration) -> Double { Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18 }

let arguments = Array(CommandLine.arguments.dropFirst())
let clock = ContinuousClock()
switch arguments.first {
case "make":
    let dir = arguments[1]
    let (w, h) = (3840, 2160)
    var a = Bitmap(width: w, height: h)
    var b = Bitmap(width: w, height: h)
    var state: UInt64 = 12345
    for y in 0..<h {
        for x in 0..<w {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let noise = Int(state >> 61)  // 0...7
            let r = UInt8((x * 255) / w), g = UInt8((y * 255) / h), bl = UInt8(((x + y) * 255) / (w + h))
            a[x, y] = RGBA(red: r, green: g, blue: bl)
            // b: faint noise everywhere (below the threshold), a changed block.
            let changed = x > 1000 && x < 1400 && y > 600 && y < 900
            b[x, y] = changed ? RGBA(red: 255 - r, green: g, blue: 40) : RGBA(red: UInt8(min(255, Int(r) + noise)), green: g, blue: bl)
        }
    }
    try a.writePNG(to: dir + "/a.png")
    try b.writePNG(to: dir + "/b.png")
case "compare":
    var decoder = ImageDecoder()
    decoder.premultiplyAlpha = false
    let a = try decoder.decode(arguments[1]).bitmap, b = try decoder.decode(arguments[2]).bitmap
    var times: [Double] = []
    var result: ImageDifference? = nil
    for _ in 0..<5 {
        let start = clock.now
        result = ImageComparison.compare(a, b, premultiplied: false)
        times.append(seconds(clock.now - start))
    }
    times.sort()
    let megapixels = Double(a.width * a.height) / 1e6
    print("compare \(a.width)x\(a.height): \(result!.differingPixels) px differ; median \(Int(times[2] * 1000)) ms = \(Int(megapixels / times[2])) megapixels/s on one core")
default:
    print("usage: DiffBenchmark make DIR | compare A.png B.png")
    exit(64)
}
