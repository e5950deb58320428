import CMosaicShims
import Foundation
import MosaicImage

/// Test fixtures made by code, through the shim's encoders: no binary files checked in.
enum Fixtures {
    /// A fresh directory for one test's files.
    static func directory(_ name: String = #function) -> String {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let path = NSTemporaryDirectory() + "mosaic-tests-\(getpid())-\(safe)-\(UUID().uuidString.prefix(8))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An EXIF block ("Exif\0\0" + TIFF) holding only an Orientation tag.
    static func exif(orientation: Int, bigEndian: Bool = true, withHeader: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] {
            bigEndian
                ? [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
                : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)]
        }
        var tiff: [UInt8] = bigEndian ? Array("MM".utf8) : Array("II".utf8)
        tiff += u16(42) + u32(8)
        tiff += u16(1)  // one entry
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0]
        tiff += u32(0)  // no next IFD
        return (withHeader ? [0x45, 0x78, 0x69, 0x66, 0, 0] : []) + tiff
    }

    /// Writes a JPEG: `pixels` has `components` bytes per pixel (1 grey, 3 RGB, 4 CMYK).
    static func writeJPEG(
        _ path: String, pixels: [UInt8], width: Int, height: Int, components: Int, quality: Int = 95,
        progressive: Bool = false, arithmetic: Bool = false, restartInterval: Int = 0, ycck: Bool = false,
        app1: [UInt8]? = nil, icc: [UInt8]? = nil
    ) {
        var options = mosaic_jpeg_encode_options()
        options.quality = Int32(quality)
        options.progressive = progressive ? 1 : 0
        options.arithmetic = arithmetic ? 1 : 0
        options.restart_interval = Int32(restartInterval)
        options.ycck = ycck ? 1 : 0
        let profile = icc ?? []
        let result: mosaic_result = profile.withUnsafeBufferPointer { iccBuffer in pixels.withUnsafeBufferPointer { buffer in
            if !profile.isEmpty {
                options.icc = iccBuffer.baseAddress
                options.icc_size = profile.count
            }
            if let app1 {
                return app1.withUnsafeBufferPointer { marker in
                    options.app1 = marker.baseAddress
                    options.app1_size = marker.count
                    return mosaic_jpeg_encode_file(path, buffer.baseAddress, Int32(width), Int32(height), Int32(components), &options)
                }
            }
            return mosaic_jpeg_encode_file(path, buffer.baseAddress, Int32(width), Int32(height), Int32(components), &options)
        } }
        precondition(result.status == MOSAIC_OK, "fixture JPEG \(path) failed")
    }

    /// PNG parameters for `writePNG`.
    struct PNG {
        var colorType: Int  // 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
        var bitDepth: Int = 8
        var interlaced = false
        var palette: [UInt8] = []
        var trns: [UInt8] = []
        var trnsColor: (gray: UInt16, red: UInt16, green: UInt16, blue: UInt16)? = nil
        /// libpng's PNG_FILTER_* flags (0: its default choice).
        var filters = 0
        /// zlib's level: another level, another file of the same pixels.
        var compressionLevel = 6
        var exif: [UInt8]? = nil
        var icc: [UInt8]? = nil
    }

    /// Writes a PNG from raw rows in the file's own format (packed samples, big-endian
    /// 16-bit).
    static func writePNG(_ path: String, width: Int, height: Int, rows: [UInt8], _ png: PNG) {
        var params = mosaic_png_params()
        params.width = Int32(width)
        params.height = Int32(height)
        params.color_type = Int32(png.colorType)
        params.bit_depth = Int32(png.bitDepth)
        params.interlaced = png.interlaced ? 1 : 0
        params.compression_level = Int32(png.compressionLevel)
        params.filters = Int32(png.filters)
        let stride = rows.count / height
        if let color = png.trnsColor {
            params.has_trns_color = 1
            params.trns_gray = color.gray
            params.trns_red = color.red
            params.trns_green = color.green
            params.trns_blue = color.blue
        }
        let exif = png.exif ?? []
        let icc = png.icc ?? []
        let result: mosaic_result = icc.withUnsafeBufferPointer { iccBuffer in rows.withUnsafeBufferPointer { rowBuffer in
            png.palette.withUnsafeBufferPointer { palette in
                png.trns.withUnsafeBufferPointer { trns in
                    exif.withUnsafeBufferPointer { exifBuffer in
                        if !png.palette.isEmpty {
                            params.palette = palette.baseAddress
                            params.palette_count = Int32(png.palette.count / 3)
                        }
                        if !png.trns.isEmpty {
                            params.trns = trns.baseAddress
                            params.trns_count = Int32(png.trns.count)
                        }
                        if !exif.isEmpty {
                            params.exif = exifBuffer.baseAddress
                            params.exif_size = exif.count
                        }
                        if !icc.isEmpty {
                            params.icc = iccBuffer.baseAddress
                            params.icc_size = icc.count
                        }
                        return mosaic_png_write_image(path, &params, rowBuffer.baseAddress, stride)
                    }
                }
            }
        } }
        precondition(result.status == MOSAIC_OK, "fixture PNG \(path) failed")
    }

    /// A smooth, asymmetric RGB test picture: a gradient with a bright block in the
    /// top-left quadrant, so every orientation looks different.
    static func picture(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let inBlock = x < width / 2 && y < height / 2
                pixels[i] = inBlock ? 250 : UInt8(x * 200 / max(1, width - 1))
                pixels[i + 1] = inBlock ? 40 : UInt8(y * 200 / max(1, height - 1))
                pixels[i + 2] = inBlock ? 40 : 120
            }
        }
        return pixels
    }

    /// RGB bytes to premultiplied opaque RGBA.
    static func rgba(fromRGB rgb: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 255, count: rgb.count / 3 * 4)
        for i in 0..<(rgb.count / 3) {
            out[4 * i] = rgb[3 * i]
            out[4 * i + 1] = rgb[3 * i + 1]
            out[4 * i + 2] = rgb[3 * i + 2]
        }
        return out
    }

    /// The mean absolute difference per channel between two bitmaps of one size.
    static func meanDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    static func bytes(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path)!)
    }

    static func write(_ bytes: [UInt8], to path: String) {
        precondition(FileManager.default.createFile(atPath: path, contents: Data(bytes)), "cannot write \(path)")
    }

    /// CRC-32 as PNG uses it, for hand-made chunks.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// A PNG chunk with its length and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = crc32(body)
        return be32(UInt32(data.count)) + body + be32(crc)
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
