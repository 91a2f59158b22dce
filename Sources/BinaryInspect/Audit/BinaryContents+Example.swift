extension BinaryContents {
    /// Builds contents from the small text format the rule examples use, one fact per line:
    ///
    ///     conformance TYPE: PROTOCOL        type class|struct|enum NAME[: SUPERCLASS]
    ///     protocol NAME                     test-record KIND
    ///     needed SONAME                     autolink ENTRY
    ///     string TEXT                       comment TEXT
    ///     build-id HEX                      section NAME SIZE
    ///     symbol MANGLED SIZE
    ///
    /// Unknown lines are ignored. Places are synthetic (section "example", offset = line).
    public init(example text: String, path: String = "Example") {
        self.init(path: path)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let place = MetadataPlace(section: "example", offset: UInt64(number))
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = String(parts[1])
            switch parts[0] {
            case "conformance":
                guard let colon = value.range(of: ": ", options: .backwards) else { continue }
                metadata.conformances.append(SwiftConformanceRecord(
                    typeName: String(value[..<colon.lowerBound]), protocolName: String(value[colon.upperBound...]), place: place))
            case "type":
                let fields = value.split(separator: " ", maxSplits: 1)
                guard fields.count == 2 else { continue }
                let kind = SwiftTypeKind(rawValue: String(fields[0])) ?? .other
                let declaration = fields[1].split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: " ") }
                metadata.types.append(SwiftTypeRecord(name: declaration[0], kind: kind, superclass: declaration.count > 1 ? declaration[1] : nil, place: place))
            case "protocol": metadata.protocols.append(SwiftProtocolRecord(name: value, place: place))
            case "test-record": metadata.tests.append(SwiftTestRecord(kind: value, place: place, size: 32))
            case "needed": neededLibraries.append(value)
            case "autolink": autolinkEntries.append(value)
            case "string": strings.append(FoundString(text: value, section: ".rodata", offset: UInt64(number)))
            case "comment": comments.append(value)
            case "build-id": buildID = value
            case "section":
                let fields = value.split(separator: " ")
                debugSections.append((String(fields[0]), fields.count > 1 ? UInt64(fields[1]) ?? 0 : 0))
            case "symbol":
                let fields = value.split(separator: " ")
                let mangled = String(fields[0])
                hasSymbolTable = true
                symbols.append(NamedSymbol(mangled: mangled, demangled: Demangler.demangleSwift(mangled),
                                           size: fields.count > 1 ? UInt64(fields[1]) ?? 0 : 0, section: ".text", offset: UInt64(number)))
            default: continue
            }
        }
    }
}

extension Substring {
    func trimmingCharacters(in characters: String) -> String {
        String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
