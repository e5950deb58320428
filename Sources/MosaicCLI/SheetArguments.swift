import ArgumentParser
import Foundation
import Mosaic

extension Direction: ExpressibleByArgument {}
extension FileOrder: ExpressibleByArgument {}
extension PairMode: ExpressibleByArgument {}
extension Grouping: ExpressibleByArgument {}
extension ResamplingFilter: ExpressibleByArgument {}
extension RawDrawing: ExpressibleByArgument {}
extension TextAlignment: ExpressibleByArgument {}
extension TextDirection: ExpressibleByArgument {}

enum Theme: String, ExpressibleByArgument, CaseIterable {
    case light, dark, print

    var style: SheetStyle {
        switch self {
        case .light: return .light
        case .dark: return .dark
        case .print: return .print
        }
    }
}

/// The options of a sheet come in groups, one `ParsableArguments` per topic, so that
/// `--help` shows them by topic and each command offers only the groups it uses:
/// `render` all of them, `layout` the inputs, the layout and the text (what decides the
/// frames), not the colours nor the output.
enum SheetArguments {
    /// The options `render` or `layout` gives: the groups present, applied in this order
    /// (the look sets the theme's style first, the others change parts of it) over the
    /// defaults, for paper (`printed`: a PDF) `SheetOptions.printed`.
    static func options(
        input: InputArguments, layout: LayoutArguments, text: TextArguments, look: LookArguments? = nil, work: WorkArguments? = nil,
        printed: Bool = false
    ) -> SheetOptions {
        var o = printed ? SheetOptions.printed : SheetOptions()
        look?.apply(to: &o)
        layout.apply(to: &o)
        text.apply(to: &o)
        input.apply(to: &o)
        if let work {
            work.apply(to: &o)
        } else {
            o.jobs = ProcessInfo.processInfo.activeProcessorCount
        }
        return o
    }

    /// The typesetter with the system's fonts.
    static func typesetter() throws -> Typesetter {
        Typesetter(fonts: try FontLibrary())
    }

    /// "--name: "value" is not a colour" when `value` is given and is not one.
    static func checkColors(_ pairs: [(String, String?)]) throws {
        for (name, value) in pairs {
            if let value, Color(parsing: value) == nil {
                throw ValidationError("--\(name): \"\(value)\" is not a colour (use #rgb, #rrggbb, #rrggbbaa, a CSS name, or transparent)")
            }
        }
    }

    /// Output names must be valid UTF-8: the writers, renames and cleanup take paths as
    /// UTF-8 strings, and a name with other bytes would be written under another name.
    /// (Inputs may have any bytes: `FileNames`.)
    static func checkOutputNames(_ pairs: [(String, String?)]) throws {
        for case let (option, path?) in pairs where !FileNames.isValidUTF8(path) {
            throw ValidationError("\(option): \"\(FileNames.display(path))\" is not valid UTF-8; mosaic writes files under UTF-8 names only")
        }
    }

    /// "--name must be at least 1" for the first given value below 1.
    static func checkAtLeastOne(_ pairs: [(String, Int?)]) throws {
        for case let (name, value?) in pairs where value < 1 { throw ValidationError("--\(name) must be at least 1, got \(value)") }
    }

    /// "--name must not be negative" for the first negative value.
    static func checkNotNegative(_ pairs: [(String, Int)]) throws {
        for (name, value) in pairs where value < 0 { throw ValidationError("--\(name) must not be negative, got \(value)") }
    }
}

/// Warns, before anything is drawn, of pages too large for common viewers as single PNGs
/// (`ContactSheet.pagesTooLargeForViewers`), and says what to do instead.
func warnOfLargePages(_ sheet: ContactSheet, files: [String]) {
    let vertical = sheet.options.direction == .vertical
    let flag = vertical ? "--max-height" : "--max-width", across = vertical ? "--width" : "--height"
    let side = ContactSheet.ViewerLimit.side
    for page in sheet.pagesTooLargeForViewers {
        let name = page.page < files.count ? files[page.page] : "page \(page.page + 1)"
        let acrossLength = vertical ? page.size.width : page.size.height
        let advice = acrossLength > side ? "make it narrower (\(across) \(side) or less)" : "split it into pages with \(flag) \(side)"
        printError(
            "warning: \(name) would be \(page.size.width)x\(page.size.height): " + page.reasons.joined(separator: "; ")
                + ". To open it anywhere, \(advice), or write a zoomable pyramid with -o NAME.dzi")
    }
}

/// Writes a line to standard error, escaped for a terminal (`Terminal.printError`).
func printError(_ text: String) {
    Terminal.printError(text)
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
    } catch let error as RenderError {
        // One line each, escaped whole: a strict refusal names every input on its own line.
        let lines = error.lines
        printError("error: \(lines[0])")
        for line in lines.dropFirst() { printError("  " + line) }
        throw ExitCode(1)
    } catch let error as CustomStringConvertible
        where error is SheetError || error is OutputError || error is AssemblyError || error is CatalogError || error is TextError || error is Failure
        || error is CacheError
    {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}

/// The flag of a `SheetOptions` property: its kebab-case (`maxAspect` -> `--max-aspect`).
func flag(forOption property: String) -> String {
    LengthSetting.flag(forProperty: property)
}
