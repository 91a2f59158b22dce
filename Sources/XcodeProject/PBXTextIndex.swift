import ScanEngine
import ShipcheckCore

/// Finds where things are written in a pbxproj's text, which the property-list reader
/// does not tell: the line of each key in an object's `buildSettings`.
struct PBXTextIndex {
    let bytes: [UInt8]
    let lines: LineTable

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        lines = LineTable(bytes)
    }

    /// Raw setting key (as the plist reader returns it, condition included) → 1-based line and column,
    /// for the object `id`'s `buildSettings = { … }`. Empty when the object is not found.
    func settingPositions(ofObject id: String) -> [String: (line: Int, column: Int)] {
        guard let start = definitionStart(of: id) else { return [:] }
        var scanner = PBXTokenScanner(bytes: bytes, position: start)
        var result: [String: (line: Int, column: Int)] = [:]
        var depth = 0
        var inSettings = false
        var settingsDepth = 0
        var previous: (text: String, offset: Int, quoted: Bool)? = nil
        while let token = scanner.next() {
            switch token.kind {
            case .open:
                if token.text == "{", let key = previous, key.text == "buildSettings", !key.quoted, depth == 1,
                    !inSettings
                {
                    inSettings = true
                    settingsDepth = depth + 1
                }
                depth += 1
            case .close:
                depth -= 1
                if inSettings, depth < settingsDepth { return result }
                if depth == 0 { return result }
            case .equals:
                if inSettings, depth == settingsDepth, let key = previous {
                    result[key.text] = lines.position(of: key.offset)
                }
            case .word:
                break
            }
            previous =
                token.kind == .word
                ? (token.text, token.offset, token.quoted) : (token.kind == .equals ? previous : nil)
        }
        return result
    }

    /// Offset of `ID` in the line `ID /* Name */ = {` (or `ID = {`) that defines the object.
    private func definitionStart(of id: String) -> Int? {
        let needle = Array(id.utf8)
        return bytes.withByteView { hay -> Int? in
            var from = 0
            while let hit = hay.firstIndex(of: needle, from: from) {
                from = hit + 1
                var before = hit - 1
                while before >= 0, hay[before] == UInt8(ascii: " ") || hay[before] == UInt8(ascii: "\t") {
                    before -= 1
                }
                guard before < 0 || hay[before] == UInt8(ascii: "\n") else { continue }
                var scanner = PBXTokenScanner(bytes: bytes, position: hit + needle.count)
                // A word boundary, then `=` and `{` (comments are skipped by the scanner).
                if hit + needle.count < hay.count, PBXTokenScanner.isWordByte(hay[hit + needle.count]) { continue }
                guard scanner.next()?.kind == .equals, let open = scanner.next(), open.kind == .open,
                    open.text == "{"
                else { continue }
                return hit
            }
            return nil
        }
    }
}

/// The tokens of the OpenStep plist text: words (bare or quoted), `=`, brackets. Comments,
/// `;` and `,` are skipped.
struct PBXTokenScanner {
    enum Kind { case word, equals, open, close }
    struct Token {
        var kind: Kind
        var text: String
        var offset: Int
        var quoted: Bool
    }

    let bytes: [UInt8]
    var position: Int

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"),
            UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "*"), UInt8(ascii: "+"):
            true
        default:
            false
        }
    }

    mutating func next() -> Token? {
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"),
                UInt8(ascii: ","):
                position += 1
            case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*"):
                position += 2
                while position + 1 < bytes.count,
                    !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                { position += 1 }
                position = min(bytes.count, position + 2)
            case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/"):
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "="):
                position += 1
                return Token(kind: .equals, text: "=", offset: position - 1, quoted: false)
            case UInt8(ascii: "{"), UInt8(ascii: "("):
                position += 1
                return Token(
                    kind: .open, text: byte == UInt8(ascii: "{") ? "{" : "(", offset: position - 1, quoted: false)
            case UInt8(ascii: "}"), UInt8(ascii: ")"):
                position += 1
                return Token(
                    kind: .close, text: byte == UInt8(ascii: "}") ? "}" : ")", offset: position - 1, quoted: false)
            case UInt8(ascii: "\""):
                let start = position
                position += 1
                var text: [UInt8] = []
                while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                    if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
                        position += 1
                    }
                    text.append(bytes[position])
                    position += 1
                }
                position += 1
                return Token(kind: .word, text: String(lossyUTF8: text), offset: start, quoted: true)
            default:
                let start = position
                while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
                if position == start { position += 1 }  // a byte outside the grammar: skip it
                return Token(
                    kind: .word, text: String(lossyUTF8: bytes[start..<position]), offset: start, quoted: false)
            }
        }
        return nil
    }
}
