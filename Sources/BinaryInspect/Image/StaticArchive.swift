import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// The members of a static archive (`ar`), in both dialects: GNU (`/` and `/SYM64/` symbol
/// tables, the `//` long-name table, `name/` and `/123` names) and BSD / Darwin (`#1/N` names
/// stored in front of the data, `__.SYMDEF` / `__.SYMDEF SORTED` / `__.SYMDEF_64` tables).
/// Symbol and name tables are not members; every other member is returned for the caller to
/// read as an object (or to report as not one).
///
/// Every header is checked against the archive's size: a member claiming more bytes than remain
/// is an error for that member, and nothing after it can be found (headers are located through
/// the sizes before them), while the members before it are still returned.
enum StaticArchive {
    static let magic = Array("!<arch>\n".utf8)
    static let thinMagic = Array("!<thin>\n".utf8)

    struct Member {
        var name: String
        /// The member's data.
        var bytes: ImageBytes
    }

    private static let headerSize = 60

    static func members(of bytes: ImageBytes, origin: ImageOrigin) -> (
        members: [Member], errors: [InputError]
    ) {
        var members: [Member] = []
        var longNames: ImageBytes?
        var position = magic.count
        func corrupt(_ message: String) -> InputError { origin.error("corrupt archive: \(message)") }
        while position < bytes.count {
            guard let header = bytes.slice(position..<position + headerSize) else {
                return (
                    members,
                    [corrupt("\(bytes.count - position) bytes after the last member, too few for a member header")]
                )
            }
            guard header.matches([UInt8(ascii: "`"), 0x0A], at: 58) else {
                return (members, [corrupt("member header at offset \(position) is not terminated by `\\n")])
            }
            let rawName = field(header, 0..<16)
            guard let size = decimal(field(header, 48..<58)) else {
                return (
                    members,
                    [
                        corrupt(
                            "member '\(rawName)' at offset \(position) has an unreadable size '\(field(header, 48..<58))'"
                        )
                    ]
                )
            }
            let dataStart = position + headerSize
            guard var data = bytes.slice(dataStart..<dataStart + size) else {
                var name =
                    rawName.hasSuffix("/") && rawName != "/" && rawName != "//" ? String(rawName.dropLast()) : rawName
                if rawName.hasPrefix("#1/"), let length = decimal(String(rawName.dropFirst(3))),
                    let stored = bytes.slice(dataStart..<dataStart + length)
                {
                    name = stored.prefixBeforeNUL.string
                }
                return (
                    members,
                    [
                        origin.inMember(name).error(
                            "corrupt archive: member claims \(size) bytes, past the end of the \(bytes.count)-byte archive"
                        )
                    ]
                )
            }
            position = dataStart + size + (dataStart + size) % 2
            var name = rawName
            if rawName.hasPrefix("#1/") {
                // BSD: the name's length, the name itself at the start of the data (NUL-padded).
                guard let length = decimal(String(rawName.dropFirst(3))), let storedName = data.slice(0..<length),
                    let rest = data.slice(from: length)
                else {
                    return (
                        members,
                        [
                            corrupt(
                                "member '\(rawName)' at offset \(dataStart - headerSize) has a name longer than its data"
                            )
                        ]
                    )
                }
                name = storedName.prefixBeforeNUL.string
                data = rest
            } else if rawName == "//" {
                longNames = data
                continue
            } else if rawName.hasPrefix("/"), let offset = decimal(String(rawName.dropFirst())) {
                guard let table = longNames, offset < table.count else {
                    return (members, [corrupt("member name '\(rawName)' points outside the long-name table")])
                }
                // A long name ends at `/` (GNU) or at the end of its line.
                name = table.withByteView { table in
                    var end = offset
                    while end < table.count, table[end] != UInt8(ascii: "/"), table[end] != 0x0A { end += 1 }
                    return table.string(offset..<end)
                }
            } else if rawName.hasSuffix("/") && rawName != "/" {
                name = String(rawName.dropLast())
            }
            if isSymbolTable(name) { continue }
            members.append(Member(name: name, bytes: data))
        }
        return (members, [])
    }

    /// Symbol tables and the GNU long-name table: the archive's index, not members.
    private static func isSymbolTable(_ name: String) -> Bool {
        name == "/" || name == "/SYM64/" || name == "/SYM64" || name.hasPrefix("__.SYMDEF")
    }

    /// A space-padded text field of a member header (whose 60 bytes hold every field's range).
    private static func field(_ header: ImageBytes, _ range: Range<Int>) -> String {
        var text = Substring(header.withByteView { $0.string(range) })
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }

    private static func decimal(_ text: String) -> Int? {
        let digits = text.utf8.prefix { $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(String(decoding: digits, as: UTF8.self))
    }
}
