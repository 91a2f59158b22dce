import BinaryReaderCore

/// The Mach-O constants shipcheck reads (`<mach-o/loader.h>`, `<mach-o/nlist.h>`,
/// `<mach-o/fat.h>`, `<mach-o/fixup-chains.h>`), spelled as Apple spells them.
enum MachO {
    static let magic64: UInt32 = 0xFEED_FACF
    static let magic32: UInt32 = 0xFEED_FACE
    static let fatMagic: UInt32 = 0xCAFE_BABE
    static let fatMagic64: UInt32 = 0xCAFE_BABF

    // File types.
    static let MH_OBJECT: UInt32 = 0x1, MH_EXECUTE: UInt32 = 0x2, MH_DYLIB: UInt32 = 0x6, MH_BUNDLE: UInt32 = 0x8,
        MH_DSYM: UInt32 = 0xA

    // Load commands.
    static let LC_REQ_DYLD: UInt32 = 0x8000_0000
    static let LC_SEGMENT: UInt32 = 0x1, LC_SYMTAB: UInt32 = 0x2, LC_DYSYMTAB: UInt32 = 0xB
    static let LC_LOAD_DYLIB: UInt32 = 0xC, LC_ID_DYLIB: UInt32 = 0xD
    static let LC_SEGMENT_64: UInt32 = 0x19, LC_UUID: UInt32 = 0x1B, LC_CODE_SIGNATURE: UInt32 = 0x1D
    static let LC_LOAD_WEAK_DYLIB: UInt32 = 0x18 | LC_REQ_DYLD, LC_REEXPORT_DYLIB: UInt32 = 0x1F | LC_REQ_DYLD
    static let LC_LAZY_LOAD_DYLIB: UInt32 = 0x20, LC_ENCRYPTION_INFO: UInt32 = 0x21
    static let LC_DYLD_INFO: UInt32 = 0x22, LC_DYLD_INFO_ONLY: UInt32 = 0x22 | LC_REQ_DYLD
    static let LC_LOAD_UPWARD_DYLIB: UInt32 = 0x23 | LC_REQ_DYLD
    static let LC_VERSION_MIN_MACOSX: UInt32 = 0x24, LC_VERSION_MIN_IPHONEOS: UInt32 = 0x25
    static let LC_ENCRYPTION_INFO_64: UInt32 = 0x2C, LC_LINKER_OPTION: UInt32 = 0x2D
    static let LC_VERSION_MIN_TVOS: UInt32 = 0x2F, LC_VERSION_MIN_WATCHOS: UInt32 = 0x30
    static let LC_BUILD_VERSION: UInt32 = 0x32
    static let LC_DYLD_EXPORTS_TRIE: UInt32 = 0x33 | LC_REQ_DYLD, LC_DYLD_CHAINED_FIXUPS: UInt32 = 0x34 | LC_REQ_DYLD

    /// The commands that name a library loaded at run time, and how messages name them.
    static let dylibCommands: [UInt32: String] = [
        LC_LOAD_DYLIB: "LC_LOAD_DYLIB", LC_LOAD_WEAK_DYLIB: "LC_LOAD_WEAK_DYLIB",
        LC_REEXPORT_DYLIB: "LC_REEXPORT_DYLIB",
        LC_LAZY_LOAD_DYLIB: "LC_LAZY_LOAD_DYLIB", LC_LOAD_UPWARD_DYLIB: "LC_LOAD_UPWARD_DYLIB"
    ]

    // Section types (flags & SECTION_TYPE) and attributes.
    static let sectionTypeMask: UInt32 = 0xFF
    static let S_ZEROFILL: UInt32 = 0x1, S_CSTRING_LITERALS: UInt32 = 0x2
    static let S_NON_LAZY_SYMBOL_POINTERS: UInt32 = 0x6, S_LAZY_SYMBOL_POINTERS: UInt32 = 0x7
    static let S_GB_ZEROFILL: UInt32 = 0xC, S_THREAD_LOCAL_ZEROFILL: UInt32 = 0x12
    static let S_ATTR_PURE_INSTRUCTIONS: UInt32 = 0x8000_0000, S_ATTR_SOME_INSTRUCTIONS: UInt32 = 0x400

    // nlist.
    static let N_STAB: UInt8 = 0xE0, N_PEXT: UInt8 = 0x10, N_TYPE: UInt8 = 0x0E, N_EXT: UInt8 = 0x01
    static let N_UNDF: UInt8 = 0x0, N_ABS: UInt8 = 0x2, N_SECT: UInt8 = 0xE, N_PBUD: UInt8 = 0xC, N_INDR: UInt8 = 0xA
    static let N_WEAK_REF: UInt16 = 0x40, N_WEAK_DEF: UInt16 = 0x80
    static let INDIRECT_SYMBOL_LOCAL: UInt32 = 0x8000_0000, INDIRECT_SYMBOL_ABS: UInt32 = 0x4000_0000

    // Export trie flags.
    static let EXPORT_SYMBOL_FLAGS_KIND_MASK: UInt64 = 0x03, EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE: UInt64 = 0x02
    static let EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION: UInt64 = 0x04, EXPORT_SYMBOL_FLAGS_REEXPORT: UInt64 = 0x08
    static let EXPORT_SYMBOL_FLAGS_STUB_AND_RESOLVER: UInt64 = 0x10

    // Bind opcode symbol flags.
    static let BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION: UInt8 = 0x08

    /// `LC_BUILD_VERSION` tools.
    static func toolName(_ tool: UInt32) -> String {
        switch tool {
        case 1: "clang"
        case 2: "swift"
        case 3: "ld"
        case 4: "lld"
        default: "tool \(tool)"
        }
    }

    /// `xxxx.yy.zz` packed as nibbles: 0x00110500 is 17.5.
    static func version(_ packed: UInt32) -> String { OSVersion(packed: packed).description }
}

/// Where the 32-bit (`mach_header`, `LC_SEGMENT`, `section`, `nlist`) and 64-bit
/// (`mach_header_64`, `LC_SEGMENT_64`, `section_64`, `nlist_64`) structures differ: their sizes
/// and the width of addresses. Every other structure a reader decodes is the same in both.
struct MachOLayout: Equatable {
    static let bits32 = MachOLayout(is64Bit: false)
    static let bits64 = MachOLayout(is64Bit: true)

    let is64Bit: Bool

    var wordSize: Int { is64Bit ? 8 : 4 }
    var headerSize: Int { is64Bit ? 32 : 28 }
    var segmentCommand: UInt32 { is64Bit ? MachO.LC_SEGMENT_64 : MachO.LC_SEGMENT }
    var segmentCommandName: String { is64Bit ? "LC_SEGMENT_64" : "LC_SEGMENT" }
    var segmentHeaderSize: Int { is64Bit ? 72 : 56 }
    var sectionSize: Int { is64Bit ? 80 : 68 }
    var nlistSize: Int { is64Bit ? 16 : 12 }

    /// An address-sized field (`vmaddr`, `addr`, `n_value`…).
    func address(_ bytes: ImageBytes, at offset: Int) -> UInt64? {
        bytes.word(at: offset, size: wordSize, .little)
    }
}

/// A CPU as `cputype` / `cpusubtype` name it, with the name `lipo`, `nm -arch` and `--arch` use.
struct MachOCPU: Hashable {
    static let abi64: UInt32 = 0x0100_0000
    static let abi64_32: UInt32 = 0x0200_0000
    static let x86: UInt32 = 7, arm: UInt32 = 12, powerPC: UInt32 = 18

    var type: UInt32
    var subtype: UInt32

    init(type: UInt32, subtype: UInt32) {
        self.type = type
        self.subtype = subtype
    }

    /// The CPU a little-endian Mach-O header (32- or 64-bit) names; nil when the bytes do not
    /// start with one.
    init?(header bytes: ImageBytes) {
        guard let magic = bytes.uint32(at: 0, .little), magic == MachO.magic64 || magic == MachO.magic32,
            let type = bytes.uint32(at: 4, .little), let subtype = bytes.uint32(at: 8, .little)
        else { return nil }
        self.init(type: type, subtype: subtype)
    }

    /// Capability bits (arm64e's pointer-authentication ABI version) live in the top byte.
    private var plainSubtype: UInt32 { subtype & 0x00FF_FFFF }

    var name: String {
        switch (type, plainSubtype) {
        case (Self.x86 | Self.abi64, 8): "x86_64h"
        case (Self.x86 | Self.abi64, _): "x86_64"
        case (Self.arm | Self.abi64, 2): "arm64e"
        case (Self.arm | Self.abi64, _): "arm64"
        case (Self.arm | Self.abi64_32, _): "arm64_32"
        case (Self.x86, _): "i386"
        case (Self.arm, 9): "armv7"
        case (Self.arm, 11): "armv7s"
        case (Self.arm, 12): "armv7k"
        case (Self.arm, _): "arm"
        case (Self.powerPC, _): "ppc"
        case (Self.powerPC | Self.abi64, _): "ppc64"
        default: "cpu type \(type) subtype \(plainSubtype)"
        }
    }

    /// The little-endian CPUs shipcheck reads: 64-bit arm64, arm64e, x86_64; 32-bit arm64_32
    /// (an ILP32 ABI: 64-bit code, 32-bit pointers and Mach-O structures), armv7, armv7s, armv7k, i386.
    var isSupported: Bool { [Self.x86, Self.arm].contains(type & 0x00FF_FFFF) }

    /// Whether its images use the 64-bit structures (`mach_header_64`…); arm64_32's are 32-bit.
    var uses64BitStructures: Bool { type & Self.abi64 != 0 }

    /// Why an unsupported slice is not read, for its error.
    var unsupportedReason: String {
        switch type {
        case Self.powerPC, Self.powerPC | Self.abi64:
            "big-endian \(name) (PowerPC) code is not supported (only ARM and Intel)"
        default: "unknown CPU (\(name)): only ARM and Intel code is supported"
        }
    }
}
