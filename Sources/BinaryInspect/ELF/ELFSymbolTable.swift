import CLibELF
import Dispatch
import ShipcheckCore
import Synchronization

/// One symbol-table entry, decoded (gelf: the same for 32- and 64-bit, either byte order).
public struct ELFSymbol: Sendable, Hashable {
    public var name: String
    public var value: UInt64
    public var size: UInt64
    /// `STT_*`
    public var type: UInt8
    /// `STB_*`
    public var binding: UInt8
    /// `STV_*`
    public var visibility: UInt8
    /// `st_shndx`: 0 undefined, `SHN_ABS`, `SHN_COMMON`, or a section index.
    public var sectionIndex: UInt16

    public var isDefined: Bool { sectionIndex != UInt16(SHN_UNDEF) }
}

/// Which symbol table: the full one (`.symtab`, gone after `strip`) or the dynamic one
/// (`.dynsym`, what the dynamic linker sees).
public enum ELFSymbolTableKind: String, Sendable {
    case symtab = ".symtab", dynsym = ".dynsym"

    var sectionType: UInt32 { self == .symtab ? UInt32(SHT_SYMTAB) : UInt32(SHT_DYNSYM) }
}

/// The symbols of one table, read through libelf with every entry and name checked.
public struct ELFSymbolTable: Sendable {
    public var kind: ELFSymbolTableKind
    /// Entries in table order, without the reserved null entry at index 0 (so indices are
    /// shifted by one against `st_name` references; `symbol(atIndex:)` takes raw indices).
    public var symbols: [ELFSymbol]

    /// An empty table: the image has no such section.
    public init(kind: ELFSymbolTableKind) {
        self.kind = kind
        symbols = []
    }

    public init(image: ELFImage, kind: ELFSymbolTableKind) throws(InputError) {
        self.kind = kind
        guard let section = image.sections.first(where: { $0.type == kind.sectionType }) else {
            symbols = []
            return
        }
        symbols = try ELFSymbolTable.read(section, in: image)
    }

    /// The entry with raw table index `index` (as relocations name them), or nil.
    public func symbol(atIndex index: Int) -> ELFSymbol? {
        index >= 1 && index <= symbols.count ? symbols[index - 1] : nil
    }

    private static func read(_ section: ELFSection, in image: ELFImage) throws(InputError) -> [ELFSymbol] {
        func corrupt(_ message: String) -> InputError {
            InputError(path: image.displayName, message: "corrupt ELF file: symbol table '\(section.name)': \(message)")
        }
        let expectedEntrySize: UInt64 = image.is64Bit ? 24 : 16
        guard section.entrySize != 0 else { throw corrupt("entry size is 0") }
        guard section.entrySize == expectedEntrySize else {
            throw corrupt("entry size is \(section.entrySize), expected \(expectedEntrySize)")
        }
        guard section.size % section.entrySize == 0 else { throw corrupt("size \(section.size) is not a multiple of the entry size") }
        let count = Int(section.size / section.entrySize)
        guard count > 0 else { return [] }
        guard Int(section.link) < image.sections.count, image.sections[Int(section.link)].type == UInt32(SHT_STRTAB) else {
            throw corrupt("linked string table \(section.link) is not a string table")
        }
        let names = image.bytes(of: image.sections[Int(section.link)])
        guard let scn = elf_getscn(image.handle, section.index), let data = elf_getdata(scn, nil) else {
            throw corrupt("unreadable: \(ELFFile.lastError())")
        }
        guard UInt64(data.pointee.d_size) >= section.size else { throw corrupt("libelf returned \(data.pointee.d_size) bytes of \(section.size)") }
        // Decoding (and allocating ~300k name strings) is split over every core; each worker
        // initialises its own stretch of the array. gelf_getsym only reads the translated data.
        let problems = Mutex<[Int: String]>([:])
        let source = SymbolSource(data: data, names: names)
        let symbols = [ELFSymbol](unsafeUninitializedCapacity: count - 1) { buffer, initialized in
            let target = SymbolTarget(base: buffer.baseAddress)
            let chunkSize = 8192
            DispatchQueue.concurrentPerform(iterations: (count - 1 + chunkSize - 1) / chunkSize) { chunk in
                var entry = GElf_Sym()
                for index in (1 + chunk * chunkSize)..<min(1 + (chunk + 1) * chunkSize, count) {
                    var name: String?
                    if gelf_getsym(source.data, Int32(index), &entry) == nil {
                        problems.withLock { $0[index] = "entry \(index) unreadable" }
                    } else if let found = symbolName(source.names, at: Int(entry.st_name)) {
                        name = found
                    } else {
                        problems.withLock { $0[index] = "entry \(index) has a name offset (\(entry.st_name)) outside its string table" }
                    }
                    (target.base! + index - 1).initialize(to: ELFSymbol(
                        name: name ?? "", value: entry.st_value, size: entry.st_size,
                        type: entry.st_info & 0xF, binding: entry.st_info >> 4, visibility: entry.st_other & 0x3,
                        sectionIndex: entry.st_shndx))
                }
            }
            initialized = count - 1
        }
        if let first = problems.withLock({ $0.min { $0.key < $1.key } }) { throw corrupt(first.value) }
        return symbols
    }

    /// A NUL-terminated name inside the string table, or nil when it runs off the end.
    private static func symbolName(_ table: UnsafeRawBufferPointer, at offset: Int) -> String? {
        guard offset < table.count, let end = ByteSearch.find(byte: 0, in: table, from: offset) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: table[offset..<end]), as: UTF8.self)
    }
}

extension ELFSymbol {
    /// nm's one-letter type: upper case for global, lower case for local.
    public func nmLetter(sections: [ELFSection]) -> Character {
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

    public var typeName: String {
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

    public var bindingName: String {
        switch Int32(binding) {
        case STB_LOCAL: "LOCAL"
        case STB_GLOBAL: "GLOBAL"
        case STB_WEAK: "WEAK"
        case STB_GNU_UNIQUE: "UNIQUE"
        default: "\(binding)"
        }
    }

    public var visibilityName: String {
        switch Int32(visibility) {
        case STV_DEFAULT: "DEFAULT"
        case STV_INTERNAL: "INTERNAL"
        case STV_HIDDEN: "HIDDEN"
        default: "PROTECTED"
        }
    }

    /// The section's name, or `UND` / `ABS` / `COM` for the special indices.
    public func sectionName(sections: [ELFSection]) -> String {
        switch Int32(sectionIndex) {
        case SHN_UNDEF: "UND"
        case SHN_ABS: "ABS"
        case SHN_COMMON: "COM"
        default: Int(sectionIndex) < sections.count ? sections[Int(sectionIndex)].name : "#\(sectionIndex)"
        }
    }
}

/// What the decoding workers share: libelf's translated table and the string table bytes (both
/// read-only while the workers run).
private struct SymbolSource: @unchecked Sendable {
    let data: UnsafeMutablePointer<Elf_Data>
    let names: UnsafeRawBufferPointer
}

/// The symbols' storage; each worker writes only its own indices.
private struct SymbolTarget: @unchecked Sendable {
    let base: UnsafeMutablePointer<ELFSymbol>?
}
