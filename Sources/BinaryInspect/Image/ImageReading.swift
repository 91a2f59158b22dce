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
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
