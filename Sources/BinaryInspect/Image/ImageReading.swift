import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Fixed-width reads in the image's byte order, bounds-checked (nil when outside): what the
/// decoders use on section bytes.
extension BinaryImage {
    func readUInt32(_ bytes: ImageBytes, at offset: Int) -> UInt32? {
        bytes.uint32(at: offset, ByteOrder(isLittleEndian))
    }

    func readInt32(_ bytes: ImageBytes, at offset: Int) -> Int32? {
        readUInt32(bytes, at: offset).map { Int32(bitPattern: $0) }
    }

    /// A pointer-sized word.
    func readWord(_ bytes: ImageBytes, at offset: Int) -> UInt64? {
        bytes.word(at: offset, size: wordSize, ByteOrder(isLittleEndian))
    }

    func uint32(atAddress address: UInt64) -> UInt32? {
        bytes(atAddress: address).flatMap { readUInt32($0, at: 0) }
    }

    func int32(atAddress address: UInt64) -> Int32? { uint32(atAddress: address).map { Int32(bitPattern: $0) } }

    func cString(atAddress address: UInt64) -> String? {
        bytes(atAddress: address).flatMap { $0.cString(at: 0) }
    }

    /// The stored word at an address (what an unrelocated pointer slot holds).
    func storedWord(atAddress address: UInt64) -> UInt64? {
        bytes(atAddress: address).flatMap { readWord($0, at: 0) }
    }

    /// `path`, `path[arch]`, `path(member)`: how messages name this image.
    package var displayName: String { origin.displayName }

    /// The same reads on a buffer, for the ELF readers not yet on `ImageBytes` (these go with
    /// them).
    func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
        ByteOrder(isLittleEndian).uint32(bytes, at: offset)
    }

    func cString(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String? {
        ByteOrder.cString(bytes, at: offset)
    }
}

/// Bounds-checked reads on a buffer, for the ELF readers not yet on `ImageBytes` (these go with
/// them).
extension ByteOrder {
    func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return isLittleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
    }

    /// The NUL-terminated string at `offset`, or nil when it is not terminated in bounds.
    static func cString(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String? {
        guard offset >= 0, offset < bytes.count, let end = ByteSearch.find(byte: 0, in: bytes, from: offset) else {
            return nil
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }
}

/// A value handed to parallel workers that only read it, or that each write only their own
/// indices of it (mapped bytes, a table being decoded, an array being initialised in place).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
