// Image I/O figures, release builds only.
//
//   ImageBenchmark thumbnail FILE [RUNS]   decode a JPEG to a thumbnail at most 300 px wide
//                                          (DCT scaling + Lanczos-3), RUNS times in process
//   ImageBenchmark probe FILE... [--total N]  probe the files (cycling until N probes)
//   ImageBenchmark png-levels FILE...      encode a sheet-like image at every zlib level
//   ImageBenchmark png-decode [--runs N] FILE...
//                                          decode each PNG whole (to RGBA, straight alpha,
//                                          as `mosaic diff` does), the file already in
//                                          memory, one thread: the median per file, N runs
//                                          (5); Benchmarks/diff/png_decode_peers.py times
//                                          libpng, libspng, Pillow and libvips the same way
//
// One `thumbnail FILE 1` run is what to time as a whole process beside
// `djpeg -scale 1/8 -outfile /dev/null FILE`.
import MosaicImage
import MosaicLayout

#if canImport(Glibc)
import Glibc
#endif

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

func ms(_ value: Double) -> String {
    let hundredths = Int(value * 1000 * 100 + 0.5)
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms"
}

let clock = ContinuousClock()
let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else {
    print("usage: ImageBenchmark thumbnail FILE [RUNS] | probe FILE... [--total N] | png-levels FILE... | png-decode [--runs N] FILE...")
    exit(64)
}

/// Decodes at the smallest DCT scale that covers 300 px across (one read of the file),
/// then resamples to 300 px wide (or less for a smaller image).
func thumbnail(_ path: String, decoder: ImageDecoder) throws -> Bitmap {
    let decoded = try decoder.decode(path, minimumSize: Size(width: 300, height: 1))
    let info = decoded.info
    let width = min(300, info.orientedWidth)
    let height = max(1, Int((Double(width) * Double(info.orientedHeight) / Double(info.orientedWidth)).rounded()))
    return decoded.bitmap.resampled(width: width, height: height)
}

do {
    switch command {
    case "thumbnail":
        let path = arguments[1]
        let runs = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
        let decoder = ImageDecoder()
        var times: [Double] = []
        var result = Bitmap(width: 1, height: 1)
        for _ in 0..<runs {
            let start = clock.now
            result = try thumbnail(path, decoder: decoder)
            times.append(seconds(clock.now - start))
        }
        if runs > 1 {
            print("thumbnail \(result.width)x\(result.height) of \(path): median \(ms(median(times))), min \(ms(times.min()!)) over \(runs) runs")
            // Where the time goes.
            let info = try decoder.probe(path)
            var decodeTimes: [Double] = [], resampleTimes: [Double] = []
            for _ in 0..<runs {
                var start = clock.now
                let decoded = try decoder.decode(path, minimumSize: Size(width: 300, height: 225))
                decodeTimes.append(seconds(clock.now - start))
                start = clock.now
                _ = decoded.bitmap.resampled(width: 300, height: 300 * info.orientedHeight / info.orientedWidth)
                resampleTimes.append(seconds(clock.now - start))
            }
            print("  read + decode at 1/8: \(ms(median(decodeTimes))); resample: \(ms(median(resampleTimes)))")
        }
    case "probe":
        var files = arguments.dropFirst().filter { !$0.hasPrefix("--") }
        var total = files.count
        if let index = arguments.firstIndex(of: "--total"), index + 1 < arguments.count, let n = Int(arguments[index + 1]) {
            total = n
            files.removeAll { $0 == arguments[index + 1] }
        }
        let decoder = ImageDecoder()
        var times: [Double] = []
        var pixels = 0
        for _ in 0..<5 {
            let start = clock.now
            pixels = 0
            for i in 0..<total {
                let info = try decoder.probe(files[i % files.count])
                pixels &+= info.width * info.height
            }
            times.append(seconds(clock.now - start))
        }
        print("probe: \(total) probes of \(files.count) files: median \(ms(median(times))) (\(ms(median(times) / Double(total))) each), checksum \(pixels)")
    case "png-levels":
        // The files are decoded and stacked into one tall RGB image, like a sheet.
        let decoder = ImageDecoder()
        var tiles: [Bitmap] = []
        for path in arguments.dropFirst() {
            tiles.append(try thumbnail(path, decoder: decoder).resampled(width: 300, height: 225))
        }
        let columns = 6
        let rows = (tiles.count + columns - 1) / columns
        var sheet = Bitmap(width: 1800, height: rows * 225, fill: .white)
        for (i, tile) in tiles.enumerated() {
            let x0 = (i % columns) * 300, y0 = (i / columns) * 225
            for y in 0..<225 {
                let source = y * 300 * 4
                let target = ((y0 + y) * 1800 + x0) * 4
                sheet.pixels.replaceSubrange(target..<(target + 1200), with: tile.pixels[source..<(source + 1200)])
            }
        }
        print("level  bytes       time (median of 3), sheet \(sheet.width)x\(sheet.height)")
        for level in 0...9 {
            var times: [Double] = []
            var size = 0
            for _ in 0..<3 {
                let path = "/tmp/mosaic-png-level-\(level).png"
                let start = clock.now
                try sheet.writePNG(to: path, compressionLevel: level)
                times.append(seconds(clock.now - start))
                var status = stat()
                stat(path, &status)
                size = Int(status.st_size)
                unlink(path)
            }
            print("\(level)      \(size)    \(ms(median(times)))")
        }
    case "png-decode":
        var files = Array(arguments.dropFirst())
        var runs = 5
        if let index = files.firstIndex(of: "--runs"), index + 1 < files.count, let n = Int(files[index + 1]), n > 0 {
            runs = n
            files.removeSubrange(index...(index + 1))
        }
        var decoder = ImageDecoder()
        decoder.premultiplyAlpha = false
        var medians: [Double] = []
        for path in files {
            let bytes = try decoder.fileBytes(path)
            var times: [Double] = []
            var size = (0, 0)
            for _ in 0..<runs {
                let start = clock.now
                let bitmap = try decoder.decode(bytes: bytes, path: path).bitmap
                times.append(seconds(clock.now - start))
                size = (bitmap.width, bitmap.height)
            }
            medians.append(median(times))
            print("\(path) \(size.0)x\(size.1): \(ms(median(times)))")
        }
        if !medians.isEmpty {
            print("png-decode: \(files.count) files, median of the files' medians \(ms(median(medians))), sum \(ms(medians.reduce(0, +)))")
        }
    default:
        print("unknown command \(command)")
        exit(64)
    }
} catch {
    print("error: \(error)")
    exit(1)
}
