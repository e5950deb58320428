import Foundation
import PackagePlugin

/// Before every build, writes `BuildCommit.swift` (the git commit the package is built
/// from, or nil outside a git work tree) into the target it is applied to: see
/// `scripts/build-commit.sh`.
@main
struct BuildCommit: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Reading the build commit from git",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [package.appendingPathComponent("scripts/build-commit.sh").path, package.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
