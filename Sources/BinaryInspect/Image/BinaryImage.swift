import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// One linked image or object file, whatever its format: a whole file, one archive member, or
/// one slice of a universal file. The metadata decoder, the symbol listing and the rules see
/// images only through this protocol; what a format calls things (section names, load commands,
/// dynamic tags) stays in its adapter (`ELFImage`, `MachOImage`).
///
/// An image is validated when it is opened: every section handed out lies inside the image, so
/// `bytes(of:)` and `bytes(atAddress:)` never read outside it.
package protocol BinaryImage: AnyObject {
    /// Where the image came from: file, archive member, universal slice.
    var origin: ImageOrigin { get }
    var format: BinaryFormat { get }
    var kind: ImageKind { get }
    /// Pointer size in bytes (4 or 8).
    var wordSize: Int { get }
    var isLittleEndian: Bool { get }
    /// What the format prefixes to source-level symbol names (`_` on Mach-O, nothing on ELF).
    var symbolPrefix: String { get }

    /// The sections with file contents that play `role`, in file order (ELF objects may repeat a
    /// name for COMDAT groups).
    func sections(_ role: SectionRole) -> [ImageSection]
    /// A section's bytes (empty for sections without file contents).
    func bytes(of section: ImageSection) -> ImageBytes
    /// The bytes from a virtual address to the end of its section; nil outside every section
    /// with file contents (linked images; objects' sections start at 0 and may overlap).
    func bytes(atAddress address: UInt64) -> ImageBytes?
    /// The pointer slots the loader fills in, by address: imported symbols (relocations, binds,
    /// chained-fixup imports) and addresses in this image (rebases that the file does not hold as
    /// plain addresses). Any other slot holds its target as a plain stored word. Errors here are
    /// the image's (a corrupt relocation table, a fixup chain that leaves its page).
    func pointerSlots() throws(InputError) -> [UInt64: SlotTarget]

    /// The symbols `nm` lists for the table (source-level names keep the format's prefix).
    func symbols(_ table: SymbolTableKind) throws(InputError) -> [BinarySymbol]
    /// Libraries the image loads at run time or asks the linker for.
    func linkedLibraries() throws(InputError) -> [LinkedLibrary]
    /// Facts about the build: identity, toolchain, platform, signature, debug information.
    func buildFacts() -> [BuildFact]
    /// The code-signature blob's bytes, where the format has one and the image carries it.
    var codeSignature: ImageBytes? { get }
}

/// Where an image came from, as findings and errors name it: `path`, `path[arch]`,
/// `path(member)`, `path[arch](member)`.
package struct ImageOrigin: Sendable, Hashable {
    /// The file as the user named it (or, for bytes read from a container, its path there).
    package var path: String
    /// The universal-file slice (`arm64`, `x86_64`), nil for thin files.
    package var architecture: String?
    /// The static-archive member, nil for files that are not archives.
    package var member: String?

    package init(path: String, architecture: String? = nil, member: String? = nil) {
        self.path = path
        self.architecture = architecture
        self.member = member
    }

    package var displayName: String {
        path + (architecture.map { "[\($0)]" } ?? "") + (member.map { "(\($0))" } ?? "")
    }

    func inMember(_ name: String) -> ImageOrigin {
        ImageOrigin(path: path, architecture: architecture, member: name)
    }

    func inSlice(_ architecture: String) -> ImageOrigin {
        ImageOrigin(path: path, architecture: architecture, member: member)
    }

    /// An `InputError` about this image.
    func error(_ message: String) -> InputError { InputError(path: displayName, message: message) }
}

package enum BinaryFormat: String, Sendable {
    case elf = "ELF", machO = "Mach-O"
}

package enum ImageKind: String, Sendable {
    case object = "relocatable object", executable, sharedLibrary = "shared library", bundle, other = "other"

    /// Objects hold unresolved relocations where linked images hold resolved pointers.
    package var isLinked: Bool { self != .object }
}

/// What a section holds, whatever the format calls it.
package enum SectionRole: Sendable, CaseIterable {
    /// Nominal type descriptors (`swift5_type_metadata`, `__swift5_types`).
    case swiftTypes
    /// Protocol conformance descriptors (`swift5_protocol_conformances`, `__swift5_proto`).
    case swiftConformances
    /// Protocol descriptors (`swift5_protocols`, `__swift5_protos`).
    case swiftProtocols
    /// swift-testing records (`swift5_tests`, `__swift5_tests`).
    case swiftTests
    /// Field descriptors: stored properties and enum cases (`swift5_fieldmd`, `__swift5_fieldmd`).
    case swiftFields
    /// Read-only C strings (`.rodata*`; Mach-O C-string sections such as `__cstring`).
    case strings
    /// Objective-C class list (`__objc_classlist`; Mach-O only).
    case objcClassList
    /// Objective-C selector references: pointers to the method names the code sends
    /// (`__objc_selrefs`; Mach-O only).
    case objcSelectorReferences
}

/// A section as the decoder sees it: where it is in memory and in the image.
package struct ImageSection: Sendable, Hashable {
    /// The name tools show: `swift5_tests` (ELF), `__TEXT,__swift5_proto` (Mach-O).
    package var name: String
    /// Virtual address (linked images) or address inside the object.
    package var address: UInt64
    /// Offset of the contents inside the image; size 0 for sections without file contents.
    package var fileOffset: UInt64
    package var size: UInt64
    /// Whether the section holds code.
    package var isCode: Bool

    package init(name: String, address: UInt64, fileOffset: UInt64, size: UInt64, isCode: Bool = false) {
        self.name = name
        self.address = address
        self.fileOffset = fileOffset
        self.size = size
        self.isCode = isCode
    }

    package func contains(address candidate: UInt64) -> Bool { candidate >= address && candidate - address < size }
}

/// What a pointer slot points at.
package enum SlotTarget: Sendable, Hashable {
    /// A symbol imported from another image, by its source-level name (format prefix removed).
    case symbol(String)
    /// An address in this image.
    case address(UInt64)
}

/// Which symbols to list: the full table, or what the dynamic linker sees.
package enum SymbolTableKind: String, Sendable {
    /// ELF `.symtab`; Mach-O `LC_SYMTAB` plus exports missing from it (a stripped dylib's).
    case symtab
    /// ELF `.dynsym`; Mach-O exports (export trie) plus undefined external symbols.
    case dynsym
}

/// A symbol as `nm` lists it and the rules use it.
package struct BinarySymbol: Sendable, Hashable {
    /// The name as stored (Mach-O names keep their leading `_`, as Apple's nm shows them).
    package var name: String
    /// Address (linked images) or value (objects: ELF section offset, Mach-O address).
    package var value: UInt64
    /// Size in bytes: exact on ELF; on Mach-O (which records none) the distance to the next
    /// symbol in the same section.
    package var size: UInt64
    package var isDefined: Bool
    package var isFunction: Bool
    /// nm's one-letter type (T, t, U, D, S, …).
    package var letter: Character
    package var type: String
    package var binding: String
    package var visibility: String
    /// The section's name, or `UND` / `ABS` / `COM` / `INDR`.
    package var section: String
    /// Where the symbol's bytes sit inside the image, for locating findings.
    package var fileOffset: UInt64?

    package init(
        name: String, value: UInt64, size: UInt64, isDefined: Bool, isFunction: Bool, letter: Character,
        type: String, binding: String, visibility: String, section: String, fileOffset: UInt64?
    ) {
        self.name = name
        self.value = value
        self.size = size
        self.isDefined = isDefined
        self.isFunction = isFunction
        self.letter = letter
        self.type = type
        self.binding = binding
        self.visibility = visibility
        self.section = section
        self.fileOffset = fileOffset
    }
}

/// A library the image loads (ELF `DT_NEEDED`, Mach-O `LC_LOAD_DYLIB`…) or asks the linker for
/// (autolink entries, `LC_LINKER_OPTION`).
package struct LinkedLibrary: Sendable, Hashable {
    package enum Kind: Sendable { case loaded, autolink }

    /// As recorded: `libXCTest.so`, `@rpath/XCTest.framework/XCTest`, `-lTesting`, `-framework XCTest`.
    package var name: String
    package var kind: Kind
    /// The format's name for the record, for messages: `DT_NEEDED`, `LC_LOAD_WEAK_DYLIB`.
    package var record: String
    /// Where findings point (`.dynamic`, `.swift1_autolink_entries`, `LC_LOAD_DYLIB`).
    package var section: String

    package init(name: String, kind: Kind, record: String, section: String) {
        self.name = name
        self.kind = kind
        self.record = record
        self.section = section
    }

    /// The library's module name, whatever shape the record has: `libXCTest.so.1`,
    /// `/…/XCTest.framework/Versions/A/XCTest`, `@rpath/libXCTestSwiftSupport.dylib`,
    /// `-lTesting` and `-framework XCTest` all name theirs (`XCTest`, `XCTestSwiftSupport`, `Testing`).
    package var module: String {
        var text = Substring(name)
        if let framework = text.range(of: "-framework") { text = text[framework.upperBound...].drop { $0 == " " } }
        if let range = text.range(of: ".framework/") { text = text[..<range.lowerBound] }
        if let slash = text.lastIndex(of: "/") { text = text[text.index(after: slash)...] }
        if text.hasPrefix("-l") { text = text.dropFirst(2) }
        if text.hasPrefix("lib") { text = text.dropFirst(3) }
        for suffix in [".dylib", ".tbd", ".so", ".a"] {
            if let range = text.range(of: suffix), range.upperBound == text.endIndex || text[range.upperBound] == "." {
                text = text[..<range.lowerBound]
                break
            }
        }
        return String(text)
    }
}

/// A note about the build, stated by the format's adapter (build-id and toolchain on ELF; UUID,
/// platform, signature and encryption on Mach-O).
package struct BuildFact: Sendable, Hashable {
    package var message: String
    package var section: String?
    package var fix: String
    /// Stable within the image (fingerprints).
    package var identity: String

    package init(message: String, section: String?, fix: String, identity: String) {
        self.message = message
        self.section = section
        self.fix = fix
        self.identity = identity
    }
}
