import ScanEngine
import ShipcheckCore
import Synchronization

/// The `conflicts` check on the working tree, in a scan's one pass: every file's bytes are searched for
/// marker-like lines at the marker sizes attribute files set; git is asked for the attributes of only the
/// files where an opener, base or closer has one of those sizes (see `AttributeSources`), and their blocks are
/// recognised at the size those set — from the marker lines kept in the pass, without reading the file again.
/// Then the index (unmerged paths) and the git directory (a stopped merge) are checked.
package final class ConflictCheck: FileCheck {
    package let name = "conflicts"
    private let rules: ConflictRules
    private let configuration: Configuration
    private let filter: PathFilter
    /// Files that show markers on purpose (`conflicts.allow`), asked for every file.
    private let allowed: GlobList
    private let state = Mutex(State())

    private struct State {
        var repository: GitRepository?
        /// Unmerged index entries and a stopped operation, asked of git during the read pass.
        var repositoryState: BackgroundValue<Result<RepositoryState, InputError>>?
        var markerSizes = [ContentScanner.defaultMarkerSize]
        /// Files' marker facts from earlier runs (`ScanContext.results`).
        var results: (any ResultStore)?
        var scanned = 0
        /// Files that may hold a block or remnant, by their index in the scan.
        var candidates: [(index: Int, path: String, facts: MarkerFacts)] = []
    }

    /// `rules`: the registry's rules (the conflict rules among them run); `paths` limit the scan
    /// to files or directories relative to the root (operands such as the files pre-commit passes).
    package init(rules: [any Rule.Type], configuration: Configuration, paths: [String] = []) {
        self.rules = ConflictRules(rules, configuration: configuration)
        self.configuration = configuration
        filter = PathFilter(paths)
        allowed = configuration.settings(ConflictSettings.self).allow
    }

    /// `.gitattributes` files, read before the pass: their marker sizes are the ones searched for.
    package func needsEarly(_ file: ScannedFile) -> Bool { AttributeSources.isAttributeFile(file.relativePath) }

    /// The rules among `rules` the conflict checks run (for reports' rule lists).
    package static func ownRules(among rules: [any Rule.Type]) -> [any Rule.Type] {
        rules.filter { $0.inputs.contains(.conflictContent) || $0.inputs.contains(.repositoryConflict) }
    }

    package func prepare(_ context: ScanContext) -> [ScannedFile] {
        var markerSizes = [ContentScanner.defaultMarkerSize]
        if let repository = context.repository {
            do {
                markerSizes = try AttributeSources.markerSizes(in: repository, context: context)
            } catch {
                context.report(error)
            }
        }
        let filter = filter, configuration = configuration
        let repositoryState = context.repository.map { repository in
            BackgroundValue {
                Result { () throws(InputError) in
                    try RepositoryState(of: repository, filter: filter, configuration: configuration)
                }
            }
        }
        state.withLock {
            $0.repository = context.repository
            $0.repositoryState = repositoryState
            $0.markerSizes = markerSizes
            $0.results = context.results
        }
        return namedFiles(missingFrom: context)
    }

    package func wants(_ file: ScannedFile) -> Bool {
        filter.matches(file.relativePath) && !allowed.matches(file.relativePath)
    }

    package func inspect(_ contents: FileContents) {
        let (markerSizes, cache) = state.withLock { ($0.markerSizes, $0.results) }
        let path = contents.file.relativePath
        let facts = Self.slot(path, store: cache, markerSizes: markerSizes).result(of: contents) {
            contents.withBytes { ContentScanner.facts($0, markerSizes: markerSizes, path: path) }
        }
        take(facts, path: path, index: contents.index)
    }

    package func inspectUnchanged(_ file: UnchangedFile) -> Bool {
        let (markerSizes, cache) = state.withLock { ($0.markerSizes, $0.results) }
        let path = file.file.relativePath
        guard let kept = Self.slot(path, store: cache, markerSizes: markerSizes).result(MarkerFacts.self, of: file)
        else { return false }
        take(kept, path: path, index: file.index)
        return true
    }

    /// Where a file's marker facts are kept: besides its path and bytes, the marker sizes decide them.
    private static func slot(_ path: String, store: (any ResultStore)?, markerSizes: [Int]) -> FileResultSlot {
        FileResultSlot(
            store: store, kind: "conflicts", path: path, settings: markerSizes.map(String.init).joined(separator: ","))
    }

    /// A file's marker facts, found now or in an earlier run.
    private func take(_ facts: MarkerFacts, path: String, index: Int) {
        state.withLock { state in
            state.scanned += 1
            if facts.hasMarkerLines { state.candidates.append((index, path, facts)) }
        }
    }

    package func finish() -> CheckResult {
        let (repository, repositoryState, scanned, candidates) = state.withLock {
            ($0.repository, $0.repositoryState, $0.scanned, $0.candidates.sorted { $0.index < $1.index })
        }
        var result = CheckResult(filesScanned: scanned)
        var attributes: [String: PathAttributes] = [:]
        if let repository, !candidates.isEmpty {
            do {
                attributes = try PathAttributes.lookUp(candidates.map(\.path), in: repository, cached: false)
            } catch {
                result.inputErrors.append(error)
            }
        }
        for candidate in candidates {
            let pathAttributes = attributes[candidate.path] ?? .standard
            guard !pathAttributes.isBinary else { continue }
            let content = ContentScanner.conflicts(in: candidate.facts, markerSize: pathAttributes.markerSize)
            let found = rules.findings(in: content, path: candidate.path)
            result.findings += found.findings
            result.notes += found.notes
        }
        switch repositoryState?.value {
        case .success(let state)?:
            result.findings += rules.findings(
                in: RepositoryConflicts(
                    unmerged: state.unmerged, pathsWithBlocks: Self.pathsWithBlocks(result.findings),
                    operation: state.operation))
        case .failure(let error)?:
            result.inputErrors.append(error)
        case nil:
            break
        }
        return result
    }

    /// What the index and the git directory say, apart from any file's text.
    struct RepositoryState: Sendable {
        var unmerged: [String: Set<Int>]
        var operation: GitOperation?

        init(of repository: GitRepository, filter: PathFilter, configuration: Configuration) throws(InputError) {
            let listing = IndexEntry.parse(try repository.run(["ls-files", "-u", "-z"]))
            unmerged = IndexEntry.unmerged(
                listing.entries.filter { filter.matches($0.path) && configuration.isScanned($0.path) })
            operation = try GitOperation.current(in: repository)
        }
    }

    static func pathsWithBlocks(_ findings: [Finding]) -> Set<String> {
        Set(findings.filter { $0.ruleID == ConflictMarkerRule.id }.map(\.location.path))
    }

    /// Operands naming files git does not list (ignored files, or a plain directory's files
    /// the walk already covers) are still scanned when they exist; ones that do not exist are
    /// input errors. Operands the listing already reported (a FIFO, a symlink loop) are not
    /// reported twice.
    private func namedFiles(missingFrom context: ScanContext) -> [ScannedFile] {
        var files: [ScannedFile] = []
        let listed = context.files.map(\.relativePath) + context.listingErrors.map(\.path)
        for operand in filter.unmatched(by: listed) {
            let path = context.root == "." ? operand : "\(context.root)/\(operand)"
            switch FileKind.of(path) {
            case .regular?:
                if configuration.isScanned(operand) { files.append(ScannedFile(relativePath: operand, path: path)) }
            case nil:
                context.report(InputError(path: operand, message: "no such file or directory"))
            case .directory?:
                break  // nothing git lists under it: nothing to scan
            case let kind?:
                context.report(InputError(path: operand, message: "not a regular file (\(kind.rawValue)); not scanned"))
            }
        }
        return files
    }
}
