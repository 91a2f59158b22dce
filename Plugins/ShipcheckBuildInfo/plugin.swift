import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the git revision the executable was built from) before every build.
///
/// A prebuild command because only those run on every build: the revision changes with each
/// commit while no source file does. `scripts/build-revision.sh` rewrites the file only when the
/// revision changed, so an unchanged checkout does not recompile or relink anything. No tracked
/// file is touched (the output lives in the plugin's work directory), and a build outside a
/// clone (a source archive) records "unknown" instead of failing. The script reads git's files
/// itself, since git on macOS is an xcrun shim that fails inside the plugin sandbox.
@main
struct ShipcheckBuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let package = context.package.directoryURL
        return [
            .prebuildCommand(
                displayName: "Recording the git revision of \(context.package.displayName)",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    package.appending(path: "scripts/build-revision.sh").path(percentEncoded: false),
                    package.path(percentEncoded: false), output.path(percentEncoded: false)
                ],
                outputFilesDirectory: output
            )
        ]
    }
}
