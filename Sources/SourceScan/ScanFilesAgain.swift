import ShipcheckCore

/// Files of the scan read and parsed again, in parallel, for what a pending finding waits on
/// (see `SwiftTypeFacts.confirmed`): only those whose bytes `mayHold` accepts are parsed. A
/// file that cannot be read or parsed now was reported by the scan, so it is skipped here.
struct ScanFilesAgain: Sendable {
    var files: [ScannedFile]
    var source: any FileSource
    var sizeLimit: Int

    /// `transform` of each parsed file; with `releaseOnly`, test code (`TestCode`) is skipped.
    func map<T: Sendable>(releaseOnly: Bool, where mayHold: @Sendable (UnsafeRawBufferPointer) -> Bool,
                          _ transform: @Sendable (ParsedSwiftFile) -> T?) -> [T] {
        files.parallelMap { file -> T? in
            guard let bytes = try? source.read(file.path, displayPath: file.relativePath, sizeLimit: sizeLimit),
                  bytes.withUnsafeBytes(mayHold),
                  let parsed = try? ParsedSwiftFile(bytes: bytes, path: file.relativePath),
                  !releaseOnly || !TestCode.contains(parsed) else { return nil }
            return transform(parsed)
        }.compactMap { $0 }
    }

    /// Whether one of `needles` is in the bytes.
    static func containsAny(of needles: [[UInt8]]) -> @Sendable (UnsafeRawBufferPointer) -> Bool {
        { hay in needles.contains { $0.withUnsafeBytes { ByteSearch.find($0, in: hay) != nil } } }
    }
}
