// Image comparison figures, release builds only.
//
//   DiffBenchmark make DIR     writes DIR/a.png and DIR/b.png: 3840x2160, photo-like, the
//                              second with a changed region and faint noise everywhere
//   DiffBenchmark compare A B  compares two PNGs in process (decoded once), 5 runs
//   DiffBenchmark modes BASE CUR [RUNS [MODE]]
//                              the pairs of two folders (same names), decoded once, compared
//                              in each mode (pixelmatch, aligned, ssim, flip; no diff image),
//                              RUNS runs (default 5): the median of each mode's total, and
//                              the decoding's, so that a mode's cost in `mosaic diff`'s wall
//                              reads as (decode + mode) / (decode + pixelmatch); with MODE
//                              (or "none"), that mode alone (for callgrind's counts)
//   DiffBenchmark folders BASE CUR MODE
//                              `mosaic diff BASE CUR`'s library path (FolderComparison, one
//                              thread, no report) in one mode (pixelmatch, aligned, ssim,
//                              flip), once: for callgrind's counts of a whole run
//
// The whole command to time beside ImageMagick is `mosaic diff A B` against
// `compare -metric AE A B null:`.
import Foundation
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
case "modes":
    var decoder = ImageDecoder()
    decoder.premultiplyAlpha = false
    let names = try FileManager.default.contentsOfDirectory(atPath: arguments[1]).filter { $0.hasSuffix(".png") }.sorted()
    let runs = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
    var pairs: [(Bitmap, Bitmap)] = []
    var decoding: [Double] = []
    for run in 0..<max(1, min(runs, 3)) {
        let start = clock.now
        var decoded: [(Bitmap, Bitmap)] = []
        for name in names {
            decoded.append((try decoder.decode(arguments[1] + "/" + name).bitmap, try decoder.decode(arguments[2] + "/" + name).bitmap))
        }
        decoding.append(seconds(clock.now - start))
        if run == 0 { pairs = decoded }
    }
    decoding.sort()
    print("\(names.count) pairs: decoding both images, median \(Int(decoding[decoding.count / 2] * 1000)) ms")
    var modes: [(String, ComparisonOptions)] = [("pixelmatch", ComparisonOptions())]
    var options = ComparisonOptions()
    options.align = true
    modes.append(("aligned", options))
    options = ComparisonOptions()
    options.metric = .ssim
    modes.append(("ssim", options))
    options.metric = .flip
    modes.append(("flip", options))
    let only = arguments.count > 4 ? arguments[4] : nil
    for (name, options) in modes where only == nil || only == name {
        var times: [Double] = []
        var differing = 0, regions = 0
        for _ in 0..<runs {
            let start = clock.now
            differing = 0
            regions = 0
            for (a, b) in pairs {
                let d = ImageComparison.compare(a, b, options: options, premultiplied: false, diffImage: false)
                differing += d.alignedDifferingPixels ?? d.differingPixels
                regions += d.regionCount
            }
            times.append(seconds(clock.now - start))
        }
        times.sort()
        print("\(name): median \(Int(times[times.count / 2] * 1000)) ms (\(differing) px counted, \(regions) regions)")
    }
case "folders":
    var options = ComparisonOptions()
    switch arguments[3] {
    case "aligned": options.align = true
    case "ssim": options.metric = .ssim
    case "flip": options.metric = .flip
    default: break
    }
    let start = clock.now
    let comparison = try FolderComparison.compare(baseline: arguments[1], current: arguments[2], options: options, jobs: 1)
    let changed = comparison.results.filter { $0.status == .changed }.count
    print("\(arguments[3]): \(comparison.results.count) pairs, \(changed) changed, \(Int(seconds(clock.now - start) * 1000)) ms")
default:
    print("usage: DiffBenchmark make DIR | compare A.png B.png | modes BASE CUR [RUNS]")
    exit(64)
}
