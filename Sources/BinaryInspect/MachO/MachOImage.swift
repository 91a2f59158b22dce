import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// A segment (`LC_SEGMENT_64` or `LC_SEGMENT`), its bounds checked against the image.
struct MachOSegment {
    var name: String
    var address: UInt64
    var memorySize: UInt64
    var fileOffset: UInt64
    var fileSize: UInt64
}

/// A section of a segment, its contents (unless zero-fill) checked to lie inside the image.
struct MachOSection {
    var segment: String
    var name: String
    var address: UInt64
    var size: UInt64
    /// Offset of the contents in the image (0 for zero-fill sections).
    var offset: UInt64
    var flags: UInt32
    /// For symbol-pointer sections, the first index into the indirect symbol table.
    var reserved1: UInt32

    var type: UInt32 { flags & MachO.sectionTypeMask }
    var hasFileData: Bool {
        ![MachO.S_ZEROFILL, MachO.S_GB_ZEROFILL, MachO.S_THREAD_LOCAL_ZEROFILL].contains(type) && size > 0
    }
    var isCode: Bool { flags & (MachO.S_ATTR_PURE_INSTRUCTIONS | MachO.S_ATTR_SOME_INSTRUCTIONS) != 0 }
    /// `__TEXT,__cstring`: how otool and nm name sections.
    var fullName: String { "\(segment),\(name)" }

    var imageSection: ImageSection {
        ImageSection(
            name: fullName, address: address, fileOffset: hasFileData ? offset : 0, size: hasFileData ? size : 0,
            isCode: isCode)
    }
}

/// A `__LINKEDIT` blob named by a load command (offset and size in the image, checked).
struct MachOBlob {
    var offset: Int
    var size: Int
    var range: Range<Int> { offset..<offset + size }
}

/// One thin little-endian Mach-O image — 64-bit (arm64, arm64e, x86_64) or 32-bit (arm64_32,
/// armv7, armv7s, armv7k, i386) — a file, an archive member or a universal slice, in pure Swift.
///
/// Construction walks every load command and checks each against the image before anything
/// reads through it: the command table lies inside the image and `ncmds` fits `sizeofcmds`; each
/// command's size covers its fields; every segment, section and `__LINKEDIT` blob (symbol and
/// string tables, indirect symbols, fixups, export trie, code signature) lies inside the image.
/// A failure is one `InputError` naming the file (and member / slice).
package final class MachOImage: BinaryImage {
    package let origin: ImageOrigin
    package let cpu: String
    /// `MH_EXECUTE`, `MH_DYLIB`, … (`filetype`).
    let fileType: UInt32
    let flags: UInt32
    /// The 32- or 64-bit structures, as the header's magic says.
    let layout: MachOLayout
    /// The image's bytes (for a slice or member: just those).
    let image: ImageBytes
    /// The same bytes' address, for readers not yet on `ImageBytes`.
    var raw: UnsafeRawBufferPointer { image.unconvertedBuffer }

    let segments: [MachOSegment]
    let sections: [MachOSection]
    var symbolTable: (symbols: MachOBlob, count: Int, strings: MachOBlob)?
    var indirectSymbols: MachOBlob?
    var dyldInfo: (rebase: MachOBlob, bind: MachOBlob, weakBind: MachOBlob, lazyBind: MachOBlob, export: MachOBlob)?
    var exportsTrie: MachOBlob?
    var chainedFixups: MachOBlob?
    var codeSignatureBlob: MachOBlob?
    var encryption: (command: String, offset: UInt64, size: UInt64, id: UInt32)?
    var uuid: [UInt8]?
    var buildVersion: (command: String, platform: ApplePlatform, minimum: OSVersion, sdk: OSVersion, tools: [String])?
    var libraries: [LinkedLibrary] = []

    package let format = BinaryFormat.machO
    package var wordSize: Int { layout.wordSize }
    package let isLittleEndian = true
    package let symbolPrefix = "_"

    init(image: ImageBytes, origin: ImageOrigin) throws(InputError) {
        self.origin = origin
        self.image = image
        let bytes = image.unconvertedBuffer
        let read = ByteOrder.little
        func corrupt(_ message: String) -> InputError { origin.error("corrupt Mach-O file: \(message)") }
        let magic = read.uint32(bytes, at: 0)
        let layout: MachOLayout = magic == MachO.magic64 ? .bits64 : .bits32
        guard magic == MachO.magic64 || magic == MachO.magic32, bytes.count >= layout.headerSize else {
            throw corrupt("\(bytes.count) bytes, shorter than a Mach-O header")
        }
        self.layout = layout
        let cpu = MachOCPU(header: bytes)!
        guard cpu.isSupported else { throw origin.error(cpu.unsupportedReason) }
        guard cpu.uses64BitStructures == layout.is64Bit else {
            throw corrupt("a \(layout.is64Bit ? 64 : 32)-bit header for \(cpu.name) code")
        }
        self.cpu = cpu.name
        fileType = read.uint32(bytes, at: 12)!
        let commandCount = Int(read.uint32(bytes, at: 16)!)
        let commandsSize = Int(read.uint32(bytes, at: 20)!)
        flags = read.uint32(bytes, at: 24)!
        guard commandsSize <= bytes.count - layout.headerSize else {
            throw corrupt("load commands (\(commandsSize) bytes) run past the end of the \(bytes.count)-byte image")
        }
        guard commandCount <= commandsSize / 8 else {
            throw corrupt("\(commandCount) load commands cannot fit in \(commandsSize) bytes")
        }
        var reader = LoadCommandReader(image: bytes, layout: layout, corrupt: corrupt)
        var segments: [MachOSegment] = []
        var sections: [MachOSection] = []
        var offset = layout.headerSize
        let end = layout.headerSize + commandsSize
        for index in 0..<commandCount {
            guard end - offset >= 8 else {
                throw corrupt("load command \(index) starts past the end of the load commands")
            }
            let command = read.uint32(bytes, at: offset)!
            let size = Int(read.uint32(bytes, at: offset + 4)!)
            guard size >= 8, size % 4 == 0, size <= end - offset else {
                throw corrupt(
                    "load command \(index) (0x\(String(command, radix: 16))) has size \(size), outside the load commands"
                )
            }
            let body = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size])
            reader.index = index
            switch command {
            case layout.segmentCommand:
                let (segment, segmentSections) = try reader.segment(body)
                segments.append(segment)
                sections += segmentSections
            case MachO.LC_SEGMENT, MachO.LC_SEGMENT_64:
                throw corrupt(
                    "load command \(index) is a \(layout.is64Bit ? 32 : 64)-bit segment in a \(layout.is64Bit ? 64 : 32)-bit image"
                )
            case MachO.LC_SYMTAB:
                try reader.need(body, 24, "LC_SYMTAB")
                let count = Int(read.uint32(body, at: 12)!)
                let symbols = try reader.blob(
                    Int(read.uint32(body, at: 8)!), count, elementSize: layout.nlistSize, "the symbol table")
                let strings = try reader.blob(
                    Int(read.uint32(body, at: 16)!), Int(read.uint32(body, at: 20)!), "the string table")
                symbolTable = (symbols, count, strings)
            case MachO.LC_DYSYMTAB:
                try reader.need(body, 80, "LC_DYSYMTAB")
                indirectSymbols = try reader.blob(
                    Int(read.uint32(body, at: 56)!), Int(read.uint32(body, at: 60)!), elementSize: 4,
                    "the indirect symbol table")
            case MachO.LC_DYLD_INFO, MachO.LC_DYLD_INFO_ONLY:
                try reader.need(body, 48, "LC_DYLD_INFO")
                let blobs = try (0..<5).map { (part: Int) throws(InputError) -> MachOBlob in
                    try reader.blob(
                        Int(read.uint32(body, at: 8 + 8 * part)!), Int(read.uint32(body, at: 12 + 8 * part)!),
                        "dyld info")
                }
                dyldInfo = (blobs[0], blobs[1], blobs[2], blobs[3], blobs[4])
            case MachO.LC_DYLD_EXPORTS_TRIE: exportsTrie = try reader.linkedit(body, "the export trie")
            case MachO.LC_DYLD_CHAINED_FIXUPS: chainedFixups = try reader.linkedit(body, "the chained fixups")
            case MachO.LC_CODE_SIGNATURE: codeSignatureBlob = try reader.linkedit(body, "the code signature")
            case MachO.LC_ENCRYPTION_INFO, MachO.LC_ENCRYPTION_INFO_64:
                try reader.need(body, 20, "LC_ENCRYPTION_INFO")
                encryption = (
                    command == MachO.LC_ENCRYPTION_INFO ? "LC_ENCRYPTION_INFO" : "LC_ENCRYPTION_INFO_64",
                    UInt64(read.uint32(body, at: 8)!), UInt64(read.uint32(body, at: 12)!), read.uint32(body, at: 16)!
                )
            case MachO.LC_UUID:
                try reader.need(body, 24, "LC_UUID")
                uuid = Array(body[8..<24])
            case MachO.LC_BUILD_VERSION:
                try reader.need(body, 24, "LC_BUILD_VERSION")
                let toolCount = Int(read.uint32(body, at: 20)!)
                guard toolCount <= (size - 24) / 8 else {
                    throw corrupt("LC_BUILD_VERSION lists \(toolCount) tools in \(size) bytes")
                }
                let tools = (0..<toolCount).map { tool in
                    "\(MachO.toolName(read.uint32(body, at: 24 + 8 * tool)!)) \(MachO.version(read.uint32(body, at: 28 + 8 * tool)!))"
                }
                buildVersion = (
                    "LC_BUILD_VERSION", ApplePlatform(machO: read.uint32(body, at: 8)!),
                    OSVersion(packed: read.uint32(body, at: 12)!), OSVersion(packed: read.uint32(body, at: 16)!), tools
                )
            case MachO.LC_VERSION_MIN_MACOSX, MachO.LC_VERSION_MIN_IPHONEOS, MachO.LC_VERSION_MIN_TVOS,
                MachO.LC_VERSION_MIN_WATCHOS:
                try reader.need(body, 16, "LC_VERSION_MIN")
                let (name, platform): (String, ApplePlatform) =
                    switch command {
                    case MachO.LC_VERSION_MIN_MACOSX: ("LC_VERSION_MIN_MACOSX", .macOS)
                    case MachO.LC_VERSION_MIN_IPHONEOS: ("LC_VERSION_MIN_IPHONEOS", .iOS)
                    case MachO.LC_VERSION_MIN_TVOS: ("LC_VERSION_MIN_TVOS", .tvOS)
                    default: ("LC_VERSION_MIN_WATCHOS", .watchOS)
                    }
                buildVersion = (
                    name, ApplePlatform.versionMinimum(platform, architecture: cpu.name),
                    OSVersion(packed: read.uint32(body, at: 8)!), OSVersion(packed: read.uint32(body, at: 12)!), []
                )
            case MachO.LC_LINKER_OPTION:
                try reader.need(body, 12, "LC_LINKER_OPTION")
                let strings = try reader.strings(
                    body, from: 12, count: Int(read.uint32(body, at: 8)!), "LC_LINKER_OPTION")
                libraries.append(
                    LinkedLibrary(
                        name: strings.joined(separator: " "), kind: .autolink, record: "LC_LINKER_OPTION",
                        section: "LC_LINKER_OPTION"))
            default:
                if let name = MachO.dylibCommands[command] {
                    try reader.need(body, 24, name)
                    let path = try reader.string(body, at: Int(read.uint32(body, at: 8)!), name)
                    libraries.append(LinkedLibrary(name: path, kind: .loaded, record: name, section: name))
                }
            }
            offset += size
        }
        self.segments = segments
        self.sections = sections
    }

    package var kind: ImageKind {
        switch fileType {
        case MachO.MH_OBJECT: .object
        case MachO.MH_EXECUTE: .executable
        case MachO.MH_DYLIB: .sharedLibrary
        case MachO.MH_BUNDLE: .bundle
        default: .other
        }
    }

    /// Whether the image holds code and metadata to decode (dSYM companions and kernel
    /// collections hold load commands only, or code this reader does not audit).
    var holdsCode: Bool { kind != .other }

    /// The address of the Mach-O header (`__TEXT`'s): what offsets in fixups and the export
    /// trie are relative to.
    var baseAddress: UInt64 {
        segments.first { $0.fileOffset == 0 && $0.fileSize > 0 }?.address ?? 0
    }

    /// Encrypted images (App Store FairPlay) hold garbage in the encrypted range: no decoding there.
    private var encryptedRange: Range<UInt64>? {
        guard let encryption, encryption.id != 0 else { return nil }
        return encryption.offset..<encryption.offset + encryption.size
    }

    private func isReadable(_ section: MachOSection) -> Bool {
        guard section.hasFileData else { return false }
        guard let encrypted = encryptedRange else { return true }
        return section.offset + section.size <= encrypted.lowerBound || section.offset >= encrypted.upperBound
    }

    package func sections(_ role: SectionRole) -> [ImageSection] {
        guard holdsCode else { return [] }
        let matching = sections.filter { section in
            switch role {
            case .swiftTypes: section.name == "__swift5_types"
            case .swiftConformances: section.name == "__swift5_proto"
            case .swiftProtocols: section.name == "__swift5_protos"
            case .swiftTests: section.name == "__swift5_tests"
            case .swiftFields: section.name == "__swift5_fieldmd"
            case .strings: section.type == MachO.S_CSTRING_LITERALS
            case .objcClassList: section.name == "__objc_classlist"
            case .objcSelectorReferences: section.name == "__objc_selrefs"
            }
        }
        return matching.filter(isReadable).map(\.imageSection)
    }

    package func bytes(of section: ImageSection) -> ImageBytes {
        image.slice(Int(section.fileOffset)..<Int(section.fileOffset + section.size)) ?? .empty
    }

    /// Sections with readable contents, by address (binary search in `bytes(atAddress:)`).
    private lazy var sectionsByAddress: [MachOSection] = sections.filter(isReadable).sorted { $0.address < $1.address }

    func section(containing address: UInt64) -> MachOSection? {
        let sorted = sectionsByAddress
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let candidate = sorted[low - 1]
        return address - candidate.address < candidate.size ? candidate : nil
    }

    package func bytes(atAddress address: UInt64) -> ImageBytes? {
        guard holdsCode, let section = section(containing: address) else { return nil }
        return image.slice(Int(section.offset + (address - section.address))..<Int(section.offset + section.size))
    }

    /// The image offset of a virtual address inside a segment's file contents.
    func fileOffset(ofAddress address: UInt64) -> Int? {
        for segment in segments where address >= segment.address && address - segment.address < segment.fileSize {
            return Int(segment.fileOffset + (address - segment.address))
        }
        return nil
    }

    func blob(_ blob: MachOBlob) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: raw[blob.range]) }

    package var codeSignature: ImageBytes? { codeSignatureBlob.flatMap { image.slice($0.range) } }

    /// Where the code signature sits in the image (offset, size), for readers of its blobs.
    package var codeSignatureRange: Range<Int>? { codeSignatureBlob?.range }
}

/// Field checks shared by the load-command cases of `MachOImage.init`.
private struct LoadCommandReader {
    let image: UnsafeRawBufferPointer
    let layout: MachOLayout
    let corrupt: (String) -> InputError
    var index = 0
    private let read = ByteOrder.little

    init(image: UnsafeRawBufferPointer, layout: MachOLayout, corrupt: @escaping (String) -> InputError) {
        self.image = image
        self.layout = layout
        self.corrupt = corrupt
    }

    func need(_ body: UnsafeRawBufferPointer, _ size: Int, _ name: String) throws(InputError) {
        guard body.count >= size else {
            throw corrupt(
                "\(name) (load command \(index)) is \(body.count) bytes, shorter than its \(size)-byte layout")
        }
    }

    /// A table or blob at an image offset: `count` elements of `elementSize` bytes, inside the image.
    func blob(_ offset: Int, _ count: Int, elementSize: Int = 1, _ what: String) throws(InputError) -> MachOBlob {
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, offset <= image.count, size <= image.count - offset else {
            throw corrupt(
                "\(what) (offset \(offset), \(count) × \(elementSize) bytes) runs past the end of the \(image.count)-byte image"
            )
        }
        return MachOBlob(offset: offset, size: size)
    }

    /// A `linkedit_data_command`'s blob.
    func linkedit(_ body: UnsafeRawBufferPointer, _ what: String) throws(InputError) -> MachOBlob {
        try need(body, 16, what)
        return try blob(Int(read.uint32(body, at: 8)!), Int(read.uint32(body, at: 12)!), what)
    }

    /// An `LC_SEGMENT_64` or `LC_SEGMENT` and its sections: the same fields, addresses and sizes
    /// 8 or 4 bytes wide.
    func segment(_ body: UnsafeRawBufferPointer) throws(InputError) -> (MachOSegment, [MachOSection]) {
        let headerSize = layout.segmentHeaderSize, sectionSize = layout.sectionSize, word = layout.wordSize
        try need(body, headerSize, layout.segmentCommandName)
        let name = Self.fixedName(body, at: 8)
        let segment = MachOSegment(
            name: name, address: layout.address(body, at: 24)!, memorySize: layout.address(body, at: 24 + word)!,
            fileOffset: layout.address(body, at: 24 + 2 * word)!, fileSize: layout.address(body, at: 24 + 3 * word)!)
        let (end, overflow) = segment.fileOffset.addingReportingOverflow(segment.fileSize)
        guard !overflow, end <= UInt64(image.count) else {
            throw corrupt(
                "segment \(name) (offset \(segment.fileOffset), \(segment.fileSize) bytes) runs past the end of the \(image.count)-byte image"
            )
        }
        let count = Int(read.uint32(body, at: 32 + 4 * word)!)
        guard count <= (body.count - headerSize) / sectionSize else {
            throw corrupt("segment \(name) lists \(count) sections in a \(body.count)-byte command")
        }
        var sections: [MachOSection] = []
        sections.reserveCapacity(count)
        for number in 0..<count {
            // addr, size, then eight 32-bit fields: offset, align, reloff, nreloc, flags, reserved1…
            let at = headerSize + sectionSize * number, fields = at + 32 + 2 * word
            let section = MachOSection(
                segment: Self.fixedName(body, at: at + 16), name: Self.fixedName(body, at: at),
                address: layout.address(body, at: at + 32)!, size: layout.address(body, at: at + 32 + word)!,
                offset: UInt64(read.uint32(body, at: fields)!),
                flags: read.uint32(body, at: fields + 16)!, reserved1: read.uint32(body, at: fields + 20)!)
            if section.hasFileData {
                let (end, overflow) = section.offset.addingReportingOverflow(section.size)
                guard !overflow, end <= UInt64(image.count) else {
                    throw corrupt(
                        "section \(section.fullName) (offset \(section.offset), \(section.size) bytes) runs past the end of the \(image.count)-byte image"
                    )
                }
            }
            sections.append(section)
        }
        return (segment, sections)
    }

    /// A NUL-terminated string at `offset` inside a load command.
    func string(_ body: UnsafeRawBufferPointer, at offset: Int, _ name: String) throws(InputError) -> String {
        guard offset >= 8, let text = ByteOrder.cString(body, at: offset) else {
            throw corrupt("\(name) (load command \(index)) has a name outside the command")
        }
        return text
    }

    /// `count` NUL-terminated strings one after the other, from `offset` inside a load command.
    func strings(_ body: UnsafeRawBufferPointer, from offset: Int, count: Int, _ name: String) throws(InputError)
        -> [String]
    {
        guard count <= body.count - offset else {
            throw corrupt("\(name) (load command \(index)) claims \(count) strings in \(body.count) bytes")
        }
        var strings: [String] = []
        var position = offset
        for _ in 0..<count {
            let text = try string(body, at: position, name)
            strings.append(text)
            position += text.utf8.count + 1
        }
        return strings
    }

    /// A 16-byte, NUL-padded name (segments and sections).
    static func fixedName(_ body: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: body[offset..<offset + 16]).prefix { $0 != 0 }, as: UTF8.self)
    }
}
