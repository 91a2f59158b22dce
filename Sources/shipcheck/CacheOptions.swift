import ArgumentParser
import ShipcheckCore
import ShipcheckFrontend

/// Where `sources` and `audit` keep per-file results between runs, so an unchanged file is
/// not parsed again (`ResultCache`).
struct CacheOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Keep per-file results in DIR (default: $XDG_CACHE_HOME/shipcheck when set, else ~/Library/Caches/shipcheck on macOS, ~/.cache/shipcheck elsewhere).",
            valueName: "dir"))
    var cachePath: String?

    @Flag(help: "Keep no per-file results: parse every file, read and write no cache.")
    var noCache = false

    /// The option of 0.1.0's `sources` (a cache file), which a Run Script phase may still pass.
    @Option(name: .customLong("cache"), help: .hidden)
    var formerCacheFile: String?

    func validate() throws {
        if noCache && cachePath != nil { throw ValidationError("--no-cache and --cache-path contradict each other") }
        if let formerCacheFile {
            throw ValidationError(
                "--cache FILE is now --cache-path DIR, a folder (\(formerCacheFile) can be deleted); "
                    + "without either, results are kept in the platform's cache folder")
        }
    }

    var choice: ResultCacheChoice {
        if noCache { return .none }
        return ResultCacheChoice(
            directory: cachePath ?? ResultCache.defaultDirectory(), isExplicit: cachePath != nil,
            toolVersion: VersionText.text)
    }
}
