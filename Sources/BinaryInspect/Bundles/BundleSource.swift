import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// The most a walker reads of one entry of an artifact.
package enum EntryLimits {
    /// The largest binary read out of a zip (it is inflated into memory whole).
    package static let binary = 1 << 30
    /// Property lists, profiles and manifests are small; a huge one is not what it claims to be.
    package static let metadata = 8 << 20
}

/// One regular file inside a bundle or archive, named by its path there (`Payload/App.app/App`).
package struct BundleEntry: Sendable, Hashable {
    package var path: String
    package var size: EntrySize
}

/// How many bytes an entry takes in its artifact and how many it holds: a zip entry's sizes as
/// its central directory states them (a stored entry's are the same), a file's size on disk
/// twice. What a release adds is measured in both (`unzip -Z -l` prints them).
package struct EntrySize: Sendable, Hashable {
    package var compressed: UInt64
    package var uncompressed: UInt64

    package init(compressed: UInt64, uncompressed: UInt64) {
        self.compressed = compressed
        self.uncompressed = uncompressed
    }

    /// A file on disk, which no archive compresses.
    package init(onDisk size: UInt64) {
        self.init(compressed: size, uncompressed: size)
    }

    /// The entries' sizes by path; of entries a zip lists twice under one name, the last one's
    /// (the one `ZipBundleSource` reads).
    package static func byPath(_ entries: some Sequence<BundleEntry>, under prefix: String = "") -> [String: EntrySize]
    {
        Dictionary(entries.lazy.map { (prefix + $0.path, $0.size) }, uniquingKeysWith: { _, last in last })
    }
}

/// Where a bundle's files come from: a folder on disk or a zip read in place. The walker sees
/// only entries and their bytes, so every bundle kind is checked the same way whatever holds it.
package protocol BundleSource {
    /// How findings and errors name the bundle (`build/App.ipa`); entries are named under it.
    var root: String { get }
    /// Every regular file (symlinks are never followed), in a stable order, and what could not
    /// be listed or is refused (one error per entry, naming it).
    func files() -> (entries: [BundleEntry], errors: [InputError])
    /// The entry's bytes when its first bytes are a binary's (ELF, Mach-O, universal, static
    /// archive), refused when larger than `limit`; nil for any other entry (one that cannot be
    /// read is not taken for a binary).
    func binaryContents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes?
    /// The entry's bytes, refused when larger than `limit`.
    func contents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes
    /// Whether `contents(of:limit:)` maps the file (only the pages read are loaded) rather than
    /// copying it into memory, so a reader that touches a few bytes of it needs no size cap.
    var mapsContents: Bool { get }
}

extension BundleSource {
    /// How messages name an entry: `App.ipa/Payload/App.app/App`.
    package func displayPath(_ entry: String) -> String { entry.isEmpty ? root : "\(root)/\(entry)" }
}

/// A bundle that is a folder (`.app`, `.framework`, `.xcframework`, `.xcarchive`): listed like
/// any tree the tool walks (symlinks such as `Versions/Current` are not followed — their targets
/// inside the bundle are listed on their own; loops are errors), files mapped when read and
/// sized by one `stat` each as they are listed; opened through `source`.
package struct DirectoryBundleSource: BundleSource {
    package let root: String
    private let source: any FileSource
    package var mapsContents: Bool { true }

    package init(root: String, source: any FileSource = DiskFileSource()) {
        self.root = root
        self.source = source
    }

    package func files() -> (entries: [BundleEntry], errors: [InputError]) {
        let enumeration = FileEnumerator(root: root, scope: ScanScope(), useGit: false).enumerate()
        var entries: [BundleEntry] = []
        var errors = enumeration.errors.map {
            InputError(path: displayPath($0.path), line: $0.line, message: $0.message)
        }
        for file in enumeration.files {
            guard let key = SystemCalls.fileKey(of: file.path) else {
                errors.append(
                    InputError(path: displayPath(file.relativePath), message: "vanished while listed: not read"))
                continue
            }
            entries.append(BundleEntry(path: file.relativePath, size: EntrySize(onDisk: UInt64(key.size))))
        }
        return (entries, errors)
    }

    /// The magic is read from the mapping, so a binary is opened once (mapping costs what a
    /// read of its first bytes does: pages load when touched).
    package func binaryContents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes? {
        guard let bytes = try? mapped(entry), BinaryFile.looksLikeBinary(bytes.whole.prefix(8).array) else {
            return nil
        }
        return try limited(bytes, entry, limit)
    }

    package func contents(of entry: BundleEntry, limit: Int) throws(InputError) -> FileBytes {
        try limited(try mapped(entry), entry, limit)
    }

    private func mapped(_ entry: BundleEntry) throws(InputError) -> FileBytes {
        try source.opening(displayPath(entry.path)) { path throws(InputError) in try FileBytes.map(path: path) }
    }

    private func limited(_ bytes: FileBytes, _ entry: BundleEntry, _ limit: Int) throws(InputError) -> FileBytes {
        guard bytes.count <= limit else {
            throw InputError(path: displayPath(entry.path), message: "larger than \(limit) bytes: not read")
        }
        return bytes
    }
}
