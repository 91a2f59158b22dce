import BinaryInspect

/// A little-endian ELF shared library that states exactly the `ELFLoadFacts` it is written
/// from: the class and machine in the header; one `PT_LOAD` per load segment with its alignment
/// and flags; a `PT_DYNAMIC` whose `DT_NEEDED` names sit in the string table `DT_STRTAB` points
/// at, inside the first `PT_LOAD` (the way the loader, not the section headers, finds them);
/// the text-relocation flag; section headers as sound or as broken as the facts say, naming the
/// `.debug_*` sections (of their sizes) and the NDK's `.note.android.ident`.
enum ELFLibraryWriter {
    private static let loadType: UInt32 = 1, dynamicType: UInt32 = 2
    private static let executableFlag: UInt32 = 1, writableFlag: UInt32 = 2, readableFlag: UInt32 = 4
    private static let neededTag: UInt64 = 1, stringTableTag: UInt64 = 5, stringTableSizeTag: UInt64 = 10
    private static let textRelocationsTag: UInt64 = 22, flagsTag: UInt64 = 30, textRelocationsFlag: UInt64 = 0x4
    private static let progbits: UInt32 = 1, stringTable: UInt32 = 3, dynamicSection: UInt32 = 6, note: UInt32 = 7
    private static let allocated: UInt64 = 2

    /// One section header's fields, before they are laid out for the class.
    private struct Section {
        var name: String
        var type: UInt32
        var flags: UInt64 = 0
        var offset: Int
        var size: Int
        var link: UInt32 = 0
        var entrySize: UInt64 = 0
    }

    static func bytes(_ facts: ELFLoadFacts) -> [UInt8] {
        let is64Bit = facts.is64Bit
        let headerSize = is64Bit ? 64 : 52, programHeaderSize = is64Bit ? 56 : 32
        let sectionHeaderSize = is64Bit ? 64 : 40, dynamicEntrySize = is64Bit ? 16 : 8
        let programHeaders = facts.loadSegments.count + 1

        // The loaded part: headers, the dynamic string table, the dynamic section.
        var strings: [UInt8] = [0]
        var neededOffsets: [UInt64] = []
        for name in facts.needed {
            neededOffsets.append(UInt64(strings.count))
            strings += Array(name.utf8) + [0]
        }
        let stringsOffset = headerSize + programHeaders * programHeaderSize
        var dynamic: [(UInt64, UInt64)] = neededOffsets.map { (neededTag, $0) }
        dynamic += [(stringTableTag, UInt64(stringsOffset)), (stringTableSizeTag, UInt64(strings.count))]
        if facts.hasTextRelocations {
            // Both encodings the loader honours, one per class, so the examples exercise each.
            dynamic.append(is64Bit ? (flagsTag, textRelocationsFlag) : (textRelocationsTag, 0))
        }
        dynamic.append((0, 0))
        let dynamicOffset = (stringsOffset + strings.count + 7) / 8 * 8
        let loadedSize = dynamicOffset + dynamic.count * dynamicEntrySize

        var sections = [
            Section(name: ".dynstr", type: stringTable, flags: allocated, offset: stringsOffset, size: strings.count),
            Section(
                name: ".dynamic", type: dynamicSection, flags: allocated, offset: dynamicOffset,
                size: dynamic.count * dynamicEntrySize, link: 1, entrySize: UInt64(dynamicEntrySize))
        ]
        var tail = ByteWriter()
        func place(_ name: String, _ type: UInt32, _ contents: [UInt8]) {
            tail.pad(to: 4)
            sections.append(Section(name: name, type: type, offset: loadedSize + tail.count, size: contents.count))
            tail.append(contents)
        }
        if let level = facts.androidAPILevel { place(".note.android.ident", note, identNote(apiLevel: level)) }
        for debug in facts.debugSections { place(debug.name, progbits, [UInt8](repeating: 0, count: Int(debug.size))) }
        var names: [UInt8] = [0]
        var nameOffsets: [UInt32] = []
        for section in sections + [Section(name: ".shstrtab", type: stringTable, offset: 0, size: 0)] {
            nameOffsets.append(UInt32(names.count))
            names += Array(section.name.utf8) + [0]
        }
        place(".shstrtab", stringTable, names)
        tail.pad(to: 8)
        let tableOffset = loadedSize + tail.count
        let fileSize = tableOffset + (sections.count + 1) * sectionHeaderSize

        var sectionTable = (offset: UInt64(tableOffset), count: UInt16(sections.count + 1))
        var entrySize = UInt16(sectionHeaderSize), namesIndex = UInt16(sections.count)
        switch facts.sectionHeaderProblem {
        case nil: break
        case .missing?: (sectionTable, namesIndex) = ((0, 0), 0)
        case .entrySize(let found, _)?: entrySize = found
        case .namesIndex(let index)?: namesIndex = index
        case .outsideFile?: sectionTable.offset = UInt64(fileSize) + 0x1000
        }

        var out = ByteWriter()
        out.append([0x7F, 0x45, 0x4C, 0x46, is64Bit ? 2 : 1, 1, 1] + [UInt8](repeating: 0, count: 9))
        out.u16(facts.isSharedObject ? 3 : 2)
        out.u16(facts.machine)
        out.u32(1)
        out.word(0, is64Bit: is64Bit)
        out.word(UInt64(headerSize), is64Bit: is64Bit)
        out.word(sectionTable.offset, is64Bit: is64Bit)
        out.u32(0)
        for field in [headerSize, programHeaderSize, programHeaders] { out.u16(UInt16(field)) }
        out.u16(entrySize)
        out.u16(sectionTable.count)
        out.u16(namesIndex)
        for (index, segment) in facts.loadSegments.enumerated() {
            // The first maps the loaded part; the others are empty, each at its own address.
            let flags =
                readableFlag | (segment.isWritable ? writableFlag : 0) | (segment.isExecutable ? executableFlag : 0)
            let size = index == 0 ? UInt64(loadedSize) : 0
            programHeader(&out, is64Bit, loadType, flags, 0, UInt64(index) << 20, size, segment.alignment)
        }
        programHeader(
            &out, is64Bit, dynamicType, readableFlag | writableFlag, UInt64(dynamicOffset), UInt64(dynamicOffset),
            UInt64(dynamic.count * dynamicEntrySize), 8)
        out.append(strings)
        out.pad(to: 8)
        for (tag, value) in dynamic {
            out.word(tag, is64Bit: is64Bit)
            out.word(value, is64Bit: is64Bit)
        }
        out.append(tail.bytes)
        out.append([UInt8](repeating: 0, count: sectionHeaderSize))
        for (section, name) in zip(sections, nameOffsets) {
            out.u32(name)
            out.u32(section.type)
            out.word(section.flags, is64Bit: is64Bit)
            out.word(section.flags == allocated ? UInt64(section.offset) : 0, is64Bit: is64Bit)
            out.word(UInt64(section.offset), is64Bit: is64Bit)
            out.word(UInt64(section.size), is64Bit: is64Bit)
            out.u32(section.link)
            out.u32(0)
            out.word(section.type == note ? 4 : 1, is64Bit: is64Bit)
            out.word(section.entrySize, is64Bit: is64Bit)
        }
        return out.bytes
    }

    /// `Elf{32,64}_Phdr`: the 64-bit form moves `p_flags` up beside `p_type`.
    private static func programHeader(
        _ out: inout ByteWriter, _ is64Bit: Bool, _ type: UInt32, _ flags: UInt32, _ offset: UInt64,
        _ address: UInt64, _ size: UInt64, _ alignment: UInt64
    ) {
        out.u32(type)
        if is64Bit { out.u32(flags) }
        for field in [offset, address, address, size, size] { out.word(field, is64Bit: is64Bit) }
        if !is64Bit { out.u32(flags) }
        out.word(alignment, is64Bit: is64Bit)
    }

    /// The note `crtbegin_so.o` carries: name `Android`, type 1, the API level, then the NDK's
    /// version and build number (64 bytes each).
    private static func identNote(apiLevel: Int) -> [UInt8] {
        var note = ByteWriter()
        note.u32(8)
        note.u32(4 + 64 + 64)
        note.u32(1)
        note.append(Array("Android".utf8) + [0])
        note.u32(UInt32(apiLevel))
        note.append(Array("r28".utf8) + [UInt8](repeating: 0, count: 61))
        note.append(Array("12479018".utf8) + [UInt8](repeating: 0, count: 56))
        return note.bytes
    }
}
