#if canImport(CLibELF)
import BinaryReaderCore
import CLibELF
import ScanEngine
import ShipcheckCore

/// The ELF adapter: section roles by ELF section name, pointer slots from dynamic relocations,
/// `DT_NEEDED` and autolink entries, build-id / `.comment` / `.debug_*` facts.
extension ELFImage {
    package func sections(_ role: SectionRole) -> [ImageSection] {
        let matching: [ELFSection]
        switch role {
        case .swiftTypes: matching = sections(named: "swift5_type_metadata")
        case .swiftConformances: matching = sections(named: "swift5_protocol_conformances")
        case .swiftProtocols: matching = sections(named: "swift5_protocols")
        case .swiftTests: matching = sections(named: "swift5_tests")
        case .swiftFields: matching = sections(named: "swift5_fieldmd")
        case .strings: matching = sections.filter { $0.name.hasPrefix(".rodata") }
        case .objcClassList, .objcSelectorReferences: matching = []
        }
        return matching.filter(\.hasFileData).map(\.imageSection)
    }

    package func bytes(of section: ImageSection) -> ImageBytes {
        image.slice(Int(section.fileOffset)..<Int(section.fileOffset + section.size)) ?? .empty
    }

    package func bytes(atAddress address: UInt64) -> ImageBytes? {
        guard let section = section(containing: address) else { return nil }
        return bytes(of: section.imageSection).slice(from: Int(address - section.address))
    }

    /// GOT slots and other relocated words, from the allocated (dynamic) relocation sections:
    /// a symbol from `.dynsym`, or an `R_*_RELATIVE` addend back into this image.
    package func pointerSlots() throws(InputError) -> [UInt64: SlotTarget] {
        guard kind.isLinked else { return [:] }
        let dynamicSymbols = try ELFSymbolTable(image: self, kind: .dynsym)
        var slots: [UInt64: SlotTarget] = [:]
        for section in sections where section.type == UInt32(SHT_RELA) || section.type == UInt32(SHT_REL) {
            guard section.isAllocated else { continue }
            for relocation in try relocations(in: section) {
                if relocation.symbolIndex != 0 {
                    if let symbol = dynamicSymbols.symbol(atIndex: relocation.symbolIndex) {
                        slots[relocation.offset] = .symbol(symbol.name)
                    }
                } else {
                    slots[relocation.offset] = .address(UInt64(bitPattern: relocation.addend))
                }
            }
        }
        return slots
    }

    package func symbols(_ table: SymbolTableKind) throws(InputError) -> [BinarySymbol] {
        try ELFSymbolTable.listed(image: self, kind: table)
    }

    package func linkedLibraries() throws(InputError) -> [LinkedLibrary] {
        var libraries = try neededLibraries().map(ELFFacts.needed)
        for section in sections(named: ".swift1_autolink_entries") {
            libraries += stringList(in: section).map(ELFFacts.autolink)
        }
        return libraries
    }

    package func buildFacts() -> [BuildFact] {
        var facts: [BuildFact] = []
        if let buildID = buildID() { facts.append(ELFFacts.buildID(buildID)) }
        if let toolchain = ELFFacts.toolchain(sections(named: ".comment").flatMap(stringList)) {
            facts.append(toolchain)
        }
        if let debug = ELFFacts.debugSections(
            sections.filter { $0.name.hasPrefix(".debug_") }.map { ($0.name, $0.size) })
        {
            facts.append(debug)
        }
        return facts
    }

    package var codeSignature: ImageBytes? { nil }
}
#endif
