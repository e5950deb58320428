/// A PDF page's physical size, in points (1/72 inch): the MediaBox of every page of a
/// `PDFSink`. Named sizes and millimetres or inches convert to points; `pixels(dpi:)`
/// gives the sheet's width and page height in pixels at a resolution.
public struct PDFPageSize: Hashable, Sendable {
    /// Width and height in points (1/72 inch).
    public var width: Double
    public var height: Double

    /// A size in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size in millimetres (25.4 to the inch).
    public static func millimetres(_ width: Double, _ height: Double) -> PDFPageSize {
        PDFPageSize(width: width * 72 / 25.4, height: height * 72 / 25.4)
    }

    /// A size in inches.
    public static func inches(_ width: Double, _ height: Double) -> PDFPageSize {
        PDFPageSize(width: width * 72, height: height * 72)
    }

    /// ISO A4, 210 x 297 mm, portrait.
    public static let a4 = millimetres(210, 297)
    /// US Letter, 8.5 x 11 in, portrait.
    public static let letter = inches(8.5, 11)

    /// The page in pixels at `dpi` dots per inch, each side rounded to the nearest pixel
    /// and clamped to 1...`Int32.max` (a size no Int can hold, or not a number, never
    /// traps): A4 at 300 dpi is 2480 x 3508.
    public func pixels(dpi: Int) -> Size {
        Size(width: Self.pixels(points: width, dpi: dpi), height: Self.pixels(points: height, dpi: dpi))
    }

    /// One side of `points` at `dpi`, in whole pixels, clamped to 1...`Int32.max`.
    static func pixels(points: Double, dpi: Int) -> Int {
        let exact = (points * Double(dpi) / 72).rounded()
        guard exact.isFinite else { return exact > 0 ? Int(Int32.max) : 1 }
        return Int(min(Double(Int32.max), max(1, exact)))
    }
}
