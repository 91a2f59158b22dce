#if canImport(CLibELF)
import CLibELF

/// One ELF object opened by libelf (`elf_memory`) over an image's bytes, with every call that
/// takes a pointer kept here: what libelf reads comes back as plain values (gelf's structs,
/// which hold integers only, the same shape for 32- and 64-bit files) or libelf's message.
///
/// The handle keeps the view — and so the mapping libelf reads, and may convert in place —
/// alive as long as it lives. Not `Sendable`: libelf reads section data lazily, into the handle.
package final class ELFHandle {
    private let elf: OpaquePointer
    /// The bytes libelf reads.
    package let bytes: ImageBytes

    /// `elf_version` must be called once before libelf reads anything.
    package static let libraryReady: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)

    /// libelf's message for its last failure.
    package static var lastError: String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    /// Opens `bytes`; nil when libelf refuses them (`lastError` says why). Only when `libraryReady`.
    package init?(_ bytes: ImageBytes) {
        // libelf may convert data in place (the mapping is private and writable); it never grows it.
        let buffer = bytes.storage.bytes
        guard let base = buffer.baseAddress,
            let elf = elf_memory(
                UnsafeMutablePointer(mutating: (base + bytes.start).assumingMemoryBound(to: CChar.self)), bytes.count)
        else { return nil }
        self.elf = elf
        self.bytes = bytes
    }

    deinit { elf_end(elf) }

    /// Whether libelf sees an ELF object (not an archive or unknown bytes).
    package var isELFObject: Bool { elf_kind(elf) == ELF_K_ELF }

    /// `ELFCLASS32`, `ELFCLASS64`, or what else the identification bytes say.
    package var elfClass: Int32 { gelf_getclass(elf) }

    /// The ELF header, or nil (`lastError`).
    package var header: GElf_Ehdr? {
        var header = GElf_Ehdr()
        return gelf_getehdr(elf, &header) != nil ? header : nil
    }

    /// How many section headers libelf reads (`e_shnum`, or the extended count), or nil.
    package var sectionCount: Int? {
        var count = 0
        return elf_getshdrnum(elf, &count) == 0 ? count : nil
    }

    /// The index of the section-name table (`e_shstrndx`, or the extended index), or nil.
    package var sectionNamesIndex: Int? {
        var index = 0
        return elf_getshdrstrndx(elf, &index) == 0 ? index : nil
    }

    /// Section header `index`, or nil (`lastError`).
    package func sectionHeader(_ index: Int) -> GElf_Shdr? {
        var header = GElf_Shdr()
        guard let section = elf_getscn(elf, index), gelf_getshdr(section, &header) != nil else { return nil }
        return header
    }

    /// The string at `offset` of string-table section `section` (`elf_strptr`), or nil when
    /// libelf finds it outside the table.
    package func string(inSection section: Int, at offset: Int) -> String? {
        elf_strptr(elf, section, offset).map { String(cString: $0) }
    }

    /// How many program headers libelf reads, or nil.
    package var programHeaderCount: Int? {
        var count = 0
        return elf_getphdrnum(elf, &count) == 0 ? count : nil
    }

    /// Program header `index`, or nil (`lastError`).
    package func programHeader(_ index: Int) -> GElf_Phdr? {
        var header = GElf_Phdr()
        return gelf_getphdr(elf, Int32(index), &header) != nil ? header : nil
    }

    /// The `count` entries of a `SHT_REL` or `SHT_RELA` section (`isRela`); REL entries come
    /// with an addend of 0.
    package func relocations(inSection section: Int, count: Int, isRela: Bool) throws(LibELFError) -> [GElf_Rela] {
        if isRela {
            return try entries(inSection: section, count: count, GElf_Rela()) { gelf_getrela($0, $1, &$2) != nil }
        }
        return try entries(inSection: section, count: count, GElf_Rela()) { data, index, entry in
            var rel = GElf_Rel()
            guard gelf_getrel(data, index, &rel) != nil else { return false }
            entry = GElf_Rela(r_offset: rel.r_offset, r_info: rel.r_info, r_addend: 0)
            return true
        }
    }

    /// The `count` entries of a `SHT_DYNAMIC` section.
    package func dynamicEntries(inSection section: Int, count: Int) throws(LibELFError) -> [ELFDynamicEntry] {
        try entries(inSection: section, count: count, GElf_Dyn()) { gelf_getdyn($0, $1, &$2) != nil }
            .map(ELFDynamicEntry.init)
    }

    /// The `count` dynamic entries at file offset `offset` (a `PT_DYNAMIC` segment, read without
    /// section headers through `elf_getdata_rawchunk`).
    package func dynamicEntries(atFileOffset offset: Int, count: Int, entrySize: Int) throws(LibELFError)
        -> [ELFDynamicEntry]
    {
        guard count > 0 else { return [] }
        guard let data = elf_getdata_rawchunk(elf, Int64(offset), count * entrySize, ELF_T_DYN) else {
            throw LibELFError(message: "unreadable: \(Self.lastError)")
        }
        return try entries(in: data, count: count, GElf_Dyn()) { gelf_getdyn($0, $1, &$2) != nil }
            .map(ELFDynamicEntry.init)
    }

    /// Section `section`'s data as libelf translates it, `count` entries of it read by `read`.
    private func entries<Entry>(
        inSection section: Int, count: Int, _ empty: Entry,
        _ read: (UnsafeMutablePointer<Elf_Data>, Int32, inout Entry) -> Bool
    ) throws(LibELFError) -> [Entry] {
        guard let scn = elf_getscn(elf, section), let data = elf_getdata(scn, nil) else {
            throw LibELFError(message: "unreadable: \(Self.lastError)")
        }
        return try entries(in: data, count: count, empty, read)
    }

    private func entries<Entry>(
        in data: UnsafeMutablePointer<Elf_Data>, count: Int, _ empty: Entry,
        _ read: (UnsafeMutablePointer<Elf_Data>, Int32, inout Entry) -> Bool
    ) throws(LibELFError) -> [Entry] {
        guard count <= Int32.max else { throw LibELFError(message: "\(count) entries, more than libelf indexes") }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var entry = empty
        for index in 0..<count {
            guard read(data, Int32(index), &entry) else {
                throw LibELFError(message: "entry \(index) unreadable (libelf holds \(data.pointee.d_size) bytes)")
            }
            entries.append(entry)
        }
        return entries
    }
}

/// One dynamic-section entry: `d_tag` and the word of `d_un` (`d_val` and `d_ptr` share it).
package struct ELFDynamicEntry: Sendable, Hashable {
    package var tag: Int64
    package var value: UInt64

    init(_ entry: GElf_Dyn) {
        tag = entry.d_tag
        value = entry.d_un.d_val
    }
}

/// What libelf could not read, in its words.
package struct LibELFError: Error, Sendable {
    package var message: String
}
#endif
