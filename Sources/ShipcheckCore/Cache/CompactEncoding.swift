import Foundation

/// One value being encoded for `CompactCoder`: a primitive's bytes, or a container of child
/// nodes, written out depth first.
final class EncodingNode: Encoder {
    enum Storage {
        case empty
        case bytes([UInt8])
        case keyed([(key: String, value: EncodingNode?)])
        case unkeyed([EncodingNode?])
    }

    var storage = Storage.empty
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(codingPath: [any CodingKey]) { self.codingPath = codingPath }

    /// How many bytes `write` writes; worked out once (a parent asks before writing each slot).
    private var writtenCount: Int?

    var byteCount: Int {
        if let writtenCount { return writtenCount }
        let count: Int
        switch storage {
        case .empty: count = 0
        case .bytes(let bytes): count = bytes.count
        case .keyed(let entries):
            count = entries.reduce(Self.varintCount(entries.count)) { total, entry in
                let key = entry.key.utf8.count
                return total + Self.varintCount(key) + key + Self.slotCount(entry.value)
            }
        case .unkeyed(let elements):
            count = elements.reduce(Self.varintCount(elements.count)) { $0 + Self.slotCount($1) }
        }
        writtenCount = count
        return count
    }

    /// Writes the node into `out` directly: each slot's length is known before its body
    /// (`byteCount`), so no body is built apart and copied into its parent, level by level.
    func write(to out: inout [UInt8]) {
        switch storage {
        case .empty: break
        case .bytes(let bytes): out += bytes
        case .keyed(let entries):
            out.appendVarint(UInt64(entries.count))
            for entry in entries {
                out.appendLengthPrefixed(entry.key.utf8)
                Self.writeSlot(entry.value, to: &out)
            }
        case .unkeyed(let elements):
            out.appendVarint(UInt64(elements.count))
            for element in elements { Self.writeSlot(element, to: &out) }
        }
    }

    static func writeSlot(_ node: EncodingNode?, to out: inout [UInt8]) {
        guard let node else {
            out.append(0)
            return
        }
        out.append(1)
        out.appendVarint(UInt64(node.byteCount))
        node.write(to: &out)
    }

    private static func slotCount(_ node: EncodingNode?) -> Int {
        guard let node else { return 1 }
        return 1 + varintCount(node.byteCount) + node.byteCount
    }

    /// The length of `value` written as a varint (`appendVarint`).
    private static func varintCount(_ value: Int) -> Int {
        var value = UInt64(value)
        var count = 1
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }

    func encodeValue(_ value: some Encodable) throws {
        switch value {
        case let data as Data:
            storage = .bytes(
                {
                    var out: [UInt8] = []
                    out.appendLengthPrefixed(data)
                    return out
                }())
        case let string as String:
            storage = .bytes(
                {
                    var out: [UInt8] = []
                    out.appendLengthPrefixed(string.utf8)
                    return out
                }())
        default: try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = storage {} else { storage = .keyed([]) }
        return KeyedEncodingContainer(KeyedEncoding<Key>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = storage {} else { storage = .unkeyed([]) }
        return UnkeyedEncoding(node: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueEncoding(node: self) }

    func append(_ child: EncodingNode?, key: String) {
        guard case .keyed(var entries) = storage else { return }
        storage = .empty
        entries.append((key, child))
        storage = .keyed(entries)
    }

    func append(_ child: EncodingNode?) {
        guard case .unkeyed(var elements) = storage else { return }
        storage = .empty
        elements.append(child)
        storage = .unkeyed(elements)
    }

    var count: Int {
        if case .unkeyed(let elements) = storage { return elements.count }
        if case .keyed(let entries) = storage { return entries.count }
        return 0
    }
}

struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) throws { node.append(nil, key: key.stringValue) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = EncodingNode(codingPath: codingPath)
        try child.encodeValue(value)
        node.append(child, key: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child, key: key.stringValue)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child, key: key.stringValue)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child, key: "super")
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child, key: key.stringValue)
        return child
    }
}

struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(nil) }

    mutating func encode(_ value: some Encodable) throws {
        let child = EncodingNode(codingPath: codingPath)
        try child.encodeValue(value)
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child)
        return child
    }
}

/// Primitives: integers as LEB128 (signed ones zig-zag), floating point as its bits.
struct SingleValueEncoding: SingleValueEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    private func put(_ body: (inout [UInt8]) -> Void) {
        var out: [UInt8] = []
        body(&out)
        node.storage = .bytes(out)
    }

    private func signed(_ value: Int64) { put { $0.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63))) } }
    private func unsigned(_ value: UInt64) { put { $0.appendVarint(value) } }

    mutating func encodeNil() throws { node.storage = .empty }
    mutating func encode(_ value: Bool) throws { put { $0.append(value ? 1 : 0) } }
    mutating func encode(_ value: String) throws { try node.encodeValue(value) }
    mutating func encode(_ value: Double) throws { unsigned(value.bitPattern) }
    mutating func encode(_ value: Float) throws { unsigned(UInt64(value.bitPattern)) }
    mutating func encode(_ value: Int) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int8) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int16) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int32) throws { signed(Int64(value)) }
    mutating func encode(_ value: Int64) throws { signed(value) }
    mutating func encode(_ value: UInt) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { unsigned(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { unsigned(value) }
    mutating func encode(_ value: some Encodable) throws { try node.encodeValue(value) }
}
