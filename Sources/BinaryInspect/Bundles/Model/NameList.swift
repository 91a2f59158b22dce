import ScanEngine

/// Names read out of an image (imported symbols, selectors) kept compactly: their UTF-8 bytes
/// one after the other and where each ends. An app's images import tens of thousands of names
/// that the pre-flight model keeps for the whole bundle; as separate `String`s they cost several
/// times their bytes, and building them was most of the model's time (bench/results/preflight.md).
/// A `String` is made only for a name someone reads; the lookups compare bytes.
package struct NameList: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []

    package init() {}

    package init(arrayLiteral names: String...) {
        for name in names { append(name) }
    }

    package mutating func append(_ name: String) {
        bytes += name.utf8
        ends.append(UInt32(bytes.count))
    }

    /// Appends a name from an image's bytes (no `String` made), without `prefix` when it starts
    /// with it (Mach-O's `_`: the name as source spells it).
    mutating func append(bytes name: borrowing ByteView, droppingPrefix prefix: String = "") {
        let start = !prefix.isEmpty && name.matches(prefix.utf8, at: 0) ? prefix.utf8.count : 0
        bytes.append(bytes: name, start..<name.count)
        ends.append(UInt32(bytes.count))
    }

    mutating func append(contentsOf names: some Sequence<String>) {
        for name in names { append(name) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ends.count }

    package subscript(position: Int) -> String {
        String(decoding: bytes[range(position)], as: UTF8.self)
    }

    private func range(_ position: Int) -> Range<Int> {
        (position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])
    }

    /// Whether `name` is one of the names (bytes compared, nothing allocated).
    package func contains(_ name: String) -> Bool {
        name.withByteView { target in
            indices.contains { position in
                let stored = range(position)
                return stored.count == target.count && target.matches(bytes[stored], at: 0)
            }
        }
    }

    /// The names that start with one of `prefixes`, in order.
    package func names(withPrefixes prefixes: [String]) -> [String] {
        let prefixBytes = prefixes.map { Array($0.utf8) }
        return indices.compactMap { position in
            let name = bytes[range(position)]
            return prefixBytes.contains { name.starts(with: $0) } ? self[position] : nil
        }
    }

    /// The names that are members of `names`, each read up to its first `cut` byte when one is
    /// given (`stat$INODE64` as `stat`). A `String` is made only for a name whose length and
    /// first byte are a member's: an image's thousands of names against a table of a few hundred.
    package func members(of names: Set<String>, cutAt cut: UInt8? = nil) -> [String] {
        func shape(_ name: some Collection<UInt8>) -> Int { name.count << 8 | Int(name.first ?? 0) }
        let shapes = Set(names.map { shape($0.utf8) })
        return indices.compactMap { position in
            var name = bytes[range(position)]
            if let cut, let end = name.firstIndex(of: cut) { name = name[..<end] }
            guard shapes.contains(shape(name)) else { return nil }
            let text = String(decoding: name, as: UTF8.self)
            return names.contains(text) ? text : nil
        }
    }
}
