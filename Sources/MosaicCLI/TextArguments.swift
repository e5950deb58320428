import ArgumentParser
import Foundation
import Mosaic

/// What the captions, headers and title say, and the type they are set in (it decides the
/// cards' lengths, so `layout` has it too).
struct TextArguments: ParsableArguments {
    @Option(help: ArgumentHelp("Caption: none, name, stem, title (a manifest's, else the photo's XMP title, else the stem), or '{stem} {iso}'.", valueName: "mode"))
    var caption = "title"
    @Option(parsing: .unconditional, help: "Most lines of a caption's description.")
    var captionLines = 2
    @Option(help: "A title over the whole sheet (default: the manifest's title).")
    var title: String?
    @Option(help: "A font family or file (default: DejaVu Sans).")
    var font: String?
    @Option(parsing: .unconditional, help: "Caption font size, pixels (default: 13).")
    var fontSize: Double?
    @Option(parsing: .unconditional, help: "Section header size, pixels; the title is 1.5 times it (default: 22).")
    var headerSize: Double?
    @Option(help: "Caption alignment (default: start).")
    var captionAlign: TextAlignment?
    @Option(help: "Text direction; rtl also places cards from the right (default: auto).")
    var textDirection: TextDirection?

    func validate() throws {
        try SheetArguments.checkAtLeastOne([("caption-lines", captionLines)])
        if let fontSize, !(fontSize.isFinite && fontSize > 0 && fontSize < 1000) { throw ValidationError("--font-size must be above 0 and below 1000 pixels, got \(fontSize)") }
        if let headerSize, !(headerSize.isFinite && headerSize > 0 && headerSize < 1000) { throw ValidationError("--header-size must be above 0 and below 1000 pixels, got \(headerSize)") }
        do {
            _ = try CaptionMode(validating: caption)
        } catch {
            throw ValidationError("--caption: \(error)")
        }
    }

    func apply(to o: inout SheetOptions) {
        o.title = title
        if let mode = try? CaptionMode(validating: caption) { o.caption = mode }  // validate() refused the rest
        o.captionLines = captionLines
        if let font { o.style.font = FontSource.parse(font) }
        if let fontSize { o.style.captionSize = fontSize }
        if let headerSize { o.style.headerSize = headerSize }
        if let captionAlign { o.style.captionAlignment = captionAlign }
        if let textDirection { o.style.textDirection = textDirection }
    }
}
