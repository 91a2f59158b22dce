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
    /// libelf's reading of `image`.
    let elf: ELFHandle
    /// The image's bytes (for a member: just the member).
    let image: ImageBytes

    package let format = BinaryFormat.elf
    package let symbolPrefix = ""

    init(image: ImageBytes, origin: ImageOrigin) throws(InputError) {
        self.origin = origin
        self.image = image
        func corrupt(_ message: String) -> InputError { origin.error("corrupt ELF file: \(message)") }
        let (elf, header, is64Bit) = try ELFSupport.open(image, origin: origin)
        let encoding = header.e_ident.5
        guard encoding == UInt8(ELFDATA2LSB) || encoding == UInt8(ELFDATA2MSB) else {
            throw corrupt("unknown byte order \(encoding)")
        }
        self.header = header
        self.is64Bit = is64Bit
        isLittleEndian = encoding == UInt8(ELFDATA2LSB)
        sections = try ELFImage.readSections(elf, header: header, is64Bit: is64Bit, size: image.count, corrupt: corrupt)
        self.elf = elf
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
    func bytes(of section: ELFSection) -> ImageBytes {
        guard section.hasFileData else { return .empty }
        return image.slice(Int(section.offset)..<Int(section.offset + section.size)) ?? .empty
    }

    /// The allocated section with file data containing a virtual address.
    func section(containing address: UInt64) -> ELFSection? {
        sectionsByAddress.first { address >= $0.address && address - $0.address < $0.size }
    }

    private lazy var sectionsByAddress: [ELFSection] = sections.filter {
        $0.isAllocated && $0.hasFileData && $0.size > 0
    }

    private static func readSections(
        _ elf: ELFHandle, header: GElf_Ehdr, is64Bit: Bool, size: Int, corrupt: (String) -> InputError
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
        guard let count = elf.sectionCount else {
            throw corrupt("unreadable section count: \(ELFHandle.lastError)")
        }
        if claimedCount != 0 && UInt64(count) != claimedCount {
            throw corrupt("libelf read \(count) sections, the header claims \(claimedCount)")
        }
        guard UInt64(count) <= (UInt64(size) - header.e_shoff) / entrySize else {
            throw corrupt("\(count) section headers do not fit in the file")
        }
        guard let namesIndex = elf.sectionNamesIndex else {
            throw corrupt("unreadable section-name table index: \(ELFHandle.lastError)")
        }
        guard count == 0 || (namesIndex > 0 && namesIndex < count) else {
            throw corrupt("section-name table index \(namesIndex) is outside the \(count) sections")
        }
        var sections: [ELFSection] = []
        sections.reserveCapacity(count)
        for index in 0..<count {
            guard let shdr = elf.sectionHeader(index) else {
                throw corrupt("cannot read section header \(index): \(ELFHandle.lastError)")
            }
            var name = ""
            if index != 0 {
                guard let found = elf.string(inSection: namesIndex, at: Int(shdr.sh_name)) else {
                    throw corrupt("section \(index) has a name offset (\(shdr.sh_name)) outside the section-name table")
                }
                name = found
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
