/// One file's bytes as every interested check sees them, read once. What checks derive from
/// the bytes (a line table, a parsed Swift file) is computed by the first check that asks and
/// shared with the others; it lives as long as this value, which is one file's turn on one
/// worker thread.
package final class FileContents {
    package let file: ScannedFile
    /// The file's position in the scan, so per-file results can be put back in listing order.
    package let index: Int
    /// A worker's read buffer (or the early copy), valid only during this file's turn: the
    /// next file is read into the same memory. Lent through `withBytes` as a `ByteView`, never
    /// handed out.
    private let bytes: UnsafeRawBufferPointer
    /// The file's key when it was read from disk (see `FileSource.withContents`), else nil.
    package let key: FileKey?
    private var derivedValues: [ObjectIdentifier: Any] = [:]
    /// The problems reported for this file so far.
    package private(set) var errors: [InputError] = []

    init(file: ScannedFile, index: Int, bytes: UnsafeRawBufferPointer, key: FileKey? = nil) {
        self.file = file
        self.index = index
        self.bytes = bytes
        self.key = key
    }

    /// Lends the file's bytes to `body` for the call. They are not the check's to keep (the
    /// buffer holds another file's bytes after this turn), and the view cannot be kept: copy
    /// what must outlive the call.
    package func withBytes<Result, Failure: Error>(
        _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(ByteView(unsafeBytes: bytes))
    }

    /// Lends `body` the contents of a file that holds `bytes` (files the tests make up).
    package static func with<Result>(
        _ bytes: [UInt8], of file: ScannedFile, index: Int = 0, _ body: (FileContents) -> Result
    ) -> Result {
        bytes.withUnsafeBytes { body(FileContents(file: file, index: index, bytes: $0)) }
    }

    /// The file's size in bytes.
    package var byteCount: Int { bytes.count }

    /// The value of type `Value` derived from this file: made by `make` the first time any
    /// check asks, the same value afterwards.
    package func derived<Value>(_ type: Value.Type = Value.self, _ make: (FileContents) -> Value) -> Value {
        let key = ObjectIdentifier(type)
        // Looked up by presence, not by cast: a derived value may itself be optional.
        if let stored = derivedValues[key], let value = stored as? Value { return value }
        let value = make(self)
        derivedValues[key] = value
        return value
    }

    /// The value of type `Value` some check derived from this file, or nil when none did yet.
    package func existingDerived<Value>(_ type: Value.Type) -> Value? {
        derivedValues[ObjectIdentifier(type)] as? Value
    }

    /// Reports a problem with this file as an input error. The same error reported by several
    /// checks (a Swift file that is not UTF-8) is reported once.
    package func report(_ error: InputError) {
        if !errors.contains(error) { errors.append(error) }
    }
}
