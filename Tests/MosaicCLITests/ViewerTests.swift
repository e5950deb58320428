import Foundation
import Mosaic
import Testing

/// The pyramid's viewer in a real browser (headless Chromium through the DevTools
/// protocol): it loads the tiles from file://, a search flies to the card, the zoomed
/// screen shows that card's pixels, hovering shows its caption, a click opens the original.
@Suite(.serialized) struct ViewerTests {
    /// The mean colour of `rect` in `bitmap`.
    static func mean(_ bitmap: Bitmap, _ rect: Rect) -> [Double] {
        var sums = [0.0, 0.0, 0.0]
        var n = 0.0
        for y in max(0, rect.minY)..<min(bitmap.height, rect.maxY) {
            for x in max(0, rect.minX)..<min(bitmap.width, rect.maxX) {
                let p = bitmap[x, y]
                sums[0] += Double(p.red)
                sums[1] += Double(p.green)
                sums[2] += Double(p.blue)
                n += 1
            }
        }
        return sums.map { $0 / max(1, n) }
    }

    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there"), arguments: ["dzi", "iiif"])
    func theViewerFindsZoomsAndOpens(kind: String) throws {
        let dir = CLI.temporaryDirectory()
        let manifest = CLI.sampleImages + "/manifest.json"
        let output = kind == "dzi" ? ["-o", dir + "/board.dzi"] : ["--format", "iiif", "-o", dir + "/board"]
        let made = try CLI.run(["render", manifest, "--tile-format", "png"] + output)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(try CLI.run(["render", manifest, "-o", dir + "/board.png"]).status == 0)
        let board = try ImageDecoder().decode(dir + "/board.png").bitmap

        let browser = try Browser()
        try browser.open(URL(fileURLWithPath: dir + "/board.html").absoluteString)
        try browser.wait(until: "document.body && document.body.dataset.ready", "the viewer to start")
        #expect(try browser.evaluate("Number(document.body.dataset.ready)") as? Int == 15)
        try browser.wait(until: "document.body.dataset.view && document.body.dataset.view.endsWith(',0')", "the whole board's tiles")

        // Search, Enter: the viewer flies to the card.
        let coffee = try #require(try browser.evaluate("mosaicViewer.cards.findIndex(c => c[6] === 'coffee.jpg')") as? Int)
        #expect(coffee >= 0)
        _ = try browser.evaluate("document.getElementById('search').focus()")
        try browser.type("coffee", enter: true)
        try browser.wait(until: "document.body.dataset.arrived === '\(coffee)'", "the flight to the coffee card")
        try browser.wait(until: "document.body.dataset.view.endsWith(',0')", "the zoomed tiles")
        #expect(try browser.evaluate("document.body.dataset.broken") == nil)

        // The screen shows the coffee card: its image's colours match the PNG render's.
        let frame = try #require(try browser.evaluate(
            "(() => { const c = mosaicViewer.cards[\(coffee)], v = mosaicViewer.view; return [c[0], c[1], c[2], c[3], (c[0] - v.x) * v.s, (c[1] - v.y) * v.s, v.s]; })()") as? [Double])
        // Zoomed in as far as the tiles have pixels, and no further (100%: past it was blur).
        let scale = frame[6]
        #expect(scale == 1, "zoomed in to 100%: \(scale)")
        let shot = dir + "/shot.png"
        try browser.screenshot().write(to: URL(fileURLWithPath: shot))
        let screen = try ImageDecoder().decode(shot).bitmap
        // The middle of the card's image (its upper part; the caption is below).
        let onBoard = Rect(x: Int(frame[0] + frame[2] * 0.3), y: Int(frame[1] + frame[3] * 0.15), width: Int(frame[2] * 0.4), height: Int(frame[3] * 0.3))
        let onScreen = Rect(
            x: Int(frame[4] + frame[2] * 0.3 * scale), y: Int(frame[5] + frame[3] * 0.15 * scale),
            width: Int(frame[2] * 0.4 * scale), height: Int(frame[3] * 0.3 * scale))
        let expected = Self.mean(board, onBoard), seen = Self.mean(screen, onScreen)
        #expect(zip(expected, seen).allSatisfy { abs($0 - $1) < 6 }, "board \(expected), screen \(seen)")
        // Another card's colours differ from these (the check can fail).
        let cat = try #require(try browser.evaluate("mosaicViewer.cards.find(c => c[6] === 'chelsea.jpg')") as? [Any])
        let catRect = Rect(x: (cat[0] as? Int ?? 0) + 40, y: (cat[1] as? Int ?? 0) + 40, width: 60, height: 40)
        #expect(zip(Self.mean(board, catRect), seen).contains { abs($0 - $1) >= 6 })

        // Hover shows the caption; a click opens the original, relative to the page.
        let centre = (x: frame[4] + frame[2] * scale / 2, y: frame[5] + frame[3] * scale * 0.3)
        try browser.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": centre.x, "y": centre.y], page: true)
        try browser.wait(until: "document.body.dataset.hover === '\(coffee)'", "the hover")
        let tip = try browser.evaluate("document.getElementById('tip').textContent") as? String ?? ""
        #expect(tip.contains("Coffee") && tip.contains("coffee.jpg"), "\(tip)")
        try browser.click(x: centre.x, y: centre.y)
        try browser.wait(until: "document.body.dataset.opened", "the click")
        let opened = try #require(try browser.evaluate("document.body.dataset.opened") as? String)
        let resolved = URL(fileURLWithPath: dir + "/" + (opened.removingPercentEncoding ?? opened)).standardizedFileURL.path
        #expect(resolved == URL(fileURLWithPath: CLI.sampleImages + "/coffee.jpg").standardizedFileURL.path, "\(opened)")
        // The window it opened (its address is known once it navigates).
        var opens = false
        var urls: [String] = []
        for _ in 0..<40 where !opens {
            let targets = try browser.send("Target.getTargets")["targetInfos"] as? [[String: Any]] ?? []
            let announced = browser.events.compactMap { (($0["params"] as? [String: Any])?["targetInfo"] as? [String: Any])?["url"] as? String }
            urls = targets.compactMap { $0["url"] as? String } + announced
            opens = urls.contains { $0.hasSuffix("coffee.jpg") }
            if !opens { usleep(100_000) }
        }
        #expect(opens, "\(urls)")

        // The table of contents flies to a section (the board's tab in front again).
        try browser.send("Page.bringToFront", page: true)
        let before = try browser.evaluate("document.body.dataset.view") as? String
        _ = try browser.evaluate("[...document.querySelectorAll('#toc li')].find(li => li.textContent === 'Science').click()")
        try browser.wait(until: "document.body.dataset.view !== '\(before ?? "")'", "the flight to Science")
        #expect(try browser.evaluate("[...document.querySelectorAll('#toc li')].map(li => li.textContent).join('|')") as? String == "Space|Everyday|Science")
    }

    /// Search names each card's folder (forty "IMG_0001" were forty identical lines), and
    /// no zoom goes past 100%.
    @Test(.enabled(if: Browser.available, "needs Chromium (apt-get install chromium); in CI it must be there"))
    func searchShowsFoldersAndZoomStopsAtFullSize() throws {
        let dir = CLI.temporaryDirectory()
        for folder in ["trip/day1", "trip/day2"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.sampleImages + "/coins.png", toPath: "\(dir)/\(folder)/IMG_0001.png")
        }
        let made = try CLI.run(["render", dir + "/trip", "--recursive", "-o", dir + "/board.dzi", "--tile-format", "png", "--caption", "stem"])
        #expect(made.status == 0, "\(made.stderr)")
        let browser = try Browser()
        try browser.open(URL(fileURLWithPath: dir + "/board.html").absoluteString)
        try browser.wait(until: "document.body && document.body.dataset.ready", "the viewer to start")
        _ = try browser.evaluate("mosaicViewer.search('IMG_0001')")
        let lines = try browser.evaluate("[...document.querySelectorAll('#results li')].map(li => li.textContent).join('|')") as? String
        let results = (lines ?? "").split(separator: "|")
        #expect(results.count == 2 && results.allSatisfy { $0.hasPrefix("IMG_0001") }, "\(lines ?? "")")
        #expect(results.first?.hasSuffix("day1/") == true && results.last?.hasSuffix("day2/") == true, "\(lines ?? "")")
        // Zoom in far: the view stops at one board pixel to a screen pixel.
        for _ in 0..<12 { _ = try browser.evaluate("document.getElementById('in').click()") }
        #expect(try browser.evaluate("mosaicViewer.view.s") as? Double == 1)
    }
}
