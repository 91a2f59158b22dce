import Foundation

/// One value `CompactCoder` encoded, decoded on demand.
struct DecodingNode: Decoder {
    let bytes: ArraySlice<UInt8>
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if type == Data.self {
            var reader = CompactByteReader(bytes: bytes, codingPath: codingPath)
            return Data(try reader.lengthPrefixed()) as! Value
        }
        if type == String.self {
            var reader = CompactByteReader(bytes: bytes, codingPath: codingPath)
            return try reader.string() as! Value
        }
        return try Value(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        var reader = CompactByteReader(bytes: bytes, codingPath: codingPath)
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
        var reader = CompactByteReader(bytes: bytes, codingPath: codingPath)
        let count = try reader.varint()
        var elements: [ArraySlice<UInt8>?] = []
        for _ in 0..<min(count, UInt64(bytes.count)) { elements.append(try reader.slot()) }
        return UnkeyedDecoding(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueDecoding(node: self)
    }
}

struct KeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
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
                Any.self, DecodingError.Context(codingPath: codingPath, debugDescription: "nil"))
        }
        return DecodingNode(bytes: bytes, codingPath: codingPath)
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

struct UnkeyedDecoding: UnkeyedDecodingContainer {
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
        return DecodingNode(bytes: bytes, codingPath: codingPath)
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

struct SingleValueDecoding: SingleValueDecodingContainer {
    let node: DecodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    private func reader() -> CompactByteReader { CompactByteReader(bytes: node.bytes, codingPath: codingPath) }

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
