import Foundation

/// The git work tree a scan runs in, when there is one. Git knows best which files are
/// ignored, what attributes a path has and what the index holds, so we ask it.
package struct GitRepository: Sendable {
    /// The directory commands run in (the scanned root); git prints paths relative to it.
    package let directory: String
    /// Extra environment for every git command, e.g. `GIT_INDEX_FILE` to read a temporary
    /// index holding a committed tree.
    package var environment: [String: String] = [:]

    /// The repository containing `directory`, or nil when it is not inside a git work tree
    /// (or git is not installed).
    package init?(containing directory: String) {
        let result = Subprocess.git(["rev-parse", "--show-toplevel"], in: directory)
        guard result.status == 0 else { return nil }
        let top = String(lossyUTF8: result.output).trimmingCharacters(in: .newlines)
        guard !top.isEmpty else { return nil }
        self.directory = directory
    }

    /// A work tree `directory` is known to be in (git listed its files).
    private init(listed directory: String) {
        self.directory = directory
    }

    /// Runs git in the scanned root; a non-zero exit is an error naming the command.
    package func run(_ arguments: [String], input: [UInt8]? = nil) throws(InputError) -> [UInt8] {
        try Self.run(arguments, in: directory, input: input, environment: environment)
    }

    private static func run(
        _ arguments: [String], in directory: String, input: [UInt8]? = nil,
        environment: [String: String] = [:]
    ) throws(InputError) -> [UInt8] {
        let result = Subprocess.git(arguments, in: directory, input: input, environment: environment)
        try succeeded(result, arguments, in: directory)
        return result.output
    }

    /// A non-zero exit is an error naming the command.
    private static func succeeded(_ result: ProcessResult, _ arguments: [String], in directory: String)
        throws(InputError)
    {
        guard result.status == 0 else {
            throw InputError(path: directory, message: "git \(arguments.first ?? "") failed: \(result.errorOutput)")
        }
    }

    /// The repository containing `directory` and its files: tracked files, in the index's
    /// order, then (with `untracked`) untracked files that are not ignored, relative to
    /// `directory`. Tracked files come from the index without walking the work tree; the
    /// untracked ones from a second git, started at once beside the first, which walks it.
    /// Nil outside a work tree. Only a failed listing asks whether this is a work tree at all
    /// (outside one the listing fails too, and the caller walks the directory instead).
    package static func listing(in directory: String, untracked: Bool) -> (
        repository: GitRepository, names: Result<[ListedName], InputError>
    )? {
        // One git listing both comes out of the walk for untracked files only when the walk is
        // over: the tracked names, which the scan could read meanwhile, are printed after it.
        let others = untracked ? startUntrackedListing(in: directory) : nil
        guard var listed = trackedListing(in: directory, feed: nil) else { return nil }
        if let others, case .success(let tracked) = listed.names {
            listed.names = others.value.map { tracked + $0 }
        }
        return listed
    }

    /// The files git tracks below `directory`, from the index, their names going to `feed` as
    /// git writes them (the result then holds none). Nil outside a work tree.
    static func trackedListing(in directory: String, feed: ListingFeed?) -> (
        repository: GitRepository, names: Result<[ListedName], InputError>
    )? {
        let names = Result { () throws(InputError) in
            // Names are taken apart as git writes them, while it still works through the index.
            let arguments = ["ls-files", "-z", "--cached", "--deduplicate", "--", "."]
            var parser = ListedName.Parser()
            // Names fed so far, and taken apart in this run of git: when git has to run again (its
            // status was lost), its listing is the same and the names fed already are skipped.
            var fed = 0
            var parsed = 0
            let result = Subprocess.git(
                arguments, in: directory,
                restart: {
                    parser = ListedName.Parser()
                    parsed = 0
                },
                output: { chunk in
                    parser.take(chunk)
                    guard let feed else { return }
                    let names = parser.takeNames()
                    let new = names.dropFirst(Swift.max(0, fed - parsed))
                    parsed += names.count
                    if !new.isEmpty { feed.publish(new) }
                    fed += new.count
                })
            try succeeded(result, arguments, in: directory)
            return parser.names
        }
        if case .success = names { return (GitRepository(listed: directory), names) }
        guard let repository = GitRepository(containing: directory) else { return nil }
        return (repository, names)
    }

    /// The untracked files below `directory` that are not ignored, listed by a git that walks
    /// the work tree on a thread of its own (`value` waits for them), so the index's files can
    /// be listed and read meanwhile.
    static func startUntrackedListing(in directory: String) -> BackgroundValue<Result<[ListedName], InputError>> {
        BackgroundValue { untrackedNames(in: directory) }
    }

    /// The untracked files below `directory` that are not ignored: git walks the work tree.
    private static func untrackedNames(in directory: String) -> Result<[ListedName], InputError> {
        Result { () throws(InputError) in
            let arguments = ["ls-files", "-z", "--others", "--exclude-standard", "--", "."]
            var parser = ListedName.Parser()
            let result = Subprocess.git(
                arguments, in: directory, restart: { parser = ListedName.Parser() }, output: { parser.take($0) })
            try succeeded(result, arguments, in: directory)
            return parser.names
        }
    }

    /// Attribute values for many paths in one `git check-attr -z --stdin` call:
    /// path → attribute → value (`set`, `unset`, `unspecified` or the value text).
    package func attributes(_ names: [String], for paths: [String], cached: Bool = false) throws(InputError) -> [String:
        [String: String]]
    {
        guard !paths.isEmpty else { return [:] }
        var input: [UInt8] = []
        for path in paths {
            input += Array(path.utf8)
            input.append(0)
        }
        let arguments = ["check-attr", "-z", "--stdin"] + (cached ? ["--cached"] : []) + names
        let fields = try run(arguments, input: input).split(separator: 0, omittingEmptySubsequences: false).map {
            String(lossyUTF8: $0)
        }
        var table: [String: [String: String]] = [:]
        var index = 0
        while index + 2 < fields.count {
            table[fields[index], default: [:]][fields[index + 1]] = fields[index + 2]
            index += 3
        }
        return table
    }
}

/// A file name as git lists it (any bytes but NUL): text when it is valid UTF-8; else its
/// bytes, which are reported and never scanned (a path shipcheck cannot print or match).
package enum ListedName: Sendable {
    case text(String)
    case invalid([UInt8])

    /// `name` is followed by a NUL byte: read as a C string (the non-generic, fast validation).
    init(terminated name: UnsafeBufferPointer<UInt8>) {
        if let base = name.baseAddress,
            let text = String(validatingCString: UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self))
        {
            self = .text(text)
        } else {
            self = .invalid(Array(name))
        }
    }

    /// The names of a NUL-terminated listing (`git ls-files -z`), in order, taken a chunk at a
    /// time as the listing arrives. Bytes after the last NUL (git ends every name with one)
    /// are no name.
    struct Parser {
        private(set) var names: [ListedName] = []
        /// The start of a name the last chunk ended inside.
        private var partial: [UInt8] = []

        mutating func take(_ chunk: UnsafeRawBufferPointer) {
            let bytes = chunk.assumingMemoryBound(to: UInt8.self)
            var start = 0
            while let end = ByteSearch.find(byte: 0, in: chunk, from: start) {
                if partial.isEmpty {
                    if end > start {
                        names.append(ListedName(terminated: UnsafeBufferPointer(rebasing: bytes[start..<end])))
                    }
                } else {
                    partial += bytes[start...end]
                    names.append(
                        partial.withUnsafeBufferPointer {
                            ListedName(terminated: UnsafeBufferPointer(rebasing: $0.dropLast()))
                        })
                    partial.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            partial += bytes[start...]
        }

        /// The names taken apart so far, handed over (the parser keeps none).
        mutating func takeNames() -> [ListedName] {
            let taken = names
            names = []
            return taken
        }
    }
}
