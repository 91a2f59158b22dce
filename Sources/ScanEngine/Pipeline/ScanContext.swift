import Synchronization

/// What every check of one scan shares: the root, the scope, the one listing, the
/// files read early (project files), and values built once from them for every check that
/// asks (the project model).
package final class ScanContext: Sendable {
    package let root: String
    /// What the scan lists and reads (its size cap is the one for files read besides).
    package let scope: ScanScope
    /// The listing, in order: every check sees the same files. Without the files a source
    /// lists late (`FileEnumeration.later`), which only a scan whose checks do not look here
    /// asks for (`query run`).
    package let files: [ScannedFile]
    /// What the listing could not take (a FIFO, a symlink loop), reported by the scan.
    package let listingErrors: [InputError]
    /// The work tree git listed the files of, or nil outside one.
    package let repository: GitRepository?
    package let source: any FileSource
    /// Results of earlier runs, when the scan keeps them (`ResultStore`).
    package let results: (any ResultStore)?
    /// Files read before the read pass, by path to open.
    private let early: [String: Result<[UInt8], InputError>]
    private let values = Mutex<[ObjectIdentifier: any Sendable]>([:])
    private let reported = Mutex<[InputError]>([])

    init(
        root: String, scope: ScanScope, files: [ScannedFile], listingErrors: [InputError],
        repository: GitRepository?,
        source: any FileSource, early: [String: Result<[UInt8], InputError>], results: (any ResultStore)? = nil
    ) {
        self.results = results
        self.root = root
        self.scope = scope
        self.files = files
        self.listingErrors = listingErrors
        self.repository = repository
        self.source = source
        self.early = early
    }

    /// The bytes of a file read early, or nil when it was not (or could not be) read.
    package func earlyContents(of file: ScannedFile) -> [UInt8]? {
        try? early[file.path]?.get()
    }

    /// The bytes of the file at `path` (as opened: under the root): the early copy when it was
    /// read early, else read now. For files a reader follows from another (an `#include`d
    /// `.xcconfig`, a `.gitattributes` above the root), which the listing may not hold.
    package func contents(ofPath path: String, displayPath: String? = nil, sizeLimit: Int) throws(InputError) -> [UInt8]
    {
        if let copy = early[path] { return try copy.get() }
        return try source.read(path, displayPath: displayPath ?? path, sizeLimit: sizeLimit)
    }

    /// Opens `files` (with their indices in the scan) again, in parallel, and hands each one's
    /// contents to `body`: for a check that learns only at the end of the read pass which files
    /// it must look at again (see `ReadPassCheck`). The bytes live for the call, as in the read
    /// pass. A file that cannot be read or parsed now was reported by the read pass (or the
    /// body's problems are the read pass's over again): nil, and nothing reported twice.
    package func reopen<Value: Sendable>(
        _ files: [(file: ScannedFile, index: Int)], _ body: @Sendable (FileContents) -> Value?
    ) -> [Value?] {
        let source = source, sizeLimit = scope.maxFileSize
        return files.parallelMap { file, index in
            func inspect(_ view: borrowing ByteView, _ key: FileKey?) -> Value? {
                body(FileContents(file: file, index: index, bytes: view.base, key: key))
            }
            if let copy = early[file.path] {
                return (try? copy.get()).flatMap { $0.withByteView { inspect($0, nil) } }
            }
            return try? source.withContents(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit, inspect)
        }
    }

    /// Reports a problem with an input that is not one file's read (a project that does not
    /// parse, an `#include` that cannot be read): the scan lists it with its input errors.
    package func report(_ error: InputError) {
        reported.withLock { $0.append(error) }
    }

    /// What was reported so far (`report`).
    package var reportedErrors: [InputError] { reported.withLock { $0 } }

    /// The value of type `Value` built for this scan: made by `make` the first time any check
    /// asks (with this context), the same value afterwards.
    package func shared<Value: Sendable>(_ type: Value.Type = Value.self, _ make: (ScanContext) -> Value) -> Value {
        let key = ObjectIdentifier(type)
        if let stored = values.withLock({ $0[key] }), let value = stored as? Value { return value }
        let value = make(self)
        return values.withLock { stored in
            if let first = stored[key], let value = first as? Value { return value }
            stored[key] = value
            return value
        }
    }
}
