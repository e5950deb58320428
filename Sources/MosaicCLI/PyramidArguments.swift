import ArgumentParser
import Foundation
import Mosaic

/// What the board is written as: an output kind (PNG pages, a tile pyramid...) and the
/// kinds' settings (`render` only). Each setting is declared by its kind (`OutputSetting`);
/// here only the older settings' own flags, each one line in `givenSettings`, and
/// `--output-setting NAME=VALUE`, which reaches every declared setting, a new kind's too.
struct PyramidArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What to write (default: by the output's suffix, or png). (values: \(OutputKinds.names.joined(separator: ", ")))",
            valueName: "format"),
        completion: .list(OutputKinds.names))
    var format: String?
    @Option(parsing: .unconditional, help: outputSettingHelp("quality"))
    var quality: Int?
    @Flag(help: outputSettingHelp("lossless"))
    var lossless = false
    @Option(help: outputSettingHelp("pageSize", valueName: "size"))
    var pageSize: String?
    @Option(parsing: .unconditional, help: outputSettingHelp("dpi"))
    var dpi: Int?
    @Option(parsing: .unconditional, help: outputSettingHelp("tileSize"))
    var tileSize: Int?
    @Option(parsing: .unconditional, help: outputSettingHelp("overlap"))
    var overlap: Int?
    @Option(help: outputSettingHelp("tileFormat"), completion: .list(outputSettingChoices("tileFormat")))
    var tileFormat: String?
    @Option(parsing: .unconditional, help: outputSettingHelp("tileQuality"))
    var tileQuality: Int?
    @Flag(help: outputSettingHelp("skipBlankTiles"))
    var skipBlankTiles = false
    @Flag(help: "Pyramids: no NAME.html viewer beside the pyramid.")
    var noViewer = false
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Pyramids: render part K (from 0) of N; 'mosaic assemble' finishes it (default: the whole).",
        valueName: "K/N"))
    var shard: String?
    @Option(help: outputSettingHelp("iiifID", valueName: "url"))
    var iiifId: String?
    @Option(
        name: .customLong("output-setting"),
        help: ArgumentHelp(
            "A setting of the output kind, NAME=VALUE (repeatable): any below, a new kind's too.",
            discussion: OutputKinds.allSettings().map { "\($0.setting.name) (\($0.kinds.joined(separator: ", ")))" }.joined(separator: "; "),
            valueName: "name=value"))
    var outputSettings: [String] = []

    func validate() throws {
        if let format, !OutputKinds.names.contains(format) {
            throw ValidationError("--format: \"\(format)\" is not a format (use \(OutputKinds.names.joined(separator: ", ")))")
        }
        if let shard { _ = try ShardArgument.parse(shard) }
        do {
            _ = try givenSettings()
        } catch {
            throw ValidationError(message(error))
        }
    }

    /// The values given to the kinds' settings, by name: each flag given, and each
    /// `--output-setting` (a setting given both ways takes the later, `--output-setting`).
    ///
    /// - Throws: `OutputRequestError` for `--output-setting` text that is not NAME=VALUE, a
    ///   name no kind declares, or a value not of its setting's kind.
    func givenSettings() throws(OutputRequestError) -> [String: OutputSettingValue] {
        var given: [String: OutputSettingValue] = [:]
        if let quality { given["quality"] = .integer(quality) }
        if lossless { given["lossless"] = .flag(true) }
        if let pageSize { given["pageSize"] = .text(pageSize) }
        if let dpi { given["dpi"] = .integer(dpi) }
        if let tileSize { given["tileSize"] = .integer(tileSize) }
        if let overlap { given["overlap"] = .integer(overlap) }
        if let tileFormat { given["tileFormat"] = .choice(tileFormat) }
        if let tileQuality { given["tileQuality"] = .integer(tileQuality) }
        if skipBlankTiles { given["skipBlankTiles"] = .flag(true) }
        if noViewer { given["viewer"] = .flag(false) }
        if let iiifId { given["iiifID"] = .text(iiifId) }
        for text in outputSettings {
            let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]), value = parts.count == 2 ? String(parts[1]) : nil
            guard let setting = OutputKinds.setting(named: name) else {
                throw .unknownSetting(name: name, known: OutputKinds.allSettings().map(\.setting.name))
            }
            // A flag alone is on; anything else needs its value.
            guard let value else {
                guard case .flag = setting.kind else { throw .settingValue(name: name, value: text, expected: "NAME=VALUE") }
                given[name] = .flag(true)
                continue
            }
            given[name] = try setting.value(parsing: value)
        }
        return given
    }

    /// The settings with a flag of their own here, by name (`viewer` is off by `--no-viewer`).
    static let ownFlags: [String: String] = [
        "quality": "--quality", "lossless": "--lossless", "pageSize": "--page-size", "dpi": "--dpi", "tileSize": "--tile-size",
        "overlap": "--overlap", "tileFormat": "--tile-format", "tileQuality": "--tile-quality", "skipBlankTiles": "--skip-blank-tiles",
        "viewer": "--no-viewer", "iiifID": "--iiif-id",
    ]

    /// The names given through `--output-setting`.
    var namesGivenAsSettings: Set<String> {
        Set(outputSettings.map { String($0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]) })
    }

    /// The flag that gave the setting `name` on this command line: `--output-setting NAME`
    /// when it came that way (or has no flag of its own), else its own (`--quality`).
    func flag(for name: String) -> String {
        guard !namesGivenAsSettings.contains(name), let own = Self.ownFlags[name] else { return "--output-setting \(name)" }
        return own
    }

    /// The message of a request the kinds refuse, each setting named as it was given.
    func message(_ error: OutputRequestError) -> String { error.message(flag: flag(for:)) }

    /// What the user asked to be written to `output`, with the JSON map to `json`.
    func request(output: String?, json: String?) -> OutputRequest {
        var request = OutputRequest(destination: output, format: format, json: json)
        request.shard = shard
        // Checked by validate(): nothing here can fail any more.
        request.settings = (try? givenSettings()) ?? [:]
        return request
    }
}

/// The help of an output setting, as its kind declares it (with its choices, and its
/// default when the declaration does not say it).
func outputSettingHelp(_ name: String, valueName: String? = nil) -> ArgumentHelp {
    guard let setting = OutputKinds.setting(named: name) else { return ArgumentHelp("") }
    var help = OutputKinds.help(for: setting)
    switch setting.kind {
    case .choice(_, let values): help += " (values: \(values.joined(separator: ", ")))"
    case .integer(let value?, _) where !help.contains("default"): help += " (default: \(value))"
    default: break
    }
    return ArgumentHelp(help, valueName: valueName)
}

/// The values a choice setting offers, for completion.
func outputSettingChoices(_ name: String) -> [String] {
    guard case .choice(_, let values)? = OutputKinds.setting(named: name)?.kind else { return [] }
    return values
}
