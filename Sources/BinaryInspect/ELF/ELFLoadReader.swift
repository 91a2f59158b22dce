import BinaryReaderCore
import ScanEngine
import ShipcheckCore

#if canImport(CLibELF)
import CLibELF

/// Reads `ELFLoadFacts` through libelf the way a dynamic linker reads a library: the ELF header,
/// the program headers, and the dynamic section found through `PT_DYNAMIC` with its strings
/// through the `PT_LOAD` segment holding `DT_STRTAB` — never through section headers, which a
/// loader does not need and a hostile or badly post-processed library may lack. Section headers
/// are only checked (as bionic checks them) and, when sound, read for debug sections and the
/// NDK's ABI note. Every offset is checked against the file before it is read.
enum ELFLoadReader {
    static func read(_ bytes: ImageBytes, origin: ImageOrigin) throws(InputError) -> ELFLoadFacts {
        func corrupt(_ message: String) -> InputError { origin.error("corrupt ELF file: \(message)") }
        let (elf, header, is64Bit) = try ELFSupport.open(bytes, origin: origin)
        var facts = ELFLoadFacts(
            machine: header.e_machine, is64Bit: is64Bit, isSharedObject: Int32(header.e_type) == ET_DYN)
        let segments = try programHeaders(elf, header: header, is64Bit: is64Bit, size: bytes.count, corrupt)
        facts.loadSegments = segments.filter { $0.p_type == UInt32(PT_LOAD) }.map { segment in
            ELFLoadFacts.LoadSegment(
                offset: segment.p_offset, virtualAddress: segment.p_vaddr, fileSize: segment.p_filesz,
                memorySize: segment.p_memsz, alignment: segment.p_align,
                isWritable: segment.p_flags & UInt32(PF_W) != 0,
                isExecutable: segment.p_flags & UInt32(PF_X) != 0)
        }
        if let dynamic = segments.first(where: { $0.p_type == UInt32(PT_DYNAMIC) }) {
            try readDynamic(elf, dynamic, into: &facts, is64Bit: is64Bit, corrupt)
        }
        facts.sectionHeaderProblem = sectionHeaderProblem(header, is64Bit: is64Bit, size: bytes.count)
        if facts.sectionHeaderProblem == nil {
            readSections(elf, header: header, isLittleEndian: header.e_ident.5 == UInt8(ELFDATA2LSB), into: &facts)
        }
        return facts
    }

    private static func programHeaders(
        _ elf: ELFHandle, header: GElf_Ehdr, is64Bit: Bool, size: Int, _ corrupt: (String) -> InputError
    ) throws(InputError) -> [GElf_Phdr] {
        guard let count = elf.programHeaderCount else {
            throw corrupt("unreadable program header count: \(ELFHandle.lastError)")
        }
        guard count > 0 else { return [] }
        let entrySize = UInt64(is64Bit ? 56 : 32)
        guard UInt64(header.e_phentsize) == entrySize else {
            throw corrupt("program header entry size is \(header.e_phentsize), expected \(entrySize)")
        }
        let (end, overflow) = header.e_phoff.addingReportingOverflow(UInt64(count) * entrySize)
        guard !overflow, end <= UInt64(size) else {
            throw corrupt(
                "program header table (offset \(header.e_phoff), \(count) entries) runs past the end of the \(size)-byte file"
            )
        }
        var headers: [GElf_Phdr] = []
        headers.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = elf.programHeader(index) else {
                throw corrupt("cannot read program header \(index): \(ELFHandle.lastError)")
            }
            headers.append(entry)
        }
        return headers
    }

    /// `DT_NEEDED` and the text-relocation flags, from the `PT_DYNAMIC` segment;
    /// names from the string table `DT_STRTAB` points at, found in the `PT_LOAD` that maps it.
    private static func readDynamic(
        _ elf: ELFHandle, _ dynamic: GElf_Phdr, into facts: inout ELFLoadFacts, is64Bit: Bool,
        _ corrupt: (String) -> InputError
    ) throws(InputError) {
        let segment: ImageBytes
        do throws(ImageBytesError) {
            segment = try elf.bytes.slice(at: dynamic.p_offset, count: dynamic.p_filesz, "PT_DYNAMIC")
        } catch {
            throw corrupt(error.message)
        }
        let entrySize = is64Bit ? 16 : 8
        let entries: [ELFDynamicEntry]
        do throws(LibELFError) {
            entries = try elf.dynamicEntries(
                atFileOffset: Int(dynamic.p_offset), count: segment.count / entrySize, entrySize: entrySize)
        } catch {
            throw corrupt("PT_DYNAMIC: \(error.message)")
        }
        var neededOffsets: [UInt64] = []
        var stringTable: UInt64?
        var stringTableSize: UInt64 = 0
        for entry in entries {
            switch entry.tag {
            case Int64(DT_NULL): break
            case Int64(DT_NEEDED): neededOffsets.append(entry.value)
            case Int64(DT_STRTAB): stringTable = entry.value
            case Int64(DT_STRSZ): stringTableSize = entry.value
            case Int64(DT_TEXTREL): facts.hasTextRelocations = true
            case Int64(DT_FLAGS): if entry.value & UInt64(DF_TEXTREL) != 0 { facts.hasTextRelocations = true }
            default: continue
            }
            if entry.tag == Int64(DT_NULL) { break }
        }
        guard !neededOffsets.isEmpty else { return }
        guard let stringTable,
            let strings = mapped(stringTable, size: stringTableSize, in: facts.loadSegments, elf.bytes)
        else {
            throw corrupt(
                "the dynamic string table (DT_STRTAB 0x\(String(stringTable ?? 0, radix: 16)), \(stringTableSize) bytes) lies in no loaded segment"
            )
        }
        func name(at offset: UInt64) throws(InputError) -> String {
            guard let index = Int(exactly: offset), let text = strings.cString(at: index) else {
                throw corrupt("a dynamic entry names offset \(offset), outside the \(strings.count)-byte string table")
            }
            return text
        }
        for offset in neededOffsets { facts.needed.append(try name(at: offset)) }
    }

    /// The file bytes a virtual address range occupies, through the `PT_LOAD` that maps it.
    private static func mapped(
        _ address: UInt64, size: UInt64, in segments: [ELFLoadFacts.LoadSegment], _ bytes: ImageBytes
    ) -> ImageBytes? {
        for segment in segments where address >= segment.virtualAddress {
            let start = address - segment.virtualAddress
            guard start < segment.fileSize, size <= segment.fileSize - start else { continue }
            let (offset, overflow) = segment.offset.addingReportingOverflow(start)
            return overflow ? nil : bytes.slice(at: offset, count: size)
        }
        return nil
    }

    /// What bionic's `ElfReader` refuses about the section-header fields (API 26+).
    private static func sectionHeaderProblem(_ header: GElf_Ehdr, is64Bit: Bool, size: Int)
        -> ELFLoadFacts.SectionHeaderProblem?
    {
        if header.e_shoff == 0 || header.e_shnum == 0 { return .missing }
        let expected: UInt16 = is64Bit ? 64 : 40
        if header.e_shentsize != expected { return .entrySize(found: header.e_shentsize, expected: expected) }
        let (end, overflow) = header.e_shoff.addingReportingOverflow(UInt64(header.e_shnum) * UInt64(expected))
        if overflow || end > UInt64(size) { return .outsideFile }
        if header.e_shstrndx == 0 || header.e_shstrndx >= header.e_shnum { return .namesIndex(header.e_shstrndx) }
        return nil
    }

    /// Every section's name, type and size, `.debug_*` sizes and the API level of
    /// `.note.android.ident`, from sound section headers; a header libelf cannot read is left
    /// out, a name it cannot read is "" (the leak reader reports both).
    private static func readSections(
        _ elf: ELFHandle, header: GElf_Ehdr, isLittleEndian: Bool, into facts: inout ELFLoadFacts
    ) {
        for index in 1..<Int(header.e_shnum) {
            guard let section = elf.sectionHeader(index) else { continue }
            let name = elf.string(inSection: Int(header.e_shstrndx), at: Int(section.sh_name))
            facts.sections.append(.init(name: name ?? "", type: section.sh_type, size: section.sh_size))
            guard let name else { continue }
            if name.hasPrefix(".debug_") {
                facts.debugSections.append(.init(name: name, size: section.sh_size))
            } else if name == ".note.android.ident", section.sh_type == UInt32(SHT_NOTE),
                let note = elf.bytes.slice(at: section.sh_offset, count: section.sh_size)
            {
                facts.androidAPILevel = AndroidIdentNote.apiLevel(note, order: ByteOrder(isLittleEndian))
            }
        }
    }
}
#endif

/// The NDK's ABI note (`.note.android.ident`, from `crtbegin_so.o`): name `Android`, type 1,
/// and a descriptor that starts with the API level the library was built for.
enum AndroidIdentNote {
    static func apiLevel(_ note: ImageBytes, order: ByteOrder) -> Int? {
        guard let nameSize = note.uint32(at: 0, order), let descriptorSize = note.uint32(at: 4, order),
            let type = note.uint32(at: 8, order), nameSize == 8, type == 1, descriptorSize >= 4,
            note.count >= 12 + 8 + 4, note.matches("Android".utf8, at: 12),
            let level = note.uint32(at: 20, order), level < 10_000
        else { return nil }
        return Int(level)
    }
}
