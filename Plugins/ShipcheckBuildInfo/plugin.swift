import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the git revision the executable was built from) before every build.
///
/// A prebuild command because only those run on every build: the revision changes with each
/// commit while no source file does. The script rewrites the file only when the revision
/// changed, so an unchanged checkout does not recompile or relink anything. No tracked file is
/// touched (the output lives in the plugin's work directory), and a build without git or
/// outside a clone (a source archive) records "unknown" instead of failing.
@main
struct ShipcheckBuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "Generated")
        let script = """
            revision=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || revision=unknown
            mkdir -p "$2"
            printf '/// Generated before each build by the ShipcheckBuildInfo plugin.\\nenum BuildInfo {\\n    static let gitRevision = "%s"\\n}\\n' "$revision" > "$2/BuildInfo.swift.new"
            if cmp -s "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; then rm -f "$2/BuildInfo.swift.new"; else mv "$2/BuildInfo.swift.new" "$2/BuildInfo.swift"; fi
            """
        return [.prebuildCommand(
            displayName: "Recording the git revision of \(context.package.displayName)",
            executable: URL(filePath: "/bin/sh"),
            arguments: ["-c", script, "sh", context.package.directoryURL.path(percentEncoded: false), output.path(percentEncoded: false)],
            outputFilesDirectory: output
        )]
    }
}
