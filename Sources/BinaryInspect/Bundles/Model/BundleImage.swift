import ShipcheckCore

/// One binary inside an artifact, as the pre-flight rules see it: which bundle it belongs to and
/// what each of its slices says — platform and versions, the libraries it loads, its segments and
/// sections, whether it is signed, and the APIs it reaches for from other images (imported
/// symbols, Objective-C selectors and classes). Read once, in the same pass as the leak rules.
package struct BundleImage: Sendable, Hashable {
    /// The file, inside the artifact (`Payload/App.app/Frameworks/Core.framework/Core`); empty
    /// when the artifact is this one file.
    package var path: String
    /// The innermost bundle holding the file (`NestedBundle.path`), nil when none does.
    package var bundle: String?
    /// Whether the file is its bundle's executable (`CFBundleExecutable`, else the bundle's name).
    package var isBundleExecutable = false
    /// Every architecture of the file, in its order (one for a thin file; an archive's members each).
    package var slices: [ImageSlice]

    package init(path: String, slices: [ImageSlice]) {
        self.path = path
        self.slices = slices
    }

    /// The file's name (`Core`), or the artifact's when the path is empty.
    package var name: Substring { path.split(separator: "/").last ?? "" }

    /// Slices decoded (a 32-bit slice is listed by its architecture only).
    package var readSlices: [ImageSlice] { slices.filter(\.isRead) }
}

/// One architecture of an image (a universal file's slice, a thin file, or an archive member).
package struct ImageSlice: Sendable, Hashable {
    /// `arm64`, `x86_64`, `i386`…
    package var architecture: String
    /// The static-archive member, nil for linked images.
    package var member: String?
    /// False for a slice shipcheck does not decode (32-bit CPUs): only `architecture` is known.
    package var isRead = true
    /// `MH_EXECUTE`, `MH_DYLIB`, `MH_BUNDLE`, `MH_OBJECT`…
    package var fileType: ImageKind = .other
    /// From `LC_BUILD_VERSION`, or implied by `LC_VERSION_MIN_*`; nil when the slice has neither.
    package var platform: ApplePlatform?
    package var minimumOS: OSVersion?
    package var sdk: OSVersion?
    /// The load command the three came from (`LC_BUILD_VERSION`, `LC_VERSION_MIN_IPHONEOS`).
    package var versionCommand: String?
    /// `LC_UUID`, upper-case with dashes (`4C4C4411-5555-3144-A1E2-0123456789AB`).
    package var uuid: String?
    /// `LC_LOAD_DYLIB` and its weak / re-export / lazy / upward variants (`dylibLink`), and in
    /// objects `LC_LINKER_OPTION`.
    package var libraries: [LinkedLibrary] = []
    package var segments: [Segment] = []
    package var sections: [Section] = []
    /// Whether `LC_CODE_SIGNATURE` is present.
    package var hasCodeSignature = false
    /// Symbols taken from other images by their C-level names (`stat`, `NSFileModificationDate`,
    /// `OBJC_CLASS_$_NSUserDefaults`, `__swift_FORCE_LOAD_$_XCTestSwiftSupport`): what dyld
    /// binds — the chained fixups' import table, else the symbol table's undefined externals
    /// and the bind opcodes' imports — as the image lists them (in objects: their undefined
    /// symbols). An undefined entry dyld never binds (`dyld_stub_binder` beside chained fixups)
    /// is not an import.
    package var importedSymbols = NameList()
    /// The method names `__objc_selrefs` points at (`systemUptime`, `activeInputModes`): the
    /// selectors the code sends, not the methods it defines.
    package var selectorReferences = NameList()
    /// The Swift modules whose types the slice defines (`__swift5_types`; in objects, their
    /// descriptor symbols), each once: code of those modules is linked into it.
    package var definedModules: [String] = []
    /// The Objective-C classes the slice defines (`__objc_classlist`; in objects, their
    /// `OBJC_CLASS_$_` symbols), Swift classes left out (their module says it).
    package var definedObjCClasses: [String] = []

    package struct Segment: Sendable, Hashable {
        package var name: String
        package var fileSize: UInt64
        /// `vmsize`: what it takes once mapped (`__PAGEZERO`: 4 GiB of no file bytes; zero-fill
        /// sections and page rounding past `fileSize`).
        package var vmSize: UInt64

        package init(name: String, fileSize: UInt64, vmSize: UInt64) {
            self.name = name
            self.fileSize = fileSize
            self.vmSize = vmSize
        }
    }

    package struct Section: Sendable, Hashable {
        package var segment: String
        package var name: String
        package var size: UInt64

        package init(segment: String, name: String, size: UInt64) {
            self.segment = segment
            self.name = name
            self.size = size
        }

        /// `__LLVM,__bundle`.
        package var fullName: String { "\(segment),\(name)" }
    }

    package init(architecture: String, member: String? = nil) {
        self.architecture = architecture
        self.member = member
    }

    /// The Objective-C classes bound from other images (`OBJC_CLASS_$_NSUserDefaults` →
    /// `NSUserDefaults`): class references, superclasses and categories' classes.
    package var classReferences: [String] {
        importedSymbols.names(withPrefixes: [Self.classSymbolPrefix]).map {
            String($0.dropFirst(Self.classSymbolPrefix.count))
        }
    }

    static let classSymbolPrefix = "OBJC_CLASS_$_"

    /// `arm64`, `arm64(member.o)`: how messages name the slice.
    package var displayName: String { architecture + (member.map { "(\($0))" } ?? "") }
}

extension LinkedLibrary {
    /// How a Mach-O image loads a library, by its load command.
    package enum DylibLink: String, Sendable {
        case load, weak, reexport = "re-export", lazy, upward
    }

    /// The load command's kind for a Mach-O dylib record (nil for ELF and linker options).
    package var dylibLink: DylibLink? {
        switch record {
        case "LC_LOAD_DYLIB": .load
        case "LC_LOAD_WEAK_DYLIB": .weak
        case "LC_REEXPORT_DYLIB": .reexport
        case "LC_LAZY_LOAD_DYLIB": .lazy
        case "LC_LOAD_UPWARD_DYLIB": .upward
        default: nil
        }
    }

    /// The record for a dylib loaded `link`'s way (the example text's `weak-dylib PATH`…).
    static func dylib(_ name: String, _ link: DylibLink) -> LinkedLibrary {
        let record =
            switch link {
            case .load: "LC_LOAD_DYLIB"
            case .weak: "LC_LOAD_WEAK_DYLIB"
            case .reexport: "LC_REEXPORT_DYLIB"
            case .lazy: "LC_LAZY_LOAD_DYLIB"
            case .upward: "LC_LOAD_UPWARD_DYLIB"
            }
        return LinkedLibrary(name: name, kind: .loaded, record: record, section: record)
    }
}
