import Foundation
import PackagePlugin

/// `swift package shipcheck [audit options]`: runs `shipcheck audit` on the package, the way
/// SwiftLint's and swift-format's command plugins run their tools.
@main
struct ShipcheckAudit: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "shipcheck")
        var extractor = ArgumentExtractor(arguments)
        // Let users name a different root; default to the package directory.
        let roots = extractor.extractOption(named: "root")
        let root = roots.last ?? context.package.directoryURL.path
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["audit"] + extractor.remainingArguments + [root]
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            Diagnostics.error("shipcheck audit exited with \(process.terminationStatus)")
            throw ShipcheckFailure(status: process.terminationStatus)
        }
    }
}

struct ShipcheckFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String { "shipcheck audit exited with \(status)" }
}
