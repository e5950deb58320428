import Foundation

/// Everything that decides a sheet, but the inputs.
public struct SheetOptions: Hashable, Sendable {
    /// How the cards are laid out (`SheetLayout.all` lists them).
    public var layout: SheetLayout = .masonry
    /// Columns that grow down (default) or rows that grow right.
    public var direction: Direction = .vertical
    /// The sheet's width (vertical boards).
    public var width = 1800
    /// True when `width` was asked for (`--width`), not left at its default: an output
    /// kind whose paper sets the width (PDF) refuses it rather than ignore it.
    public var widthIsGiven = false
    /// The sheet's height (horizontal boards).
    public var height = 1200
    /// Columns, or (with `columnWidth`) derived; rows on a horizontal board.
    public var columns: Int? = nil
    /// A target column width in pixels: as many columns as fit (instead of `columns`).
    public var columnWidth: Int? = nil
    /// Rows on a horizontal board (default 4).
    public var rows = 4
    /// Pixels between cards, and between sections (default 16).
    public var spacing = 16
    /// Pixels between columns; nil: `spacing`.
    public var columnSpacing: Int? = nil
    /// Pixels between the cards of a column; nil: `spacing`.
    public var rowSpacing: Int? = nil
    /// The margin around the sheet, pixels (default 32).
    public var inset = 32
    /// Padding inside each card around its image and caption, pixels (default 8).
    public var padding = 8
    /// Which column a card goes to (default: the shortest).
    public var order: ItemOrder = .shortestFirst
    /// Feature cards: the first this many cards of each section span two columns (masonry
    /// and grid; a manifest's `span` sets it per card). Default 0.
    public var feature = 0
    /// Where a cropped image (grid `crop`, the aspect clamp) keeps its window: the middle,
    /// the most interesting place (attention), or the most detailed (entropy). Default center.
    public var cropMode: CropFocus = .center
    /// A title over the whole sheet; nil: the manifest's, if any.
    public var title: String? = nil
    /// Pages no longer than this along the flow, pixels; nil: one page.
    public var maxHeight: Int? = nil
    /// Masonry: images more elongated than this ratio (at least 1) are cropped to it;
    /// nil: none. Default 16: a 1x10000 strip would otherwise make a card millions of
    /// pixels long, over any output limit; panoramas up to 16:1 keep their shape.
    public var maxAspect: Double? = 16
    /// What each caption says (default: the manifest title, else the file's stem).
    public var caption: CaptionMode = .title
    /// Most lines of a caption's description (default 2).
    public var captionLines = 2
    /// Colours, corners, shadows and fonts (default `.light`).
    public var style: SheetStyle = .light
    /// The PNG zlib level, 0...9; nil (the default): 6 for a page of at most 4 megapixels,
    /// else 1 (`PNGWriter.defaultCompressionLevel`).
    public var compressionLevel: Int? = nil
    /// Decoding threads (default: the number of cores); never changes a pixel.
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    /// Any input that fails makes the render fail and nothing is written.
    public var strict = false
    /// The resampling filter (default Lanczos-3).
    public var filter: ResamplingFilter = .lanczos3
    /// Convert images with an embedded ICC profile (Adobe RGB, Display P3...) to sRGB, the
    /// sheet's colour space; off: their numbers are drawn as if they were sRGB.
    public var colorManagement = true
    /// How videos' frames are chosen and decoded: the poster's time (default: from 10% on,
    /// the first frame that is not black, blank or a fade), exact frames, each clip's time
    /// limit (30 s).
    public var video = VideoDecoding()
    /// A play mark and the duration in the corner of a video's poster card (default on).
    public var videoBadge = true
    /// The lengths given in points or millimetres (`--font-size 8pt`, `--inset 10mm`), by
    /// option, until an output of a physical size (a PDF at its DPI) makes them pixels
    /// (`resolvingLengths(dpi:)`); a sheet laid out with any left refuses it, naming the
    /// option. Set them with `set(_:_:)`.
    public var lengths: [LengthSetting: Length] = [:]
    /// Input and output pixel limits, checked from headers before decoding.
    public var limits = ImageLimits()
    /// The codecs the renderer decodes with: the same registry the catalog probed with
    /// (a program that adds a format passes it to both).
    public var codecs: CodecRegistry = .standard

    /// The defaults: a 1800 px wide masonry sheet of 6 columns.
    public init() {}
}

extension SheetOptions {
    /// The defaults for paper (a PDF's, `OutputKind.printsOnPaper`): the `.print` style,
    /// 8.5 pt captions (titles 1 px larger, descriptions 1 px smaller), 11 pt headers,
    /// 10 mm margins, 4 mm between cards, no padding; made pixels by the PDF's `--dpi`.
    public static var printed: SheetOptions {
        var options = SheetOptions()
        options.style = .print
        options.set(.fontSize, .points(8.5))
        options.set(.headerSize, .points(11))
        options.set(.inset, .millimetres(10))
        options.set(.spacing, .millimetres(4))
        options.set(.padding, .pixels(0))
        options.set(.sectionPadding, .millimetres(2))
        return options
    }

    /// Throws `SheetError.option` naming the first property out of range.
    func validate() throws(SheetError) {
        if let (setting, length) = firstPhysicalLength {
            throw .option(name: setting.rawValue, message: Self.physicalLengthMessage(length))
        }
        guard (1...100_000).contains(width) else { throw .option(name: "width", message: "\(width) is not between 1 and 100000") }
        if let columns, columns < 1 { throw .option(name: "columns", message: "\(columns) must be at least 1") }
        if !(video.clipTimeout.isFinite && video.clipTimeout > 0) {
            throw .option(name: "clipTimeout", message: "\(video.clipTimeout) must be a number of seconds above 0")
        }
        if let maxAspect, !(maxAspect.isFinite && maxAspect >= 1) {
            throw .option(name: "maxAspect", message: "\(maxAspect) must be a number of at least 1")
        }
    }

    /// Why a length in points or millimetres cannot be used where there is no paper.
    static func physicalLengthMessage(_ length: Length) -> String {
        "\(length) is a length on paper: only a PDF (-o NAME.pdf, --page-size with mosaic layout) has one; give pixels here"
    }
}
