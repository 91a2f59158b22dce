import Dispatch
import Synchronization

/// One walk, every check: ripgrep's shape. The tree is listed once; the files some check
/// needs early (project files) are read first; then every file any check wants is read once,
/// in parallel, into one buffer that each interested check inspects in turn. No file's bytes
/// outlive its turn: what a check needs across files it keeps as facts, and a file its facts
/// say it must see again it opens again at the end (`ScanContext.reopen`). What the checks
/// make of it is theirs (ShipcheckCore's `ScanPipeline` finishes them into findings).
package struct ReadPass: Sendable {
    package let root: String
    /// What is listed and how large a file may be.
    package let scope: ScanScope
    package let source: any FileSource
    /// Whether names git lists are checked with lstat before reading (see
    /// `FileEnumerator.checksGitListedKinds`); without, what cannot be read is sorted out after.
    package let checksListedKinds: Bool
    /// Where the run reports its phase and files done (the progress line of long runs).
    package let progress: ScanProgress?
    /// Results of earlier runs the checks may take instead of computing them (`ScanContext.results`).
    package let results: (any ResultStore)?

    package init(
        root: String, scope: ScanScope, source: any FileSource = DiskFileSource(), checksListedKinds: Bool = true,
        progress: ScanProgress? = nil, results: (any ResultStore)? = nil
    ) {
        self.results = results
        self.root = FileEnumerator.trimmingSlash(root)
        self.scope = scope
        self.source = source
        self.checksListedKinds = checksListedKinds
        self.progress = progress
    }

    /// Files read ahead of the first one whose checks are not done: what a streaming check
    /// (`ReadPassCheck.fileCompleted`) holds back at most.
    package static let filesInFlight = 64

    /// Lists, reads and hands out the files; then every check has seen what it asked for.
    package func run(_ checks: [any ReadPassCheck]) -> ReadPassOutcome {
        // A directory a reading thread keeps open stands for its path during this scan only.
        SafeFileReader.forgetOpenDirectories()
        defer { SafeFileReader.forgetOpenDirectories() }
        let clocks = checks.map { _ in CheckClock() }
        // Project files and the like, before anything else: picked out as the listing comes
        // (while git still lists a large index), not in a pass over it after.
        var earlyFiles: [ScannedFile] = []
        let shared = SharedObjects(checks.map(CheckHandle.init))
        let enumeration = source.enumerate(
            root: root, scope: scope, checksListedKinds: checksListedKinds
        ) { files in
            earlyFiles += files.filter { file in
                shared.indices.contains { check in shared.borrow(check) { $0.check.needsEarly(file) } }
            }
        }
        var inputErrors = enumeration.errors
        let sizeLimit = scope.maxFileSize
        let source = source
        let earlyReads = earlyFiles.parallelMap { file in
            Result { () throws(InputError) -> [UInt8] in
                try source.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit)
            }
        }
        let early = Dictionary(zip(earlyFiles.map(\.path), earlyReads), uniquingKeysWith: { first, _ in first })
        for case .failure(let error) in earlyReads { inputErrors.append(error) }
        let context = ScanContext(
            root: root, scope: scope, files: enumeration.files, listingErrors: enumeration.errors,
            repository: enumeration.repository, source: source, early: early, results: results)
        let extras = zip(checks, clocks).flatMap { check, clock in clock.measure { check.prepare(context) } }
        var files = enumeration.files
        if !extras.isEmpty {
            var listed = Set(files.map(\.path))
            for extra in extras where listed.insert(extra.path).inserted { files.append(extra) }
        }

        // The read pass: per file, no allocation until a check wants it (the checks that do are
        // one bit each), and one clock reading per check that inspects it.
        precondition(checks.count <= CheckSet.bitWidth, "a scan runs at most \(CheckSet.bitWidth) checks")
        let listedCount = enumeration.files.count
        // Files a listing hands over later (untracked ones, while git walks the work tree) come
        // after the listing and the extras: listed too.
        let laterStart = files.count
        let checkedKinds = enumeration.checkedKinds
        let progress = progress
        progress?.begin("reading files", total: files.count)
        // The input errors files left, in listing order (files complete in order): most leave
        // none, and a slot per file would be an array as long as the listing.
        let reported = Mutex<[InputError]>([])
        // Apart from the checks: one handle holding both was slower, for no reason the
        // disassembly showed (see docs/performance.md, "Clocks apart from the checks").
        let sharedClocks = SharedObjects(clocks)
        // The files of `scanned` from `start` on, read in parallel and completed in order.
        func readPass(_ scanned: [ScannedFile], from start: Int) {
            Array(start..<scanned.count).parallelForEach(
                window: Self.filesInFlight,
                { index -> [InputError] in
                    defer { progress?.advance() }
                    let file = scanned[index]
                    var wanting = shared.indices.reduce(into: CheckSet(0)) { wanting, check in
                        if shared.borrow(check, { $0.check.wants(file) }) { wanting |= 1 << check }
                    }
                    guard wanting != 0 else { return [] }
                    // A file unchanged since an earlier run goes to each check by content hash
                    // first; it is read only for the checks that kept no result for it.
                    let unchanged = unchangedFile(file, index: index)
                    if let unchanged {
                        var started = CheckClock.now
                        for check in shared.indices where wanting & (1 << check) != 0 {
                            if shared.borrow(check, { $0.check.inspectUnchanged(unchanged) }) {
                                wanting &= ~(1 << check)
                            }
                            let now = CheckClock.now
                            sharedClocks.borrow(check) { $0.add(nanoseconds: now - started) }
                            started = now
                        }
                        guard wanting != 0 else { return unchanged.errors }
                    }
                    let toRead = wanting, unchangedErrors = unchanged?.errors ?? []
                    // A local function handed only to non-escaping parameters, returning the file's
                    // errors: it captures constants only (`toRead` too), as a captured variable is a
                    // heap box per file.
                    func inspect(_ view: borrowing ByteView, _ key: FileKey?) -> [InputError] {
                        let contents = FileContents(file: file, index: index, bytes: view.base, key: key)
                        var started = CheckClock.now
                        for check in shared.indices where toRead & (1 << check) != 0 {
                            shared.borrow(check) { $0.check.inspect(contents) }
                            let now = CheckClock.now
                            sharedClocks.borrow(check) { $0.add(nanoseconds: now - started) }
                            started = now
                        }
                        if let results, let key, let hash = ContentHash.ifComputed(contents) {
                            results.recordRead(path: file.path, key: key, contentHash: hash)
                        }
                        return unchangedErrors + contents.errors
                    }
                    if !early.isEmpty, let copy = early[file.path] {
                        guard let bytes = try? copy.get() else { return unchangedErrors }  // reported when it was read
                        return bytes.withByteView { inspect($0, nil) }
                    }
                    do throws(InputError) {
                        return try source.withContents(
                            file.path, displayPath: file.relativePath, sizeLimit: sizeLimit, inspect)
                    } catch {
                        let listedUnchecked = (index < listedCount || index >= laterStart) && !checkedKinds
                        return unchangedErrors
                            + ((listedUnchecked ? Self.readFailure(of: file, error) : error).map { [$0] } ?? [])
                    }
                },
                completed: { position, errors in
                    // The position in this pass's input: the file's index less `start`.
                    let index = start + position
                    for check in shared.indices { shared.borrow(check) { $0.check.fileCompleted(index) } }
                    if !errors.isEmpty { reported.withLock { $0 += errors } }
                })
        }
        readPass(files, from: 0)
        // Then the files listed after the others: the scan's checks need no complete listing
        // before they read (the source defers them only for such a scan: `query run`).
        if let later = enumeration.later {
            let (laterFiles, laterErrors) = later.take()
            inputErrors += laterErrors
            let extraPaths = Set(extras.map(\.path))
            files += extraPaths.isEmpty ? laterFiles : laterFiles.filter { !extraPaths.contains($0.path) }
            progress?.grow(by: files.count - laterStart)
            readPass(files, from: laterStart)
        }
        inputErrors += reported.withLock { $0 }
        return ReadPassOutcome(inputErrors: inputErrors, clocks: clocks, context: context)
    }

    /// The file as an earlier run read it, when the result store knows its key and it has not
    /// changed since (the listing's lstat, or a `stat`; no open); nil when it must be read.
    private func unchangedFile(_ file: ScannedFile, index: Int) -> UnchangedFile? {
        guard let results, results.knowsFileKeys, let key = file.listedKey ?? SystemCalls.fileKey(of: file.path),
            let hash = results.unchangedContentHash(path: file.path, key: key)
        else { return nil }
        return UnchangedFile(file: file, index: index, contentHash: hash)
    }

    /// The error to report for a listed file that could not be read when the listing did not
    /// lstat it, or nil when skipping it is right: what the lstat would have skipped (a
    /// symlink whose target is listed on its own or outside the root, a submodule, a tracked
    /// file deleted from the work tree).
    static func readFailure(of file: ScannedFile, _ error: InputError) -> InputError? {
        switch FileKind.of(file.path) {
        case .symlink?:
            return FileEnumerator.symlinkProblem(file.path).map {
                InputError(path: FileEnumerator.escaped(file.relativePath), message: $0)
            }
        case .directory?, nil:
            return nil
        default:
            return error
        }
    }
}

/// What the read pass leaves: the inputs that could not be taken, the time each check spent
/// on the files, and the scan's context, which checks may still report to while they finish.
package struct ReadPassOutcome: Sendable {
    /// Unlisted or unreadable inputs, each reported once whichever checks wanted it.
    package var inputErrors: [InputError]
    /// One per check, in the order the checks were given; they go on counting whatever the
    /// caller measures with them (finishing the checks).
    package var clocks: [CheckClock]
    package var context: ScanContext
}

/// The checks of a scan that want one file, one bit each.
private typealias CheckSet = UInt64

/// A check in an object of its own, so the read pass can borrow it (`SharedObjects`).
private final class CheckHandle: Sendable {
    let check: any ReadPassCheck

    init(_ check: any ReadPassCheck) { self.check = check }
}

/// Time spent in one check, from every thread.
package final class CheckClock: Sendable {
    private let nanoseconds = StripedCounter()

    /// A monotonic reading in nanoseconds: cheaper than `ContinuousClock`'s instants and
    /// durations, read twice per file.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    package var seconds: Double { Double(nanoseconds.total) / 1e9 }

    package func measure<T>(_ body: () -> T) -> T {
        let start = Self.now
        let value = body()
        add(nanoseconds: Self.now - start)
        return value
    }

    func add(nanoseconds elapsed: UInt64) {
        nanoseconds.add(Int(elapsed))
    }
}
