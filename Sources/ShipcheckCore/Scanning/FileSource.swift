/// Where a scan's files come from: listed once, each read on request. `ScanPipeline` asks for
/// the listing once and for each file's bytes once; a test can wrap it to count both.
public protocol FileSource: Sendable {
    /// The files under `root`, after the configuration's include / exclude globs.
    func enumerate(root: String, configuration: Configuration, checksListedKinds: Bool) -> FileEnumeration

    /// Calls `body` with the file's bytes, valid only during the call.
    func withContents<T>(_ path: String, displayPath: String, sizeLimit: Int, _ body: (UnsafeRawBufferPointer) -> T) throws(InputError) -> T
}

extension FileSource {
    /// The file's bytes as an array, for what must outlive the read.
    public func read(_ path: String, displayPath: String, sizeLimit: Int) throws(InputError) -> [UInt8] {
        try withContents(path, displayPath: displayPath, sizeLimit: sizeLimit) { Array($0) }
    }
}

/// The file system: git's view (or a walk) through `FileEnumerator`, reads through
/// `SafeFileReader` into a per-thread buffer.
public struct DiskFileSource: FileSource {
    public init() {}

    public func enumerate(root: String, configuration: Configuration, checksListedKinds: Bool) -> FileEnumeration {
        FileEnumerator(root: root, configuration: configuration, checksGitListedKinds: checksListedKinds).enumerate()
    }

    public func withContents<T>(_ path: String, displayPath: String, sizeLimit: Int, _ body: (UnsafeRawBufferPointer) -> T) throws(InputError) -> T {
        try SafeFileReader.withContents(path, displayPath: displayPath, sizeLimit: sizeLimit, body)
    }
}
