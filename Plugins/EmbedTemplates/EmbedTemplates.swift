import Foundation
import PackagePlugin

/// Embeds the web templates of the target it is applied to (every file in its
/// `Reports/Templates` folder: HTML, JavaScript, CSS) into the binary as Swift string
/// constants, so that the program needs no resource bundle beside it. Each file becomes
/// `EmbeddedTemplates.<name>` (`viewer.html` -> `viewerHTML`, `diff-report.html` ->
/// `diffReportHTML`): see `scripts/embed-template.sh`. The folder is excluded from the
/// target's sources in Package.swift; a file added to it is embedded at the next build.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = target.directoryURL.appendingPathComponent("Reports/Templates")
        let script = context.package.directoryURL.appendingPathComponent("scripts/embed-template.sh")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        return names.map { name in
            let template = folder.appendingPathComponent(name)
            let generated = output.appendingPathComponent(name.replacingOccurrences(of: ".", with: "_") + ".swift")
            return .buildCommand(
                displayName: "Embedding the template \(name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, template.path, generated.path],
                inputFiles: [template, script],
                outputFiles: [generated])
        }
    }
}
