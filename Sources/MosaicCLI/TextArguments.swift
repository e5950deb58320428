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
    @Option(parsing: .unconditional, help: ArgumentHelp("Caption font size: pixels, or for a PDF 8pt or 3mm (default: 13; PDF 8.5pt).", valueName: "length"))
    var fontSize: LengthArgument?
    @Option(parsing: .unconditional, help: ArgumentHelp("Section header size (as --font-size); the title is 1.5 times it (default: 22; PDF 11pt).", valueName: "length"))
    var headerSize: LengthArgument?
    @Option(help: "Caption alignment (default: start).")
    var captionAlign: TextAlignment?
    @Option(help: "Text direction; rtl also places cards from the right (default: auto).")
    var textDirection: TextDirection?

    func validate() throws {
        try SheetArguments.checkAtLeastOne([("caption-lines", captionLines)])
        for case let (flag, size?) in [("--font-size", fontSize?.length), ("--header-size", headerSize?.length)] where !(size.value > 0 && size.value < 1000) {
            let unit = size.isPhysical ? String(describing: size).filter(\.isLetter) : "pixels"
            throw ValidationError("\(flag) must be above 0 and below 1000 \(unit), got \(size.value)")
        }
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
        LengthArgument.apply([(.fontSize, fontSize), (.headerSize, headerSize)], to: &o)
        if let captionAlign { o.style.captionAlignment = captionAlign }
        if let textDirection { o.style.textDirection = textDirection }
    }
}
