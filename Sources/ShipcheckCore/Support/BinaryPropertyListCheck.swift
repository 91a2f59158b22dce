/// Checks a binary property list (`bplist00`) before Foundation reads it. On Linux,
/// swift-corelibs-foundation crashes on some damaged binary plists instead of throwing (an
/// object of a type property lists do not have — a set, a UID, an unused marker — or a length
/// or reference past the end): found by fuzzing the `bundle` target, kept in
/// Tests/Fixtures/fuzz-regressions/bundle. Every reader that hands bytes from a file to
/// `PropertyListSerialization` asks this first (Info.plists, manifests, profiles, project.pbxproj). So every object is walked first — the trailer, the
/// offset table, each object's marker, length and references, all inside the bytes — and
/// Foundation only sees documents made of the types it parses safely. It does not decode values.
public enum BinaryPropertyListCheck {
    static let magic: [UInt8] = Array("bplist00".utf8)

    /// Why the bytes are not a binary property list Foundation may be given; nil when they are
    /// one (or not a binary plist at all: XML and OpenStep text go to Foundation as they are).
    public static func problem(_ bytes: [UInt8]) -> String? {
        // CoreFoundation takes any "bplist" header as binary, whatever the version after it.
        guard bytes.starts(with: magic.prefix(6)) else { return nil }
        guard bytes.starts(with: magic) else { return "is of a version other than bplist00" }
        guard bytes.count >= magic.count + 32 else { return "is cut short (no trailer)" }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard let count = integer(bytes, at: trailer + 8, size: 8), let top = integer(bytes, at: trailer + 16, size: 8),
              let table = integer(bytes, at: trailer + 24, size: 8) else { return "has a damaged trailer" }
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count <= trailer, top < count,
              table >= magic.count, table <= trailer, count <= (trailer - table) / offsetSize else {
            return "has a damaged trailer or offset table"
        }
        for index in 0..<count {
            guard let offset = integer(bytes, at: table + index * offsetSize, size: offsetSize), offset >= magic.count, offset < table,
                  objectFits(bytes, at: offset, end: table, referenceSize: referenceSize, count: count) else {
                return "has a damaged object (\(index))"
            }
        }
        return nil
    }

    /// A big-endian unsigned integer of `size` bytes, nil past the end or above Int.max.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// Whether the object at `offset` is of a property-list type and lies (with its references)
    /// before `end`.
    private static func objectFits(_ bytes: [UInt8], at offset: Int, end: Int, referenceSize: Int, count: Int) -> Bool {
        let marker = bytes[offset], type = marker >> 4, low = Int(marker & 0x0F)
        switch type {
        case 0x0: return [0x00, 0x08, 0x09, 0x0F].contains(marker)  // null, false, true, fill
        case 0x1, 0x2: return low <= 3 && offset + 1 + (1 << low) <= end  // integer, real: 2^n bytes
        case 0x3: return marker == 0x33 && offset + 9 <= end  // date
        case 0x4, 0x5, 0x6, 0xA, 0xD:  // data, ASCII, UTF-16, array, dictionary
            guard let (length, start) = length(bytes, at: offset, low: low, end: end) else { return false }
            let unit = switch type {
            case 0x4, 0x5: 1
            case 0x6: 2
            case 0xA: referenceSize
            default: 2 * referenceSize
            }
            guard length <= (end - start) / unit else { return false }
            guard type == 0xA || type == 0xD else { return true }
            for reference in 0..<(length * unit / referenceSize) {
                guard let target = integer(bytes, at: start + reference * referenceSize, size: referenceSize), target < count else { return false }
            }
            return true
        default: return false  // UIDs (0x8), sets (0xC) and unused markers: not property-list types
        }
    }

    /// The length of a counted object (in the marker's low nibble, or 0xF then an integer
    /// object) and where its contents start.
    private static func length(_ bytes: [UInt8], at offset: Int, low: Int, end: Int) -> (Int, Int)? {
        guard low == 0x0F else { return (low, offset + 1) }
        guard offset + 2 <= end, bytes[offset + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, offset + 2 + size <= end, let length = integer(bytes, at: offset + 2, size: size) else { return nil }
        return (length, offset + 2 + size)
    }
}
