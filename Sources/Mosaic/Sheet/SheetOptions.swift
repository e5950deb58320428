import Foundation

/// Everything that decides a sheet, but the inputs.
public struct SheetOptions: Hashable, Sendable {
    /// How the cards are laid out (`SheetLayout.all` lists them).
    public var layout: SheetLayout = .masonry
    public var direction: Direction = .vertical
    /// The sheet's width (vertical boards).
    public var width = 1800
    /// The sheet's height (horizontal boards).
    public var height = 1200
    /// Columns, or (with `columnWidth`) derived; rows on a horizontal board.
    public var columns: Int? = nil
    public var columnWidth: Int? = nil
    public var rows = 4
    public var spacing = 16
    public var columnSpacing: Int? = nil
    public var rowSpacing: Int? = nil
    public var inset = 32
    public var padding = 8
    public var order: ItemOrder = .shortestFirst
    public var title: String? = nil
    public var maxHeight: Int? = nil
    public var maxAspect: Double? = nil
    public var caption: CaptionMode = .title
    public var captionLines = 2
    public var style: SheetStyle = .light
    public var compressionLevel = PNGWriter.defaultCompressionLevel
    public var jobs = ProcessInfo.processInfo.activeProcessorCount
    public var strict = false
    public var filter: ResamplingFilter = .lanczos3
    public var limits = ImageLimits()

    public init() {}
}

extension SheetOptions {
    /// Throws `SheetError.option` naming the first property out of range.
    func validate() throws(SheetError) {
        guard (1...100_000).contains(width) else { throw .option(name: "width", message: "\(width) is not between 1 and 100000") }
        if let columns, columns < 1 { throw .option(name: "columns", message: "\(columns) must be at least 1") }
        if let maxAspect, !(maxAspect.isFinite && maxAspect >= 1) {
            throw .option(name: "maxAspect", message: "\(maxAspect) must be a number of at least 1")
        }
    }
}
