import Foundation

/// A compact binary form for `Codable` values, for the result cache: every run decodes an
/// entry per file, and JSON (text, `Data` as base64) or property lists cost several times more
/// per entry than reading the file. Not self-describing beyond what decoding needs: a keyed
/// container is its count and, per entry, the key and the value; an unkeyed one its count and
/// values; each value is a presence byte and a length-prefixed body; integers are LEB128
/// (zig-zag when signed), strings and `Data` their UTF-8 / bytes. Unknown or malformed input
/// throws `DecodingError`, which the cache takes as "no entry".
enum CompactCoder {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let node = EncodingNode(codingPath: [])
        try node.encodeValue(value)
        var out: [UInt8] = []
        node.write(to: &out)
        return out
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws -> Value {
        try DecodingNode(bytes: bytes[...], codingPath: []).decodeValue(type)
    }
}

// MARK: - Bytes

extension [UInt8] {
    fileprivate mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        append(UInt8(value))
    }

    fileprivate mutating func appendBytes(_ bytes: some Collection<UInt8>) {
        appendVarint(UInt64(bytes.count))
        append(contentsOf: bytes)
    }
}

/// Reads what `[UInt8]`'s appends wrote, from the front of a slice.
private struct ByteReader {
    var bytes: ArraySlice<UInt8>
    let codingPath: [any CodingKey]

    func corrupt(_ what: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: what))
    }

    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.popFirst() {
            guard shift < 64 else { break }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        throw corrupt("truncated or overlong integer")
    }

    mutating func take(_ count: UInt64) throws -> ArraySlice<UInt8> {
        guard count <= UInt64(bytes.count) else { throw corrupt("truncated value") }
        let taken = bytes.prefix(Int(count))
        bytes = bytes.dropFirst(Int(count))
        return taken
    }

    mutating func lengthPrefixed() throws -> ArraySlice<UInt8> { try take(try varint()) }

    /// A value slot: nil when it holds nil, else its body.
    mutating func slot() throws -> ArraySlice<UInt8>? {
        guard let presence = bytes.popFirst() else { throw corrupt("missing value") }
        switch presence {
        case 0: return nil
        case 1: return try lengthPrefixed()
        default: throw corrupt("bad presence byte")
        }
    }
}

private struct IndexKey: CodingKey {
    var stringValue: String { "\(intValue ?? 0)" }
    var intValue: Int?
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

// MARK: - Encoding

/// One value being encoded: a primitive's bytes, or a container of child nodes.
private final class EncodingNode: Encoder {
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

    func write(to out: inout [UInt8]) {
        switch storage {
        case .empty: break
        case .bytes(let bytes): out += bytes
        case .keyed(let entries):
            out.appendVarint(UInt64(entries.count))
            for entry in entries {
                out.appendBytes(Array(entry.key.utf8))
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
        var body: [UInt8] = []
        node.write(to: &body)
        out.append(1)
        out.appendBytes(body)
    }

    func encodeValue(_ value: some Encodable) throws {
        switch value {
        case let data as Data:
            storage = .bytes(
                {
                    var out: [UInt8] = []
                    out.appendBytes(data)
                    return out
                }())
        case let string as String:
            storage = .bytes(
                {
                    var out: [UInt8] = []
                    out.appendBytes(Array(string.utf8))
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

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) throws { node.append(nil, key: key.stringValue) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = EncodingNode(codingPath: codingPath + [key])
        try child.encodeValue(value)
        node.append(child, key: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(codingPath: codingPath + [key])
        node.append(child, key: key.stringValue)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = EncodingNode(codingPath: codingPath + [key])
        node.append(child, key: key.stringValue)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(codingPath: codingPath)
        node.append(child, key: "super")
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = EncodingNode(codingPath: codingPath + [key])
        node.append(child, key: key.stringValue)
        return child
    }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(nil) }

    mutating func encode(_ value: some Encodable) throws {
        let child = EncodingNode(codingPath: codingPath + [IndexKey(count)])
        try child.encodeValue(value)
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = EncodingNode(codingPath: codingPath + [IndexKey(count)])
        node.append(child)
        return child.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = EncodingNode(codingPath: codingPath + [IndexKey(count)])
        node.append(child)
        return child.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = EncodingNode(codingPath: codingPath + [IndexKey(count)])
        node.append(child)
        return child
    }
}

/// Primitives: integers as LEB128 (signed ones zig-zag), floating point as its bits.
private struct SingleValueEncoding: SingleValueEncodingContainer {
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

// MARK: - Decoding

/// One encoded value, decoded on demand.
private struct DecodingNode: Decoder {
    let bytes: ArraySlice<UInt8>
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if type == Data.self {
            var reader = ByteReader(bytes: bytes, codingPath: codingPath)
            return Data(try reader.lengthPrefixed()) as! Value
        }
        if type == String.self {
            var reader = ByteReader(bytes: bytes, codingPath: codingPath)
            guard let string = String(validating: try reader.lengthPrefixed(), as: UTF8.self) else {
                throw reader.corrupt("not UTF-8")
            }
            return string as! Value
        }
        return try Value(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var reader = ByteReader(bytes: bytes, codingPath: codingPath)
        let count = try reader.varint()
        var entries: [(key: String, value: ArraySlice<UInt8>?)] = []
        for _ in 0..<min(count, UInt64(bytes.count)) {
            guard let key = String(validating: try reader.lengthPrefixed(), as: UTF8.self) else {
                throw reader.corrupt("a key that is not UTF-8")
            }
            entries.append((key, try reader.slot()))
        }
        return KeyedDecodingContainer(KeyedDecoding<Key>(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        var reader = ByteReader(bytes: bytes, codingPath: codingPath)
        let count = try reader.varint()
        var elements: [ArraySlice<UInt8>?] = []
        for _ in 0..<min(count, UInt64(bytes.count)) { elements.append(try reader.slot()) }
        return UnkeyedDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoding(node: self)
    }
}

private struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let entries: [(key: String, value: ArraySlice<UInt8>?)]
    let codingPath: [any CodingKey]
    /// Positions by key, for a container with more entries than a struct has fields (a
    /// dictionary: the pack's thousands of entries), where a linear search per key is quadratic.
    private let positions: [String: Int]?

    init(entries: [(key: String, value: ArraySlice<UInt8>?)], codingPath: [any CodingKey]) {
        self.entries = entries
        self.codingPath = codingPath
        positions =
            entries.count > 16
            ? Dictionary(entries.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    var allKeys: [Key] { entries.compactMap { Key(stringValue: $0.key) } }

    private func position(of key: Key) -> Int? {
        if let positions { return positions[key.stringValue] }
        return entries.firstIndex { $0.key == key.stringValue }
    }

    func contains(_ key: Key) -> Bool { position(of: key) != nil }

    private func slot(_ key: Key) throws -> ArraySlice<UInt8>? {
        guard let position = position(of: key) else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no value"))
        }
        return entries[position].value
    }

    private func node(_ key: Key) throws -> DecodingNode {
        guard let bytes = try slot(key) else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: codingPath + [key], debugDescription: "nil"))
        }
        return DecodingNode(bytes: bytes, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try slot(key) == nil }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try node(key).decodeValue(type)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try node(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try node(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        guard let entry = entries.first(where: { $0.key == "super" }), let bytes = entry.value else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "no super"))
        }
        return DecodingNode(bytes: bytes, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try node(key) }
}

private struct UnkeyedDecoding: UnkeyedDecodingContainer {
    let elements: [ArraySlice<UInt8>?]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private mutating func next() throws -> DecodingNode {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more elements"))
        }
        guard let bytes = elements[currentIndex] else {
            throw DecodingError.valueNotFound(
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "nil"))
        }
        defer { currentIndex += 1 }
        return DecodingNode(bytes: bytes, codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == nil else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueDecoding: SingleValueDecodingContainer {
    let node: DecodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    private func reader() -> ByteReader { ByteReader(bytes: node.bytes, codingPath: codingPath) }

    private func unsigned() throws -> UInt64 {
        var reader = reader()
        return try reader.varint()
    }

    private func signed() throws -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    private func fitting<Value: FixedWidthInteger>(_ value: some BinaryInteger) throws -> Value {
        guard let exact = Value(exactly: value) else { throw reader().corrupt("integer out of range") }
        return exact
    }

    func decodeNil() -> Bool { node.bytes.isEmpty }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard let byte = node.bytes.first, byte <= 1 else { throw reader().corrupt("not a Bool") }
        return byte == 1
    }
    func decode(_ type: String.Type) throws -> String { try node.decodeValue(type) }
    func decode(_ type: Double.Type) throws -> Double { Double(bitPattern: try unsigned()) }
    func decode(_ type: Float.Type) throws -> Float { Float(bitPattern: try fitting(try unsigned())) }
    func decode(_ type: Int.Type) throws -> Int { try fitting(try signed()) }
    func decode(_ type: Int8.Type) throws -> Int8 { try fitting(try signed()) }
    func decode(_ type: Int16.Type) throws -> Int16 { try fitting(try signed()) }
    func decode(_ type: Int32.Type) throws -> Int32 { try fitting(try signed()) }
    func decode(_ type: Int64.Type) throws -> Int64 { try signed() }
    func decode(_ type: UInt.Type) throws -> UInt { try fitting(try unsigned()) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try fitting(try unsigned()) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try fitting(try unsigned()) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try fitting(try unsigned()) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try unsigned() }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try node.decodeValue(type) }
}
