import CLibELF
import ShipcheckCore

/// Turns one ELF image into `BinaryContents`: metadata from the Swift sections (linked images)
/// or from descriptor symbols (relocatable objects, whose metadata fields are still
/// unresolved relocations), plus dependencies, autolink entries, read-only strings and notes.
enum BinaryContentsReader {
    /// Strings shorter than this are noise (and Swift stores ≤15-byte literals inline in code).
    static let minimumStringLength = 6

    static func read(_ image: ELFImage) throws(InputError) -> BinaryContents {
        var contents = BinaryContents(path: image.path, member: image.member)
        let symtab = try ELFSymbolTable(image: image, kind: .symtab)
        let dynsym = try ELFSymbolTable(image: image, kind: .dynsym)
        contents.hasSymbolTable = !symtab.symbols.isEmpty
        contents.symbols = namedSymbols(symtab.symbols.isEmpty ? dynsym.symbols : symtab.symbols, in: image)
        if image.kind == .relocatable {
            contents.metadata = metadataFromSymbols(contents.symbols)
            contents.metadata.tests = testRecordsFromSection(image)
        } else {
            contents.metadata = try LinkedMetadataDecoder(image: image, dynamicSymbols: dynsym).decode()
        }
        nameTestAccessors(&contents.metadata.tests, image: image, symbols: symtab)
        contents.neededLibraries = try image.neededLibraries()
        for section in image.sections(named: ".swift1_autolink_entries") {
            contents.autolinkEntries += image.stringList(in: section)
        }
        for section in image.sections(named: ".comment") { contents.comments += image.stringList(in: section) }
        contents.buildID = image.buildID()
        contents.debugSections = image.sections.filter { $0.name.hasPrefix(".debug_") }.map { ($0.name, $0.size) }
        contents.strings = readOnlyStrings(image)
        return contents
    }

    private static func namedSymbols(_ symbols: [ELFSymbol], in image: ELFImage) -> [BinaryContents.NamedSymbol] {
        symbols.compactMap { symbol in
            guard symbol.isDefined, symbol.type != UInt8(STT_SECTION), symbol.type != UInt8(STT_FILE), !symbol.name.isEmpty else { return nil }
            let section = symbol.sectionName(sections: image.sections)
            var offset = symbol.value
            if Int(symbol.sectionIndex) < image.sections.count {
                let header = image.sections[Int(symbol.sectionIndex)]
                offset = image.kind == .relocatable ? header.offset + symbol.value : header.offset &+ (symbol.value &- header.address)
            }
            let demangled = Demangler.isSwift(symbol.name) ? Demangler.demangleSwift(symbol.name) : nil
            return BinaryContents.NamedSymbol(mangled: symbol.name, demangled: demangled, size: symbol.size, section: section, offset: offset)
        }
    }

    /// In objects, descriptor symbols name what the metadata sections would point at.
    private static func metadataFromSymbols(_ symbols: [BinaryContents.NamedSymbol]) -> SwiftMetadata {
        var metadata = SwiftMetadata()
        for symbol in symbols {
            guard let demangled = symbol.demangled else { continue }
            let place = MetadataPlace(section: symbol.section, offset: symbol.offset)
            if let rest = demangled.dropPrefix("protocol conformance descriptor for "),
               let colon = rest.range(of: " : ") {
                var protocolName = String(rest[colon.upperBound...])
                if let module = protocolName.range(of: " in ", options: .backwards) { protocolName = String(protocolName[..<module.lowerBound]) }
                metadata.conformances.append(SwiftConformanceRecord(typeName: String(rest[..<colon.lowerBound]), protocolName: protocolName, place: place))
            } else if let rest = demangled.dropPrefix("nominal type descriptor for ") {
                let kind: SwiftTypeKind = symbol.mangled.hasSuffix("CMn") ? .class : symbol.mangled.hasSuffix("VMn") ? .struct : symbol.mangled.hasSuffix("OMn") ? .enum : .other
                metadata.types.append(SwiftTypeRecord(name: String(rest), kind: kind, place: place))
            } else if let rest = demangled.dropPrefix("protocol descriptor for ") {
                metadata.protocols.append(SwiftProtocolRecord(name: String(rest), place: place))
            }
        }
        return metadata
    }

    /// Record kinds are plain data even in objects (only the pointers need relocating).
    private static func testRecordsFromSection(_ image: ELFImage) -> [SwiftTestRecord] {
        let recordSize = 8 + 3 * image.wordSize
        var records: [SwiftTestRecord] = []
        for section in image.sections(named: "swift5_tests") where section.hasFileData {
            let bytes = image.bytes(of: section)
            var offset = 0
            while offset + recordSize <= bytes.count, let kind = image.readUInt32(bytes, at: offset) {
                records.append(SwiftTestRecord(
                    kind: LinkedMetadataDecoder.fourCharacterCode(kind),
                    place: MetadataPlace(section: section.name, offset: section.offset + UInt64(offset)), size: UInt64(recordSize)))
                offset += recordSize
            }
        }
        return records
    }

    /// With a symbol table, a test record's accessor can be named: the symbol at the address
    /// stored in the record (linked images) — good enough to tell the user which test it is.
    private static func nameTestAccessors(_ tests: inout [SwiftTestRecord], image: ELFImage, symbols: ELFSymbolTable) {
        guard !tests.isEmpty, !symbols.symbols.isEmpty, image.kind != .relocatable else { return }
        var byAddress: [UInt64: String] = [:]
        for symbol in symbols.symbols where symbol.type == UInt8(STT_FUNC) { byAddress[symbol.value] = symbol.name }
        let relocated = relocatedWords(image)
        for index in tests.indices {
            let recordAddress = addressOf(fileOffset: tests[index].place.offset, image: image)
            guard let recordAddress else { continue }
            let accessorField = recordAddress + 8
            var accessor = relocated[accessorField]
            if accessor == nil, let bytes = image.bytes(atAddress: accessorField)?.bytes { accessor = image.readWord(bytes, at: 0) }
            if let accessor, let name = byAddress[accessor] {
                tests[index].accessor = testName(accessor: Demangler.demangleSwift(name) ?? name)
            }
        }
    }

    /// The accessor is a closure inside the `@Test` macro's peer (`$s…fMp_…fMu_`); its
    /// demangling ends "… @Test expansion #1 of sampleFixtureLoads in Module": say just that.
    static func testName(accessor demangled: String) -> String {
        guard let start = demangled.range(of: "$s"),
              let end = demangled.range(of: "fMu_", range: start.upperBound..<demangled.endIndex),
              let inner = Demangler.demangleSwift(String(demangled[start.lowerBound..<end.upperBound])),
              let macro = inner.range(of: " macro "), let expansion = inner.range(of: " expansion #", range: macro.upperBound..<inner.endIndex),
              let of = inner.range(of: " of ", range: expansion.upperBound..<inner.endIndex) else { return demangled }
        return "\(inner[macro.upperBound..<expansion.lowerBound]) \(inner[of.upperBound...])"
    }

    private static func relocatedWords(_ image: ELFImage) -> [UInt64: UInt64] {
        var words: [UInt64: UInt64] = [:]
        for section in image.sections where section.type == UInt32(SHT_RELA) && section.flags & UInt64(SHF_ALLOC) != 0 {
            for relocation in (try? image.relocations(in: section)) ?? [] where relocation.symbolIndex == 0 {
                words[relocation.offset] = UInt64(bitPattern: relocation.addend)
            }
        }
        return words
    }

    private static func addressOf(fileOffset: UInt64, image: ELFImage) -> UInt64? {
        for section in image.sections where section.isAllocated && section.hasFileData {
            if fileOffset >= section.offset && fileOffset - section.offset < section.size {
                return section.address + (fileOffset - section.offset)
            }
        }
        return nil
    }

    /// Printable runs in read-only data sections (`.rodata*`), like `strings` does.
    private static func readOnlyStrings(_ image: ELFImage) -> [BinaryContents.FoundString] {
        var found: [BinaryContents.FoundString] = []
        for section in image.sections where section.name.hasPrefix(".rodata") && section.hasFileData {
            let bytes = image.bytes(of: section)
            var start = 0
            for index in 0...bytes.count {
                let printable = index < bytes.count && (bytes[index] >= 0x20 && bytes[index] < 0x7F || bytes[index] == 0x09)
                if printable { continue }
                if index - start >= minimumStringLength {
                    let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    found.append(.init(text: text, section: section.name, offset: section.offset + UInt64(start)))
                }
                start = index + 1
            }
        }
        return found
    }
}

extension String {
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
