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

/// A `__LINKEDIT` blob named by a load command: where it lies in the image (checked when the
/// image was opened) and its bytes.
struct MachOBlob {
    var offset: Int
    var bytes: ImageBytes
    var size: Int { bytes.count }
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
        func corrupt(_ message: String) -> InputError { origin.error("corrupt Mach-O file: \(message)") }
        let magic = image.uint32(at: 0, .little)
        let layout: MachOLayout = magic == MachO.magic64 ? .bits64 : .bits32
        guard magic == MachO.magic64 || magic == MachO.magic32, image.count >= layout.headerSize,
            let cpu = MachOCPU(header: image)
        else {
            throw corrupt("\(image.count) bytes, shorter than a Mach-O header")
        }
        self.layout = layout
        guard cpu.isSupported else { throw origin.error(cpu.unsupportedReason) }
        guard cpu.uses64BitStructures == layout.is64Bit else {
            throw corrupt("a \(layout.is64Bit ? 64 : 32)-bit header for \(cpu.name) code")
        }
        self.cpu = cpu.name
        var reader = LoadCommandReader(image: image, layout: layout, corrupt: corrupt)
        let header = try reader.slice(image, 0..<layout.headerSize, "the Mach-O header")
        fileType = try reader.uint32(header, at: 12, "the Mach-O header")
        let commandCount = Int(try reader.uint32(header, at: 16, "the Mach-O header"))
        let commandsSize = Int(try reader.uint32(header, at: 20, "the Mach-O header"))
        flags = try reader.uint32(header, at: 24, "the Mach-O header")
        guard commandsSize <= image.count - layout.headerSize else {
            throw corrupt("load commands (\(commandsSize) bytes) run past the end of the \(image.count)-byte image")
        }
        guard commandCount <= commandsSize / 8 else {
            throw corrupt("\(commandCount) load commands cannot fit in \(commandsSize) bytes")
        }
        var segments: [MachOSegment] = []
        var sections: [MachOSection] = []
        var offset = layout.headerSize
        let end = layout.headerSize + commandsSize
        for index in 0..<commandCount {
            guard end - offset >= 8 else {
                throw corrupt("load command \(index) starts past the end of the load commands")
            }
            reader.index = index
            let command = try reader.uint32(image, at: offset, "load command \(index)")
            let size = Int(try reader.uint32(image, at: offset + 4, "load command \(index)"))
            guard size >= 8, size % 4 == 0, size <= end - offset else {
                throw corrupt(
                    "load command \(index) (0x\(String(command, radix: 16)), at file offset 0x\(String(image.fileOffset + offset, radix: 16))) has size \(size), outside the load commands"
                )
            }
            let body = try reader.slice(image, offset..<offset + size, "load command \(index)")
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
                let count = Int(try reader.uint32(body, at: 12, "LC_SYMTAB"))
                let symbols = try reader.blob(
                    Int(try reader.uint32(body, at: 8, "LC_SYMTAB")), count, elementSize: layout.nlistSize,
                    "the symbol table")
                let strings = try reader.blob(
                    Int(try reader.uint32(body, at: 16, "LC_SYMTAB")),
                    Int(try reader.uint32(body, at: 20, "LC_SYMTAB")),
                    "the string table")
                symbolTable = (symbols, count, strings)
            case MachO.LC_DYSYMTAB:
                try reader.need(body, 80, "LC_DYSYMTAB")
                indirectSymbols = try reader.blob(
                    Int(try reader.uint32(body, at: 56, "LC_DYSYMTAB")),
                    Int(try reader.uint32(body, at: 60, "LC_DYSYMTAB")), elementSize: 4, "the indirect symbol table")
            case MachO.LC_DYLD_INFO, MachO.LC_DYLD_INFO_ONLY:
                try reader.need(body, 48, "LC_DYLD_INFO")
                let blobs = try (0..<5).map { (part: Int) throws(InputError) -> MachOBlob in
                    try reader.blob(
                        Int(try reader.uint32(body, at: 8 + 8 * part, "LC_DYLD_INFO")),
                        Int(try reader.uint32(body, at: 12 + 8 * part, "LC_DYLD_INFO")), "dyld info")
                }
                dyldInfo = (blobs[0], blobs[1], blobs[2], blobs[3], blobs[4])
            case MachO.LC_DYLD_EXPORTS_TRIE: exportsTrie = try reader.linkedit(body, "the export trie")
            case MachO.LC_DYLD_CHAINED_FIXUPS: chainedFixups = try reader.linkedit(body, "the chained fixups")
            case MachO.LC_CODE_SIGNATURE: codeSignatureBlob = try reader.linkedit(body, "the code signature")
            case MachO.LC_ENCRYPTION_INFO, MachO.LC_ENCRYPTION_INFO_64:
                let name = command == MachO.LC_ENCRYPTION_INFO ? "LC_ENCRYPTION_INFO" : "LC_ENCRYPTION_INFO_64"
                try reader.need(body, 20, "LC_ENCRYPTION_INFO")
                encryption = (
                    name, UInt64(try reader.uint32(body, at: 8, name)), UInt64(try reader.uint32(body, at: 12, name)),
                    try reader.uint32(body, at: 16, name)
                )
            case MachO.LC_UUID:
                try reader.need(body, 24, "LC_UUID")
                uuid = try reader.slice(body, 8..<24, "LC_UUID").array
            case MachO.LC_BUILD_VERSION:
                let name = "LC_BUILD_VERSION"
                try reader.need(body, 24, name)
                let toolCount = Int(try reader.uint32(body, at: 20, name))
                guard toolCount <= (size - 24) / 8 else {
                    throw corrupt("LC_BUILD_VERSION lists \(toolCount) tools in \(size) bytes")
                }
                let tools = try (0..<toolCount).map { (tool: Int) throws(InputError) -> String in
                    let kind = try reader.uint32(body, at: 24 + 8 * tool, name)
                    let version = try reader.uint32(body, at: 28 + 8 * tool, name)
                    return "\(MachO.toolName(kind)) \(MachO.version(version))"
                }
                let (minimum, sdk) = (try reader.uint32(body, at: 12, name), try reader.uint32(body, at: 16, name))
                buildVersion = (
                    name, ApplePlatform(machO: try reader.uint32(body, at: 8, name)), OSVersion(packed: minimum),
                    OSVersion(packed: sdk), tools
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
                    OSVersion(packed: try reader.uint32(body, at: 8, name)),
                    OSVersion(packed: try reader.uint32(body, at: 12, name)), []
                )
            case MachO.LC_LINKER_OPTION:
                try reader.need(body, 12, "LC_LINKER_OPTION")
                let strings = try reader.strings(
                    body, from: 12, count: Int(try reader.uint32(body, at: 8, "LC_LINKER_OPTION")), "LC_LINKER_OPTION")
                libraries.append(
                    LinkedLibrary(
                        name: strings.joined(separator: " "), kind: .autolink, record: "LC_LINKER_OPTION",
                        section: "LC_LINKER_OPTION"))
            default:
                if let name = MachO.dylibCommands[command] {
                    try reader.need(body, 24, name)
                    let path = try reader.string(body, at: Int(try reader.uint32(body, at: 8, name)), name)
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

    package var codeSignature: ImageBytes? { codeSignatureBlob?.bytes }

    /// Where the code signature sits in the image (offset, size), for readers of its blobs.
    package var codeSignatureRange: Range<Int>? { codeSignatureBlob?.range }
}
