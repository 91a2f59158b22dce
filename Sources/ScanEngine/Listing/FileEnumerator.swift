import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file chosen for scanning.
package struct ScannedFile: Sendable, Hashable {
    /// Relative to the scanned root, `/`-separated: what reports show.
    package var relativePath: String
    /// What to open.
    package var path: String
    /// The file's key as the listing's lstat saw it (a regular file's), when it took one: a
    /// warm run compares it with the result cache's instead of taking another.
    package var listedKey: FileKey?

    package init(relativePath: String, path: String, listedKey: FileKey? = nil) {
        self.relativePath = relativePath
        self.path = path
        self.listedKey = listedKey
    }

    /// One file is one path, whenever the listing looked at it.
    package static func == (lhs: ScannedFile, rhs: ScannedFile) -> Bool {
        lhs.relativePath == rhs.relativePath && lhs.path == rhs.path
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(relativePath)
        hasher.combine(path)
    }
}

/// The files of a scan and the inputs that could not be taken.
package struct FileEnumeration: Sendable {
    package var files: [ScannedFile] = []
    package var errors: [InputError] = []
    /// The work tree git listed the files of, or nil when a plain walk did.
    package var repository: GitRepository?
    /// Whether git chose the files (inside a work tree) or a plain walk did.
    package var usedGit: Bool { repository != nil }
    /// Whether every listed file was checked with lstat (see `FileEnumerator.checksGitListedKinds`).
    package var checkedKinds = true
    /// Files listed after the others, still being listed when the enumeration returned: the
    /// untracked ones, while git walks the work tree (`FileEnumerator.defersUntracked`).
    package var later: DeferredFiles?
}

/// The untracked files of a listing that did not wait for them: `take` waits for git's walk
/// of the work tree and returns them (after the include / exclude globs) and what could not be
/// taken.
package struct DeferredFiles: Sendable {
    package let take: @Sendable () -> (files: [ScannedFile], errors: [InputError])
}

/// Lists the files a check should read under a root.
///
/// Inside a git work tree it uses git's own view: tracked files plus (unless
/// `listsUntracked` is off) untracked files that are not ignored. Outside one it walks the
/// directory (skipping `.git`); inside one where git cannot run (macOS's plugin sandbox), the
/// walk leaves out what the ignore files do (`IgnoreRules`). Either way the
/// scope's include / exclude globs apply on top, symlinks are never followed (a
/// link's target inside the root is listed on its own; one outside the root is not ours to
/// scan), and FIFOs, sockets and devices are reported, never opened.
package struct FileEnumerator: Sendable {
    package let root: String
    package let scope: ScanScope
    package let useGit: Bool
    /// Whether names git lists are checked with lstat (symlinks, FIFOs, deleted files). A
    /// caller that opens every file anyway with `SafeFileReader` (which refuses all of those)
    /// can turn this off and save one lstat per file; it then sees such entries as read errors.
    package let checksGitListedKinds: Bool
    /// Whether git's listing includes untracked files that are not ignored (else the index
    /// alone: what `conflicts` and `query run --tracked` search, as `git grep` does).
    package let listsUntracked: Bool
    /// git's listing of this root, when one was started ahead (taken only if it is of this
    /// root and includes untracked files exactly when this enumerator would).
    package let startedListing: GitListing?
    /// Whether a listing started ahead returns once the index's files are listed, its untracked
    /// files in `FileEnumeration.later`: a scan whose checks need no complete listing before
    /// they read (`query run`) reads the tracked files while git still walks the work tree.
    package let defersUntracked: Bool
    /// `root/`, what each listed name is joined to (empty for `.`).
    private let pathPrefix: String

    package init(
        root: String, scope: ScanScope, useGit: Bool = true, checksGitListedKinds: Bool = true,
        listsUntracked: Bool = true,
        startedListing: GitListing? = nil, defersUntracked: Bool = false
    ) {
        self.root = Self.trimmingSlash(root)
        self.scope = scope
        self.useGit = useGit
        self.checksGitListedKinds = checksGitListedKinds
        self.listsUntracked = listsUntracked
        self.startedListing = startedListing
        self.defersUntracked = defersUntracked
        pathPrefix = self.root == "." ? "" : self.root + "/"
    }

    /// `dir/` is `dir` (but `/` stays `/`).
    static func trimmingSlash(_ root: String) -> String {
        root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
    }

    package func enumerate() -> FileEnumeration {
        enumerate(delivering: { _ in })
    }

    /// Names of a listing started ahead taken at a time: a few wake-ups of the scan's thread
    /// while git lists, not one per chunk git writes, and few names left to turn into files
    /// once git is done (a larger batch delayed the first read after git's exit: see
    /// docs/performance.md, "Taking the listing in batches of 1,024").
    static let namesPerBatch = 1024

    /// `enumerate()`, handing the files to `deliver` as they become known, in listing order:
    /// with a listing started ahead (`startedListing`), a batch per thousand or so names while
    /// git still lists; else all at once at the end.
    package func enumerate(delivering deliver: (ArraySlice<ScannedFile>) -> Void) -> FileEnumeration {
        var result = FileEnumeration()
        switch FileKind.of(root) {
        case nil:
            result.errors.append(InputError(path: root, message: "no such file or directory"))
            return result
        case .regular?:
            result.files.append(ScannedFile(relativePath: Self.lastComponent(root), path: root))
            deliver(result.files[...])
            return result
        case .directory?:
            break
        case let kind?:
            result.errors.append(InputError(path: root, message: "not a regular file or directory (\(kind.rawValue))"))
            return result
        }
        if useGit,
            let (repository, listed, untracked) = gitListing({ names in
                let start = result.files.count
                for name in names { consider(name, walking: false, into: &result) }
                deliver(result.files[start...])
            })
        {
            switch listed {
            case .success:
                result.repository = repository
                result.checkedKinds = checksGitListedKinds
            case .failure(let error):
                result.errors.append(error)
            }
            if let untracked {
                let enumerator = self
                result.later = DeferredFiles {
                    var part = FileEnumeration()
                    switch untracked.value {
                    case .success(let names):
                        for name in names { enumerator.consider(name, walking: false, into: &part) }
                    case .failure(let error): part.errors.append(error)
                    }
                    return (part.files, part.errors)
                }
            }
            return result
        }
        result = walked(honouringIgnoreFiles: useGit)
        deliver(result.files[...])
        return result
    }

    /// The plain walk of the root; with `honouringIgnoreFiles`, what git would list there when
    /// git cannot run (macOS's plugin sandbox): inside a work tree the ignore files' rules
    /// apply (`IgnoreRules`) and nested repositories are not entered, as git lists them.
    func walked(
        honouringIgnoreFiles: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> FileEnumeration {
        var result = FileEnumeration()
        let rules = honouringIgnoreFiles ? IgnoreRules(forWalkOf: root, environment: environment) : nil
        walk(directory: [], ignoring: rules, into: &result)
        return result
    }

    /// git's listing of the root, its names handed to `body` as they come; the untracked ones
    /// still to come, when a listing started ahead defers them (`defersUntracked`).
    private func gitListing(_ body: ([ListedName]) -> Void)
        -> (
            repository: GitRepository, listed: Result<Void, InputError>,
            untracked: BackgroundValue<Result<[ListedName], InputError>>?
        )?
    {
        if let startedListing, startedListing.directory == root, startedListing.untracked == listsUntracked {
            return startedListing.take(inBatchesOf: Self.namesPerBatch, deferringUntracked: defersUntracked, body)
        }
        guard let (repository, names) = GitRepository.listing(in: root, untracked: listsUntracked) else { return nil }
        if let names = try? names.get() { body(names) }
        return (repository, names.map { _ in }, nil)
    }

    private func absolute(_ relative: [UInt8]) -> [UInt8] {
        root == "." ? relative : Array(root.utf8) + [UInt8(ascii: "/")] + relative
    }

    /// Decides about one entry, named relative to the root.
    private func consider(_ name: ListedName, walking: Bool, into result: inout FileEnumeration) {
        let relative: String
        switch name {
        case .text(let text):
            relative = text
        case .invalid(let bytes):
            result.errors.append(
                InputError(
                    path: Self.escaped(String(lossyUTF8: bytes)), message: "file name is not valid UTF-8; not scanned"))
            return
        }
        guard scope.isScanned(relative) else { return }
        let path = pathPrefix.isEmpty ? relative : pathPrefix + relative
        if !walking && !checksGitListedKinds {
            result.files.append(ScannedFile(relativePath: relative, path: path))
            return
        }
        let status = FileKind.status(of: path)
        switch status?.kind {
        case .regular?:
            result.files.append(ScannedFile(relativePath: relative, path: path, listedKey: status?.key))
        case .symlink?:
            if let problem = Self.symlinkProblem(path) {
                result.errors.append(InputError(path: Self.escaped(relative), message: problem))
            }
        case .directory?, nil:
            // A submodule's gitlink, or a tracked file deleted in the work tree: nothing to read.
            break
        case let kind?:
            result.errors.append(
                InputError(path: Self.escaped(relative), message: "not a regular file (\(kind.rawValue)); not scanned"))
        }
    }

    /// A plain recursive walk for roots outside git (`ignoring`: inside a work tree git cannot
    /// list).
    private func walk(directory relative: [UInt8], ignoring rules: IgnoreRules?, into result: inout FileEnumeration) {
        let path = relative.isEmpty ? Array(root.utf8) : absolute(relative)
        guard let entries = Self.entryNames(of: path) else {
            let shown = relative.isEmpty ? root : String(lossyUTF8: relative)
            result.errors.append(InputError(path: Self.escaped(shown), message: SafeFileReader.describe(errno: errno)))
            return
        }
        let rules = rules?.entering(relative, at: String(lossyUTF8: path))
        for name in entries.filter({ $0 != Array(".git".utf8) }).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let child = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
            let childPath = String(lossyUTF8: absolute(child))
            let isDirectory = FileKind.of(childPath) == .directory
            if let rules, rules.ignores(child, isDirectory: isDirectory) || isDirectory && Self.isRepository(childPath)
            {
                continue
            }
            if isDirectory {
                if let text = String(validating: child, as: UTF8.self), scope.exclude.matches(text) { continue }
                walk(directory: child, ignoring: rules, into: &result)
            } else {
                let name = (child + [0]).withUnsafeBufferPointer {
                    ListedName(terminated: UnsafeBufferPointer(rebasing: $0.dropLast()))
                }
                consider(name, walking: true, into: &result)
            }
        }
    }

    /// Whether `directory` is a work tree of its own (a submodule, a nested clone), whose
    /// files git leaves out of the enclosing repository's listing.
    private static func isRepository(_ directory: String) -> Bool {
        FileKind.of(directory + "/.git") != nil
    }

    /// The names in `directory` (its path's bytes) but `.` and `..`, as bytes: a name need not
    /// be UTF-8. Nil when it cannot be opened, `errno` saying why.
    package static func entryNames(of directory: [UInt8]) -> [[UInt8]]? {
        var terminated = directory.map { CChar(bitPattern: $0) } + [0]
        guard let stream = opendir(&terminated) else { return nil }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix(while: { $0 != 0 })) }
            if name != [46] && name != [46, 46] { names.append(name) }
        }
        return names
    }

    /// Why a symlink cannot be scanned, or nil when skipping it is simply right (its target is
    /// inside the root and listed on its own, or outside the root and none of ours).
    package static func symlinkProblem(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else {
            return errno == ELOOP ? "symlink loop; not scanned" : nil
        }
        free(resolved)
        return nil
    }

    /// Newlines in a name would split a one-line error: show them escaped. A backslash stays as
    /// it is: the text is for reading, never read back (`StateFileFormat.escape`, whose fields
    /// are read back, escapes it too).
    package static func escaped(_ path: String) -> String {
        // Most text has none: returned as it is, without a copy (a report escapes every line).
        guard path.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return path }
        var text = ""
        for scalar in path.unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    package static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
