/// A little-endian ELF file of either class, laid out in order: the header, the program headers,
/// each section's contents at its alignment (an allocated section at the address equal to its
/// file offset, so the file maps as one segment from offset 0), `.shstrtab`, then the section
/// header table. The tests' writers state what they test in its sections and program headers;
/// this lays them out and encodes them.
package struct ELFFileBuilder {
    package static let executableFile: UInt16 = 2, sharedObject: UInt16 = 3
    package static let x86_64: UInt16 = 62
    package static let loadSegment: UInt32 = 1, dynamicSegment: UInt32 = 2
    package static let progbits: UInt32 = 1, symbolTable: UInt32 = 2, stringTable: UInt32 = 3
    package static let dynamicSection: UInt32 = 6, note: UInt32 = 7
    package static let writable: UInt64 = 1, allocated: UInt64 = 2, executable: UInt64 = 4
    package static let neededTag: UInt64 = 1, stringTableTag: UInt64 = 5, stringTableSizeTag: UInt64 = 10

    /// One section: its header's fields and its contents (`offset` and `address` are set when it
    /// is added).
    package struct Section {
        package var name: String
        package var type: UInt32
        package var flags: UInt64
        package var contents: [UInt8]
        package var link: UInt32
        package var info: UInt32
        package var alignment: Int
        package var entrySize: UInt64
        package fileprivate(set) var offset: Int = 0
        package var address: UInt64 = 0
    }

    /// `Elf{32,64}_Phdr`, file and memory sizes alike.
    package struct ProgramHeader {
        package var type: UInt32
        package var flags: UInt32
        package var offset: UInt64
        package var address: UInt64
        package var size: UInt64
        package var alignment: UInt64

        package init(type: UInt32, flags: UInt32, offset: UInt64, address: UInt64, size: UInt64, alignment: UInt64) {
            (self.type, self.flags, self.offset, self.address) = (type, flags, offset, address)
            (self.size, self.alignment) = (size, alignment)
        }
    }

    /// The header's description of the section header table, which a writer may break.
    package struct SectionTable {
        package var offset: UInt64
        package var entrySize: UInt16
        package var count: UInt16
        package var namesIndex: UInt16
    }

    /// `Elf{32,64}_Sym`: `type` is `STT_*` (2 a function), `sectionIndex` a section's index.
    package struct Symbol {
        package var name: String
        package var value: UInt64
        package var size: UInt64
        package var type: UInt8
        package var sectionIndex: Int

        package init(name: String, value: UInt64, size: UInt64, type: UInt8, sectionIndex: Int) {
            (self.name, self.value, self.size, self.type, self.sectionIndex) = (name, value, size, type, sectionIndex)
        }
    }

    package let is64Bit: Bool
    let machine: UInt16
    let fileType: UInt16
    /// As many as the builder was made for (their room is laid out before the sections).
    package var programHeaders: [ProgramHeader]
    package private(set) var sections: [Section] = []

    package init(is64Bit: Bool, machine: UInt16, fileType: UInt16, programHeaderCount: Int) {
        (self.is64Bit, self.machine, self.fileType) = (is64Bit, machine, fileType)
        programHeaders = Array(
            repeating: ProgramHeader(type: 0, flags: 0, offset: 0, address: 0, size: 0, alignment: 0),
            count: programHeaderCount)
    }

    package var headerSize: Int { is64Bit ? 64 : 52 }
    var programHeaderSize: Int { is64Bit ? 56 : 32 }
    var sectionHeaderSize: Int { is64Bit ? 64 : 40 }
    /// `Elf_Dyn`: a tag and a value, each a word.
    package var dynamicEntrySize: Int { is64Bit ? 16 : 8 }

    /// Where the next section's contents start, before alignment.
    package var end: Int {
        sections.last.map { $0.offset + $0.contents.count } ?? headerSize + programHeaders.count * programHeaderSize
    }

    /// Adds a section after the others and returns its index in the section header table.
    @discardableResult
    package mutating func add(
        _ name: String, type: UInt32, flags: UInt64 = 0, contents: [UInt8], link: Int = 0, info: UInt32 = 0,
        alignment: Int = 1, entrySize: UInt64 = 0
    ) -> Int {
        var section = Section(
            name: name, type: type, flags: flags, contents: contents, link: UInt32(link), info: info,
            alignment: alignment, entrySize: entrySize)
        section.offset = (end + alignment - 1) / alignment * alignment
        section.address = flags & Self.allocated != 0 ? UInt64(section.offset) : 0
        sections.append(section)
        return sections.count
    }

    /// Replaces a section's contents by as many bytes (once the addresses they point at are known).
    package mutating func replaceContents(ofSection index: Int, with contents: [UInt8]) {
        precondition(contents.count == sections[index - 1].contents.count, "a section's size is fixed once added")
        sections[index - 1].contents = contents
    }

    /// The section with this index in the section header table.
    package func section(_ index: Int) -> Section { sections[index - 1] }

    /// A string table of `strings` (after the leading NUL) and each string's offset in it.
    package static func stringTable(_ strings: [String]) -> (bytes: [UInt8], offsets: [UInt32]) {
        var bytes: [UInt8] = [0]
        var offsets: [UInt32] = []
        for string in strings {
            offsets.append(UInt32(bytes.count))
            bytes += Array(string.utf8) + [0]
        }
        return (bytes, offsets)
    }

    /// `.dynstr` and `.dynamic` (allocated): `DT_NEEDED` for each name, `DT_STRTAB` and
    /// `DT_STRSZ`, `extra` entries, `DT_NULL`. Returns the index of `.dynamic`.
    @discardableResult
    package mutating func addDynamic(needed: [String], extra: [(tag: UInt64, value: UInt64)] = []) -> Int {
        let (strings, offsets) = Self.stringTable(needed)
        let stringsIndex = add(".dynstr", type: Self.stringTable, flags: Self.allocated, contents: strings)
        var entries = offsets.map { (tag: Self.neededTag, value: UInt64($0)) }
        entries += [
            (Self.stringTableTag, section(stringsIndex).address), (Self.stringTableSizeTag, UInt64(strings.count))
        ]
        entries += extra + [(0, 0)]
        var dynamic = ByteWriter()
        for (tag, value) in entries {
            dynamic.word(tag, is64Bit: is64Bit)
            dynamic.word(value, is64Bit: is64Bit)
        }
        return add(
            ".dynamic", type: Self.dynamicSection, flags: Self.allocated | Self.writable, contents: dynamic.bytes,
            link: stringsIndex, alignment: 8, entrySize: UInt64(dynamicEntrySize))
    }

    /// `.symtab` and its `.strtab`: the null entry, then `symbols`, all global. Returns the
    /// index of `.symtab`.
    @discardableResult
    package mutating func addSymbolTable(_ symbols: [Symbol]) -> Int {
        let (names, offsets) = Self.stringTable(symbols.map(\.name))
        let namesIndex = add(".strtab", type: Self.stringTable, contents: names)
        var table = ByteWriter()
        table.append([UInt8](repeating: 0, count: is64Bit ? 24 : 16))
        for (symbol, name) in zip(symbols, offsets) {
            let info = 1 << 4 | symbol.type  // STB_GLOBAL
            table.u32(name)
            if is64Bit {
                table.append([info, 0])
                table.u16(UInt16(symbol.sectionIndex))
                table.u64(symbol.value)
                table.u64(symbol.size)
            } else {
                table.u32(UInt32(symbol.value))
                table.u32(UInt32(symbol.size))
                table.append([info, 0])
                table.u16(UInt16(symbol.sectionIndex))
            }
        }
        // sh_info: the index of the first global entry (all but the null one are).
        return add(
            ".symtab", type: Self.symbolTable, contents: table.bytes, link: namesIndex, info: 1, alignment: 8,
            entrySize: is64Bit ? 24 : 16)
    }

    /// The file: `adjust` may change what the header says of the section header table (given
    /// the file's size), to write a broken one.
    package func bytes(adjust: (inout SectionTable, Int) -> Void = { _, _ in }) -> [UInt8] {
        var all = self
        let (names, nameOffsets) = Self.stringTable(sections.map(\.name) + [".shstrtab"])
        let namesIndex = all.add(".shstrtab", type: Self.stringTable, contents: names)
        let tableOffset = (all.end + 7) / 8 * 8
        var table = SectionTable(
            offset: UInt64(tableOffset), entrySize: UInt16(sectionHeaderSize), count: UInt16(namesIndex + 1),
            namesIndex: UInt16(namesIndex))
        adjust(&table, tableOffset + (namesIndex + 1) * sectionHeaderSize)

        var out = ByteWriter()
        out.append([0x7F, 0x45, 0x4C, 0x46, is64Bit ? 2 : 1, 1, 1] + [UInt8](repeating: 0, count: 9))
        out.u16(fileType)
        out.u16(machine)
        out.u32(1)
        out.word(0, is64Bit: is64Bit)
        out.word(programHeaders.isEmpty ? 0 : UInt64(headerSize), is64Bit: is64Bit)
        out.word(table.offset, is64Bit: is64Bit)
        out.u32(0)
        for field in [headerSize, programHeaderSize, programHeaders.count] { out.u16(UInt16(field)) }
        out.u16(table.entrySize)
        out.u16(table.count)
        out.u16(table.namesIndex)
        for header in programHeaders { programHeader(header, into: &out) }
        for section in all.sections {
            out.append([UInt8](repeating: 0, count: section.offset - out.count))
            out.append(section.contents)
        }
        out.pad(to: 8)
        out.append([UInt8](repeating: 0, count: sectionHeaderSize))
        for (section, name) in zip(all.sections, nameOffsets) {
            out.u32(name)
            out.u32(section.type)
            out.word(section.flags, is64Bit: is64Bit)
            out.word(section.address, is64Bit: is64Bit)
            out.word(UInt64(section.offset), is64Bit: is64Bit)
            out.word(UInt64(section.contents.count), is64Bit: is64Bit)
            out.u32(section.link)
            out.u32(section.info)
            out.word(UInt64(section.alignment), is64Bit: is64Bit)
            out.word(section.entrySize, is64Bit: is64Bit)
        }
        return out.bytes
    }

    /// The 64-bit form moves `p_flags` up beside `p_type`.
    private func programHeader(_ header: ProgramHeader, into out: inout ByteWriter) {
        out.u32(header.type)
        if is64Bit { out.u32(header.flags) }
        for field in [header.offset, header.address, header.address, header.size, header.size] {
            out.word(field, is64Bit: is64Bit)
        }
        if !is64Bit { out.u32(header.flags) }
        out.word(header.alignment, is64Bit: is64Bit)
    }
}
