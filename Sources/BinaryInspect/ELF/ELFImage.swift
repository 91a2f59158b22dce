import CLibELF
import ShipcheckCore

/// A section header, copied out of libelf (gelf: the same shape for 32- and 64-bit files).
public struct ELFSection: Sendable, Hashable {
    public var index: Int
    public var name: String
    public var type: UInt32
    public var flags: UInt64
    public var address: UInt64
    public var offset: UInt64
    public var size: UInt64
    public var link: UInt32
    public var info: UInt32
    public var entrySize: UInt64

    /// Whether the section occupies bytes in the file (NOBITS sections such as `.bss` do not).
    public var hasFileData: Bool { type != UInt32(SHT_NOBITS) && type != UInt32(SHT_NULL) }
    public var isAllocated: Bool { flags & UInt64(SHF_ALLOC) != 0 }
}

/// The kind of object, from `e_type`.
public enum ELFObjectKind: String, Sendable {
    case relocatable = "relocatable object", executable, sharedObject = "shared object", core = "core file", other = "ELF file"
}

/// One ELF object: a whole file, or one member of a static archive.
///
/// Construction validates everything later reads rely on — the section header table lies inside
/// the image, `e_shstrndx` is a real section, each section's bytes lie inside the image, section
/// names resolve — and throws an `InputError` naming the file (and member) otherwise. After
/// that, `bytes(of:)` hands out bounds-checked views of section contents.
public final class ELFImage {
    public let path: String
    /// Archive member name, or nil for a plain file.
    public let member: String?
    public let header: GElf_Ehdr
    public let sections: [ELFSection]
    public let is64Bit: Bool
    public let isLittleEndian: Bool
    let handle: OpaquePointer
    private let owned: Bool
    /// The image's bytes as libelf mapped them (for a member: just the member).
    let raw: UnsafeRawBufferPointer

    init(handle: OpaquePointer, path: String, member: String?, owned: Bool, containerSize: Int) throws(InputError) {
        self.path = path
        self.member = member
        self.handle = handle
        self.owned = owned
        let shown = member.map { "\(path)(\($0))" } ?? path
        func corrupt(_ message: String) -> InputError { InputError(path: shown, message: "corrupt ELF file: \(message)") }

        var size = 0
        guard let base = elf_rawfile(handle, &size), size > 0, size <= containerSize else {
            throw corrupt("cannot map the file: \(ELFFile.lastError())")
        }
        raw = UnsafeRawBufferPointer(start: UnsafeRawPointer(base), count: size)
        var header = GElf_Ehdr()
        guard gelf_getehdr(handle, &header) != nil else { throw corrupt("unreadable ELF header: \(ELFFile.lastError())") }
        self.header = header
        let elfClass = gelf_getclass(handle)
        guard elfClass == ELFCLASS32 || elfClass == ELFCLASS64 else { throw corrupt("unknown ELF class \(elfClass)") }
        is64Bit = elfClass == ELFCLASS64
        let encoding = header.e_ident.5
        guard encoding == UInt8(ELFDATA2LSB) || encoding == UInt8(ELFDATA2MSB) else { throw corrupt("unknown byte order \(encoding)") }
        isLittleEndian = encoding == UInt8(ELFDATA2LSB)
        sections = try ELFImage.readSections(handle: handle, header: header, is64Bit: is64Bit, size: size, corrupt: corrupt)
    }

    deinit {
        if owned { elf_end(handle) }
    }

    /// `path` or `path(member)`: how messages name this image.
    public var displayName: String { member.map { "\(path)(\($0))" } ?? path }

    public var kind: ELFObjectKind {
        switch Int32(header.e_type) {
        case ET_REL: .relocatable
        case ET_EXEC: .executable
        case ET_DYN: .sharedObject
        case ET_CORE: .core
        default: .other
        }
    }

    /// Sections with a given name (ELF allows duplicates; `.o` files use them for COMDAT groups).
    public func sections(named name: String) -> [ELFSection] { sections.filter { $0.name == name } }

    public func section(named name: String) -> ELFSection? { sections.first { $0.name == name } }

    /// The section's bytes, already checked to lie inside the image; empty for NOBITS.
    public func bytes(of section: ELFSection) -> UnsafeRawBufferPointer {
        guard section.hasFileData else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(rebasing: raw[Int(section.offset)..<Int(section.offset + section.size)])
    }

    /// The section containing a virtual address (allocated sections with file data).
    public func section(containing address: UInt64) -> ELFSection? {
        sectionsByAddress.first { address >= $0.address && address - $0.address < $0.size }
    }

    private lazy var sectionsByAddress: [ELFSection] = sections.filter { $0.isAllocated && $0.hasFileData && $0.size > 0 }

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
            throw corrupt("section header table (offset \(header.e_shoff), \(claimedCount) entries) runs past the end of the \(size)-byte file")
        }
        var count = 0
        guard elf_getshdrnum(handle, &count) == 0 else { throw corrupt("unreadable section count: \(ELFFile.lastError())") }
        if claimedCount != 0 && UInt64(count) != claimedCount {
            throw corrupt("libelf read \(count) sections, the header claims \(claimedCount)")
        }
        guard UInt64(count) <= (UInt64(size) - header.e_shoff) / entrySize else {
            throw corrupt("\(count) section headers do not fit in the file")
        }
        var namesIndex = 0
        guard elf_getshdrstrndx(handle, &namesIndex) == 0 else { throw corrupt("unreadable section-name table index: \(ELFFile.lastError())") }
        guard count == 0 || (namesIndex > 0 && namesIndex < count) else {
            throw corrupt("section-name table index \(namesIndex) is outside the \(count) sections")
        }
        var sections: [ELFSection] = []
        sections.reserveCapacity(count)
        for index in 0..<count {
            guard let scn = elf_getscn(handle, index) else { throw corrupt("cannot read section \(index): \(ELFFile.lastError())") }
            var shdr = GElf_Shdr()
            guard gelf_getshdr(scn, &shdr) != nil else { throw corrupt("cannot read section header \(index): \(ELFFile.lastError())") }
            var name = ""
            if index != 0 {
                guard let namePointer = elf_strptr(handle, namesIndex, Int(shdr.sh_name)) else {
                    throw corrupt("section \(index) has a name offset (\(shdr.sh_name)) outside the section-name table")
                }
                name = String(cString: namePointer)
            }
            let section = ELFSection(
                index: index, name: name, type: shdr.sh_type, flags: shdr.sh_flags, address: shdr.sh_addr,
                offset: shdr.sh_offset, size: shdr.sh_size, link: shdr.sh_link, info: shdr.sh_info, entrySize: shdr.sh_entsize)
            if section.hasFileData {
                let (end, overflow) = section.offset.addingReportingOverflow(section.size)
                guard !overflow, end <= UInt64(size) else {
                    throw corrupt("section \(index) '\(name)' (offset \(section.offset), \(section.size) bytes) runs past the end of the \(size)-byte file")
                }
            }
            if section.link != 0 && Int(section.link) >= count {
                throw corrupt("section \(index) '\(name)' links to section \(section.link), outside the \(count) sections")
            }
            sections.append(section)
        }
        return sections
    }
}

/// Fixed-width reads in the image's byte order, bounds-checked (nil when outside).
extension ELFImage {
    func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        return isLittleEndian ? UInt32(littleEndian: value) : UInt32(bigEndian: value)
    }

    func readInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int32? {
        readUInt32(bytes, at: offset).map { Int32(bitPattern: $0) }
    }

    func readWord(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt64? {
        if !is64Bit { return readUInt32(bytes, at: offset).map(UInt64.init) }
        guard offset >= 0, offset <= bytes.count - 8 else { return nil }
        let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        return isLittleEndian ? UInt64(littleEndian: value) : UInt64(bigEndian: value)
    }

    var wordSize: Int { is64Bit ? 8 : 4 }

    /// The NUL-terminated string at `offset` in `bytes`, or nil when it is not terminated in bounds.
    func cString(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String? {
        guard offset >= 0, offset < bytes.count, let end = ByteSearch.find(byte: 0, in: bytes, from: offset) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
    }

    /// Bytes at a virtual address (to the end of its section), for linked images.
    func bytes(atAddress address: UInt64) -> (section: ELFSection, bytes: UnsafeRawBufferPointer)? {
        guard let section = section(containing: address) else { return nil }
        let all = bytes(of: section)
        return (section, UnsafeRawBufferPointer(rebasing: all[Int(address - section.address)...]))
    }
}
