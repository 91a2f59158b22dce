import CByteSearch

/// A file's content hash for the result cache: XXH64 under two seeds, 128 bits, at memory speed
/// (the cache hashes every file of every run). Not for fingerprints, which `StableHash` keeps
/// stable across versions and platforms on its own.
package enum ContentHash {
    /// 32 lowercase hex digits.
    package static func hex(_ bytes: borrowing ByteView) -> String {
        let first = shipcheck_xxh64(bytes.base.baseAddress, bytes.count, 0)
        let second = shipcheck_xxh64(bytes.base.baseAddress, bytes.count, 0x5348_4950_4348_4543)
        return hex64(first) + hex64(second)
    }

    /// XXH64 of `bytes` with `seed`.
    package static func xxh64(_ bytes: borrowing ByteView, seed: UInt64 = 0) -> UInt64 {
        shipcheck_xxh64(bytes.base.baseAddress, bytes.count, seed)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
