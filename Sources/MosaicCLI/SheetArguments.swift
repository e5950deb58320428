import ArgumentParser
import Foundation
import Mosaic

extension Direction: ExpressibleByArgument {}
extension FileOrder: ExpressibleByArgument {}
extension ResamplingFilter: ExpressibleByArgument {}
extension TextAlignment: ExpressibleByArgument {}

enum Theme: String, ExpressibleByArgument, CaseIterable {
    case light, dark
}

/// The inputs and every option that shapes a sheet: shared by `render` and `layout`.
struct SheetArguments: ParsableArguments {
    @Argument(help: "A folder of images, a manifest (.json or .csv), or image files.")
    var inputs: [String] = []
    @Option(help: ArgumentHelp("Read more inputs from FILE (- for standard input), one path a line: for lists longer than a command line takes.", valueName: "file"))
    var filesFrom: String?
    @Flag(name: .customShort("0"), help: "With --files-from: the paths end in NUL bytes, not newlines (as find -print0 writes them).")
    var nullSeparated = false

    // Catalog
    @Option(help: "Order of a folder's images.")
    var sort: FileOrder = .natural
    @Flag(help: "Reverse the order.")
    var reverse = false
    @Flag(help: "Include subfolders, each as a section headed by its name.")
    var recursive = false

    // Captions
    @Option(help: ArgumentHelp("Caption: none, name, stem, title (manifest title, else stem) or a template with {name} {stem} {ext} {width} {height} {index} {section} {title} {description} {size} {date} {camera}; \\n separates title from description.", valueName: "mode"))
    var caption = "title"
    @Option(parsing: .unconditional, help: "Most lines of a caption's description.")
    var captionLines = 2

    // Layout
    @Option(help: ArgumentHelp("The layout: \(SheetLayout.all.map { "\($0.name), \($0.summary)" }.joined(separator: "; ")).", valueName: "name"))
    var layout = SheetLayout.all[0].name
    @Option(parsing: .unconditional, help: "Grid layout: the width/height ratio of every image cell (1 square, 1.5 for 3:2).")
    var cellAspect: Double = 1
    @Flag(help: "Grid layout: crop each image to fill its cell instead of fitting it inside.")
    var crop = false
    @Option(parsing: .unconditional, help: "Sheet width in pixels (vertical boards).")
    var width = 1800
    @Option(parsing: .unconditional, help: "Number of columns (default 6).")
    var columns: Int?
    @Option(parsing: .unconditional, help: "Target column width in pixels: as many columns as fit.")
    var columnWidth: Int?
    @Option(parsing: .unconditional, help: "Space between cards, pixels.")
    var spacing = 16
    @Option(parsing: .unconditional, help: "Space between columns (default: --spacing).")
    var columnSpacing: Int?
    @Option(parsing: .unconditional, help: "Space between cards of a column (default: --spacing).")
    var rowSpacing: Int?
    @Option(parsing: .unconditional, help: "Margin around the sheet, pixels.")
    var inset = 32
    @Option(parsing: .unconditional, help: "Padding inside each card, pixels.")
    var padding = 8
    @Option(help: "Which column a card goes to: the shortest, or in turn left to right or right to left.")
    var order: OrderArgument = .shortest
    @Option(help: "Columns that grow down (vertical) or rows that grow right (horizontal).")
    var direction: Direction = .vertical
    @Option(parsing: .unconditional, help: "Number of rows (horizontal boards).")
    var rows = 4
    @Option(parsing: .unconditional, help: "Sheet height in pixels (horizontal boards).")
    var height = 1200
    @Option(help: "A title over the whole sheet.")
    var title: String?
    @Option(parsing: .unconditional, help: "Split a vertical board into pages no taller than this (sheet-1.png, sheet-2.png, ...).")
    var maxHeight: Int?
    @Option(parsing: .unconditional, help: "Split a horizontal board into pages no wider than this (sheet-1.png, sheet-2.png, ...).")
    var maxWidth: Int?
    @Option(parsing: .unconditional, help: "Crop images more elongated than this ratio (3 for 3:1 or 1:3; default 16, so that a 1x10000 strip still makes a card that fits).")
    var maxAspect: Double?

    // Style
    @Option(help: "Colour preset.")
    var theme: Theme = .light
    @Option(help: "Sheet background: #rgb, #rrggbb, #rrggbbaa, a CSS name, or transparent.")
    var background: String?
    @Option(help: "Card background colour.")
    var cardBackground: String?
    @Option(parsing: .unconditional, help: "Card corner radius, pixels.")
    var cornerRadius: Int?
    @Option(parsing: .unconditional, help: "Card border width, pixels.")
    var borderWidth: Int?
    @Option(help: "Card border colour.")
    var borderColor: String?
    @Option(help: ArgumentHelp("Card shadow: X,Y,BLUR,COLOR (e.g. 0,2,8,#0003) or none.", valueName: "shadow"))
    var shadow: String?
    @Option(help: "Caption font: a family (fontconfig) or a font file.")
    var font: String?
    @Option(parsing: .unconditional, help: "Caption font size, pixels.")
    var fontSize: Double?
    @Option(help: "Caption title colour.")
    var titleColor: String?
    @Option(help: "Caption description colour.")
    var captionColor: String?
    @Option(help: "Caption alignment.")
    var captionAlign: TextAlignment?
    @Option(parsing: .unconditional, help: "Section header size, pixels.")
    var headerSize: Double?
    @Option(help: "Section header colour.")
    var headerColor: String?
    @Option(help: "Section footer colour.")
    var footerColor: String?
    @Option(help: "Draw a background behind each section, in this colour.")
    var sectionBackground: String?
    @Option(parsing: .unconditional, help: "Corner radius of section backgrounds, pixels.")
    var sectionRadius: Int?
    @Option(parsing: .unconditional, help: "Padding inside section backgrounds, pixels.")
    var sectionPadding: Int?

    // Output and work
    @Option(parsing: .unconditional, help: "PNG zlib level, 0 (fastest) to 9 (smallest).")
    var compressionLevel = PNGWriter.defaultCompressionLevel
    @Option(help: "Resampling filter.")
    var filter: ResamplingFilter = .lanczos3
    @Option(parsing: .unconditional, help: "Decoding threads (default: the number of cores).")
    var jobs: Int?
    @Flag(help: "Any input that fails makes the run fail, and nothing is written.")
    var strict = false
    @Flag(
        name: .customLong("no-color-management"),
        help: "Draw images with an embedded ICC profile (Adobe RGB, Display P3...) as if they were sRGB, unconverted.")
    var noColorManagement = false

    mutating func validate() throws {
        if nullSeparated && filesFrom == nil { throw ValidationError("-0 goes with --files-from") }
        if let filesFrom { inputs += try Self.paths(listedIn: filesFrom, nullSeparated: nullSeparated) }
        if inputs.isEmpty { throw ValidationError("give a folder, a manifest or image files, or --files-from FILE") }
        guard SheetLayout.named(layout) != nil else {
            throw ValidationError("--layout: \"\(layout)\" is not a layout (use \(SheetLayout.all.map(\.name).joined(separator: " or ")))")
        }
        if !(cellAspect.isFinite && cellAspect >= 1.0 / 64 && cellAspect <= 64) {
            throw ValidationError("--cell-aspect must be a ratio between 1/64 and 64, got \(cellAspect)")
        }
        if width < 1 || width > 100_000 { throw ValidationError("--width must be between 1 and 100000, got \(width)") }
        if height < 1 || height > 100_000 { throw ValidationError("--height must be between 1 and 100000, got \(height)") }
        if let columns, columns < 1 { throw ValidationError("--columns must be at least 1, got \(columns)") }
        if columns != nil && columnWidth != nil { throw ValidationError("give --columns or --column-width, not both") }
        if let columnWidth, columnWidth < 1 { throw ValidationError("--column-width must be at least 1, got \(columnWidth)") }
        if rows < 1 { throw ValidationError("--rows must be at least 1, got \(rows)") }
        for (name, value) in [("spacing", spacing), ("inset", inset), ("padding", padding), ("column-spacing", columnSpacing ?? 0), ("row-spacing", rowSpacing ?? 0), ("corner-radius", cornerRadius ?? 0), ("border-width", borderWidth ?? 0), ("section-radius", sectionRadius ?? 0), ("section-padding", sectionPadding ?? 0)] where value < 0 {
            throw ValidationError("--\(name) must not be negative, got \(value)")
        }
        if captionLines < 1 { throw ValidationError("--caption-lines must be at least 1, got \(captionLines)") }
        if let maxHeight, maxHeight < 1 { throw ValidationError("--max-height must be at least 1, got \(maxHeight)") }
        if let maxWidth, maxWidth < 1 { throw ValidationError("--max-width must be at least 1, got \(maxWidth)") }
        // The page limit is named for what it limits: the height of a vertical board's
        // pages, the width of a horizontal one's.
        if direction == .horizontal, maxHeight != nil {
            throw ValidationError("--max-height limits a vertical board's pages; a horizontal board grows to the right: use --max-width")
        }
        if direction == .vertical, maxWidth != nil {
            throw ValidationError("--max-width limits a horizontal board's pages; a vertical board grows downwards: use --max-height")
        }
        if let maxAspect, !(maxAspect.isFinite && maxAspect >= 1) { throw ValidationError("--max-aspect must be a ratio of at least 1, got \(maxAspect)") }
        if !(0...9).contains(compressionLevel) { throw ValidationError("--compression-level must be 0 to 9, got \(compressionLevel)") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256, got \(jobs)") }
        if let fontSize, !(fontSize.isFinite && fontSize > 0 && fontSize < 1000) { throw ValidationError("--font-size must be a size in pixels above 0, got \(fontSize)") }
        if let headerSize, !(headerSize.isFinite && headerSize > 0 && headerSize < 1000) { throw ValidationError("--header-size must be a size in pixels above 0, got \(headerSize)") }
        for (name, value) in [("background", background), ("card-background", cardBackground), ("border-color", borderColor), ("title-color", titleColor), ("caption-color", captionColor), ("header-color", headerColor), ("footer-color", footerColor), ("section-background", sectionBackground)] {
            if let value, Color(parsing: value) == nil {
                throw ValidationError("--\(name): \"\(value)\" is not a colour (use #rgb, #rrggbb, #rrggbbaa, a CSS name, or transparent)")
            }
        }
        do {
            _ = try CaptionMode(validating: caption)
        } catch {
            throw ValidationError("--caption: \(error)")
        }
        if let shadow, Self.parseShadow(shadow) == nil {
            throw ValidationError("--shadow: \"\(shadow)\" is not X,Y,BLUR,COLOR (e.g. 0,2,8,#0003) or none")
        }
    }

    /// `X,Y,BLUR,COLOR` or `none`; nil when `text` is neither.
    static func parseShadow(_ text: String) -> (x: Int, y: Int, blur: Int, color: Color)? {
        if text == "none" { return (0, 0, 0, .transparent) }
        let parts = text.split(separator: ",", maxSplits: 3).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4, let x = Int(parts[0]), let y = Int(parts[1]), let blur = Int(parts[2]), blur >= 0, let color = Color(parsing: parts[3]) else {
            return nil
        }
        return (x, y, blur, color)
    }

    var options: SheetOptions {
        var o = SheetOptions()
        o.layout = layout == "grid" ? .grid(cellAspect: cellAspect, crop: crop) : SheetLayout.named(layout) ?? .masonry
        o.direction = direction
        o.width = width
        o.height = height
        o.columns = columns
        o.columnWidth = columnWidth
        o.rows = rows
        o.spacing = spacing
        o.columnSpacing = columnSpacing
        o.rowSpacing = rowSpacing
        o.inset = inset
        o.padding = padding
        o.order = order.itemOrder
        o.title = title
        o.maxHeight = direction == .horizontal ? maxWidth : maxHeight
        if let maxAspect { o.maxAspect = maxAspect }
        if let mode = try? CaptionMode(validating: caption) { o.caption = mode }  // validate() refused the rest
        o.captionLines = captionLines
        o.compressionLevel = compressionLevel
        o.filter = filter
        o.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        o.strict = strict
        o.colorManagement = !noColorManagement
        var style: SheetStyle = theme == .dark ? .dark : .light
        if let background, let color = Color(parsing: background) { style.background = color }
        if let cardBackground, let color = Color(parsing: cardBackground) { style.cardBackground = color }
        if let cornerRadius { style.cornerRadius = cornerRadius }
        if let borderWidth { style.borderWidth = borderWidth }
        if let borderColor, let color = Color(parsing: borderColor) { style.borderColor = color }
        if let shadow, let (x, y, blur, color) = Self.parseShadow(shadow) {
            (style.shadowOffsetX, style.shadowOffsetY, style.shadowBlur, style.shadowColor) = (x, y, blur, color)
        }
        if let font { style.font = FontSource.parse(font) }
        if let fontSize { style.captionSize = fontSize }
        if let titleColor, let color = Color(parsing: titleColor) { style.titleColor = color }
        if let captionColor, let color = Color(parsing: captionColor) { style.captionColor = color }
        if let captionAlign { style.captionAlignment = captionAlign }
        if let headerSize { style.headerSize = headerSize }
        if let headerColor, let color = Color(parsing: headerColor) { style.headerColor = color }
        if let footerColor, let color = Color(parsing: footerColor) { style.footerColor = color }
        if let sectionBackground, let color = Color(parsing: sectionBackground) { style.sectionBackground = color }
        if let sectionRadius { style.sectionRadius = sectionRadius }
        if let sectionPadding { style.sectionPadding = sectionPadding }
        o.style = style
        return o
    }

    /// The catalog: one folder, one manifest, or a list of files. A folder's own earlier
    /// sheets (`output`, or its pages `NAME-N.png`) are left out, so that
    /// `mosaic render . -o sheet.png` can run again.
    /// The --files-from list, when it is a file: read, so never written.
    var listFiles: [String] { filesFrom.map { $0 == "-" ? [] : [$0] } ?? [] }

    /// The paths listed in `list` (a file, or - for standard input): one a line (a
    /// carriage return before the newline dropped) or NUL-terminated; empty ones skipped.
    /// Bytes that are not UTF-8 are kept (`FileNames`).
    static func paths(listedIn list: String, nullSeparated: Bool) throws -> [String] {
        let data: Data
        if list == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: list))
            } catch {
                let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
                throw ValidationError("--files-from: cannot read \(list): \(reason)")
            }
        }
        let separator: UInt8 = nullSeparated ? 0 : 0x0A
        return data.split(separator: separator, omittingEmptySubsequences: true).compactMap { piece in
            var bytes = Array(piece)
            if !nullSeparated, bytes.last == 0x0D { bytes.removeLast() }
            return bytes.isEmpty ? nil : FileNames.string(fromBytes: bytes)
        }
    }

    func catalog(decoder: ImageDecoder, output: String? = nil) throws -> Catalog {
        let jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        for input in inputs where FileNames.status(input) == nil { throw CatalogError.notFound(path: input) }
        var catalog = Catalog(sections: [])
        var files: [String] = []
        func addFiles() {
            if !files.isEmpty { catalog.append(Catalog.files(files, decoder: decoder, jobs: jobs), headedBy: nil) }
            files = []
        }
        for input in inputs {
            let isDirectory = FileNames.status(input).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false
            let ext = (input as NSString).pathExtension.lowercased()
            if isDirectory {
                addFiles()
                var folder = try Catalog.folder(input, sort: sort, reverse: reverse, recursive: recursive, decoder: decoder, jobs: jobs)
                if let output { folder.leaveOut(sheetsAt: output) }
                if folder.entries.isEmpty { throw CatalogError.noImages(path: input, skipped: folder.skippedFiles.count, unreadable: folder.unreadableImages) }
                // Several folders: each is a section headed by its name (as --recursive heads subfolders).
                catalog.append(folder, headedBy: inputs.count > 1 ? input : nil)
            } else if ext == "json" || ext == "csv" {
                addFiles()
                catalog.append(try Catalog.manifest(input, decoder: decoder, jobs: jobs), headedBy: nil)
            } else if Self.otherManifestExtensions.contains(ext) {
                throw CatalogError.manifest(path: input, message: "mosaic reads manifests in JSON or CSV; save this .\(ext) file as .csv")
            } else {
                files.append(input)
            }
        }
        addFiles()
        return catalog
    }

    /// Lists that look like manifests but are not read as one.
    static let otherManifestExtensions: Set<String> = ["tsv", "txt", "tab", "xml", "yaml", "yml", "xls", "xlsx", "ods", "numbers"]

    /// The typesetter with the system's fonts.
    static func typesetter() throws -> Typesetter {
        Typesetter(fonts: try FontLibrary())
    }
}

/// Writes to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

/// Runs a command's work; mosaic's own errors print as "error: <file>: <reason>" and
/// exit 1, with no stack trace.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ExitCode {
        throw error
    } catch SheetError.option(let name, let message) {
        // The library names its options by property; the user typed flags.
        printError("error: \(flag(forOption: name)): \(message)")
        throw ExitCode(64)
    } catch let error as CustomStringConvertible where error is SheetError || error is CatalogError || error is TextError || error is Failure {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}

/// The flag of a `SheetOptions` property: its kebab-case (`maxAspect` -> `--max-aspect`).
func flag(forOption property: String) -> String {
    var flag = "--"
    for character in property {
        if character.isUppercase {
            flag += "-" + character.lowercased()
        } else {
            flag.append(character)
        }
    }
    return flag
}
