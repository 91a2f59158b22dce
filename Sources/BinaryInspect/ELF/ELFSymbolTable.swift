#if canImport(CLibELF)
import BinaryReaderCore
import CLibELF
import ScanEngine
import ShipcheckCore

/// Which ELF table a `SymbolTableKind` lists: the full one (`.symtab`, gone after `strip`) or
/// the dynamic one (`.dynsym`, what the dynamic linker sees).
extension SymbolTableKind {
    var elfSectionType: UInt32 { self == .symtab ? UInt32(SHT_SYMTAB) : UInt32(SHT_DYNSYM) }
}

/// The symbols of one table, read from its bytes with every entry and name checked.
struct ELFSymbolTable {
    /// Entries in table order, without the reserved null entry at index 0 (so indices are
    /// shifted by one against relocations' references; `symbol(atIndex:)` takes raw indices).
    var symbols: [BinarySymbol]

    init(image: ELFImage, kind: SymbolTableKind) throws(InputError) {
        symbols = try Self.read(kind, in: image, listedOnly: false)
    }

    /// The entries `nm` lists: all but section and file symbols, left out as the table is
    /// decoded (large tables hold hundreds of thousands of entries).
    static func listed(image: ELFImage, kind: SymbolTableKind) throws(InputError) -> [BinarySymbol] {
        try read(kind, in: image, listedOnly: true)
    }

    /// The entry with raw table index `index` (as relocations name them), or nil.
    func symbol(atIndex index: Int) -> BinarySymbol? {
        index >= 1 && index <= symbols.count ? symbols[index - 1] : nil
    }

    private static func read(_ kind: SymbolTableKind, in image: ELFImage, listedOnly: Bool) throws(InputError)
        -> [BinarySymbol]
    {
        guard let section = image.sections.first(where: { $0.type == kind.elfSectionType }) else { return [] }
        let (origin, tableName) = (image.origin, section.name)
        @Sendable func corrupt(_ message: String) -> InputError {
            origin.error("corrupt ELF file: symbol table '\(tableName)': \(message)")
        }
        let expectedEntrySize: UInt64 = image.is64Bit ? 24 : 16
        guard section.entrySize != 0 else { throw corrupt("entry size is 0") }
        guard section.entrySize == expectedEntrySize else {
            throw corrupt("entry size is \(section.entrySize), expected \(expectedEntrySize)")
        }
        guard section.size % section.entrySize == 0 else {
            throw corrupt("size \(section.size) is not a multiple of the entry size")
        }
        let count = Int(section.size / section.entrySize)
        guard count > 0 else { return [] }
        guard Int(section.link) < image.sections.count, image.sections[Int(section.link)].type == UInt32(SHT_STRTAB)
        else {
            throw corrupt("linked string table \(section.link) is not a string table")
        }
        let names = image.bytes(of: image.sections[Int(section.link)])
        // Entries are read straight from the table's bytes (its bounds and entry size are
        // checked above and at construction), as gelf would translate them.
        let table = image.bytes(of: section)
        let (is64Bit, order) = (image.is64Bit, ByteOrder(image.isLittleEndian))
        let (sections, isObject) = (image.sections, image.kind == .object)
        let stringTable = sections[Int(section.link)].name
        // Entry 0 is the reserved null symbol; the rest are decoded on every core, in order.
        return try [BinarySymbol](decodingTableOf: count - 1) { position throws(InputError) in
            let index = position + 1
            let entry = Self.entry(index, of: table, is64Bit: is64Bit, order)
            let offset = Int(entry.st_name)
            guard offset < names.count, let end = names.firstIndex(of: 0, from: offset) else {
                throw corrupt(
                    "entry \(index) names offset \(offset), outside its \(names.count)-byte string table '\(stringTable)'"
                )
            }
            let type = entry.st_info & 0xF
            if listedOnly && (type == UInt8(STT_SECTION) || type == UInt8(STT_FILE)) { return nil }
            return symbol(entry, name: names.string(offset..<end) ?? "", sections: sections, isObject: isObject)
        }
    }

    /// Entry `index` of a symbol table (`Elf64_Sym` or `Elf32_Sym`), in the file's byte order.
    private static func entry(_ index: Int, of table: ImageBytes, is64Bit: Bool, _ order: ByteOrder) -> GElf_Sym {
        if is64Bit {
            let start = index * 24
            return GElf_Sym(
                st_name: table.uint32(at: start, order) ?? 0, st_info: table[start + 4], st_other: table[start + 5],
                st_shndx: table.uint16(at: start + 6, order) ?? 0, st_value: table.uint64(at: start + 8, order) ?? 0,
                st_size: table.uint64(at: start + 16, order) ?? 0)
        }
        let start = index * 16
        return GElf_Sym(
            st_name: table.uint32(at: start, order) ?? 0, st_info: table[start + 12], st_other: table[start + 13],
            st_shndx: table.uint16(at: start + 14, order) ?? 0,
            st_value: UInt64(table.uint32(at: start + 4, order) ?? 0),
            st_size: UInt64(table.uint32(at: start + 8, order) ?? 0))
    }

    private static func symbol(_ entry: GElf_Sym, name: String, sections: [ELFSection], isObject: Bool) -> BinarySymbol
    {
        let type = entry.st_info & 0xF, binding = entry.st_info >> 4, visibility = entry.st_other & 0x3
        let sectionIndex = Int(entry.st_shndx)
        var fileOffset = entry.st_value
        if sectionIndex < sections.count {
            let header = sections[sectionIndex]
            fileOffset = isObject ? header.offset + entry.st_value : header.offset &+ (entry.st_value &- header.address)
        }
        return BinarySymbol(
            name: name, value: entry.st_value, size: entry.st_size, isDefined: entry.st_shndx != UInt16(SHN_UNDEF),
            isFunction: type == UInt8(STT_FUNC),
            letter: nmLetter(type: type, binding: binding, sectionIndex: entry.st_shndx, sections: sections),
            type: typeName(type), binding: bindingName(binding), visibility: visibilityName(visibility),
            section: sectionName(entry.st_shndx, sections: sections), fileOffset: fileOffset)
    }
}

extension ELFSymbolTable {
    /// nm's one-letter type: upper case for global, lower case for local.
    static func nmLetter(type: UInt8, binding: UInt8, sectionIndex: UInt16, sections: [ELFSection]) -> Character {
        let letter: Character
        if sectionIndex == UInt16(SHN_UNDEF) {
            return binding == UInt8(STB_WEAK) ? (type == UInt8(STT_OBJECT) ? "v" : "w") : "U"
        } else if sectionIndex == UInt16(SHN_ABS) {
            letter = "a"
        } else if sectionIndex == UInt16(SHN_COMMON) {
            letter = "c"
        } else if type == UInt8(STT_GNU_IFUNC) {
            return "i"
        } else if Int(sectionIndex) < sections.count {
            let section = sections[Int(sectionIndex)]
            if section.flags & UInt64(SHF_EXECINSTR) != 0 {
                letter = "t"
            } else if section.type == UInt32(SHT_NOBITS) {
                letter = "b"
            } else if section.flags & UInt64(SHF_WRITE) != 0 {
                letter = "d"
            } else if section.flags & UInt64(SHF_ALLOC) != 0 {
                letter = "r"
            } else {
                letter = "n"
            }
        } else {
            letter = "?"
        }
        if binding == UInt8(STB_WEAK) { return type == UInt8(STT_OBJECT) ? "V" : "W" }
        if binding == UInt8(STB_GLOBAL) || binding == UInt8(STB_GNU_UNIQUE) {
            return letter == "?" ? "?" : Character(letter.uppercased())
        }
        return letter
    }

    static func typeName(_ type: UInt8) -> String {
        switch Int32(type) {
        case STT_NOTYPE: "NOTYPE"
        case STT_OBJECT: "OBJECT"
        case STT_FUNC: "FUNC"
        case STT_SECTION: "SECTION"
        case STT_FILE: "FILE"
        case STT_COMMON: "COMMON"
        case STT_TLS: "TLS"
        case STT_GNU_IFUNC: "IFUNC"
        default: "\(type)"
        }
    }

    static func bindingName(_ binding: UInt8) -> String {
        switch Int32(binding) {
        case STB_LOCAL: "LOCAL"
        case STB_GLOBAL: "GLOBAL"
        case STB_WEAK: "WEAK"
        case STB_GNU_UNIQUE: "UNIQUE"
        default: "\(binding)"
        }
    }

    static func visibilityName(_ visibility: UInt8) -> String {
        switch Int32(visibility) {
        case STV_DEFAULT: "DEFAULT"
        case STV_INTERNAL: "INTERNAL"
        case STV_HIDDEN: "HIDDEN"
        default: "PROTECTED"
        }
    }

    /// The section's name, or `UND` / `ABS` / `COM` for the special indices.
    static func sectionName(_ sectionIndex: UInt16, sections: [ELFSection]) -> String {
        switch Int32(sectionIndex) {
        case SHN_UNDEF: "UND"
        case SHN_ABS: "ABS"
        case SHN_COMMON: "COM"
        default: Int(sectionIndex) < sections.count ? sections[Int(sectionIndex)].name : "#\(sectionIndex)"
        }
    }
}
#endif
