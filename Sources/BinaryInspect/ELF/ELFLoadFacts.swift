/// What a dynamic linker reads of a shared library before it runs a byte of it — the ELF header,
/// the program headers and the dynamic section, reached through the segments as the loader
/// reaches them — plus the section facts an Android release check asks about (debug
/// information, the NDK's ABI note). Format facts only, in ELF's terms: the Android rules judge
/// them, and the rule examples build them from text where libelf is not built.
package struct ELFLoadFacts: Sendable, Hashable {
    /// `e_machine`: `EM_AARCH64` (183), `EM_ARM` (40), `EM_386` (3), `EM_X86_64` (62), `EM_RISCV` (243).
    package var machine: UInt16
    package var is64Bit: Bool
    /// `e_type` is `ET_DYN`.
    package var isSharedObject: Bool
    package var loadSegments: [LoadSegment] = []
    /// `DT_NEEDED`, in order.
    package var needed: [String] = []
    /// `DT_TEXTREL`, or `DF_TEXTREL` in `DT_FLAGS`: code the loader must write to.
    package var hasTextRelocations = false
    /// What is wrong with the section-header fields bionic checks (nil: nothing).
    package var sectionHeaderProblem: SectionHeaderProblem?
    /// Every section after the null one, in header order, with its name, type and size (empty
    /// when the section headers are unsound: `sectionHeaderProblem`).
    package var sections: [Section] = []
    /// The `.debug_*` sections and their sizes (empty when stripped or unreadable).
    package var debugSections: [DebugSection] = []
    /// The API level the NDK's `.note.android.ident` note records (the library's minSdk).
    package var androidAPILevel: Int?

    package init(machine: UInt16, is64Bit: Bool, isSharedObject: Bool = true) {
        self.machine = machine
        self.is64Bit = is64Bit
        self.isSharedObject = isSharedObject
    }

    /// One `PT_LOAD` program header.
    package struct LoadSegment: Sendable, Hashable {
        package var offset: UInt64
        package var virtualAddress: UInt64
        package var fileSize: UInt64
        /// `p_memsz`: what it takes once loaded (past `fileSize`, zero-filled: `.bss`).
        package var memorySize: UInt64
        package var alignment: UInt64
        package var isWritable: Bool
        package var isExecutable: Bool

        package init(
            offset: UInt64 = 0, virtualAddress: UInt64 = 0, fileSize: UInt64 = 0, memorySize: UInt64 = 0,
            alignment: UInt64, isWritable: Bool = false, isExecutable: Bool = false
        ) {
            self.offset = offset
            self.virtualAddress = virtualAddress
            self.fileSize = fileSize
            self.memorySize = memorySize
            self.alignment = alignment
            self.isWritable = isWritable
            self.isExecutable = isExecutable
        }
    }

    /// One section header: `sh_name` resolved ("" when the names table does not hold it),
    /// `sh_type`, `sh_size`.
    package struct Section: Sendable, Hashable {
        package var name: String
        package var type: UInt32
        package var size: UInt64

        /// `SHT_NOBITS` (`.bss`, `.tbss`): a size in memory, no bytes in the file.
        package static let noBits: UInt32 = 8

        package init(name: String, type: UInt32, size: UInt64) {
            self.name = name
            self.type = type
            self.size = size
        }

        /// How many bytes of the file it takes.
        package var fileSize: UInt64 { type == Self.noBits ? 0 : size }
    }

    package struct DebugSection: Sendable, Hashable {
        package var name: String
        package var size: UInt64

        package init(name: String, size: UInt64) {
            self.name = name
            self.size = size
        }
    }

    /// The section-header fields Android's linker refuses (bionic `ElfReader::VerifyElfHeader`
    /// and `ReadSectionHeaders`, enforced for apps targeting API 26 and later).
    package enum SectionHeaderProblem: Sendable, Hashable {
        /// `e_shoff` or `e_shnum` is 0.
        case missing
        /// `e_shentsize` is not the size of a section header of the class.
        case entrySize(found: UInt16, expected: UInt16)
        /// `e_shstrndx` is 0 or outside the table.
        case namesIndex(UInt16)
        /// The table does not lie inside the file.
        case outsideFile

        /// bionic's message, as `dlopen` reports it.
        package var loaderMessage: String {
            switch self {
            case .missing: "has no section headers"
            case .entrySize(let found, let expected):
                "has unsupported e_shentsize: 0x\(String(found, radix: 16)) (expected 0x\(String(expected, radix: 16)))"
            case .namesIndex(let index): "has invalid e_shstrndx (\(index))"
            case .outsideFile: "has invalid shdr offset/size"
            }
        }
    }

    /// The smallest `PT_LOAD` alignment: the page size the library can be loaded with.
    package var smallestLoadAlignment: UInt64? { loadSegments.map(\.alignment).min() }

    /// Total bytes of debug information.
    package var debugSize: UInt64 { debugSections.reduce(0) { $0 &+ $1.size } }
}
