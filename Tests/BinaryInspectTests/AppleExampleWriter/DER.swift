/// DER encoding, as much of it as a CMS envelope needs.
enum DER {
    static func node(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }

    static func sequence(_ parts: [UInt8]...) -> [UInt8] { node(0x30, parts.flatMap { $0 }) }
    static func set(_ parts: [UInt8]...) -> [UInt8] { node(0x31, parts.flatMap { $0 }) }
    static func explicit0(_ content: [UInt8]) -> [UInt8] { node(0xA0, content) }
    static func octetString(_ content: [UInt8]) -> [UInt8] { node(0x04, content) }
    static func integer(_ value: UInt8) -> [UInt8] { node(0x02, [value]) }

    /// An OBJECT IDENTIFIER from its arcs (base-128 after the first two).
    static func objectIdentifier(_ arcs: [UInt64]) -> [UInt8] {
        var content: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            content += chunk
        }
        return node(0x06, content)
    }

    private static func length(_ count: Int) -> [UInt8] {
        guard count >= 0x80 else { return [UInt8(count)] }
        var octets: [UInt8] = []
        var rest = count
        while rest > 0 {
            octets.insert(UInt8(rest & 0xFF), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(octets.count)] + octets
    }
}
