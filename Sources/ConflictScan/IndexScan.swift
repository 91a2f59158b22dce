import Foundation
import ScanEngine
import ShipcheckCore

/// The `--staged` and `--rev` scopes: content read from git's object store through an index
/// (the real one, or a temporary one holding the revision's tree), never from a checkout.
struct IndexScan {
    let root: String
    let configuration: Configuration
    let rules: ConflictRules
    let filter: PathFilter
    /// nil: the index itself.
    let revision: String?

    /// Blobs handed to the parallel scan at once: bounds memory on huge trees.
    static let batchBytes = 64 << 20

    func run() -> CheckResult {
        var result = CheckResult()
        guard var repository = GitRepository(containing: root) else {
            let what = revision == nil ? "--staged" : "--rev"
            result.inputErrors.append(
                InputError(path: root, message: "not inside a git work tree; \(what) reads git's index and objects"))
            return result
        }
        var temporaryDirectory: String?
        defer { if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) } }
        do {
            if let revision {
                let directory = try Self.makeTemporaryDirectory()
                temporaryDirectory = directory
                try loadRevision(revision, into: &repository, indexFile: directory + "/index")
            }
            let listing = IndexEntry.parse(try repository.run(["ls-files", "--stage", "-z"]))
            result.inputErrors += listing.errors
            let entries = listing.entries.filter { filter.matches($0.path) && configuration.isScanned($0.path) }
            for operand in filter.unmatched(by: entries.map(\.path)) {
                result.inputErrors.append(
                    InputError(path: operand, message: "not in \(revision.map { "revision \($0)" } ?? "the index")"))
            }
            let allowed = configuration.settings(ConflictSettings.self).allow
            let blobs = entries.filter { $0.stage == 0 && $0.isRegularFile && !allowed.matches($0.path) }
            let attributes = try PathAttributes.lookUp(blobs.map(\.path), in: repository, cached: true)
            try scan(blobs, attributes: attributes, repository: repository, into: &result)

            if revision == nil {
                result.findings += rules.findings(
                    in: RepositoryConflicts(
                        unmerged: IndexEntry.unmerged(entries),
                        pathsWithBlocks: ConflictCheck.pathsWithBlocks(result.findings),
                        operation: try GitOperation.current(in: repository)))
            }
        } catch {
            result.inputErrors.append(error)
        }
        return result
    }

    /// Points `repository` at a temporary index holding `revision`'s tree, so listing and
    /// `.gitattributes` lookups see the revision (git 2.39 has no `check-attr --source`).
    private func loadRevision(_ revision: String, into repository: inout GitRepository, indexFile: String)
        throws(InputError)
    {
        guard !revision.hasPrefix("-"), !revision.isEmpty else {
            throw InputError(path: revision, message: "not a revision")
        }
        let resolved = Subprocess.git(["rev-parse", "--verify", "--quiet", revision + "^{tree}"], in: root)
        guard resolved.status == 0 else {
            throw InputError(path: revision, message: "not a commit or tree in this repository")
        }
        let tree = String(lossyUTF8: resolved.output).filter { !$0.isWhitespace }
        repository.environment["GIT_INDEX_FILE"] = indexFile
        _ = try repository.run(["read-tree", tree])
    }

    /// Streams the blobs and scans them a batch at a time, in parallel.
    private func scan(
        _ blobs: [IndexEntry], attributes: [String: PathAttributes], repository: GitRepository,
        into result: inout CheckResult
    ) throws(InputError) {
        let rules = rules
        var batch: [(entry: IndexEntry, bytes: [UInt8])] = []
        var batchSize = 0
        func flush() {
            let found = batch.parallelMap { item in
                let pathAttributes = attributes[item.entry.path] ?? .standard
                guard !pathAttributes.isBinary else { return (findings: [Finding](), notes: [InputError]()) }
                return rules.findings(
                    in: ContentScanner.scan(item.bytes, markerSize: pathAttributes.markerSize, path: item.entry.path),
                    path: item.entry.path)
            }
            result.findings += found.flatMap(\.findings)
            result.notes += found.flatMap(\.notes)
            result.filesScanned += batch.count
            batch.removeAll(keepingCapacity: true)
            batchSize = 0
        }
        let stream = GitBlobStream(repository: repository, sizeLimit: configuration.maxFileSize)
        try stream.read(blobs.map(\.object)) { index, blob in
            let entry = blobs[index]
            switch blob {
            case .content(let bytes):
                batch.append((entry, bytes))
                batchSize += bytes.count
                if batchSize >= Self.batchBytes { flush() }
            case .tooLarge(let size):
                result.inputErrors.append(InputError.tooLarge(entry.path, size: size, limit: configuration.maxFileSize))
            case .missing:
                result.inputErrors.append(
                    InputError(path: entry.path, message: "object \(entry.object) is missing from the repository"))
            }
        }
        flush()
    }

    private static func makeTemporaryDirectory() throws(InputError) -> String {
        guard let created = TemporaryNames.makeDirectory(NSTemporaryDirectory() + "shipcheck-index-XXXXXX") else {
            throw InputError(path: NSTemporaryDirectory(), message: "cannot create a temporary directory")
        }
        return created
    }
}
