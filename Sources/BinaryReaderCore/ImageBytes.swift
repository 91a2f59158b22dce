import Foundation
import ScanEngine

/// Bytes of a binary — a whole file, a universal slice, an archive member, a section, a table —
/// as a checked view that images may keep: it holds the `FileBytes` it points into, so the
/// memory lives as long as any view of it.
///
/// Every read is checked against the view's bounds in every build. The optional readers answer
/// nil outside them (a decoder's "not there"); the throwing ones say what was out of range:
/// the structure being read, its offset and length, and what the view holds, with the offset
/// in the file, as LLVM's object readers' `Expected<T>` does. Hot loops borrow the bytes as the
/// engine's `ByteView` for the length of one call (`withByteView`).
package struct ImageBytes: Sendable {
    @usableFromInline let storage: FileBytes
    /// Where the view starts inside `storage`.
    @usableFromInline let start: Int
    package let count: Int

    @usableFromInline init(storage: FileBytes, start: Int, count: Int) {
        self.storage = storage
        self.start = start
        self.count = count
    }

    /// An empty view (a section without file contents).
    package static let empty = FileBytes(copying: EmptyCollection()).whole

    package var isEmpty: Bool { count == 0 }
    package var indices: Range<Int> { 0..<count }
    /// Where the view starts in the file it was read from (for messages).
    package var fileOffset: Int { start }

    /// The byte at `index`; traps when `index` is out of bounds, in every build.
    @inlinable package subscript(_ index: Int) -> UInt8 {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: count), "ImageBytes index out of range")
        return storage.bytes[start + index]
    }

    /// The bytes of `range`, or nil when `range` is not inside the view.
    @inlinable package func slice(_ range: Range<Int>) -> ImageBytes? {
        guard range.lowerBound >= 0, range.upperBound <= count else { return nil }
        return ImageBytes(storage: storage, start: start + range.lowerBound, count: range.count)
    }

    /// The first `maxLength` bytes (all of them when there are fewer).
    @inlinable package func prefix(_ maxLength: Int) -> ImageBytes { slice(0..<min(max(maxLength, 0), count))! }

    /// The bytes from `offset` to the end, or nil when `offset` is past it.
    @inlinable package func slice(from offset: Int) -> ImageBytes? { slice(offset..<max(offset, count)) }

    /// The bytes of `range`, or an error naming `structure` when `range` is not inside the view.
    package func slice(_ range: Range<Int>, _ structure: @autoclosure () -> String) throws(ImageBytesError)
        -> ImageBytes
    {
        guard let part = slice(range) else { throw outOfRange(structure(), range) }
        return part
    }

    /// The `count` bytes at `offset`, as a file's header fields give them (64-bit, unchecked by
    /// anyone: their sum may overflow), or nil when they are not inside the view.
    @inlinable package func slice(at offset: UInt64, count: UInt64) -> ImageBytes? {
        guard offset <= UInt64(self.count), count <= UInt64(self.count) - offset else { return nil }
        return ImageBytes(storage: storage, start: start + Int(offset), count: Int(count))
    }

    /// The same, or an error naming `structure` when they are not inside the view.
    package func slice(at offset: UInt64, count: UInt64, _ structure: @autoclosure () -> String)
        throws(ImageBytesError) -> ImageBytes
    {
        guard let part = slice(at: offset, count: count) else {
            throw ImageBytesError(
                structure: structure(), offset: Int(clamping: offset), length: Int(clamping: count),
                available: self.count, fileOffset: start)
        }
        return part
    }

    /// The unsigned integer of `T`'s width at `offset`, in `order`; nil when it runs out of the view.
    @inlinable package func load<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type, at offset: Int, _ order: ByteOrder
    ) -> T? {
        let width = MemoryLayout<T>.size
        guard offset >= 0, offset <= count - width else { return nil }
        let value = storage.bytes.loadUnaligned(fromByteOffset: start + offset, as: T.self)
        return order.isLittleEndian ? T(littleEndian: value) : T(bigEndian: value)
    }

    /// The same, or an error naming `structure` when it runs out of the view.
    package func load<T: FixedWidthInteger & UnsignedInteger>(
        _ type: T.Type, at offset: Int, _ order: ByteOrder, _ structure: @autoclosure () -> String
    ) throws(ImageBytesError) -> T {
        guard let value = load(type, at: offset, order) else {
            throw outOfRange(structure(), offset..<offset + MemoryLayout<T>.size)
        }
        return value
    }

    @inlinable package func uint16(at offset: Int, _ order: ByteOrder) -> UInt16? {
        load(UInt16.self, at: offset, order)
    }
    @inlinable package func uint32(at offset: Int, _ order: ByteOrder) -> UInt32? {
        load(UInt32.self, at: offset, order)
    }
    @inlinable package func uint64(at offset: Int, _ order: ByteOrder) -> UInt64? {
        load(UInt64.self, at: offset, order)
    }

    /// A pointer-sized word (`wordSize` 8 or 4 bytes), widened.
    @inlinable package func word(at offset: Int, size wordSize: Int, _ order: ByteOrder) -> UInt64? {
        wordSize == 8 ? uint64(at: offset, order) : uint32(at: offset, order).map(UInt64.init)
    }

    // Searches, comparisons and copies are the engine's `ByteView`'s, on the view lent for the call.

    /// The NUL-terminated string at `offset`; nil when it is not terminated inside the view.
    package func cString(at offset: Int) -> String? {
        guard offset >= 0, offset < count else { return nil }
        return withByteView { view in view.firstIndex(of: 0, from: offset).map { view.string(offset..<$0) } }
    }

    /// The bytes of `range` decoded as UTF-8 (invalid sequences replaced); nil outside the view.
    package func string(_ range: Range<Int>) -> String? { slice(range)?.string }

    /// All the bytes decoded as UTF-8, invalid sequences replaced.
    package var string: String { withByteView { $0.string() } }

    /// The bytes, copied.
    package var array: [UInt8] { withByteView { $0.array() } }

    /// The bytes, copied into `Data`.
    package var data: Data { Data(array) }

    /// The offset of the first `byte` at or after `start` (memchr), or nil.
    package func firstIndex(of byte: UInt8, from offset: Int = 0) -> Int? {
        withByteView { $0.firstIndex(of: byte, from: offset) }
    }

    /// The offset of the first `needle` at or after `start` (memmem), or nil.
    package func firstIndex(of needle: [UInt8], from offset: Int = 0) -> Int? {
        withByteView { $0.firstIndex(of: needle, from: offset) }
    }

    /// Whether the bytes at `offset` are `prefix` (false when they run past the end).
    package func matches(_ prefix: some Collection<UInt8>, at offset: Int = 0) -> Bool {
        withByteView { $0.matches(prefix, at: offset) }
    }

    /// Whether the view holds exactly `other`'s bytes.
    package func elementsEqual(_ other: some Collection<UInt8>) -> Bool {
        count == other.count && matches(other)
    }

    /// The bytes up to (not including) the first NUL, or all of them.
    package var prefixBeforeNUL: ImageBytes { slice(0..<(firstIndex(of: 0) ?? count))! }

    /// Lends the bytes as the engine's checked, noncopyable view for the length of `body`.
    package func withByteView<Result, Failure: Error>(
        _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withExtendedLifetime(storage) { () throws(Failure) -> Result in
            try body(ByteView(unsafeBytes: buffer))
        }
    }

    /// The error for a read of `range` that leaves the view.
    func outOfRange(_ structure: String, _ range: Range<Int>) -> ImageBytesError {
        ImageBytesError(
            structure: structure, offset: range.lowerBound, length: range.count, available: count, fileOffset: start)
    }

    /// The view's memory (valid while `storage` lives; callers keep it alive).
    private var buffer: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: storage.bytes[start..<(start + count)])
    }
}

/// A read that left the bytes it was reading: which structure, where, and how much there was.
package struct ImageBytesError: Error, Sendable, Equatable {
    /// What was being read: `load command 3 (LC_SYMTAB)`, `the symbol table`, `__TEXT,__cstring`.
    package var structure: String
    /// Where the read started and how long it was, inside the view.
    package var offset: Int
    package var length: Int
    /// How many bytes the view holds.
    package var available: Int
    /// Where the view starts in the file.
    package var fileOffset: Int

    /// `load command 3 (LC_SYMTAB): 16 bytes at offset 40 run past the end of its 24 bytes (file offset 0x20)`.
    package var message: String {
        // No file offset for a view at the start of the file, or for an offset past any file.
        let (inFile, overflow) = fileOffset.addingReportingOverflow(offset)
        let place = fileOffset == 0 || overflow ? "" : " (at file offset 0x\(String(inFile, radix: 16)))"
        if offset < 0 || offset > available {
            return "\(structure): offset \(offset) is outside its \(available) bytes\(place)"
        }
        return "\(structure): \(length) bytes at offset \(offset) run past the end of its \(available) bytes\(place)"
    }
}

/// The byte order integers are read in.
package struct ByteOrder: Sendable, Hashable {
    package let isLittleEndian: Bool

    package init(_ isLittleEndian: Bool) { self.isLittleEndian = isLittleEndian }

    package static let little = ByteOrder(true)
    package static let big = ByteOrder(false)
}
