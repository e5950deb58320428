import Foundation
import MosaicTestSupport
import Testing

@testable import Mosaic

/// Tile pyramids: the levels against a plain reduction of the whole image, the tiles
/// against the PNG render, Deep Zoom's and IIIF's names and descriptors, the same bytes
/// for any thread count, the folder put in place whole or not at all.
@Suite struct PyramidSinkTests {
    /// A test image with every pixel different (premultiplied, some transparent).
    static func image(width: Int, height: Int, opaque: Bool = true) -> Bitmap {
        var image = Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let alpha = opaque ? 255 : (x * 7 + y * 3) % 256
                let r = (x * 13 + y * 5) % 256 * alpha / 255, g = (x * 3 + y * 11) % 256 * alpha / 255, b = (x ^ y) % 256 * alpha / 255
                image[x, y] = RGBA(red: UInt8(r), green: UInt8(g), blue: UInt8(b), alpha: UInt8(alpha))
            }
        }
        return image
    }

    /// The reference: a whole image halved in 2x2 blocks, the pixels that exist averaged.
    static func halved(_ image: Bitmap) -> Bitmap {
        var out = Bitmap(width: (image.width + 1) / 2, height: (image.height + 1) / 2)
        for y in 0..<out.height {
            for x in 0..<out.width {
                var sums = [0, 0, 0, 0], n = 0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] where 2 * x + dx < image.width && 2 * y + dy < image.height {
                    let p = image[2 * x + dx, 2 * y + dy]
                    sums[0] += Int(p.red); sums[1] += Int(p.green); sums[2] += Int(p.blue); sums[3] += Int(p.alpha)
                    n += 1
                }
                out[x, y] = RGBA(
                    red: UInt8((sums[0] + n / 2) / n), green: UInt8((sums[1] + n / 2) / n), blue: UInt8((sums[2] + n / 2) / n),
                    alpha: UInt8((sums[3] + n / 2) / n))
            }
        }
        return out
    }

    static func crop(_ image: Bitmap, x: Int, y: Int, width: Int, height: Int) -> Bitmap {
        var out = Bitmap(width: width, height: height)
        for row in 0..<height { for column in 0..<width { out[column, row] = image[x + column, y + row] } }
        return out
    }

    /// Every tile of every level equals the crop (with its overlap) of the image reduced
    /// whole, whatever the bands' heights.
    @Test(arguments: [(301, 203, 64, 2), (64, 64, 64, 0), (1, 517, 32, 1), (700, 3, 100, 3)])
    func tilesEqualTheWholeImageReduced(width: Int, height: Int, tileSize: Int, overlap: Int) throws {
        let image = Self.image(width: width, height: height)
        var tiles: [String: Bitmap] = [:]
        let sizes = TilePyramid.levelSizes(width: width, height: height) { $0 <= 1 && $1 <= 1 }
        let pyramid = TilePyramid(sizes: sizes, tileSize: tileSize, overlap: overlap) { tile in
            tiles["\(tile.level)/\(tile.column)_\(tile.row)"] = tile.bitmap
        }
        var top = 0, step = 1
        while top < height {
            let rows = min(height - top, step)
            try pyramid.push(Self.crop(image, x: 0, y: top, width: width, height: rows))
            top += rows
            step = step % 37 + 5
        }
        try pyramid.finish()
        var level = image
        for (index, size) in sizes.enumerated() {
            #expect(level.width == size.width && level.height == size.height)
            let columns = (size.width + tileSize - 1) / tileSize, rows = (size.height + tileSize - 1) / tileSize
            for r in 0..<rows {
                for c in 0..<columns {
                    let removed = tiles.removeValue(forKey: "\(index)/\(c)_\(r)")
                    let tile = try #require(removed, "level \(index) tile \(c),\(r)")
                    let x0 = max(0, c * tileSize - overlap), y0 = max(0, r * tileSize - overlap)
                    let x1 = min(size.width, (c + 1) * tileSize + overlap), y1 = min(size.height, (r + 1) * tileSize + overlap)
                    #expect(tile.pixels == Self.crop(level, x: x0, y: y0, width: x1 - x0, height: y1 - y0).pixels, "level \(index) tile \(c),\(r)")
                }
            }
            level = Self.halved(level)
        }
        #expect(tiles.isEmpty)
        #expect(sizes.last == Size(width: 1, height: 1))
    }

    static func folder(_ name: String = #function) -> String {
        let path = NSTemporaryDirectory() + "mosaic-pyramid-\(getpid())-\(name.filter(\.isLetter))-\(UUID().uuidString.prefix(6))"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `image` through a sink as the renderer would: one page, bands of 256 rows.
    static func write<Format: PyramidFormat>(_ image: Bitmap, to sink: PyramidSink<Format>, hasAlpha: Bool = false) throws {
        try sink.beginPage(0, of: 1, size: Size(width: image.width, height: image.height), hasAlpha: hasAlpha)
        var top = 0
        while top < image.height {
            let rows = min(256, image.height - top)
            try sink.write(band: crop(image, x: 0, y: top, width: image.width, height: rows))
            top += rows
        }
        try sink.endPage()
        try sink.commit()
    }

    /// Every file under `folder` with its bytes.
    static func files(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                out[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return out
    }

    @Test func deepZoomNamesLevelsAndTilesAsOpenSeadragonReadsThem() throws {
        let dir = Self.folder()
        let image = Self.image(width: 600, height: 300)
        let sink = DeepZoomSink(destination: dir + "/board.dzi", format: DeepZoom(), options: PyramidOptions(format: .png), background: .white)
        try Self.write(image, to: sink)
        let dzi = try String(contentsOfFile: dir + "/board.dzi", encoding: .utf8)
        #expect(dzi.contains("Format=\"png\" Overlap=\"1\" TileSize=\"254\""))
        #expect(dzi.contains("<Size Width=\"600\" Height=\"300\"/>"))
        let files = Self.files(dir + "/board_files")
        // Levels 0 (1x1) to 10 (600x300: ceil(log2(600)) = 10); level 10 has 3x2 tiles.
        let levels: Set<String> = Set(files.keys.compactMap { key in key.split(separator: "/").first.map(String.init) })
        let expected: Set<String> = Set((0...10).map { String($0) } + [".mosaic-pyramid"])
        #expect(levels == expected)
        #expect(files.keys.filter { $0.hasPrefix("10/") }.sorted() == ["10/0_0.png", "10/0_1.png", "10/1_0.png", "10/1_1.png", "10/2_0.png", "10/2_1.png"])
        // Tile 1_1 of the base: x 253..<509 (the overlap on both sides), y 253..<300.
        let tile = try ImageDecoder().decode(dir + "/board_files/10/1_1.png").bitmap
        #expect(tile.width == 256 && tile.height == 47)
        #expect(tile.pixels == Self.crop(image, x: 253, y: 253, width: 256, height: 47).pixels)
        let top = try ImageDecoder().decode(dir + "/board_files/0/0_0.png").bitmap
        #expect(top.width == 1 && top.height == 1)
        // No hidden folder left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["board.dzi", "board_files"])
    }

    @Test func iiifWritesInfoJSONAndATileForEveryScale() throws {
        let dir = Self.folder()
        let image = Self.image(width: 600, height: 300)
        let sink = IIIFSink(
            destination: dir + "/board", format: IIIF(), options: PyramidOptions(tileSize: 256, overlap: 0, format: .png), background: .white)
        try Self.write(image, to: sink)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/board/info.json"))) as? [String: Any])
        #expect(info["width"] as? Int == 600 && info["height"] as? Int == 300 && info["profile"] as? String == "level0")
        #expect(info["id"] as? String == "board" && info["type"] as? String == "ImageService3")
        let tiles = try #require((info["tiles"] as? [[String: Any]])?.first)
        #expect(tiles["scaleFactors"] as? [Int] == [1, 2, 4])
        let files = Set(Self.files(dir + "/board").keys)
        // Scale 1: 3x2 tiles; 2: 2x1 (300x150); 4: one (150x75).
        for path in [
            "0,0,256,256/256,256/0/default.png", "512,256,88,44/88,44/0/default.png", "0,0,512,300/256,150/0/default.png",
            "512,0,88,300/44,150/0/default.png", "0,0,600,300/150,75/0/default.png",
        ] {
            #expect(files.contains(path), "\(path)")
        }
        #expect(files.count == 6 + 2 + 1 + 2)
        let corner = try ImageDecoder().decode(dir + "/board/512,256,88,44/88,44/0/default.png").bitmap
        #expect(corner.pixels == Self.crop(image, x: 512, y: 256, width: 88, height: 44).pixels)
    }

    @Test func theBytesAreTheSameForAnyThreadCount() throws {
        let dir = Self.folder()
        let image = Self.image(width: 900, height: 700)
        var runs: [[String: Data]] = []
        for (threads, format) in [(1, TileFormat.jpeg(quality: 85)), (4, .jpeg(quality: 85)), (1, .png), (3, .png)] {
            let name = "b\(threads)\(format.fileExtension)"
            let sink = DeepZoomSink(destination: dir + "/\(name).dzi", format: DeepZoom(), options: PyramidOptions(format: format), background: .white, threads: threads)
            try Self.write(image, to: sink)
            runs.append(Self.files(dir + "/\(name)_files"))
        }
        #expect(runs[0] == runs[1] && runs[2] == runs[3])
        #expect(runs[0].count == runs[2].count && runs[0].keys.allSatisfy { $0.hasSuffix(".jpeg") || $0 == ".mosaic-pyramid" })
    }

    @Test func blankTilesCanBeLeftOut() throws {
        let dir = Self.folder()
        var image = Bitmap(width: 600, height: 600, fill: .white)
        for y in 0..<10 { for x in 0..<10 { image[x, y] = RGBA(red: 0, green: 0, blue: 0) } }
        let sink = DeepZoomSink(
            destination: dir + "/b.dzi", format: DeepZoom(), options: PyramidOptions(format: .png, skipBlankTiles: true), background: .white)
        try Self.write(image, to: sink)
        let base = Self.files(dir + "/b_files").keys.filter { $0.hasPrefix("10/") }
        #expect(base == ["10/0_0.png"])
        #expect(sink.skippedTiles >= 8 + 3)  // the base's 8, level 9's 3, and any smaller level that rounds to white
    }

    /// A killed run's hidden folder (its process gone) is removed by the next run; a live
    /// one's stays.
    @Test func leftoversOfDeadRunsGo() throws {
        let dir = Self.folder()
        let dead = dir + "/.b_files.mosaic-999999999.tmp", alive = dir + "/.b_files.mosaic-1.tmp"
        for folder in [dead, dead + ".old", alive] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let sink = DeepZoomSink(destination: dir + "/b.dzi", format: DeepZoom(), options: PyramidOptions(format: .png), background: .white)
        try Self.write(Self.image(width: 50, height: 50), to: sink)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == [".b_files.mosaic-1.tmp", "b.dzi", "b_files"])
    }


    /// A pyramid drawn again over the one a previous run left keeps every tile whose bytes
    /// did not change (its inode and time: a sync sends only the changed tiles), and is the
    /// same bytes as a cold render. Before: every tile was a new file.
    @Test(arguments: [false, true])
    func aPyramidDrawnAgainRewritesOnlyTheTilesThatChanged(iiif: Bool) throws {
        let dir = Self.folder()
        let before = Self.image(width: 900, height: 700)
        var after = before
        for y in 300..<320 { for x in 10..<30 { after[x, y] = RGBA(red: 255, green: 0, blue: 0) } }
        @discardableResult func draw(_ image: Bitmap, _ name: String) throws -> (tileCount: Int, unchangedTiles: Int?) {
            if iiif {
                let sink = IIIFSink(
                    destination: dir + "/" + name, format: IIIF(id: "board"), options: PyramidOptions(tileSize: 128, overlap: 0, format: .png), background: .white,
                    threads: 2)
                try Self.write(image, to: sink)
                return (sink.tileCount, sink.unchangedTiles)
            }
            let sink = DeepZoomSink(
                destination: dir + "/\(name).dzi", format: DeepZoom(), options: PyramidOptions(tileSize: 126, format: .png), background: .white, threads: 2)
            try Self.write(image, to: sink)
            return (sink.tileCount, sink.unchangedTiles)
        }
        let folder = { (name: String) in iiif ? dir + "/" + name : dir + "/\(name)_files" }
        try draw(before, "cold-before")
        try draw(after, "cold-after")
        let old = Self.files(folder("cold-before")), new = Self.files(folder("cold-after"))
        let differing = Set(new.keys.filter { old[$0] != new[$0] })
        #expect(!differing.isEmpty && differing.count < new.count / 4)

        try draw(before, "board")
        let first = fileIdentities(folder("board"))
        let descriptor = iiif ? nil : fileIdentities(dir).filter { $0.key == "board.dzi" }
        let again = try draw(after, "board")
        #expect(Self.files(folder("board")) == new)
        let second = fileIdentities(folder("board"))
        let rewritten = Set(second.keys.filter { first[$0] != second[$0] })
        #expect(rewritten == differing)
        #expect(again.tileCount - (again.unchangedTiles ?? -1) == differing.count)
        if let descriptor { #expect(fileIdentities(dir).filter { $0.key == "board.dzi" } == descriptor) }
        // Nothing changed: nothing rewritten.
        let third = try draw(after, "board")
        #expect(third.unchangedTiles == third.tileCount && fileIdentities(folder("board")) == second)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).allSatisfy { !$0.hasPrefix(".") })
    }

    /// Abandoned: nothing written, the previous pyramid as it was.
    @Test func anAbandonedPyramidLeavesThePreviousOne() throws {
        let dir = Self.folder()
        let first = DeepZoomSink(destination: dir + "/b.dzi", format: DeepZoom(), options: PyramidOptions(format: .png), background: .white)
        try Self.write(Self.image(width: 300, height: 300), to: first)
        let before = Self.files(dir + "/b_files")
        let second = DeepZoomSink(destination: dir + "/b.dzi", format: DeepZoom(), options: PyramidOptions(format: .png), background: .white)
        try second.beginPage(0, of: 1, size: Size(width: 500, height: 500), hasAlpha: false)
        try second.write(band: Bitmap(width: 500, height: 256, fill: .black))
        second.abandon()
        #expect(Self.files(dir + "/b_files") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["b.dzi", "b_files"])
        // A second page, or JPEG tiles on a transparent board, are refused.
        let third = DeepZoomSink(destination: dir + "/c.dzi", format: DeepZoom(), options: PyramidOptions(), background: .transparent)
        #expect(throws: ImageEncodingError.self) { try third.beginPage(0, of: 2, size: Size(width: 5, height: 5), hasAlpha: false) }
        #expect(throws: ImageEncodingError.self) { try third.beginPage(0, of: 1, size: Size(width: 5, height: 5), hasAlpha: true) }
    }

    /// The sample sheet as a pyramid: the base level's tiles put together are the PNG
    /// render, pixel for pixel.
    @Test func theBaseLevelIsTheSheet() throws {
        let sheet = try RenderGoldenTests.sheet()
        let reference = try RenderGoldenTests.render(sheet)
        let dir = Self.folder()
        let sink = DeepZoomSink(destination: dir + "/s.dzi", format: DeepZoom(), options: PyramidOptions(format: .png), background: .white, threads: 2)
        _ = try SheetRenderer(sheet: sheet).render(into: sink)
        let size = sheet.layout.pageSize(0)
        let levels = TilePyramid.levelSizes(width: size.width, height: size.height) { $0 <= 1 && $1 <= 1 }.count
        var stitched = Bitmap(width: size.width, height: size.height)
        let t = 254, o = 1
        for r in 0..<((size.height + t - 1) / t) {
            for c in 0..<((size.width + t - 1) / t) {
                let tile = try ImageDecoder().decode(dir + "/s_files/\(levels - 1)/\(c)_\(r).png").bitmap
                let ox = c > 0 ? o : 0, oy = r > 0 ? o : 0
                for y in 0..<min(t, size.height - r * t) {
                    for x in 0..<min(t, size.width - c * t) { stitched[c * t + x, r * t + y] = tile[ox + x, oy + y] }
                }
            }
        }
        #expect(stitched.pixels == reference.pixels)
    }
}
