import Foundation
import ScanEngine
import ShipcheckCore

/// Where `sources` and `audit` keep per-file results between runs (`ResultCache`): the
/// platform's cache directory unless `--cache-path` names one or `--no-cache` turns it off.
package struct ResultCacheChoice: Sendable {
    /// Nil: no cache.
    package var directory: String?
    /// Named on the command line: then a cache that cannot be written is an input error (exit 2);
    /// the default one only earns a note, as it never changes what is reported.
    package var isExplicit: Bool
    /// The version that wrote a cache decides whether it is used (`VersionText`).
    package var toolVersion: String

    package init(directory: String?, isExplicit: Bool, toolVersion: String) {
        self.directory = directory
        self.isExplicit = isExplicit
        self.toolVersion = toolVersion
    }

    /// No cache.
    package static let none = ResultCacheChoice(directory: nil, isExplicit: false, toolVersion: "")

    /// The cache of one run over `roots`, or nil when there is none.
    func cache(for roots: [String]) -> ResultCache? {
        directory.map { ResultCache(directory: $0, roots: roots, toolVersion: toolVersion) }
    }

    /// `configuration` with the cache directory left out of the scan when it lies under `root`
    /// (a CI job that keeps it in the project folder, as GitLab's cache requires).
    func excludingCache(from configuration: Configuration, root: String) -> Configuration {
        let here = FileManager.default.currentDirectoryPath
        guard let directory,
            let relative = LexicalPath.relative(
                LexicalPath.absolute(directory, in: here), to: LexicalPath.absolute(root, in: here)),
            relative != "."
        else { return configuration }
        var configuration = configuration
        configuration.exclude = GlobList(configuration.exclude.globs.map(\.pattern) + [relative + "/**"])
        return configuration
    }

    /// Writes `cache`: what went wrong is an input error when the cache was asked for, else a note.
    func save(_ cache: ResultCache?, into result: inout CheckResult) {
        guard let cache else { return }
        do throws(InputError) {
            try cache.save()
        } catch {
            if isExplicit { result.inputErrors.append(error) } else { result.notes.append(error) }
        }
    }
}
