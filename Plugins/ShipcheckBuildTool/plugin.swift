import Foundation
import PackagePlugin

/// Runs `shipcheck sources` on a target's Swift files during builds (SwiftPM and Xcode), so
/// previews and Development Assets code outside `#if DEBUG` show up as compiler warnings in
/// the build log and Xcode's issue navigator.
///
/// Incremental in two ways. The build command declares the target's Swift files (and
/// `.shipcheck.yml`) as inputs and a stamp as its output, so the build system skips it when
/// none of them changed. When one changed, the command runs on all of them again (it has to
/// print every finding again, or the issue navigator would lose the others), but its per-file
/// cache means only the changed files are parsed.
///
/// The stamp is an empty Swift file compiled into the target: a build command runs only when
/// the target consumes one of its outputs, and any other kind of file would be bundled into
/// the product as a resource.
@main
struct ShipcheckBuildTool: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        return try SourcesStep(
            shipcheck: context.tool(named: "shipcheck").url,
            workDirectory: context.pluginWorkDirectoryURL,
            projectDirectory: context.package.directoryURL,
            targetName: target.name,
            swiftFiles: target.sourceFiles(withSuffix: "swift").map(\.url)
        ).commands()
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ShipcheckBuildTool: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        try SourcesStep(
            shipcheck: context.tool(named: "shipcheck").url,
            workDirectory: context.pluginWorkDirectoryURL,
            projectDirectory: context.xcodeProject.directoryURL,
            targetName: target.displayName,
            swiftFiles: target.inputFiles.filter { $0.type == .source && $0.url.pathExtension == "swift" }.map(\.url)
        ).commands()
    }
}
#endif

/// The one build command, the same for a package target and an Xcode target.
struct SourcesStep {
    var shipcheck: URL
    var workDirectory: URL
    var projectDirectory: URL
    var targetName: String
    var swiftFiles: [URL]

    func commands() -> [Command] {
        guard !swiftFiles.isEmpty else { return [] }
        let stamp = workDirectory.appending(path: "ShipcheckSourcesStamp.swift")
        let cache = workDirectory.appending(path: "shipcheck-cache")
        var inputs = swiftFiles
        var arguments = ["sources", "--lenient", "--absolute-paths", "--cache-path", cache.path(percentEncoded: false)]
        let configuration = projectDirectory.appending(path: ".shipcheck.yml")
        if FileManager.default.fileExists(atPath: configuration.path(percentEncoded: false)) {
            arguments += ["--config", configuration.path(percentEncoded: false)]
            inputs.append(configuration)
        }
        arguments += swiftFiles.map { $0.path(percentEncoded: false) }
        // sh runs shipcheck and, when it succeeded, empties the stamp (updating its time).
        return [
            .buildCommand(
                displayName: "shipcheck sources (\(targetName))",
                executable: URL(filePath: "/bin/sh"),
                arguments: [
                    "-c", "stamp=$1; shift; \"$@\" && : > \"$stamp\"", "sh", stamp.path(percentEncoded: false),
                    shipcheck.path(percentEncoded: false)
                ] + arguments,
                inputFiles: inputs + [shipcheck],
                outputFiles: [stamp]
            )
        ]
    }
}
