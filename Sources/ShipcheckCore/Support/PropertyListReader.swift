import Foundation
import ScanEngine

/// Foundation's `PropertyListSerialization`, behind a structural check of binary property lists.
/// On Linux, swift-corelibs-foundation crashes on some damaged ones instead of throwing — an
/// object of a type property lists do not have (a set, a UID, an unused marker), a header of
/// another version, a length or reference past the end, an object that contains itself (found
/// by fuzzing the `bundle` target; inputs kept in Tests/Fixtures/fuzz-regressions/bundle) — and
/// property lists in bundles and projects come from anywhere. Every reader that hands a file's
/// bytes to Foundation goes through here (Info.plists, manifests, profiles, project.pbxproj).
/// XML and OpenStep text go to Foundation as they are; a binary one must first have a sane
/// trailer and offset table, only property-list types, every object and its references inside
/// the bytes, and no object among its own contents. Values are not decoded here.
package enum PropertyListReader {
    /// The property list in `bytes`, or nil when it is not one (or is a damaged binary one).
    package static func propertyList(from bytes: some Collection<UInt8>) -> Any? {
        let bytes = Array(bytes)
        guard binaryProblem(bytes) == nil else { return nil }
        return try? PropertyListCall.object(from: Data(bytes))
    }

    /// Why the bytes are a binary property list Foundation must not be given (“is cut short (no
    /// trailer)”), or nil when they may go to it — sound binary, or not binary at all.
    package static func binaryProblem(_ bytes: [UInt8]) -> String? {
        // CoreFoundation takes any "bplist" header as binary, whatever the version after it.
        guard bytes.starts(with: magic.prefix(6)) else { return nil }
        guard bytes.starts(with: magic) else { return "is of a version other than bplist00" }
        guard let table = BinaryObjectTable(bytes) else { return "has a damaged trailer or offset table" }
        var children: [[Int]] = []
        children.reserveCapacity(table.offsets.count)
        for index in table.offsets.indices {
            guard let references = table.references(ofObject: index) else { return "has a damaged object (\(index))" }
            children.append(references)
        }
        return containsItself(children, from: table.top) ? "has an object that contains itself" : nil
    }

    static let magic: [UInt8] = Array("bplist00".utf8)

    /// Depth-first from the top object: whether a reachable object is among its own contents
    /// (or the nesting is deeper than any property list a tool writes).
    private static func containsItself(_ children: [[Int]], from top: Int) -> Bool {
        var state = [UInt8](repeating: 0, count: children.count)  // 0 unseen, 1 open, 2 done
        var stack: [(object: Int, next: Int)] = [(top, 0)]
        state[top] = 1
        while let last = stack.last {
            guard last.next < children[last.object].count else {
                state[last.object] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let child = children[last.object][last.next]
            switch state[child] {
            case 1: return true
            case 2: continue
            default:
                guard stack.count < 512 else { return true }
                state[child] = 1
                stack.append((child, 0))
            }
        }
        return false
    }
}

/// A `bplist00` document's trailer and offset table, each offset inside the object area.
private struct BinaryObjectTable {
    let bytes: [UInt8]
    let offsets: [Int]
    let top: Int
    let referenceSize: Int
    /// Where the objects end (the offset table's start).
    let end: Int

    init?(_ bytes: [UInt8]) {
        let start = PropertyListReader.magic.count
        guard bytes.count >= start + 32 else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard let count = Self.integer(bytes, at: trailer + 8, size: 8),
            let top = Self.integer(bytes, at: trailer + 16, size: 8),
            let table = Self.integer(bytes, at: trailer + 24, size: 8),
            (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, top < count,
            table >= start, table <= trailer, count <= (trailer - table) / offsetSize
        else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            guard let offset = Self.integer(bytes, at: table + index * offsetSize, size: offsetSize), offset >= start,
                offset < table
            else { return nil }
            offsets.append(offset)
        }
        (self.bytes, self.offsets, self.top, self.referenceSize, self.end) = (bytes, offsets, top, referenceSize, table)
    }

    /// The objects an object refers to (none for scalars), or nil when it is not of a
    /// property-list type or does not lie, with its references, inside the object area.
    func references(ofObject index: Int) -> [Int]? {
        let offset = offsets[index]
        let marker = bytes[offset], type = marker >> 4, low = Int(marker & 0x0F)
        switch type {
        case 0x0: return [0x00, 0x08, 0x09, 0x0F].contains(marker) ? [] : nil  // null, false, true, fill
        case 0x1, 0x2: return low <= 3 && offset + 1 + (1 << low) <= end ? [] : nil  // integer, real: 2^n bytes
        case 0x3: return marker == 0x33 && offset + 9 <= end ? [] : nil  // date
        case 0x4, 0x5, 0x6, 0xA, 0xD:  // data, ASCII, UTF-16, array, dictionary
            guard let (length, start) = length(at: offset, low: low) else { return nil }
            let unit =
                switch type {
                case 0x4, 0x5: 1
                case 0x6: 2
                case 0xA: referenceSize
                default: 2 * referenceSize
                }
            guard length <= (end - start) / unit else { return nil }
            guard type == 0xA || type == 0xD else { return [] }
            var found: [Int] = []
            for reference in 0..<(length * unit / referenceSize) {
                guard let target = Self.integer(bytes, at: start + reference * referenceSize, size: referenceSize),
                    target < offsets.count
                else { return nil }
                found.append(target)
            }
            return found
        default: return nil  // UIDs (0x8), sets (0xC) and unused markers: not property-list types
        }
    }

    /// The length of a counted object (in the marker's low nibble, or 0xF then an integer
    /// object) and where its contents start.
    private func length(at offset: Int, low: Int) -> (Int, Int)? {
        guard low == 0x0F else { return (low, offset + 1) }
        guard offset + 2 <= end, bytes[offset + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, offset + 2 + size <= end, let length = Self.integer(bytes, at: offset + 2, size: size) else {
            return nil
        }
        return (length, offset + 2 + size)
    }

    /// A big-endian unsigned integer of `size` bytes, nil past the end or above Int.max.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
