import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Turns one image, whatever its format, into `BinaryContents`: metadata from the Swift (and
/// Objective-C) sections of linked images, or from descriptor symbols in objects (whose metadata
/// fields are still unresolved relocations), plus libraries, read-only strings and build facts —
/// and, for Mach-O, the pre-flight model's `ImageSlice`, from the same decoded symbols and
/// pointers (each image is read once for every rule).
enum BinaryContentsReader {
    /// Strings shorter than this are noise (and Swift stores ≤15-byte literals inline in code).
    static let minimumStringLength = 6

    static func read(_ image: any BinaryImage) throws(InputError) -> BinaryContents {
        try readWithSlice(image).contents
    }

    static func readWithSlice(_ image: any BinaryImage) throws(InputError) -> (
        contents: BinaryContents, slice: ImageSlice?
    ) {
        var contents = BinaryContents(origin: image.origin)
        let symtab = try image.symbols(.symtab)
        contents.hasSymbolTable = symtab.contains { $0.isDefined && !$0.name.isEmpty }
        contents.symbols = namedSymbols(contents.hasSymbolTable ? symtab : try image.symbols(.dynsym), in: image)
        var selectors = NameList()
        if image.kind.isLinked {
            var functions: [UInt64: String] = [:]
            for symbol in symtab where symbol.isFunction && symbol.isDefined { functions[symbol.value] = symbol.name }
            let decoder = try LinkedMetadataDecoder(image: image)
            contents.metadata = decoder.decode(functions: functions)
            selectors = decoder.selectorReferences()
        } else {
            contents.metadata = metadataFromSymbols(contents.symbols)
            contents.metadata.tests = LinkedMetadataDecoder.testRecords(in: image) { _ in nil }
        }
        contents.libraries = try image.linkedLibraries()
        contents.buildFacts = image.buildFacts()
        contents.strings = readOnlyStrings(image)
        var slice = try (image as? MachOImage)?.slice(symbols: symtab, selectors: selectors)
        slice?.definedModules = definedModules(contents.metadata)
        slice?.definedObjCClasses = definedObjCClasses(contents)
        return (contents, slice)
    }

    /// `Module` of every `Module.Type…` the metadata defines, sorted, each once.
    private static func definedModules(_ metadata: SwiftMetadata) -> [String] {
        Set(metadata.types.compactMap { type in type.name.split(separator: ".").first.map(String.init) }).sorted()
    }

    /// The Objective-C classes of the class list (linked images) or of the defined
    /// `OBJC_CLASS_$_` symbols (objects), without Swift classes (dotted, or still mangled).
    private static func definedObjCClasses(_ contents: BinaryContents) -> [String] {
        var names = Set(contents.metadata.objcClasses.map(\.name))
        for symbol in contents.symbols {
            let name = symbol.mangled.dropPrefix("_").map(String.init) ?? symbol.mangled
            if let objcClass = LinkedMetadataDecoder.objcClassName(ofSymbol: name) { names.insert(objcClass) }
        }
        return names.filter { !$0.contains(".") && !$0.hasPrefix("_Tt") }.sorted()
    }

    private static func namedSymbols(_ symbols: [BinarySymbol], in image: any BinaryImage) -> [BinaryContents
        .NamedSymbol]
    {
        symbols.compactMap { symbol in
            guard symbol.isDefined, !symbol.name.isEmpty else { return nil }
            let name = image.sourceName(ofSymbol: symbol.name)
            let demangled = Demangler.isSwift(name) ? Demangler.demangleSwift(name) : nil
            return BinaryContents.NamedSymbol(
                mangled: symbol.name, demangled: demangled, size: symbol.size, section: symbol.section,
                offset: symbol.fileOffset ?? symbol.value)
        }
    }

    /// In objects, descriptor symbols name what the metadata sections would point at.
    private static func metadataFromSymbols(_ symbols: [BinaryContents.NamedSymbol]) -> SwiftMetadata {
        var metadata = SwiftMetadata()
        for symbol in symbols {
            guard let demangled = symbol.demangled else { continue }
            let place = MetadataPlace(section: symbol.section, offset: symbol.offset)
            if let rest = demangled.dropPrefix("protocol conformance descriptor for "),
                let colon = rest.range(of: " : ")
            {
                var protocolName = String(rest[colon.upperBound...])
                if let module = protocolName.range(of: " in ", options: .backwards) {
                    protocolName = String(protocolName[..<module.lowerBound])
                }
                metadata.conformances.append(
                    SwiftConformanceRecord(
                        typeName: String(rest[..<colon.lowerBound]), protocolName: protocolName, place: place))
            } else if let rest = demangled.dropPrefix("nominal type descriptor for ") {
                let kind: SwiftTypeKind =
                    symbol.mangled.hasSuffix("CMn")
                    ? .class
                    : symbol.mangled.hasSuffix("VMn") ? .struct : symbol.mangled.hasSuffix("OMn") ? .enum : .other
                metadata.types.append(SwiftTypeRecord(name: String(rest), kind: kind, place: place))
            } else if let rest = demangled.dropPrefix("protocol descriptor for ") {
                metadata.protocols.append(SwiftProtocolRecord(name: String(rest), place: place))
            }
        }
        return metadata
    }

    /// The accessor is a closure inside the `@Test` macro's peer (`$s…fMp_…fMu_`); its
    /// demangling ends "… @Test expansion #1 of sampleFixtureLoads in Module": say just that.
    static func testName(accessor demangled: String) -> String {
        guard let start = demangled.range(of: "$s"),
            let end = demangled.range(of: "fMu_", range: start.upperBound..<demangled.endIndex),
            let inner = Demangler.demangleSwift(String(demangled[start.lowerBound..<end.upperBound])),
            let macro = inner.range(of: " macro "),
            let expansion = inner.range(of: " expansion #", range: macro.upperBound..<inner.endIndex),
            let of = inner.range(of: " of ", range: expansion.upperBound..<inner.endIndex)
        else { return demangled }
        return "\(inner[macro.upperBound..<expansion.lowerBound]) \(inner[of.upperBound...])"
    }

    /// Printable runs in read-only string sections, like `strings` does.
    private static func readOnlyStrings(_ image: any BinaryImage) -> [BinaryContents.FoundString] {
        var found: [BinaryContents.FoundString] = []
        for section in image.sections(.strings) {
            image.bytes(of: section).withByteView { bytes in
                var start = 0
                for index in 0...bytes.count {
                    let printable =
                        index < bytes.count && (bytes[index] >= 0x20 && bytes[index] < 0x7F || bytes[index] == 0x09)
                    if printable { continue }
                    if index - start >= minimumStringLength {
                        found.append(
                            .init(
                                text: bytes.string(start..<index), section: section.name,
                                offset: section.fileOffset + UInt64(start)))
                    }
                    start = index + 1
                }
            }
        }
        return found
    }
}

extension String {
    func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
