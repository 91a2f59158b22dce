import CByteSearch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes someone else owns — a file's read buffer, an array, a string's UTF-8 — lent to code
/// outside the engine for the length of one call, with every index checked.
///
/// Why a type of the engine's own and not the standard library's `RawSpan` / `Span<UInt8>`:
/// on macOS before 26 those need `libswiftCompatibilitySpan.dylib` beside the executable, which
/// a command-line tool installed by Homebrew or a tarball does not carry; and `RawSpan` reads a
/// byte only through `unsafeLoad`. What a span guarantees is kept by other means:
/// - **Not kept.** The view is noncopyable and only ever lent `borrowing` (`FileContents.withBytes`,
///   `Array.withByteView`, `withSlice`): a borrowed noncopyable value cannot be stored, returned
///   or captured, so the compiler refuses `contents.withBytes { $0 }`. Nothing here hands out an
///   owned view or the address behind it; what must outlive the call is copied (`array`,
///   `string`).
/// - **Checked.** Every subscript is bounds-checked in release builds too; the searches
///   (memchr, memmem, the SIMD counters) check their ranges before they touch memory.
@usableFromInline package struct ByteView: ~Copyable {
    @usableFromInline let base: UnsafeRawBufferPointer

    /// Only the engine makes views, over memory it knows to outlive the lending call (unsafe:
    /// elsewhere the compiler's memory-safety check refuses the call).
    @unsafe @usableFromInline package init(unsafeBytes base: UnsafeRawBufferPointer) { self.base = base }

    @inlinable package var count: Int { base.count }
    @inlinable package var isEmpty: Bool { base.isEmpty }
    @inlinable package var indices: Range<Int> { 0..<base.count }

    /// The byte at `index`; traps when `index` is out of bounds, in every build.
    @inlinable package subscript(_ index: Int) -> UInt8 {
        precondition(UInt(bitPattern: index) < UInt(bitPattern: base.count), "ByteView index out of range")
        return base[index]
    }

    /// Lends the bytes of `range` as a view of their own (indexed from 0).
    @inlinable package func withSlice<Result, Failure: Error>(
        _ range: Range<Int>, _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(ByteView(unsafeBytes: base[checked: range]))
    }

    /// The bytes of `range` (all of them by default), copied.
    package func array(_ range: Range<Int>? = nil) -> [UInt8] { Array(base[checked: range ?? indices]) }

    /// The bytes of `range` (all of them by default) decoded as UTF-8, invalid sequences replaced.
    package func string(_ range: Range<Int>? = nil) -> String {
        String(decoding: base[checked: range ?? indices], as: UTF8.self)
    }

    /// Whether every byte satisfies `predicate`.
    package func allSatisfy(_ predicate: (UInt8) throws -> Bool) rethrows -> Bool {
        try base.allSatisfy(predicate)
    }

    /// Whether the bytes at `offset` are `prefix` (false when they run past the end).
    @inlinable package func matches(_ prefix: some Collection<UInt8>, at offset: Int) -> Bool {
        guard offset >= 0, offset <= base.count, base.count - offset >= prefix.count else { return false }
        return base[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }

    /// Offset of the first `byte` at or after `start`, or nil (memchr).
    package func firstIndex(of byte: UInt8, from start: Int = 0) -> Int? {
        ByteSearch.find(byte: byte, in: base, from: start)
    }

    /// Offset of the first `needle` at or after `start`, or nil (memmem).
    package func firstIndex(of needle: [UInt8], from start: Int = 0) -> Int? {
        needle.withUnsafeBytes { ByteSearch.find($0, in: base, from: start) }
    }

    /// Offset of the first `needle` (its UTF-8) at or after `start`, or nil.
    package func firstIndex(of needle: String, from start: Int = 0) -> Int? {
        firstIndex(of: Array(needle.utf8), from: start)
    }

    /// Whether `needle` occurs anywhere.
    package func contains(_ needle: [UInt8]) -> Bool { firstIndex(of: needle) != nil }
    package func contains(_ needle: String) -> Bool { firstIndex(of: needle) != nil }

    /// The number of `byte`s in `range`, and the offset (in `range`) after the last one — the
    /// SIMD counter the line cursors use.
    package func count(of byte: UInt8, in range: Range<Int>) -> (count: Int, lastOffset: Int) {
        let checked = base[checked: range]
        guard let start = checked.baseAddress, !checked.isEmpty else { return (0, 0) }
        var last = 0
        let count = shipcheck_count_byte(start, checked.count, byte, &last)
        return (count, last)
    }

    /// Feeds the bytes to `hasher` as `Hasher.combine(bytes:)` does.
    package func hash(into hasher: inout Hasher) { hasher.combine(bytes: base) }

    /// Whether the first `window` bytes hold a NUL — git's test for a binary file.
    package func looksBinary(window: Int = 8000) -> Bool { ByteSearch.looksBinary(base, window: window) }
}

extension UnsafeRawBufferPointer {
    /// The bytes of `range`, after checking it lies within these (a `ByteView`'s slices are
    /// checked in every build, where a buffer's subscript checks only in debug ones).
    @usableFromInline subscript(checked range: Range<Int>) -> UnsafeRawBufferPointer {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ByteView range out of bounds")
        return UnsafeRawBufferPointer(rebasing: self[range])
    }
}

extension Array where Element == UInt8 {
    /// Lends the array's bytes as a view for the call.
    @inlinable package func withByteView<Result, Failure: Error>(
        _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try self[...].withByteView(body)
    }
}

extension ArraySlice where Element == UInt8 {
    /// Lends the slice's bytes as a view for the call.
    @inlinable package func withByteView<Result, Failure: Error>(
        _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // `withUnsafeBytes` is rethrows-only; the typed error is carried out through a Result.
        let outcome: Swift.Result<Result, Failure> = withUnsafeBytes { buffer in
            do throws(Failure) { return .success(try body(ByteView(unsafeBytes: buffer))) } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }
}

extension String {
    /// Lends the string's UTF-8 as a view for the call.
    package func withByteView<Result, Failure: Error>(
        _ body: (borrowing ByteView) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var text = self
        let outcome: Swift.Result<Result, Failure> = text.withUTF8 { utf8 in
            do throws(Failure) {
                return .success(try body(ByteView(unsafeBytes: UnsafeRawBufferPointer(utf8))))
            } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}
