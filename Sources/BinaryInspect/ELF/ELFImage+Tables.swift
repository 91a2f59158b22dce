#if canImport(CLibELF)
import BinaryReaderCore
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
        let entries: [GElf_Rela]
        do throws(LibELFError) {
            entries = try elf.relocations(
                inSection: section.index, count: Int(section.size / entrySize), isRela: isRela)
        } catch {
            throw origin.error("corrupt ELF file: relocation section '\(section.name)': \(error.message)")
        }
        return entries.map { entry in
            ELFRelocation(
                offset: entry.r_offset, type: relocationType(entry.r_info), symbolIndex: relocationSymbol(entry.r_info),
                addend: entry.r_addend)
        }
    }

    /// gelf widens r_info to the 64-bit layout for both classes.
    private func relocationType(_ info: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: info & 0xFFFF_FFFF) }
    private func relocationSymbol(_ info: UInt64) -> Int { Int(info >> 32) }

    /// `DT_NEEDED` entries: the shared libraries the dynamic linker loads with this image.
    func neededLibraries() throws(InputError) -> [String] {
        guard let dynamic = sections.first(where: { $0.type == UInt32(SHT_DYNAMIC) }) else { return [] }
        guard Int(dynamic.link) < sections.count else { return [] }
        let names = bytes(of: sections[Int(dynamic.link)])
        let entries: [ELFDynamicEntry]
        do throws(LibELFError) {
            entries = try elf.dynamicEntries(inSection: dynamic.index, count: Int(dynamic.size) / (is64Bit ? 16 : 8))
        } catch {
            throw origin.error("corrupt ELF file: .dynamic: \(error.message)")
        }
        var needed: [String] = []
        for entry in entries {
            if entry.tag == Int64(DT_NULL) { break }
            // The name's offset is a word of the file: past Int.max in a hostile one, no name.
            if entry.tag == Int64(DT_NEEDED), let offset = Int(exactly: entry.value),
                let name = names.cString(at: offset)
            {
                needed.append(name)
            }
        }
        return needed
    }

    /// The NUL-separated strings of a section such as `.comment` or `.swift1_autolink_entries`.
    func stringList(in section: ELFSection) -> [String] {
        bytes(of: section).array.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The GNU build-id note, as hex, if present (a note cut short is not one).
    func buildID() -> String? {
        let order = ByteOrder(isLittleEndian)
        for section in sections where section.type == UInt32(SHT_NOTE) {
            let notes = bytes(of: section)
            var offset = 0
            while let nameSize = notes.uint32(at: offset, order), let descSize = notes.uint32(at: offset + 4, order),
                let type = notes.uint32(at: offset + 8, order)
            {
                let nameStart = offset + 12
                let descStart = nameStart + ((Int(nameSize) + 3) & ~3)
                guard nameSize < 256, descSize < 4096,
                    let descriptor = notes.slice(descStart..<descStart + Int(descSize))
                else { break }
                if type == UInt32(NT_GNU_BUILD_ID), nameSize == 4, notes.matches("GNU".utf8, at: nameStart) {
                    return descriptor.array.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
                }
                offset = (descStart + Int(descSize) + 3) & ~3
            }
        }
        return nil
    }
}
#endif
