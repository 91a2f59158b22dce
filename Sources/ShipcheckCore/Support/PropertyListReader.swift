import Foundation

/// Foundation's `PropertyListSerialization`, behind a structural check of binary property lists:
/// on Linux, swift-corelibs-foundation crashes on some damaged ones (a set object — type 0xC —
/// is bridged through a nil conformance; an object that contains itself recurses without end),
/// and property lists in bundles and projects come from anywhere. XML and OpenStep text go to
/// Foundation as they are; a binary one must first have a sane trailer and offset table, only
/// the object types property lists hold (no sets, UIDs or ordered sets), references that stay
/// inside the object table, and no object among its own contents.
public enum PropertyListReader {
    /// The property list in `bytes`, or nil when it is not one (or is a damaged binary one).
    public static func propertyList(from bytes: some Collection<UInt8>) -> Any? {
        guard let data = checkedData(bytes) else { return nil }
        return try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// The bytes as Data for `PropertyListSerialization`, or nil for a damaged binary property
    /// list (for callers that want Foundation's own error for the rest).
    public static func checkedData(_ bytes: some Collection<UInt8>) -> Data? {
        let data = Data(bytes)
        guard data.starts(with: Array("bplist".utf8)) else { return data }
        return data.withUnsafeBytes { isSoundBinary($0) } ? data : nil
    }

    /// Whether a binary property list (`bplist00`) is well-formed enough for Foundation.
    static func isSoundBinary(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        guard count >= 8 + 32 else { return false }
        func integer(at offset: Int, size: Int) -> Int? {
            guard size >= 1, size <= 8, offset >= 0, offset <= count - size else { return nil }
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard let objectCount = integer(at: trailer + 8, size: 8), let top = integer(at: trailer + 16, size: 8),
              let tableOffset = integer(at: trailer + 24, size: 8),
              (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, top < objectCount,
              tableOffset >= 8, tableOffset <= trailer, objectCount <= (trailer - tableOffset) / offsetSize else { return false }
        var offsets: [Int] = []
        offsets.reserveCapacity(objectCount)
        for index in 0..<objectCount {
            guard let offset = integer(at: tableOffset + index * offsetSize, size: offsetSize), offset >= 8, offset < tableOffset else { return false }
            offsets.append(offset)
        }
        /// The objects a container refers to (empty for scalars), or nil when the object is not sound.
        func references(of object: Int) -> [Int]? {
            let start = offsets[object]
            let marker = bytes[start], type = marker >> 4, info = Int(marker & 0x0F)
            // A length: the low nibble, or (0xF) an integer object right after the marker.
            func length() -> (count: Int, end: Int)? {
                guard info == 0x0F else { return (info, start + 1) }
                guard start + 1 < tableOffset, bytes[start + 1] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start + 1] & 0x0F)
                guard size <= 8, let value = integer(at: start + 2, size: size) else { return nil }
                return (value, start + 2 + size)
            }
            switch type {
            case 0x0: return [0x0, 0x8, 0x9, 0xF].contains(info) ? [] : nil
            case 0x1, 0x2: return info <= 3 && start + 1 + (1 << info) <= tableOffset ? [] : nil
            case 0x3: return info == 3 && start + 9 <= tableOffset ? [] : nil
            case 0x4, 0x5, 0x6:
                guard let (length, end) = length() else { return nil }
                let width = type == 0x6 ? 2 : 1
                return length <= (tableOffset - end) / width ? [] : nil
            case 0xA, 0xD:
                guard let (length, end) = length() else { return nil }
                let entries = type == 0xD ? 2 : 1
                guard length <= (tableOffset - end) / (referenceSize * entries) else { return nil }
                var found: [Int] = []
                for index in 0..<(length * entries) {
                    guard let reference = integer(at: end + index * referenceSize, size: referenceSize), reference < objectCount else { return nil }
                    found.append(reference)
                }
                return found
            default:
                return nil  // sets, ordered sets, UIDs, UTF-8 strings: not in property lists Apple tools write.
            }
        }
        // Depth-first from the top object: every reachable object sound, none inside itself.
        var state = [UInt8](repeating: 0, count: objectCount)  // 0 unseen, 1 open, 2 done
        var stack: [(object: Int, children: [Int], next: Int)] = []
        guard let rootChildren = references(of: top) else { return false }
        state[top] = 1
        stack.append((top, rootChildren, 0))
        while let last = stack.last {
            if last.next == last.children.count {
                state[last.object] = 2
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let child = last.children[last.next]
            switch state[child] {
            case 1: return false
            case 2: continue
            default:
                guard stack.count < 512, let children = references(of: child) else { return false }
                state[child] = 1
                stack.append((child, children, 0))
            }
        }
        return true
    }
}
