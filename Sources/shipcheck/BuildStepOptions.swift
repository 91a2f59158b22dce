import ArgumentParser
import ShipcheckCore
import SourceScan

/// Options for running `sources` as a build step (the ShipcheckBuildTool plugin, an Xcode Run
/// Script phase): warnings only, absolute paths, and a per-file cache between builds.
struct BuildStepOptions: ParsableArguments {
    @Flag(help: "Report errors as warnings, so findings never fail the run (for build steps).")
    var lenient = false

    @Flag(help: "Name files by absolute path, so build systems (Xcode's issue navigator) can open them.")
    var absolutePaths = false

    @Option(help: ArgumentHelp("Keep per-file results in FILE between runs; unchanged files are not parsed again.", valueName: "file"))
    var cache: String?

    func openCache() -> SourceScanCache? {
        cache.map { SourceScanCache(path: $0, toolVersion: VersionText.text) }
    }

    func present(_ result: inout CheckResult, root: String) {
        if lenient { result.lowerErrorsToWarnings() }
        if absolutePaths { result.anchorPaths(at: root) }
    }

    /// Writes the cache; a cache that cannot be written is an input error (exit 2), like any output.
    func save(_ opened: SourceScanCache?) -> [InputError] {
        guard let opened, let cache else { return [] }
        do {
            try opened.write(to: cache)
            return []
        } catch {
            return [error]
        }
    }
}
