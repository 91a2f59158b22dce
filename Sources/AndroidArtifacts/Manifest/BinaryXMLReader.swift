/// Android's binary XML, as aapt and aapt2 write `AndroidManifest.xml` into an APK
/// (`ResourceTypes.h` in AOSP's androidfw: a `RES_XML_TYPE` chunk holding a string pool, the
/// resource map of attribute names, and start / end element chunks). Every read is
/// bounds-checked; a file that does not hold together is a `ManifestError`, never a partial tree
/// taken for the whole. Nesting and counts are capped, as no real manifest comes near them.
package enum BinaryXMLReader {
    static let xmlType: UInt16 = 0x0003
    static let stringPoolType: UInt16 = 0x0001
    static let resourceMapType: UInt16 = 0x0180
    static let startNamespaceType: UInt16 = 0x0100
    static let endNamespaceType: UInt16 = 0x0101
    static let startElementType: UInt16 = 0x0102
    static let endElementType: UInt16 = 0x0103
    static let textType: UInt16 = 0x0104

    static let maximumDepth = 64
    static let maximumStrings = 1 << 20

    /// Whether the bytes start like binary XML (text manifests start with `<`).
    package static func isBinaryXML(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 8 && bytes[0] == 0x03 && bytes[1] == 0x00
    }

    /// The root element.
    package static func read(_ bytes: [UInt8]) throws(ManifestError) -> ManifestElement {
        let data = LittleEndianBytes(bytes)
        guard let type = data.uint16(at: 0), type == xmlType, let headerSize = data.uint16(at: 2),
            let size = data.uint32(at: 4)
        else { throw ManifestError("not binary XML (no RES_XML_TYPE header)") }
        guard Int(size) <= bytes.count, headerSize >= 8, Int(headerSize) <= Int(size) else {
            throw ManifestError("binary XML header declares \(size) bytes, the file has \(bytes.count)")
        }
        var strings: [String] = []
        var resourceIDs: [UInt32] = []
        var stack: [ManifestElement] = []
        var root: ManifestElement?
        var offset = Int(headerSize)
        while offset + 8 <= Int(size) {
            guard let chunkType = data.uint16(at: offset), let chunkHeader = data.uint16(at: offset + 2),
                let chunkSize = data.uint32(at: offset + 4), chunkSize >= 8, chunkHeader >= 8, chunkHeader <= chunkSize,
                offset + Int(chunkSize) <= Int(size)
            else { throw ManifestError("chunk at offset \(offset) runs past the end of the file") }
            let chunk = offset..<(offset + Int(chunkSize))
            switch chunkType {
            case stringPoolType:
                guard strings.isEmpty else { throw ManifestError("a second string pool at offset \(offset)") }
                strings = try readStringPool(data, chunk)
            case resourceMapType:
                resourceIDs = (0..<((chunk.count - Int(chunkHeader)) / 4)).compactMap {
                    data.uint32(at: chunk.lowerBound + Int(chunkHeader) + $0 * 4)
                }
            case startElementType:
                guard stack.count < maximumDepth else {
                    throw ManifestError("elements nested deeper than \(maximumDepth)")
                }
                guard root == nil else { throw ManifestError("an element after the root element closed") }
                stack.append(try readStartElement(data, chunk, header: Int(chunkHeader), strings, resourceIDs))
            case endElementType:
                guard let element = stack.popLast() else {
                    throw ManifestError("an end tag at offset \(offset) closes no element")
                }
                if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
            case startNamespaceType, endNamespaceType, textType:
                break
            default:
                // Unknown chunks are skipped, as the platform's parser skips them.
                break
            }
            offset += Int(chunkSize)
        }
        guard stack.isEmpty else { throw ManifestError("\(stack.count) element(s) not closed: truncated binary XML") }
        guard let root else { throw ManifestError("binary XML holds no element") }
        return root
    }

    /// `ResStringPool_header`, then the offsets and the strings, UTF-8 or UTF-16.
    private static func readStringPool(_ data: LittleEndianBytes, _ chunk: Range<Int>) throws(ManifestError)
        -> [String]
    {
        guard let count = data.uint32(at: chunk.lowerBound + 8), let flags = data.uint32(at: chunk.lowerBound + 16),
            let stringsStart = data.uint32(at: chunk.lowerBound + 20)
        else { throw ManifestError("string pool header is truncated") }
        guard count <= maximumStrings, chunk.lowerBound + 28 + Int(count) * 4 <= chunk.upperBound else {
            throw ManifestError("string pool declares \(count) strings, more than its chunk holds")
        }
        let isUTF8 = flags & 0x100 != 0
        let base = chunk.lowerBound + Int(stringsStart)
        var strings: [String] = []
        strings.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let relative = data.uint32(at: chunk.lowerBound + 28 + index * 4) else { break }
            let start = base + Int(relative)
            guard start < chunk.upperBound,
                let string = isUTF8
                    ? data.utf8String(at: start, end: chunk.upperBound)
                    : data.utf16String(at: start, end: chunk.upperBound)
            else { throw ManifestError("string \(index) of the string pool lies outside it") }
            strings.append(string)
        }
        return strings
    }

    /// `ResXMLTree_node`, `ResXMLTree_attrExt`, then the attributes.
    private static func readStartElement(
        _ data: LittleEndianBytes, _ chunk: Range<Int>, header: Int, _ strings: [String], _ resourceIDs: [UInt32]
    ) throws(ManifestError) -> ManifestElement {
        let ext = chunk.lowerBound + header
        guard let nameIndex = data.uint32(at: ext + 4),
            let attributeStart = data.uint16(at: ext + 8), let attributeSize = data.uint16(at: ext + 10),
            let attributeCount = data.uint16(at: ext + 12)
        else { throw ManifestError("element at offset \(chunk.lowerBound) is truncated") }
        func string(_ index: UInt32) -> String? {
            index == UInt32.max || Int(index) >= strings.count ? nil : strings[Int(index)]
        }
        guard let name = string(nameIndex) else {
            throw ManifestError("element at offset \(chunk.lowerBound) names string \(nameIndex), outside the pool")
        }
        var element = ManifestElement(name: name)
        guard attributeCount == 0 || attributeSize >= 20 else {
            throw ManifestError("element <\(name)> has \(attributeSize)-byte attributes (20 expected)")
        }
        for index in 0..<Int(attributeCount) {
            let at = ext + Int(attributeStart) + index * Int(attributeSize)
            guard at + 20 <= chunk.upperBound, let namespaceIndex = data.uint32(at: at),
                let attributeName = data.uint32(at: at + 4), let rawValue = data.uint32(at: at + 8),
                let dataType = data.byte(at: at + 15), let value = data.uint32(at: at + 16)
            else { throw ManifestError("attribute \(index) of <\(name)> runs past its element") }
            let resourceID = Int(attributeName) < resourceIDs.count ? resourceIDs[Int(attributeName)] : nil
            let typed: ManifestValue
            switch dataType {
            case 0x10: typed = .integer(Int64(Int32(bitPattern: value)))
            case 0x11: typed = .integer(Int64(value))
            case 0x12: typed = .boolean(value != 0)
            case 0x01: typed = .reference(value)
            case 0x03: typed = .string(string(value) ?? string(rawValue) ?? "")
            default: typed = .string(string(rawValue) ?? "")
            }
            element.attributes.append(
                ManifestAttribute(
                    namespace: string(namespaceIndex), name: string(attributeName) ?? "", resourceID: resourceID,
                    value: typed))
        }
        return element
    }
}

/// Bounds-checked little-endian reads over a byte array (nil outside it).
struct LittleEndianBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func byte(at offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset + 2 <= bytes.count else { return nil }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let low = uint16(at: offset), let high = uint16(at: offset + 2) else { return nil }
        return UInt32(low) | UInt32(high) << 16
    }

    /// A UTF-8 pool string: its length in characters and in bytes (each one or two bytes, the
    /// high bit of the first saying two), the bytes, a NUL.
    func utf8String(at offset: Int, end: Int) -> String? {
        var at = offset
        func length() -> Int? {
            guard let first = byte(at: at) else { return nil }
            at += 1
            guard first & 0x80 != 0 else { return Int(first) }
            guard let second = byte(at: at) else { return nil }
            at += 1
            return Int(first & 0x7F) << 8 | Int(second)
        }
        guard length() != nil, let count = length(), at + count <= end else { return nil }
        return String(decoding: bytes[at..<(at + count)], as: UTF8.self)
    }

    /// A UTF-16 pool string: its length in code units (one or two units, the high bit of the
    /// first saying two), the units, a NUL unit.
    func utf16String(at offset: Int, end: Int) -> String? {
        guard let first = uint16(at: offset) else { return nil }
        var at = offset + 2
        var count = Int(first)
        if first & 0x8000 != 0 {
            guard let second = uint16(at: at) else { return nil }
            at += 2
            count = Int(first & 0x7FFF) << 16 | Int(second)
        }
        guard at + count * 2 <= end else { return nil }
        let units = (0..<count).map { UInt16(bytes[at + $0 * 2]) | UInt16(bytes[at + $0 * 2 + 1]) << 8 }
        return String(decoding: units, as: UTF16.self)
    }
}
