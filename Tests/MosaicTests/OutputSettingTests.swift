import Foundation
import Mosaic
import Testing

/// A fifth sheet kind, as a program (or a new file in `Sources/Mosaic/Outputs/`) adds one:
/// this one struct declares the kind and its own setting, and the one line that registers
/// it is `GreyLevelsOutput.kinds` below (`OutputKinds.all` for the command line's kinds).
/// Nothing else is touched: `OutputRequest` carries its setting by name, `RenderJob`
/// checks it against the declaration, and the kind reads it.
struct GreyLevelsOutput: OutputKind {
    static let name = "grey"
    static let suffixes = [".grey"]
    static let hint = ".grey for grey levels"
    static let takesPages = false
    static let settings = [levels]
    /// The kind's own setting: how many grey levels the page keeps.
    static let levels = OutputSetting(name: "levels", help: "Grey sheets: grey levels, 2 to 256.", kind: .integer(default: 256, range: 2...256))

    /// The registry this program renders with: the standard kinds and this one.
    static let kinds: [any OutputKind.Type] = OutputKinds.all + [GreyLevelsOutput.self]

    let levels: Int

    static func namedFiles(_ request: OutputRequest) -> [String] { [] }
    static func validate(_ request: OutputRequest, options: SheetOptions) throws(OutputRequestError) {}

    init(_ request: OutputRequest, options: SheetOptions) {
        levels = request.integer(Self.levels) ?? 256
    }

    func plan(_ sheet: ContactSheet, check: OutputCheck) throws(RenderError) -> OutputPlan {
        OutputPlan(sink: MemorySink(), files: [], mapOutput: nil, written: { _ in "\(levels) grey levels" })
    }
}

@Suite struct OutputSettingTests {
    static func request(_ destination: String, _ settings: [String: OutputSettingValue]) -> OutputRequest {
        var request = OutputRequest(destination: destination)
        request.settings = settings
        return request
    }

    /// The new kind's setting reaches it by name, its default when not given.
    @Test func aNewKindsSettingReachesIt() throws {
        let job = try RenderJob(request: Self.request("a.grey", ["levels": .integer(4)]), options: SheetOptions(), kinds: GreyLevelsOutput.kinds)
        #expect(job.kind.name == "grey")
        #expect((job.output as? GreyLevelsOutput)?.levels == 4)
        let defaulted = try RenderJob(request: Self.request("a.grey", [:]), options: SheetOptions(), kinds: GreyLevelsOutput.kinds)
        #expect((defaulted.output as? GreyLevelsOutput)?.levels == 256)
        // The registry lists it with its kind, for the command line's help.
        let listed = OutputKinds.allSettings(in: GreyLevelsOutput.kinds).first { $0.setting.name == "levels" }
        #expect(listed?.kinds == ["grey"])
    }

    /// Each refusal is its typed case, naming the setting.
    @Test func settingsAreCheckedAgainstTheirDeclarations() {
        let kinds = GreyLevelsOutput.kinds
        #expect(throws: OutputRequestError.settingNotTaken(name: "levels", kind: "png", takers: ["grey"])) {
            _ = try RenderJob(request: Self.request("a.png", ["levels": .integer(4)]), options: SheetOptions(), kinds: kinds)
        }
        #expect(throws: OutputRequestError.settingOutOfRange(name: "levels", value: 1, range: 2...256)) {
            _ = try RenderJob(request: Self.request("a.grey", ["levels": .integer(1)]), options: SheetOptions(), kinds: kinds)
        }
        #expect(throws: OutputRequestError.settingValue(name: "levels", value: "on", expected: "a value of this setting")) {
            _ = try RenderJob(request: Self.request("a.grey", ["levels": .flag(true)]), options: SheetOptions(), kinds: kinds)
        }
        let error = #expect(throws: OutputRequestError.self) {
            _ = try RenderJob(request: Self.request("a.grey", ["shades": .integer(4)]), options: SheetOptions(), kinds: kinds)
        }
        guard case .unknownSetting(let name, let known)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(name == "shades" && known.contains("levels") && known.contains("quality"))
        // Without the kind registered, its setting is no setting at all.
        #expect(throws: OutputRequestError.self) { _ = try RenderJob(request: Self.request("a.png", ["levels": .integer(4)]), options: SheetOptions()) }
    }

    /// The standard kinds' settings, as the flags gave them before they were declarations.
    @Test func theStandardSettings() throws {
        #expect(throws: OutputRequestError.settingNotTaken(name: "quality", kind: "png", takers: ["jpeg", "webp", "avif", "jxl", "pdf"])) {
            _ = try RenderJob(request: Self.request("a.png", ["quality": .integer(50)]), options: SheetOptions())
        }
        #expect(throws: OutputRequestError.settingNotTaken(name: "tileSize", kind: "png", takers: ["dzi", "iiif"])) {
            _ = try RenderJob(request: Self.request("a.png", ["tileSize": .integer(128)]), options: SheetOptions())
        }
        #expect(throws: OutputRequestError.settingNotTaken(name: "overlap", kind: "iiif", takers: ["dzi"])) {
            var request = Self.request("tiles", ["overlap": .integer(2)])
            request.format = "iiif"
            _ = try RenderJob(request: request, options: SheetOptions())
        }
        #expect(throws: OutputRequestError.settingOutOfRange(name: "dpi", value: 5000, range: 36...1200)) {
            _ = try RenderJob(request: Self.request("a.pdf", ["dpi": .integer(5000)]), options: SheetOptions())
        }
        #expect(throws: OutputRequestError.settingValue(name: "tileFormat", value: "gif", expected: "one of png, jpeg")) {
            _ = try RenderJob(request: Self.request("a.dzi", ["tileFormat": .choice("gif")]), options: SheetOptions())
        }
        let job = try RenderJob(request: Self.request("a.pdf", ["dpi": .integer(72), "pageSize": .text("letter")]), options: SheetOptions())
        #expect((job.output as? PDFOutput)?.dpi == 72)
        #expect((job.output as? PDFOutput)?.pageSize == .letter)
    }

    @Test func textGivesEachKindOfValue() throws {
        #expect(try OutputSetting.quality.value(parsing: "50") == .integer(50))
        #expect(throws: OutputRequestError.settingValue(name: "quality", value: "high", expected: "a whole number")) {
            _ = try OutputSetting.quality.value(parsing: "high")
        }
        #expect(try OutputSetting.lossless.value(parsing: "off") == .flag(false))
        #expect(throws: OutputRequestError.settingValue(name: "lossless", value: "maybe", expected: "on or off")) {
            _ = try OutputSetting.lossless.value(parsing: "maybe")
        }
        #expect(OutputSetting.flag(for: "iiifID") == "--iiif-id" && OutputSetting.flag(for: "skipBlankTiles") == "--skip-blank-tiles")
    }

    /// The request's text (which the sheet's fingerprint reads) lists the settings in the
    /// order of their names, whatever the dictionary's order in this process.
    @Test func theRequestsTextIsTheSameInEveryProcess() {
        var a = Self.request("a.webp", ["quality": .integer(50), "lossless": .flag(true)])
        var b = OutputRequest(destination: "a.webp")
        b.settings["lossless"] = .flag(true)
        b.settings["quality"] = .integer(50)
        #expect(a.description == b.description)
        #expect(a.description.contains("settings: [\"lossless\": \"on\", \"quality\": \"50\"]"))
        a.settings["quality"] = .integer(51)
        #expect(a.description != b.description)
    }
}
