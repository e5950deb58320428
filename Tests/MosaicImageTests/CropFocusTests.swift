import Foundation
@testable import MosaicImage
import MosaicLayout
import Testing

/// Smart crops: where the crop window goes when an image fills a frame of another shape.
@Suite struct CropFocusTests {
    /// The portrait astronaut (EXIF 6: stored sideways) is 300x512 upright; her face, hair
    /// to chin, lies within x 55...160, y 30...165. A square crop from the middle (y 106)
    /// cut her face off at the eyes; attention keeps all of it.
    @Test func attentionKeepsTheAstronautsFace() throws {
        let path = samplePhotos + "/astronaut-portrait-exif6.jpg"
        let bitmap = try ImageDecoder().decode(path).bitmap
        #expect((bitmap.width, bitmap.height) == (300, 512))
        let face = (top: 30.0, bottom: 165.0)
        let center = bitmap.cropOrigin(windowWidth: 300, windowHeight: 300, focus: .center)
        #expect(center.y > face.top)  // the old crop: the face's top cut off
        let attention = bitmap.cropOrigin(windowWidth: 300, windowHeight: 300, focus: .attention)
        #expect(attention.x == 0)
        #expect(attention.y <= face.top && attention.y + 300 >= face.bottom, "window at y \(attention.y)")
        // On the thumbnail a render decodes (shrunk on load), the same.
        let small = try ImageDecoder().decode(path, minimumSize: Size(width: 120, height: 120)).bitmap
        let scale = Double(small.height) / 512
        let window = Double(small.width)
        let onSmall = small.cropOrigin(windowWidth: window, windowHeight: window, focus: .attention)
        #expect(onSmall.y <= face.top * scale && onSmall.y + window >= face.bottom * scale, "window at y \(onSmall.y) of \(small.height)")
    }

    @Test func theWindowStaysInsideTheImageAndIsDeterministic() {
        var bitmap = Bitmap(width: 90, height: 30, fill: .black)
        // A bright detailed patch at the right end.
        for y in 0..<30 { for x in 70..<90 where (x / 4 + y / 4) % 2 == 0 { bitmap[x, y] = .white } }
        for focus in CropFocus.allCases {
            let origin = bitmap.cropOrigin(windowWidth: 30, windowHeight: 30, focus: focus)
            #expect(origin.x >= 0 && origin.x <= 60 && origin.y == 0, "\(focus)")
            #expect(bitmap.cropOrigin(windowWidth: 30, windowHeight: 30, focus: focus) == origin)
        }
        #expect(bitmap.cropOrigin(windowWidth: 30, windowHeight: 30, focus: .center) == (30, 0))
        #expect(bitmap.cropOrigin(windowWidth: 30, windowHeight: 30, focus: .attention).x == 60)
        #expect(bitmap.cropOrigin(windowWidth: 30, windowHeight: 30, focus: .entropy).x >= 45)
    }
}

extension CropFocusTests {
    /// Windows libvips's `smartcrop` attention picks on SampleImages, made by
    /// `Benchmarks/quality/smartcrop_reference.py` (pyvips).
    static let libvipsWindows: [(String, Int, Int, Int, Int)] = [
        // libvips 8.18.7, smartcrop attention: (file, window width, height, left, top)
        ("astronaut-portrait-exif6.jpg", 300, 300, 0, 212),
        ("astronaut-portrait-exif6.jpg", 300, 100, 0, 334),
        ("astronaut.jpg", 512, 171, 0, 27),
        ("camera.png", 512, 171, 0, 43),
        ("cell.png", 550, 550, 0, 110),
        ("cell.png", 550, 183, 0, 280),
        ("chelsea.jpg", 300, 300, 151, 0),
        ("chelsea.jpg", 150, 300, 277, 0),
        ("clock-motion.png", 300, 300, 62, 0),
        ("clock-motion.png", 150, 300, 137, 0),
        ("coffee.jpg", 400, 400, 62, 0),
        ("coffee.jpg", 200, 400, 162, 0),
        ("coins.png", 303, 303, 0, 0),
        ("coins.png", 152, 303, 32, 0),
        ("horse.png", 328, 328, 0, 0),
        ("horse.png", 164, 328, 0, 0),
        ("hubble-deep-field.jpg", 872, 872, 128, 0),
        ("hubble-deep-field.jpg", 436, 872, 564, 0),
        ("moon-gray.jpg", 512, 171, 0, 0),
        ("motorcycle.jpg", 500, 500, 241, 0),
    ]

    /// Attention agrees with libvips (crop windows overlapping by IoU >= 0.5) on 17 of the 20
    /// windows (the issue's target: 15). Of the three others, one is the portrait
    /// astronaut's square, where it must not agree (libvips keeps her orange suit and cuts
    /// off her face; mosaic's rule keeps a face that fits whole), one is the cat, whose fur
    /// counts as skin to that rule (IoU 0.42), and one the wide astronaut's strip, where
    /// the two shrinks to 32 x 32 differ (libvips's is Lanczos, mosaic's a box).
    @Test func attentionAgreesWithLibvipsOnMostPhotos() throws {
        var agreeing: [String] = []
        var report: [String] = []
        for (name, width, height, left, top) in Self.libvipsWindows {
            let bitmap = try ImageDecoder().decode(samplePhotos + "/" + name).bitmap
            let origin = bitmap.cropOrigin(windowWidth: Double(width), windowHeight: Double(height), focus: .attention)
            // Both windows are the same size and slide along one axis.
            let shift = abs(origin.x - Double(left)) + abs(origin.y - Double(top))
            let along = Double(origin.x != Double(left) || width < bitmap.width ? width : height)
            let overlap = max(0, along - shift)
            let iou = overlap / (2 * along - overlap)
            report.append("\(name) \(width)x\(height): ours \(Int(origin.x)),\(Int(origin.y)) libvips \(left),\(top) IoU \(iou)")
            if iou >= 0.5 { agreeing.append(name) }
        }
        #expect(agreeing.count >= 17, "\(report.joined(separator: "\n"))")
        print("smart crop agreement with libvips: \(agreeing.count) of \(Self.libvipsWindows.count)\n" + report.joined(separator: "\n"))
    }
}

/// Strips far longer than they are thick (more than 64 to 1: the entropy map's cell, 1/64
/// of the long side, was thicker than the strip and read rows past its end).
@Suite struct ExtremeAspectCropTests {
    static let strips: [(Int, Int)] = [(5000, 10), (7000, 60), (16384, 1), (10, 5000), (1, 16384), (65, 1), (200, 3)]

    /// The entropy map's cells lie inside the image: a grey strip maps to grey cells, one
    /// cell thick across the strip.
    @Test(arguments: strips)
    func theLuminanceMapStaysInsideAStrip(size: (Int, Int)) {
        let (width, height) = size
        let bitmap = Bitmap(width: width, height: height, fill: RGBA(red: 128, green: 128, blue: 128, alpha: 255))
        let map = LuminanceMap(bitmap)
        #expect(map.width >= 1 && map.height >= 1 && map.width <= 64 && map.height <= 64)
        #expect(map.values.count == map.width * map.height)
        #expect(map.values.allSatisfy { abs($0 - 128.0 / 255) < 1e-9 }, "\(map.values.prefix(4))")
        // The long axis keeps its cells (at least 32: 64 cells of 2 pixels or more, whole
        // cells only): the window still slides.
        #expect(max(map.width, map.height) >= min(32, max(width, height)))
    }

    /// Every crop mode fills a card of any shape from every strip, inside the image.
    @Test(arguments: strips)
    func everyCropModeFillsFromAStrip(size: (Int, Int)) throws {
        let (width, height) = size
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) { pixels[i * 4] = UInt8(truncatingIfNeeded: i * 7); pixels[i * 4 + 1] = UInt8(truncatingIfNeeded: i / 13) }
        let bitmap = try #require(Bitmap(width: width, height: height, pixels: pixels))
        for focus in CropFocus.allCases {
            for (cardWidth, cardHeight) in [(200, 150), (150, 200), (1, 300), (300, 1), (64, 64)] {
                let filled = bitmap.resampledToFill(width: cardWidth, height: cardHeight, focus: focus)
                #expect((filled.width, filled.height) == (cardWidth, cardHeight), "\(focus)")
                #expect(filled.pixels.count == cardWidth * cardHeight * 4)
                #expect(filled[cardWidth / 2, cardHeight / 2].alpha == 255, "\(focus) \(cardWidth)x\(cardHeight)")
                let window = (Double(cardWidth) / Double(cardHeight)) > Double(width) / Double(height)
                    ? (Double(width), Double(width) * Double(cardHeight) / Double(cardWidth))
                    : (Double(height) * Double(cardWidth) / Double(cardHeight), Double(height))
                let origin = bitmap.cropOrigin(windowWidth: window.0, windowHeight: window.1, focus: focus)
                #expect(origin.x >= 0 && origin.y >= 0 && origin.x + window.0 <= Double(width) + 1e-9 && origin.y + window.1 <= Double(height) + 1e-9,
                    "\(focus) \(cardWidth)x\(cardHeight): \(origin)")
            }
        }
    }
}
