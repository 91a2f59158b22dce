import ScanEngine
import ShipcheckCore

extension BinaryContents {
    /// Builds contents from the small text format the rule examples use, one fact per line:
    ///
    ///     conformance TYPE: PROTOCOL        type class|struct|enum NAME[: SUPERCLASS]
    ///     protocol NAME                     test-record KIND
    ///     field OWNER.NAME: TYPE[, TYPE]    case OWNER.NAME: TYPE  (stored property / enum payload)
    ///     objc-class NAME[: SUPERCLASS]     string TEXT
    ///     needed SONAME                     autolink ENTRY          (ELF)
    ///     comment TEXT                      build-id HEX            (ELF)
    ///     section NAME SIZE                                         (ELF debug section)
    ///     dylib PATH                        weak-dylib PATH         (Mach-O LC_LOAD_(WEAK_)DYLIB)
    ///     linker-option TEXT                                        (Mach-O LC_LINKER_OPTION)
    ///     fact TEXT                                                 (any format's build fact)
    ///     symbol MANGLED SIZE
    ///
    /// A line it does not understand is an error, as in `BundleContents(example:)`: an example
    /// must not pass by being skipped; so is a `type` kind other than class, struct or enum, a
    /// `test-record` kind that is not a four-character code, a `build-id` that is not hex or a
    /// size that is not a number. Places are synthetic: section "example" and offset = the line's
    /// number for metadata records, `.rodata` / `.text` and the line's number for strings and
    /// symbols, section "example" for facts (`example(_:)` gives each line's place).
    package init(example text: String, path: String = "Example") throws(InputError) {
        var places: [ExamplePlace] = []
        try self.init(example: text, path: path, places: &places)
    }

    /// The contents of an example text, and the place each line's record has in findings
    /// (the example verifier takes a finding to be about the marked line with its place).
    package static func example(_ text: String, path: String = "Example") throws(InputError) -> (
        contents: BinaryContents, places: ExamplePlaces
    ) {
        var places: [ExamplePlace] = []
        let contents = try BinaryContents(example: text, path: path, places: &places)
        return (contents, ExamplePlaces(root: path, places: places))
    }

    private init(example text: String, path: String, places: inout [ExamplePlace]) throws(InputError) {
        self.init(path: path)
        var comments: [String] = []
        var debugSections: [(name: String, size: UInt64)] = []
        for line in ExampleLine.lines(of: text) {
            let number = line.number
            let bad = line.error
            let place = MetadataPlace(section: "example", offset: UInt64(number))
            let value = String(line.rest)
            guard !value.isEmpty else { throw bad("a keyword and a value expected") }
            let keyword = line.fields[0]
            switch keyword {
            case "conformance", "type", "objc-class", "field", "case", "protocol", "test-record":
                places.append(ExamplePlace(line: number, section: place.section, offset: place.offset))
            case "needed", "autolink", "dylib", "weak-dylib", "linker-option":
                places.append(ExamplePlace(line: number, symbol: value))
            case "string": places.append(ExamplePlace(line: number, section: ".rodata", offset: UInt64(number)))
            case "symbol": places.append(ExamplePlace(line: number, section: ".text", offset: UInt64(number)))
            case "comment": places.append(ExamplePlace(line: number, section: ".comment"))
            case "build-id": places.append(ExamplePlace(line: number, section: ".note.gnu.build-id"))
            case "fact": places.append(ExamplePlace(line: number, section: "example"))
            case "section":
                places.append(ExamplePlace(line: number, section: value.split(separator: " ").first.map(String.init)))
            default: break
            }
            switch keyword {
            case "conformance":
                guard let colon = value.range(of: ": ", options: .backwards) else {
                    throw bad("TYPE: PROTOCOL expected")
                }
                metadata.conformances.append(
                    SwiftConformanceRecord(
                        typeName: String(value[..<colon.lowerBound]), protocolName: String(value[colon.upperBound...]),
                        place: place))
            case "type":
                let fields = value.split(separator: " ", maxSplits: 1)
                guard fields.count == 2, let kind = SwiftTypeKind(rawValue: String(fields[0])) else {
                    throw bad("class|struct|enum NAME expected")
                }
                let declaration = Self.declaration(fields[1])
                metadata.types.append(
                    SwiftTypeRecord(
                        name: declaration.name, kind: kind, superclass: declaration.superclass, place: place))
            case "objc-class":
                let declaration = Self.declaration(Substring(value))
                metadata.objcClasses.append(
                    ObjCClassRecord(name: declaration.name, superclass: declaration.superclass, place: place))
            case "field", "case":
                guard let colon = value.range(of: ": "), let dot = value[..<colon.lowerBound].lastIndex(of: ".") else {
                    throw bad("OWNER.NAME: TYPE expected")
                }
                metadata.fields.append(
                    SwiftFieldRecord(
                        ownerName: String(value[..<dot]),
                        name: String(value[value.index(after: dot)..<colon.lowerBound]),
                        typeNames: value[colon.upperBound...].split(separator: ",").map {
                            $0.trimmingCharacters(in: " ")
                        },
                        isEnumCase: keyword == "case", place: place))
            case "protocol": metadata.protocols.append(SwiftProtocolRecord(name: value, place: place))
            case "test-record":
                // A record's kind is a four-character code (`test`, `exit`).
                guard value.count == 4, !value.contains(" ") else { throw bad("a four-character record kind expected") }
                metadata.tests.append(SwiftTestRecord(kind: value, place: place, size: 32))
            case "needed": libraries.append(ELFFacts.needed(value))
            case "autolink": libraries.append(ELFFacts.autolink(value))
            case "dylib":
                libraries.append(
                    LinkedLibrary(name: value, kind: .loaded, record: "LC_LOAD_DYLIB", section: "LC_LOAD_DYLIB"))
            case "weak-dylib":
                libraries.append(
                    LinkedLibrary(
                        name: value, kind: .loaded, record: "LC_LOAD_WEAK_DYLIB", section: "LC_LOAD_WEAK_DYLIB"))
            case "linker-option":
                libraries.append(
                    LinkedLibrary(name: value, kind: .autolink, record: "LC_LINKER_OPTION", section: "LC_LINKER_OPTION")
                )
            case "string": strings.append(FoundString(text: value, section: ".rodata", offset: UInt64(number)))
            case "comment": comments.append(value)
            case "build-id":
                guard value.allSatisfy(\.isHexDigit) else { throw bad("a hexadecimal build-id expected") }
                buildFacts.append(ELFFacts.buildID(value))
            case "fact":
                buildFacts.append(BuildFact(message: value, section: "example", fix: "none needed", identity: value))
            case "section":
                let (name, size) = try Self.nameAndSize(value, bad)
                debugSections.append((name, size))
            case "symbol":
                let (mangled, size) = try Self.nameAndSize(value, bad)
                hasSymbolTable = true
                symbols.append(
                    NamedSymbol(
                        mangled: mangled, demangled: Demangler.demangleSwift(mangled),
                        size: size, section: ".text", offset: UInt64(number)))
            default: throw bad("unknown keyword")
            }
        }
        if let toolchain = ELFFacts.toolchain(comments) { buildFacts.append(toolchain) }
        if let debug = ELFFacts.debugSections(debugSections) { buildFacts.append(debug) }
    }

    /// `NAME [SIZE]`: a size that is given must be a number.
    private static func nameAndSize(_ text: String, _ bad: (String) -> InputError) throws(InputError) -> (
        String, UInt64
    ) {
        let fields = text.split(separator: " ")
        guard fields.count <= 2 else { throw bad("NAME [SIZE] expected") }
        guard fields.count == 2 else { return (String(fields[0]), 0) }
        guard let size = UInt64(fields[1]) else { throw bad("size is not a number") }
        return (String(fields[0]), size)
    }

    /// `NAME` or `NAME: SUPERCLASS`.
    private static func declaration(_ text: Substring) -> (name: String, superclass: String?) {
        let parts = text.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
        return (parts[0], parts.count > 1 ? parts[1] : nil)
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
