#if canImport(CLibELF)
import BinaryReaderCore
import CLibELF
import ScanEngine
import ShipcheckCore

/// Reads `ELFLoadFacts` through libelf the way a dynamic linker reads a library: the ELF header,
/// the program headers, and the dynamic section found through `PT_DYNAMIC` with its strings
/// through the `PT_LOAD` segment holding `DT_STRTAB` — never through section headers, which a
/// loader does not need and a hostile or badly post-processed library may lack. Section headers
/// are only checked (as bionic checks them) and, when sound, read for debug sections and the
/// NDK's ABI note. Every offset is checked against the file before it is read.
enum ELFLoadReader {
    static func read(_ bytes: UnsafeRawBufferPointer, origin: ImageOrigin) throws(InputError) -> ELFLoadFacts {
        func corrupt(_ message: String) -> InputError { origin.error("corrupt ELF file: \(message)") }
        guard ELFImage.libraryReady else { throw origin.error("libelf is out of date: \(ELFImage.lastError())") }
        guard
            let handle = elf_memory(
                UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: CChar.self)), bytes.count)
        else { throw corrupt("cannot open: \(ELFImage.lastError())") }
        defer { elf_end(handle) }
        guard elf_kind(handle) == ELF_K_ELF else { throw corrupt("not an ELF object") }
        var header = GElf_Ehdr()
        guard gelf_getehdr(handle, &header) != nil else {
            throw corrupt("unreadable ELF header: \(ELFImage.lastError())")
        }
        let elfClass = gelf_getclass(handle)
        guard elfClass == ELFCLASS32 || elfClass == ELFCLASS64 else { throw corrupt("unknown ELF class \(elfClass)") }
        let is64Bit = elfClass == ELFCLASS64
        var facts = ELFLoadFacts(
            machine: header.e_machine, is64Bit: is64Bit, isSharedObject: Int32(header.e_type) == ET_DYN)
        let segments = try programHeaders(handle, header: header, is64Bit: is64Bit, size: bytes.count, corrupt)
        facts.loadSegments = segments.filter { $0.p_type == UInt32(PT_LOAD) }.map { segment in
            ELFLoadFacts.LoadSegment(
                offset: segment.p_offset, virtualAddress: segment.p_vaddr, fileSize: segment.p_filesz,
                memorySize: segment.p_memsz, alignment: segment.p_align,
                isWritable: segment.p_flags & UInt32(PF_W) != 0,
                isExecutable: segment.p_flags & UInt32(PF_X) != 0)
        }
        if let dynamic = segments.first(where: { $0.p_type == UInt32(PT_DYNAMIC) }) {
            try readDynamic(handle, dynamic, into: &facts, bytes: bytes, is64Bit: is64Bit, corrupt)
        }
        facts.sectionHeaderProblem = sectionHeaderProblem(header, is64Bit: is64Bit, size: bytes.count)
        if facts.sectionHeaderProblem == nil {
            readSections(
                handle, header: header, bytes: bytes, isLittleEndian: header.e_ident.5 == UInt8(ELFDATA2LSB),
                into: &facts)
        }
        return facts
    }

    private static func programHeaders(
        _ handle: OpaquePointer, header: GElf_Ehdr, is64Bit: Bool, size: Int, _ corrupt: (String) -> InputError
    ) throws(InputError) -> [GElf_Phdr] {
        var count = 0
        guard elf_getphdrnum(handle, &count) == 0 else {
            throw corrupt("unreadable program header count: \(ELFImage.lastError())")
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
            var entry = GElf_Phdr()
            guard gelf_getphdr(handle, Int32(index), &entry) != nil else {
                throw corrupt("cannot read program header \(index): \(ELFImage.lastError())")
            }
            headers.append(entry)
        }
        return headers
    }

    /// `DT_NEEDED` and the text-relocation flags, from the `PT_DYNAMIC` segment;
    /// names from the string table `DT_STRTAB` points at, found in the `PT_LOAD` that maps it.
    private static func readDynamic(
        _ handle: OpaquePointer, _ dynamic: GElf_Phdr, into facts: inout ELFLoadFacts, bytes: UnsafeRawBufferPointer,
        is64Bit: Bool, _ corrupt: (String) -> InputError
    ) throws(InputError) {
        let (end, overflow) = dynamic.p_offset.addingReportingOverflow(dynamic.p_filesz)
        guard !overflow, end <= UInt64(bytes.count) else {
            throw corrupt(
                "PT_DYNAMIC (offset \(dynamic.p_offset), \(dynamic.p_filesz) bytes) runs past the end of the file")
        }
        let entrySize = UInt64(is64Bit ? 16 : 8)
        let count = Int(dynamic.p_filesz / entrySize)
        guard count > 0 else { return }
        guard
            let data = elf_getdata_rawchunk(
                handle, Int64(dynamic.p_offset), Int(UInt64(count) * entrySize), ELF_T_DYN)
        else { throw corrupt("PT_DYNAMIC unreadable: \(ELFImage.lastError())") }
        var neededOffsets: [UInt64] = []
        var stringTable: UInt64?
        var stringTableSize: UInt64 = 0
        var entry = GElf_Dyn()
        for index in 0..<count {
            guard gelf_getdyn(data, Int32(index), &entry) != nil else { break }
            switch entry.d_tag {
            case Int64(DT_NULL): break
            case Int64(DT_NEEDED): neededOffsets.append(entry.d_un.d_val)
            case Int64(DT_STRTAB): stringTable = entry.d_un.d_ptr
            case Int64(DT_STRSZ): stringTableSize = entry.d_un.d_val
            case Int64(DT_TEXTREL): facts.hasTextRelocations = true
            case Int64(DT_FLAGS): if entry.d_un.d_val & UInt64(DF_TEXTREL) != 0 { facts.hasTextRelocations = true }
            default: continue
            }
            if entry.d_tag == Int64(DT_NULL) { break }
        }
        guard !neededOffsets.isEmpty else { return }
        guard let stringTable, let strings = mapped(stringTable, size: stringTableSize, in: facts.loadSegments, bytes)
        else {
            throw corrupt(
                "the dynamic string table (DT_STRTAB 0x\(String(stringTable ?? 0, radix: 16)), \(stringTableSize) bytes) lies in no loaded segment"
            )
        }
        func name(at offset: UInt64) throws(InputError) -> String {
            guard let index = Int(exactly: offset), let text = ByteOrder.cString(strings, at: index) else {
                throw corrupt("a dynamic entry names offset \(offset), outside the \(strings.count)-byte string table")
            }
            return text
        }
        for offset in neededOffsets { facts.needed.append(try name(at: offset)) }
    }

    /// The file bytes a virtual address range occupies, through the `PT_LOAD` that maps it.
    private static func mapped(
        _ address: UInt64, size: UInt64, in segments: [ELFLoadFacts.LoadSegment], _ bytes: UnsafeRawBufferPointer
    ) -> UnsafeRawBufferPointer? {
        for segment in segments where address >= segment.virtualAddress {
            let start = address - segment.virtualAddress
            guard start < segment.fileSize, size <= segment.fileSize - start else { continue }
            let (offset, overflow) = segment.offset.addingReportingOverflow(start)
            guard !overflow, offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else { return nil }
            return UnsafeRawBufferPointer(rebasing: bytes[Int(offset)..<Int(offset + size)])
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
        _ handle: OpaquePointer, header: GElf_Ehdr, bytes: UnsafeRawBufferPointer, isLittleEndian: Bool,
        into facts: inout ELFLoadFacts
    ) {
        for index in 1..<Int(header.e_shnum) {
            var section = GElf_Shdr()
            guard let scn = elf_getscn(handle, index), gelf_getshdr(scn, &section) != nil else { continue }
            let name = elf_strptr(handle, Int(header.e_shstrndx), Int(section.sh_name)).map { String(cString: $0) }
            facts.sections.append(.init(name: name ?? "", type: section.sh_type, size: section.sh_size))
            guard let name else { continue }
            if name.hasPrefix(".debug_") {
                facts.debugSections.append(.init(name: name, size: section.sh_size))
            } else if name == ".note.android.ident", section.sh_type == UInt32(SHT_NOTE) {
                let (end, overflow) = section.sh_offset.addingReportingOverflow(section.sh_size)
                guard !overflow, end <= UInt64(bytes.count) else { continue }
                let note = UnsafeRawBufferPointer(rebasing: bytes[Int(section.sh_offset)..<Int(end)])
                facts.androidAPILevel = AndroidIdentNote.apiLevel(note, order: ByteOrder(isLittleEndian))
            }
        }
    }
}
#endif

/// The NDK's ABI note (`.note.android.ident`, from `crtbegin_so.o`): name `Android`, type 1,
/// and a descriptor that starts with the API level the library was built for.
enum AndroidIdentNote {
    static func apiLevel(_ note: UnsafeRawBufferPointer, order: ByteOrder) -> Int? {
        guard let nameSize = order.uint32(note, at: 0), let descriptorSize = order.uint32(note, at: 4),
            let type = order.uint32(note, at: 8), nameSize == 8, type == 1, descriptorSize >= 4,
            note.count >= 12 + 8 + 4, note[12..<19].elementsEqual("Android".utf8),
            let level = order.uint32(note, at: 20), level < 10_000
        else { return nil }
        return Int(level)
    }
}
