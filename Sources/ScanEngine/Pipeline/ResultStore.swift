/// Results kept between runs (ShipcheckCore's `ResultCache`), which a scan's checks — and what
/// they share, the project model — consult before they compute what a file's bytes decide, and
/// fill after. A value comes back only when it was stored under the same key by the same
/// version and decodes as asked; anything else is nil, and the caller computes it again.
///
/// The store also remembers what each file was when a run read it (its `FileKey`, git's stat
/// data, and its content hash), so the next run's read pass can hand a file whose key has not
/// changed to its checks by content hash alone, without opening it (`UnchangedFile`).
package protocol ResultStore: Sendable {
    func value<Value: Decodable>(_ type: Value.Type, for key: ResultKey) -> Value?
    func record(_ value: some Encodable, for key: ResultKey)

    /// Whether an earlier run left file keys to compare with; without, the read pass does not
    /// `stat` files before reading them.
    var knowsFileKeys: Bool { get }

    /// The content hash of the file at `path` when an earlier run read it, if `key` (its
    /// `stat` now) is the key it had then and that read was not racy (`FileKey.isRacy`): the
    /// same file, unchanged since. Nil otherwise.
    func unchangedContentHash(path: String, key: FileKey) -> String?

    /// Remembers that the file at `path`, read with key `key`, held bytes of `contentHash`.
    func recordRead(path: String, key: FileKey, contentHash: String)
}

/// What a stored result is kept under: a 128-bit hash of everything that decides it.
package struct ResultKey: Hashable, Sendable {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The key of `text` (the fields of `ResultStore.key`, joined).
    init(text: String) {
        (high, low) = Array(text.utf8).withByteView { (ContentHash.xxh64($0), ContentHash.xxh64($0, seed: 1)) }
    }
}

extension ResultStore {
    /// The key of `kind`'s result for a file at `path` holding bytes of `contentHash`, under
    /// `settings` (everything else that decides the result).
    package func key(_ kind: String, path: String, contentHash: String, settings: String) -> ResultKey {
        ResultKey(text: [kind, path, contentHash, settings].joined(separator: "\u{1F}"))
    }
}

extension ContentHash {
    /// A file's content hash, computed once for every check that asks.
    package static func of(_ contents: FileContents) -> String {
        contents.derived(FileHash.self) { FileHash(hex: $0.withBytes(hex)) }.hex
    }

    /// The content hash of `contents` if some check asked for it, else nil.
    static func ifComputed(_ contents: FileContents) -> String? {
        contents.existingDerived(FileHash.self)?.hex
    }

    private struct FileHash { var hex: String }
}

/// A file of the scan that an earlier run read and that has not changed since (its key is the
/// same, `ResultStore.unchangedContentHash`): a check that kept its result under the content
/// hash takes it from there, without the bytes (`ReadPassCheck.inspectUnchanged`).
package final class UnchangedFile {
    package let file: ScannedFile
    /// The file's position in the scan, as `FileContents.index`.
    package let index: Int
    /// What `ContentHash.of` gave for its bytes.
    package let contentHash: String
    /// The problems reported for this file so far.
    package private(set) var errors: [InputError] = []

    package init(file: ScannedFile, index: Int, contentHash: String) {
        self.file = file
        self.index = index
        self.contentHash = contentHash
    }

    /// Reports a problem with this file (one a cached result holds), once.
    package func report(_ error: InputError) {
        if !errors.contains(error) { errors.append(error) }
    }
}

/// Where a check keeps one file's result, but for the file's content hash: the store (nil when
/// the scan keeps none), the check's name, the file's path and everything else that decides the
/// result. The one way the read pass's checks take a result kept by an earlier run or make and
/// keep it, for a file read now and for one unchanged since.
package struct FileResultSlot {
    package var store: (any ResultStore)?
    package var kind: String
    package var path: String
    package var settings: String

    package init(store: (any ResultStore)?, kind: String, path: String, settings: String) {
        self.store = store
        self.kind = kind
        self.path = path
        self.settings = settings
    }

    /// The key for bytes of `contentHash`, when there is a store.
    package func key(contentHash: String) -> ResultKey? {
        store?.key(kind, path: path, contentHash: contentHash, settings: settings)
    }

    /// The result for the read pass's file: kept by an earlier run for the same bytes, or made
    /// by `make` now (and kept for the next runs).
    package func result<Value: Codable>(of contents: FileContents, make: () -> Value) -> Value {
        guard let store, let key = key(contentHash: ContentHash.of(contents)) else { return make() }
        if let kept = store.value(Value.self, for: key) { return kept }
        let made = make()
        store.record(made, for: key)
        return made
    }

    /// The result kept for a file unchanged since an earlier run, or nil when there is none.
    package func result<Value: Decodable>(_ type: Value.Type, of file: UnchangedFile) -> Value? {
        key(contentHash: file.contentHash).flatMap { store?.value(type, for: $0) }
    }
}
