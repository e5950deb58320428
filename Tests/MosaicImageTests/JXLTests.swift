import CMosaicFixtures
import CMosaicShims
import Foundation
import MosaicImage
import MosaicLayout
import Testing

/// JPEG XL through libjxl: lossless RGB, RGBA and grey exact, the orientation turned as a
/// JPEG's is, an ICC profile (Display P3) and a lossy file's colour in sRGB, an
/// animation's first frame, a truncated file and a huge declared canvas refused naming the
/// file; and every fixture against `djxl`, libjxl's own decoder, where it is installed.
@Suite struct JXLTests {
    let decoder = ImageDecoder()

    /// A JPEG XL of `pixels` (`channels` a pixel) written by libjxl's encoder.
    static func write(
        _ path: String, pixels: [UInt8], width: Int, height: Int, channels: Int, frames: Int = 1, lossless: Bool = true,
        distance: Float = 1, orientation: Int = 1, icc: [UInt8] = [], exif: [UInt8] = [], bt709Transfer: Bool = false
    ) throws {
        let result = pixels.withUnsafeBufferPointer { pixels in
            icc.withUnsafeBufferPointer { icc in
                exif.withUnsafeBufferPointer { exif in
                    var fixture = mosaic_jxl_fixture()
                    fixture.width = Int32(width)
                    fixture.height = Int32(height)
                    fixture.channels = Int32(channels)
                    fixture.pixels = pixels.baseAddress
                    fixture.frames = Int32(frames)
                    fixture.lossless = lossless ? 1 : 0
                    fixture.distance = distance
                    fixture.orientation = Int32(orientation)
                    fixture.bt709_transfer = bt709Transfer ? 1 : 0
                    if !icc.isEmpty {
                        fixture.icc = icc.baseAddress
                        fixture.icc_size = icc.count
                    }
                    if !exif.isEmpty {
                        fixture.exif = exif.baseAddress
                        fixture.exif_size = exif.count
                    }
                    return mosaic_jxl_encode_file(path, &fixture)
                }
            }
        }
        try #require(result.status == MOSAIC_OK, "\(ColorSourcesTests.messageOf(result))")
    }

    /// The source pixels as the decoder gives them (premultiplied RGBA).
    static func expected(_ pixels: [UInt8], width: Int, height: Int, channels: Int) -> Bitmap {
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        for i in 0..<(width * height) {
            let p = pixels[(i * channels)..<(i * channels + channels)].map { $0 }
            let (r, g, b) = channels <= 2 ? (p[0], p[0], p[0]) : (p[0], p[1], p[2])
            let a = channels == 2 ? p[1] : channels == 4 ? p[3] : 255
            let pixel = RGBA(straightRed: r, green: g, blue: b, alpha: a)
            out += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
        }
        return Bitmap(width: width, height: height, pixels: out)!
    }

    /// `rgb` with a channel of alpha (a ramp across the width), or turned grey.
    static func withAlpha(_ rgb: [UInt8], width: Int) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<(rgb.count / 3) {
            let alpha = UInt8((i % width) * 255 / max(1, width - 1))
            out += [rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], alpha]
        }
        return out
    }

    static func grey(_ rgb: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<(rgb.count / 3) {
            let sum: Int = Int(rgb[3 * i]) * 3 + Int(rgb[3 * i + 1]) * 6 + Int(rgb[3 * i + 2])
            out.append(UInt8(sum / 10))
        }
        return out
    }

    @Test func losslessRGBIsExact() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 40, height: 30)
        try Self.write(dir + "/rgb.jxl", pixels: rgb, width: 40, height: 30, channels: 3)
        let info = try decoder.probe(dir + "/rgb.jxl")
        #expect(info.format == .jxl && info.size == Size(width: 40, height: 30) && !info.hasAlpha && info.colorModel == .rgb && info.bitDepth == 8)
        let bitmap = try decoder.decode(dir + "/rgb.jxl").bitmap
        #expect(bitmap.pixels == Self.expected(rgb, width: 40, height: 30, channels: 3).pixels)
    }

    @Test func losslessRGBAIsExact() throws {
        let dir = Fixtures.directory()
        let rgba = Self.withAlpha(Fixtures.picture(width: 40, height: 30), width: 40)
        try Self.write(dir + "/rgba.jxl", pixels: rgba, width: 40, height: 30, channels: 4)
        let info = try decoder.probe(dir + "/rgba.jxl")
        #expect(info.hasAlpha && info.colorModel == .rgba)
        let bitmap = try decoder.decode(dir + "/rgba.jxl").bitmap
        #expect(bitmap.pixels == Self.expected(rgba, width: 40, height: 30, channels: 4).pixels)
    }

    @Test func greyIsDrawnGrey() throws {
        let dir = Fixtures.directory()
        let grey = Self.grey(Fixtures.picture(width: 40, height: 30))
        try Self.write(dir + "/grey.jxl", pixels: grey, width: 40, height: 30, channels: 1)
        #expect(try decoder.probe(dir + "/grey.jxl").colorModel == .grey)
        let bitmap = try decoder.decode(dir + "/grey.jxl").bitmap
        #expect(bitmap.pixels == Self.expected(grey, width: 40, height: 30, channels: 1).pixels)
    }

    /// Orientation 6 is read from the codestream and turned by mosaic, as a JPEG's Exif
    /// orientation is (libjxl is told to keep it).
    @Test func orientationSixIsTurnedUpright() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 40, height: 30)
        try Self.write(dir + "/six.jxl", pixels: rgb, width: 40, height: 30, channels: 3, orientation: 6)
        let info = try decoder.probe(dir + "/six.jxl")
        #expect(info.size == Size(width: 40, height: 30) && info.orientation == .right)
        #expect(info.orientedWidth == 30 && info.orientedHeight == 40)
        let bitmap = try decoder.decode(dir + "/six.jxl").bitmap
        #expect(bitmap.width == 30 && bitmap.height == 40)
        #expect(bitmap.pixels == Self.expected(rgb, width: 40, height: 30, channels: 3).oriented(.right).pixels)
    }

    /// An ICC profile (Display P3, lossless: the pixels stay P3 and Little CMS converts
    /// them; lossy: libjxl gives sRGB from XYB) comes out as the patches' sRGB values.
    @Test(arguments: [true, false]) func aDisplayP3ProfileIsApplied(lossless: Bool) throws {
        let dir = Fixtures.directory()
        let icc = try #require(ColorTransforms.iccBytes(.displayP3, .sRGB))
        try Self.write(dir + "/p3.jxl", pixels: ColorManagementTests.rgb(), width: 32, height: 32, channels: 3, lossless: lossless, icc: icc)
        let profile = try decoder.colorProfile(dir + "/p3.jxl")
        if lossless {
            #expect(profile != nil)
        } else {
            #expect(profile == nil, "libjxl gives a lossy file's pixels in sRGB")
        }
        ColorSourcesTests.check(try decoder.decode(dir + "/p3.jxl").bitmap, ColorSourcesTests.displayP3, tolerance: lossless ? 1 : 4, "JPEG XL P3")
    }

    /// sRGB's primaries with BT.709's transfer (the conformance suite's `bike`, whose
    /// licence keeps it out of this repository): a 709-coded 128 is linear 0.2616, sRGB's
    /// 140 (lossy: libjxl gives sRGB; lossless: the profile libjxl describes the pixels
    /// with, through Little CMS), not 128 taken as sRGB.
    @Test(arguments: [true, false]) func aBT709TransferIsConvertedToSRGB(lossless: Bool) throws {
        let dir = Fixtures.directory()
        let grey = [UInt8](repeating: 128, count: 32 * 32 * 3)
        try Self.write(dir + "/709.jxl", pixels: grey, width: 32, height: 32, channels: 3, lossless: lossless, bt709Transfer: true)
        let pixel = try decoder.decode(dir + "/709.jxl").bitmap[16, 16]
        #expect(abs(Int(pixel.red) - 140) <= 1 && abs(Int(pixel.green) - 140) <= 1 && abs(Int(pixel.blue) - 140) <= 1, "\(pixel)")
    }

    @Test func anAnimationDrawsItsFirstFrame() throws {
        let dir = Fixtures.directory()
        let colours: [[UInt8]] = [[200, 30, 40], [20, 180, 60], [30, 40, 220]]
        let pixels = colours.flatMap { colour in (0..<(24 * 16)).flatMap { _ in colour } }
        try Self.write(dir + "/anim.jxl", pixels: pixels, width: 24, height: 16, channels: 3, frames: 3)
        let info = try decoder.probe(dir + "/anim.jxl")
        #expect(info.colorModel == .animation(frames: 3) && info.size == Size(width: 24, height: 16))
        let bitmap = try decoder.decode(dir + "/anim.jxl").bitmap
        #expect(bitmap[5, 5] == RGBA(red: 200, green: 30, blue: 40, alpha: 255) && bitmap[23, 15] == bitmap[5, 5])
    }

    @Test func aTruncatedFileIsAnErrorNamingIt() throws {
        let dir = Fixtures.directory()
        try Self.write(dir + "/whole.jxl", pixels: Fixtures.picture(width: 200, height: 150), width: 200, height: 150, channels: 3, lossless: false)
        let whole = Fixtures.bytes(dir + "/whole.jxl")
        Fixtures.write(Array(whole.prefix(whole.count / 2)), to: dir + "/cut.jxl")
        #expect(try decoder.probe(dir + "/cut.jxl").size == Size(width: 200, height: 150))
        #expect(throws: ImageDecodingError.codec(path: dir + "/cut.jxl", format: .jxl, message: "the file ends early (in the first frame)")) {
            try decoder.decode(dir + "/cut.jxl")
        }
        // Cut inside the header: the probe says so.
        Fixtures.write(Array(whole.prefix(3)), to: dir + "/head.jxl")
        #expect(throws: ImageDecodingError.codec(path: dir + "/head.jxl", format: .jxl, message: "the file ends early (in the image header)")) {
            try decoder.probe(dir + "/head.jxl")
        }
    }

    /// A codestream of a few bytes declaring 100,000 x 100,000 pixels (its SizeHeader, all
    /// defaults after it): refused from the header by the input limit, before libjxl
    /// allocates anything.
    static func hugeCanvas() -> [UInt8] {
        var bits: [(value: Int, count: Int)] = [(0, 1), (2, 2), (99_999, 18), (1, 3), (1, 1)]
        bits += [(0, 8)]
        var bytes: [UInt8] = [0xFF, 0x0A]
        var current = 0, used = 0
        for (value, count) in bits {
            for k in 0..<count {
                current |= ((value >> k) & 1) << used
                used += 1
                if used == 8 {
                    bytes.append(UInt8(current))
                    (current, used) = (0, 0)
                }
            }
        }
        if used > 0 { bytes.append(UInt8(current)) }
        return bytes + [UInt8](repeating: 0, count: 32)
    }

    @Test func aHugeDeclaredCanvasIsRefusedBeforeDecoding() throws {
        let dir = Fixtures.directory()
        Fixtures.write(Self.hugeCanvas(), to: dir + "/huge.jxl")
        let info = try decoder.probe(dir + "/huge.jxl")
        #expect(info.size == Size(width: 100_000, height: 100_000))
        #expect(throws: ImageDecodingError.tooLarge(path: dir + "/huge.jxl", width: 100_000, height: 100_000, limit: ImageLimits().maximumInputPixels)) {
            try decoder.decode(dir + "/huge.jxl")
        }
    }

    /// The decode budget counts the whole image even for a card (libjxl 0.7 has no
    /// smaller decode without a preview frame).
    @Test func theBudgetCountsTheFullSize() throws {
        let info = ImageInfo(format: .jxl, width: 4000, height: 3000, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: .rgb)
        let codec = JXLCodec()
        #expect(codec.decodedBytes(info, minimumSize: Size(width: 200, height: 150)) == codec.decodedBytes(info, minimumSize: nil))
        #expect(codec.decodedBytes(info, minimumSize: nil) >= 4000 * 3000 * 4)
        // An animation's frame at a time (`--frames`): never from the preview, and two more
        // frames of floats for the frames it is blended onto.
        var animation = ImageInfo(format: .jxl, width: 4000, height: 3000, orientation: .up, hasAlpha: false, bitDepth: 8, colorModel: .animation(frames: 10))
        animation.previews = [Size(width: 400, height: 300)]
        #expect(codec.decodedBytes(animation, minimumSize: Size(width: 200, height: 150)) == 400 * 300 * (4 + 2 * 12))
        animation.video = VideoInfo(duration: 1, frameRate: 10, codec: "jxl", container: "jxl", codedWidth: 4000, codedHeight: 3000, frameTime: 0.5)
        #expect(codec.decodedBytes(animation, minimumSize: Size(width: 200, height: 150)) == 4000 * 3000 * (4 + 4 * 12))
    }

    @Test func theContainersExifBoxIsRead() throws {
        let dir = Fixtures.directory()
        let tiff = Fixtures.exif(orientation: 3, withHeader: false)
        try Self.write(dir + "/exif.jxl", pixels: Fixtures.picture(width: 8, height: 8), width: 8, height: 8, channels: 3, exif: tiff)
        let bytes = Fixtures.bytes(dir + "/exif.jxl")
        #expect(bytes.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]))
        #expect(JXLCodec().exifBlock(bytes).map(Array.init) == tiff)
        #expect(try decoder.probe(dir + "/exif.jxl").format == .jxl)
    }

    // MARK: Against djxl

    static let djxl = ["/usr/bin/djxl", "/usr/local/bin/djxl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `djxl`'s PNG of `path`, decoded by mosaic (its colour managed as the JPEG XL's is).
    static func djxlDecode(_ path: String) throws -> Bitmap {
        let png = path + ".djxl.png"
        try runDjxl(path, png)
        return try ImageDecoder().decode(png).bitmap
    }

    static func runDjxl(_ path: String, _ output: String) throws {
        try #require(try djxlWrites(path, output), "djxl \(path) failed")
    }

    /// Whether `djxl` wrote `output` from `path`. A lossy (XYB) image is asked of djxl in
    /// sRGB, as mosaic asks libjxl for it (the option changes nothing for the others):
    /// left to itself djxl writes the image's declared colour space, which mosaic then reads
    /// by another route (`bike`'s sRGB primaries with BT.709's transfer, tagged cICP in
    /// the PNG, which mosaic reads with sRGB's curve as browsers do: 30.8 dB) or which a
    /// PAM cannot say (`patches` with alpha: linear sRGB samples taken as sRGB: 21.3 dB).
    static func djxlWrites(_ path: String, _ output: String) throws -> Bool {
        let tool = try #require(djxl)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [path, output, "--color_space=RGB_D65_SRG_Rel_SRG"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// `djxl`'s PAM of `path` (upright, 8 or 16 bits: what djxl 0.7 writes right for an
    /// image with alpha at 9 to 15 bits, whose PNGs it gets wrong), premultiplied as the
    /// decoder's bitmaps are; its samples taken as sRGB.
    static func djxlDecodePAM(_ path: String) throws -> Bitmap {
        try runDjxl(path, path + ".djxl.pam")
        // An animation's frames are NAME-00.pam, NAME-01.pam ...: the first.
        let pam = [path + ".djxl.pam", path + ".djxl-00.pam"].first { FileManager.default.fileExists(atPath: $0) }
        let bytes = Fixtures.bytes(try #require(pam, "djxl wrote no PAM of \(path)"))
        let end = try #require((0..<(bytes.count - 7)).first { bytes[$0..<($0 + 7)].elementsEqual("ENDHDR\n".utf8) })
        var fields: [String: Int] = [:]
        for line in String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        let width = try #require(fields["WIDTH"]), height = try #require(fields["HEIGHT"]), depth = try #require(fields["DEPTH"])
        var maximum = try #require(fields["MAXVAL"])
        let size = maximum > 255 ? 2 : 1
        // djxl 0.7 writes 9- to 15-bit samples scaled to 16 bits under their own MAXVAL.
        if size == 2, stride(from: end + 7, to: bytes.count - 1, by: 2).contains(where: { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) > maximum }) {
            maximum = 65535
        }
        var out: [UInt8] = []
        out.reserveCapacity(width * height * 4)
        var i = end + 7
        func sample() -> UInt8 {
            let value = size == 2 ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : Int(bytes[i])
            i += size
            return UInt8((min(value, maximum) * 255 + maximum / 2) / maximum)
        }
        for _ in 0..<(width * height) {
            var p = (0..<depth).map { _ in sample() }
            if depth < 3 { p = [p[0], p[0], p[0]] + p.dropFirst() }
            let pixel = RGBA(straightRed: p[0], green: p[1], blue: p[2], alpha: p.count > 3 ? p[3] : 255)
            out += [pixel.red, pixel.green, pixel.blue, pixel.alpha]
        }
        return try #require(Bitmap(width: width, height: height, pixels: out))
    }

    @Test(.enabled(if: djxl != nil, "needs djxl (apt-get install libjxl-tools)")) func everyFixtureMatchesDjxl() throws {
        let dir = Fixtures.directory()
        let rgb = Fixtures.picture(width: 64, height: 48)
        let p3 = try #require(ColorTransforms.iccBytes(.displayP3, .sRGB))
        let cases: [(name: String, pixels: [UInt8], channels: Int, lossless: Bool, orientation: Int, icc: [UInt8])] = [
            ("rgb", rgb, 3, true, 1, []),
            ("rgba", Self.withAlpha(rgb, width: 64), 4, true, 1, []),
            ("grey", Self.grey(rgb), 1, true, 1, []),
            ("six", rgb, 3, true, 6, []),
            ("p3", rgb, 3, true, 1, p3),
            ("lossy", rgb, 3, false, 1, []),
            ("lossy-alpha", Self.withAlpha(rgb, width: 64), 4, false, 8, []),
            ("lossy-p3", rgb, 3, false, 1, p3),
        ]
        for c in cases {
            let path = dir + "/\(c.name).jxl"
            try Self.write(path, pixels: c.pixels, width: 64, height: 48, channels: c.channels, lossless: c.lossless, orientation: c.orientation, icc: c.icc)
            let ours = try decoder.decode(path).bitmap
            let theirs = try Self.djxlDecode(path)
            try #require(ours.width == theirs.width && ours.height == theirs.height, "\(c.name): \(ours.width)x\(ours.height) vs djxl's \(theirs.width)x\(theirs.height)")
            if c.lossless {
                #expect(ours.pixels == theirs.pixels, "\(c.name): PSNR \(WebPTests.psnr(ours, theirs)) dB")
            } else {
                #expect(WebPTests.psnr(ours, theirs) >= 38, "\(c.name)")
            }
        }
    }
}

/// The JPEG XL conformance suite's bitstreams (`Fixtures/JXL/SOURCES.md`): each decodes
/// and, where `djxl` is installed, matches it within 38 dB.
@Suite struct JXLConformanceTests {
    static let kept = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/JXL").path

    /// The kept files, and with MOSAIC_JXL_CONFORMANCE (a checkout's `testcases` folder)
    /// every case's `input.jxl` there.
    static var files: [String] {
        var files = ((try? FileManager.default.contentsOfDirectory(atPath: kept)) ?? []).filter { $0.hasSuffix(".jxl") }.sorted().map { kept + "/" + $0 }
        if let suite = ProcessInfo.processInfo.environment["MOSAIC_JXL_CONFORMANCE"] {
            let cases = ((try? FileManager.default.contentsOfDirectory(atPath: suite)) ?? []).sorted()
            // A level 5 case (`bike_5`) links to its level 10 case's bitstream: each once.
            var seen = Set<String>()
            files += cases.map { suite + "/" + $0 + "/input.jxl" }.filter { FileManager.default.fileExists(atPath: $0) }
                .filter { seen.insert(URL(fileURLWithPath: $0).resolvingSymlinksInPath().path).inserted }
        }
        return files
    }

    @Test func theKeptFilesAreThere() {
        #expect(Self.files.count >= 10)
    }

    /// `patches` (lossy with patches, alpha, an Apple display profile) against the suite's
    /// own reference (`patches.ref.png`, in that profile, colour managed to sRGB by
    /// mosaic's PNG reader): a reference that is not libjxl's, so it needs no `djxl`.
    @Test func patchesMatchTheSuitesReference() throws {
        let ours = try ImageDecoder().decode(Self.kept + "/patches.jxl").bitmap
        let reference = try ImageDecoder().decode(Self.kept + "/patches.ref.png").bitmap
        try #require(ours.width == reference.width && ours.height == reference.height)
        #expect(WebPTests.psnr(ours, reference) >= 38)
    }

    @Test func eachDecodes() throws {
        for file in Self.files {
            let info = try ImageDecoder().probe(file)
            let bitmap = try ImageDecoder().decode(file).bitmap
            #expect(bitmap.width == info.orientedWidth && bitmap.height == info.orientedHeight, "\(file)")
        }
    }

    /// The cases Debian's djxl 0.7 cannot write as PNG or PAM: premultiplied alpha at 12
    /// bits ("Alpha bit depth does not match image bit depth"), a float image (PFM only),
    /// CMYK and spot colours with alpha (a PAM of each extra channel, none of the image).
    /// mosaic decodes them (`eachDecodes`).
    static let djxlCannotWrite: Set<String> = ["alpha_premultiplied", "lossless_pfm", "cmyk_layers", "spot"]

    @Test(.enabled(if: JXLTests.djxl != nil, "needs djxl (apt-get install libjxl-tools)")) func conformanceFilesMatchDjxl() throws {
        for file in Self.files {
            let name = file.hasSuffix("/input.jxl") ? URL(fileURLWithPath: file).deletingLastPathComponent().lastPathComponent : String(file.split(separator: "/").last ?? "")
            if Self.djxlCannotWrite.contains(name) { continue }
            let ours = try ImageDecoder().decode(file).bitmap
            let copy = Fixtures.directory() + "/case.jxl"
            try FileManager.default.copyItem(atPath: file, toPath: copy)
            // With alpha at 9 to 16 bits, djxl's PAM: its PNGs of such files are wrong (at
            // 8 bits they are right, and an animation cannot be a PAM).
            let info = try ImageDecoder().probe(file)
            let theirs = info.hasAlpha && info.bitDepth > 8 ? try JXLTests.djxlDecodePAM(copy) : try JXLTests.djxlDecode(copy)
            guard ours.width == theirs.width && ours.height == theirs.height else {
                Issue.record("\(name): \(ours.width)x\(ours.height), djxl's \(theirs.width)x\(theirs.height)")
                continue
            }
            let psnr = WebPTests.psnr(ours, theirs)
            #expect(psnr >= 38, "\(name): \(psnr) dB")
        }
    }
}
