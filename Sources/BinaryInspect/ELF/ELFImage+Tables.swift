#if canImport(CLibELF)
import CLibELF
import ScanEngine
import ShipcheckCore

/// One relocation entry (REL or RELA), decoded through gelf.
struct ELFRelocation: Sendable, Hashable {
    /// Address (linked images) or offset inside the target section (objects).
    var offset: UInt64
    var type: UInt32
    /// Raw index into the linked symbol table; 0 means no symbol (e.g. R_*_RELATIVE).
    var symbolIndex: Int
    var addend: Int64
}

extension ELFImage {
    /// The relocations of a REL / RELA section.
    func relocations(in section: ELFSection) throws(InputError) -> [ELFRelocation] {
        let isRela = section.type == UInt32(SHT_RELA)
        guard isRela || section.type == UInt32(SHT_REL) else { return [] }
        let entrySize: UInt64 = is64Bit ? (isRela ? 24 : 16) : (isRela ? 12 : 8)
        guard section.entrySize == entrySize, section.size % entrySize == 0 else {
            throw InputError(
                path: displayName,
                message:
                    "corrupt ELF file: relocation section '\(section.name)' has entry size \(section.entrySize), expected \(entrySize)"
            )
        }
        guard let scn = elf_getscn(handle, section.index), let data = elf_getdata(scn, nil) else {
            throw InputError(
                path: displayName,
                message: "corrupt ELF file: relocation section '\(section.name)' unreadable: \(ELFImage.lastError())")
        }
        let count = Int(section.size / entrySize)
        var relocations: [ELFRelocation] = []
        relocations.reserveCapacity(count)
        for index in 0..<count {
            if isRela {
                var entry = GElf_Rela()
                guard gelf_getrela(data, Int32(index), &entry) != nil else { break }
                relocations.append(
                    ELFRelocation(
                        offset: entry.r_offset, type: relocationType(entry.r_info),
                        symbolIndex: relocationSymbol(entry.r_info), addend: entry.r_addend))
            } else {
                var entry = GElf_Rel()
                guard gelf_getrel(data, Int32(index), &entry) != nil else { break }
                relocations.append(
                    ELFRelocation(
                        offset: entry.r_offset, type: relocationType(entry.r_info),
                        symbolIndex: relocationSymbol(entry.r_info), addend: 0))
            }
        }
        return relocations
    }

    /// gelf widens r_info to the 64-bit layout for both classes.
    private func relocationType(_ info: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: info & 0xFFFF_FFFF) }
    private func relocationSymbol(_ info: UInt64) -> Int { Int(info >> 32) }

    /// `DT_NEEDED` entries: the shared libraries the dynamic linker loads with this image.
    func neededLibraries() throws(InputError) -> [String] {
        guard let dynamic = sections.first(where: { $0.type == UInt32(SHT_DYNAMIC) }) else { return [] }
        guard Int(dynamic.link) < sections.count else { return [] }
        let names = bytes(of: sections[Int(dynamic.link)])
        guard let scn = elf_getscn(handle, dynamic.index), let data = elf_getdata(scn, nil) else {
            throw InputError(
                path: displayName, message: "corrupt ELF file: .dynamic unreadable: \(ELFImage.lastError())")
        }
        let entrySize = is64Bit ? 16 : 8
        var needed: [String] = []
        var entry = GElf_Dyn()
        for index in 0..<(Int(dynamic.size) / entrySize) {
            guard gelf_getdyn(data, Int32(index), &entry) != nil else { break }
            if entry.d_tag == Int64(DT_NULL) { break }
            // The name's offset is a word of the file: past Int.max in a hostile one, no name.
            if entry.d_tag == Int64(DT_NEEDED), let offset = Int(exactly: entry.d_un.d_val),
                let name = cString(names, at: offset)
            {
                needed.append(name)
            }
        }
        return needed
    }

    /// The NUL-separated strings of a section such as `.comment` or `.swift1_autolink_entries`.
    func stringList(in section: ELFSection) -> [String] {
        bytes(of: section).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The GNU build-id note, as hex, if present.
    func buildID() -> String? {
        for section in sections where section.type == UInt32(SHT_NOTE) {
            let notes = bytes(of: section)
            var offset = 0
            while let nameSize = readUInt32(notes, at: offset), let descSize = readUInt32(notes, at: offset + 4),
                let type = readUInt32(notes, at: offset + 8)
            {
                let nameStart = offset + 12
                let descStart = nameStart + ((Int(nameSize) + 3) & ~3)
                let descEnd = descStart + Int(descSize)
                guard nameSize < 256, descSize < 4096, descEnd <= notes.count else { break }
                if type == UInt32(NT_GNU_BUILD_ID), nameSize == 4,
                    notes[nameStart..<nameStart + 3].elementsEqual("GNU".utf8)
                {
                    return notes[descStart..<descEnd].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
                }
                offset = (descEnd + 3) & ~3
            }
        }
        return nil
    }
}
#endif
