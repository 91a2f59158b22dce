/// Results kept between runs (ShipcheckCore's `ResultCache`), which a scan's checks — and what
/// they share, the project model — consult before they compute what a file's bytes decide, and
/// fill after. A value comes back only when it was stored under the same key by the same
/// version and decodes as asked; anything else is nil, and the caller computes it again.
package protocol ResultStore: Sendable {
    func value<Value: Decodable>(_ type: Value.Type, for key: String) -> Value?
    func record(_ value: some Encodable, for key: String)
}

extension ResultStore {
    /// The key of `kind`'s result for a file at `path` holding `bytes`, under `settings`
    /// (everything else that decides the result).
    package func key(_ kind: String, path: String, contentHash: String, settings: String) -> String {
        Array([kind, path, contentHash, settings].joined(separator: "\u{1F}").utf8).withByteView(ContentHash.hex)
    }

    /// The same for a file of the scan's read pass (its content hash is computed once for
    /// every check that asks).
    package func key(_ kind: String, contents: FileContents, settings: String) -> String {
        key(kind, path: contents.file.relativePath, contentHash: ContentHash.of(contents), settings: settings)
    }
}

extension ContentHash {
    /// A file's content hash, computed once for every check that asks.
    package static func of(_ contents: FileContents) -> String {
        contents.derived(FileHash.self) { FileHash(hex: $0.withBytes(hex)) }.hex
    }

    private struct FileHash { var hex: String }
}
