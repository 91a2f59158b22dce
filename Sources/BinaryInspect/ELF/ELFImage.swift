#if canImport(CLibELF)
import BinaryReaderCore
import CLibELF
import ScanEngine
import ShipcheckCore

/// A section header, copied out of libelf (gelf: the same shape for 32- and 64-bit files).
struct ELFSection: Sendable, Hashable {
    var index: Int
    var name: String
    var type: UInt32
    var flags: UInt64
    var address: UInt64
    var offset: UInt64
    var size: UInt64
    var link: UInt32
    var info: UInt32
    var entrySize: UInt64

    /// Whether the section occupies bytes in the file (NOBITS sections such as `.bss` do not).
    var hasFileData: Bool { type != UInt32(SHT_NOBITS) && type != UInt32(SHT_NULL) }
    var isAllocated: Bool { flags & UInt64(SHF_ALLOC) != 0 }
    var isCode: Bool { flags & UInt64(SHF_EXECINSTR) != 0 }

    var imageSection: ImageSection {
        ImageSection(
            name: name, address: address, fileOffset: hasFileData ? offset : 0, size: hasFileData ? size : 0,
            isCode: isCode)
    }
}

/// One ELF object read through libelf (`elf_memory` over the mapped file): a whole file, or one
/// member of a static archive.
///
/// Construction validates everything later reads rely on — the section header table lies inside
/// the image, `e_shstrndx` is a real section, each section's bytes lie inside the image, section
/// names resolve — and throws an `InputError` naming the file (and member) otherwise. After
/// that, `bytes(of:)` hands out bounds-checked views of section contents.
package final class ELFImage: BinaryImage {
    package let origin: ImageOrigin
    let header: GElf_Ehdr
    let sections: [ELFSection]
    let is64Bit: Bool
    package let isLittleEndian: Bool
    let handle: OpaquePointer
    /// The image's bytes (for a member: just the member), inside `storage`.
    let image: ImageBytes
    /// The same bytes' address, for the libelf calls and readers not yet on `ImageBytes`.
    var raw: UnsafeRawBufferPointer { image.unconvertedBuffer }

    package let format = BinaryFormat.elf
    package let symbolPrefix = ""

    /// `elf_version` must be called once before libelf reads anything.
    static let libraryReady: Bool = elf_version(UInt32(EV_CURRENT)) != UInt32(EV_NONE)

    init(image: ImageBytes, origin: ImageOrigin) throws(InputError) {
        self.origin = origin
        self.image = image
        let bytes = image.unconvertedBuffer
        func corrupt(_ message: String) -> InputError { origin.error("corrupt ELF file: \(message)") }
        guard Self.libraryReady else { throw origin.error("libelf is out of date: \(Self.lastError())") }
        // libelf may convert data in place (the mapping is private and writable); it never grows it.
        guard
            let handle = elf_memory(
                UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: CChar.self)), bytes.count)
        else {
            throw corrupt("cannot open: \(Self.lastError())")
        }
        // Validate before every property is set: a throwing initializer never runs deinit, so
        // the handle is released here on failure.
        do throws(InputError) {
            guard elf_kind(handle) == ELF_K_ELF else { throw corrupt("not an ELF object") }
            var header = GElf_Ehdr()
            guard gelf_getehdr(handle, &header) != nil else {
                throw corrupt("unreadable ELF header: \(Self.lastError())")
            }
            let elfClass = gelf_getclass(handle)
            guard elfClass == ELFCLASS32 || elfClass == ELFCLASS64 else {
                throw corrupt("unknown ELF class \(elfClass)")
            }
            let encoding = header.e_ident.5
            guard encoding == UInt8(ELFDATA2LSB) || encoding == UInt8(ELFDATA2MSB) else {
                throw corrupt("unknown byte order \(encoding)")
            }
            self.header = header
            is64Bit = elfClass == ELFCLASS64
            isLittleEndian = encoding == UInt8(ELFDATA2LSB)
            sections = try ELFImage.readSections(
                handle: handle, header: header, is64Bit: elfClass == ELFCLASS64, size: bytes.count, corrupt: corrupt)
        } catch {
            elf_end(handle)
            throw error
        }
        self.handle = handle
    }

    deinit {
        elf_end(handle)
    }

    package var kind: ImageKind {
        switch Int32(header.e_type) {
        case ET_REL: .object
        case ET_EXEC: .executable
        case ET_DYN: .sharedLibrary
        default: .other
        }
    }

    package var wordSize: Int { is64Bit ? 8 : 4 }

    /// Sections with a given name (ELF allows duplicates; `.o` files use them for COMDAT groups).
    func sections(named name: String) -> [ELFSection] { sections.filter { $0.name == name } }

    /// The section's bytes, already checked to lie inside the image; empty for NOBITS.
    func bytes(of section: ELFSection) -> UnsafeRawBufferPointer {
        guard section.hasFileData else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: raw[Int(section.offset)..<Int(section.offset + section.size)])
    }

    /// The allocated section with file data containing a virtual address.
    func section(containing address: UInt64) -> ELFSection? {
        sectionsByAddress.first { address >= $0.address && address - $0.address < $0.size }
    }

    private lazy var sectionsByAddress: [ELFSection] = sections.filter {
        $0.isAllocated && $0.hasFileData && $0.size > 0
    }

    /// libelf's message for the last failure.
    static func lastError() -> String {
        guard let message = elf_errmsg(-1) else { return "unknown libelf error" }
        return String(cString: message)
    }

    private static func readSections(
        handle: OpaquePointer, header: GElf_Ehdr, is64Bit: Bool, size: Int, corrupt: (String) -> InputError
    ) throws(InputError) -> [ELFSection] {
        let headerSize: UInt64 = is64Bit ? 64 : 52
        guard UInt64(size) >= headerSize else { throw corrupt("file is \(size) bytes, shorter than an ELF header") }
        guard header.e_shoff != 0 else { return [] }  // no section table (legal, e.g. some stripped objects)
        let entrySize = UInt64(header.e_shentsize)
        let expectedEntrySize: UInt64 = is64Bit ? 64 : 40
        guard entrySize == expectedEntrySize else {
            throw corrupt("section header entry size is \(entrySize), expected \(expectedEntrySize)")
        }
        // A section table libelf cannot read comes back as "0 sections" with no error: check the
        // header's claim against the file size ourselves before asking libelf.
        let claimedCount = UInt64(header.e_shnum)
        let (tableEnd, overflow) = header.e_shoff.addingReportingOverflow(max(claimedCount, 1) * entrySize)
        guard !overflow, tableEnd <= UInt64(size) else {
            throw corrupt(
                "section header table (offset \(header.e_shoff), \(claimedCount) entries) runs past the end of the \(size)-byte file"
            )
        }
        var count = 0
        guard elf_getshdrnum(handle, &count) == 0 else {
            throw corrupt("unreadable section count: \(ELFImage.lastError())")
        }
        if claimedCount != 0 && UInt64(count) != claimedCount {
            throw corrupt("libelf read \(count) sections, the header claims \(claimedCount)")
        }
        guard UInt64(count) <= (UInt64(size) - header.e_shoff) / entrySize else {
            throw corrupt("\(count) section headers do not fit in the file")
        }
        var namesIndex = 0
        guard elf_getshdrstrndx(handle, &namesIndex) == 0 else {
            throw corrupt("unreadable section-name table index: \(ELFImage.lastError())")
        }
        guard count == 0 || (namesIndex > 0 && namesIndex < count) else {
            throw corrupt("section-name table index \(namesIndex) is outside the \(count) sections")
        }
        var sections: [ELFSection] = []
        sections.reserveCapacity(count)
        for index in 0..<count {
            guard let scn = elf_getscn(handle, index) else {
                throw corrupt("cannot read section \(index): \(ELFImage.lastError())")
            }
            var shdr = GElf_Shdr()
            guard gelf_getshdr(scn, &shdr) != nil else {
                throw corrupt("cannot read section header \(index): \(ELFImage.lastError())")
            }
            var name = ""
            if index != 0 {
                guard let namePointer = elf_strptr(handle, namesIndex, Int(shdr.sh_name)) else {
                    throw corrupt("section \(index) has a name offset (\(shdr.sh_name)) outside the section-name table")
                }
                name = String(cString: namePointer)
            }
            let section = ELFSection(
                index: index, name: name, type: shdr.sh_type, flags: shdr.sh_flags, address: shdr.sh_addr,
                offset: shdr.sh_offset, size: shdr.sh_size, link: shdr.sh_link, info: shdr.sh_info,
                entrySize: shdr.sh_entsize)
            if section.hasFileData {
                let (end, overflow) = section.offset.addingReportingOverflow(section.size)
                guard !overflow, end <= UInt64(size) else {
                    throw corrupt(
                        "section \(index) '\(name)' (offset \(section.offset), \(section.size) bytes) runs past the end of the \(size)-byte file"
                    )
                }
            }
            if section.link != 0 && Int(section.link) >= count {
                throw corrupt(
                    "section \(index) '\(name)' links to section \(section.link), outside the \(count) sections")
            }
            sections.append(section)
        }
        return sections
    }
}
#endif
