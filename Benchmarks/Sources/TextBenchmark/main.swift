// Measures 10,000 two-line captions of mixed English and Chinese at 13 px, as the layout
// does for a board, and prints the median of 5 runs. Release builds only.
import Mosaic

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

let fonts = try FontLibrary(
    fallbacks: [.file("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")], systemFallback: false)
let typesetter = Typesetter(fonts: fonts)
let style = CaptionStyle(
    title: TextStyle(font: .file("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"), bold: true, size: 13, maximumLines: 1),
    description: TextStyle(font: .file("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), size: 13, maximumLines: 2))
let captions = try CaptionTypesetter(typesetter: typesetter, style: style)

// Titles and descriptions built from the sample captions, varied so the caches see text
// as a real folder would give it (the same words, different strings).
let titles = ["Astronaut", "宇航员", "Hubble Deep Field", "哈勃深空", "Chelsea", "切尔西", "Coffee", "咖啡", "Rocket", "火箭"]
let descriptions = [
    "Eileen Collins in her orange launch suit, with a model shuttle behind her.",
    "身穿橙色发射服的艾琳·柯林斯，身后是航天飞机模型。",
    "Thousands of galaxies in a tiny patch of sky.",
    "一小片天空中的成千上万个星系。",
    "A rocket on the launch pad at night, before lift-off.",
    "夜晚发射前矗立在发射台上的火箭。",
]
let items = (0..<10_000).map { i in
    Caption(title: titles[i % titles.count] + " \(i)", description: descriptions[i % descriptions.count] + (i % 3 == 0 ? " IMG_\(i).jpg" : ""))
}
let clock = ContinuousClock()
var times: [Double] = []
var total = 0
for _ in 0..<5 {
    let start = clock.now
    total = 0
    for caption in items { total &+= captions.height(of: caption, width: 280) }
    times.append(seconds(clock.now - start))
}
times.sort()
let ms = Int(times[2] * 1000 * 10 + 0.5)
print("measure 10,000 two-line captions (English and Chinese, 13 px, 280 px wide): median \(ms / 10).\(ms % 10) ms over 5 runs; total height \(total) px")
