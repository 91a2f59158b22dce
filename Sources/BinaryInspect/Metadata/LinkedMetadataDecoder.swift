import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Decodes the Swift metadata sections of a linked image (executable, shared library, bundle),
/// whatever its format, without the symbol table, so stripped binaries are audited like
/// unstripped ones.
///
/// Every record is a 32-bit relative pointer (target = field address + value). Pointers that
/// may refer to another image are "indirectable": bit 0 set means the target is a pointer slot
/// (a GOT entry) whose content the loader fills in — resolved through the image's pointer slots
/// (ELF relocations; Mach-O binds, chained fixups, indirect symbols). Names come from context
/// descriptors, walked up through their parents (type → outer type → module). On Mach-O the
/// Objective-C class list is read too, for superclasses bound to other images
/// (`_OBJC_CLASS_$_XCTestCase`). Anything that does not resolve inside the image is skipped,
/// never trusted.
struct LinkedMetadataDecoder {
    let image: any BinaryImage
    private let slots: [UInt64: SlotTarget]

    /// Context descriptor kinds (`ContextDescriptorKind`).
    private enum ContextKind: UInt32 {
        case module = 0, `extension` = 1, anonymous = 2, `protocol` = 3, opaqueType = 4
        case `class` = 16, `struct` = 17, `enum` = 18
    }

    private static let maximumNesting = 32

    init(image: any BinaryImage) throws(InputError) {
        self.image = image
        slots = try image.pointerSlots()
    }

    /// `functions`: function symbols by address, to name test records' accessors.
    func decode(functions: [UInt64: String]) -> SwiftMetadata {
        var metadata = SwiftMetadata()
        forEachRecord(in: .swiftTypes) { field, place in
            guard let value = image.int32(atAddress: field) else { return }
            let target = address(field, plus: Int64(value & ~3))
            // Low bits: 0 direct descriptor, 1 indirect (through a slot).
            guard value & 3 == 0, let record = typeRecord(at: target, place: place) else { return }
            metadata.types.append(record)
        }
        forEachRecord(in: .swiftConformances) { field, place in
            guard let descriptor = relativeTarget(at: field),
                let conformance = conformance(at: descriptor, place: place)
            else { return }
            metadata.conformances.append(conformance)
        }
        forEachRecord(in: .swiftProtocols) { field, place in
            guard let descriptor = indirectable(at: field), case .address(let target) = descriptor,
                let name = contextName(at: target)
            else { return }
            metadata.protocols.append(SwiftProtocolRecord(name: name, place: place))
        }
        metadata.tests = Self.testRecords(in: image) { accessorField in
            switch pointer(at: accessorField) {
            case .address(let address)?: functions[address].map { image.sourceName(ofSymbol: $0) }
            case .symbol(let name)?: name
            case nil: nil
            }
        }
        metadata.fields = fieldRecords()
        metadata.objcClasses = objcClasses()
        return metadata
    }

    // MARK: Records

    private func forEachRecord(in role: SectionRole, _ body: (UInt64, MetadataPlace) -> Void) {
        for section in image.sections(role) {
            for index in 0..<section.size / 4 {
                body(
                    section.address &+ index * 4,
                    MetadataPlace(section: section.name, offset: section.fileOffset + index * 4))
            }
        }
    }

    private func typeRecord(at descriptor: UInt64, place: MetadataPlace) -> SwiftTypeRecord? {
        guard let flags = image.uint32(atAddress: descriptor), let name = contextName(at: descriptor) else {
            return nil
        }
        let kind: SwiftTypeKind
        var superclass: String?
        switch ContextKind(rawValue: flags & 0x1F) {
        case .class?:
            kind = .class
            superclass = relativeTarget(at: descriptor &+ 20).flatMap(typeName(mangledAt:))
        case .struct?: kind = .struct
        case .enum?: kind = .enum
        default: return nil
        }
        return SwiftTypeRecord(name: name, kind: kind, superclass: superclass, place: place)
    }

    /// A protocol conformance descriptor: protocol (indirectable), type reference, witness
    /// table, flags (the type reference's kind sits in bits 3–5).
    private func conformance(at descriptor: UInt64, place: MetadataPlace) -> SwiftConformanceRecord? {
        guard let protocolTarget = indirectable(at: descriptor), let protocolName = name(of: protocolTarget),
            let flags = image.uint32(atAddress: descriptor &+ 12),
            let typeValue = image.int32(atAddress: descriptor &+ 4)
        else { return nil }
        let typeField = address(descriptor &+ 4, plus: Int64(typeValue))
        let typeName: String?
        switch (flags >> 3) & 7 {
        case 0: typeName = contextName(at: typeField)
        case 1: typeName = pointer(at: typeField).flatMap(name(of:))
        case 2: typeName = image.cString(atAddress: typeField)  // an Objective-C class, by name
        default: typeName = nil  // an Objective-C class object through a slot: named by the class list
        }
        guard let typeName else { return nil }
        return SwiftConformanceRecord(typeName: typeName, protocolName: protocolName, place: place)
    }

    /// swift-testing records: kind (u32), reserved (u32), accessor, context, reserved (words).
    /// Record kinds are plain data even in objects (only the pointers need relocating), so this
    /// also reads objects; `accessorName` names the function a record's accessor field points at.
    static func testRecords(in image: any BinaryImage, accessorName: (UInt64) -> String?) -> [SwiftTestRecord] {
        var records: [SwiftTestRecord] = []
        let recordSize = 8 + 3 * image.wordSize
        for section in image.sections(.swiftTests) {
            let bytes = image.bytes(of: section)
            var offset = 0
            while offset + recordSize <= bytes.count {
                if let kind = image.readUInt32(bytes, at: offset) {
                    records.append(
                        SwiftTestRecord(
                            kind: fourCharacterCode(kind),
                            accessor: accessorName(section.address &+ UInt64(offset) &+ 8).map {
                                BinaryContentsReader.testName(accessor: Demangler.demangleSwift($0) ?? $0)
                            },
                            place: MetadataPlace(section: section.name, offset: section.fileOffset + UInt64(offset)),
                            size: UInt64(recordSize)))
                }
                offset += recordSize
            }
        }
        return records
    }

    /// `'test'` is stored as the integer 0x74657374; shown as the four characters.
    static func fourCharacterCode(_ value: UInt32) -> String {
        let characters = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        guard characters.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return "0x" + String(value, radix: 16) }
        return String(decoding: characters, as: UTF8.self)
    }

    // MARK: Objective-C classes

    /// `__objc_classlist`: pointers to `class_t` (isa, superclass, cache, vtable, data); `data`
    /// points (low bits: Swift flags) to `class_ro_t`, whose name pointer sits after four words of
    /// flags and sizes and the ivar layout.
    private func objcClasses() -> [ObjCClassRecord] {
        var classes: [ObjCClassRecord] = []
        let word = UInt64(image.wordSize)
        for section in image.sections(.objcClassList) {
            for index in 0..<section.size / word {
                let field = section.address &+ index * word
                guard case .address(let classAddress)? = pointer(at: field), let name = objcClassName(at: classAddress)
                else { continue }
                let superclass: String?
                switch pointer(at: classAddress &+ word) {
                case .symbol(let symbol)?: superclass = Self.objcClassName(ofSymbol: symbol)
                case .address(let address)?: superclass = objcClassName(at: address)
                case nil: superclass = nil
                }
                classes.append(
                    ObjCClassRecord(
                        name: name, superclass: superclass,
                        place: MetadataPlace(section: section.name, offset: section.fileOffset + index * word)))
            }
        }
        return classes
    }

    /// `__objc_selrefs`: one pointer per selector the code sends, to its name in
    /// `__objc_methname` (rebased, so resolved through the image's fixups like any pointer).
    func selectorReferences() -> NameList {
        var names = NameList()
        let word = UInt64(image.wordSize)
        for section in image.sections(.objcSelectorReferences) {
            for index in 0..<section.size / word {
                guard case .address(let target)? = pointer(at: section.address &+ index * word),
                    let bytes = image.bytes(atAddress: target), let end = bytes.firstIndex(of: 0), end > 0
                else { continue }
                bytes.prefix(end).withByteView { names.append(bytes: $0) }
            }
        }
        return names
    }

    private func objcClassName(at classAddress: UInt64) -> String? {
        let word = UInt64(image.wordSize)
        guard case .address(let data)? = pointer(at: classAddress &+ 4 &* word),
            case .address(let name)? = pointer(at: (data & ~7) &+ 3 &* word),
            let runtimeName = image.cString(atAddress: name)
        else { return nil }
        return Self.objcDisplayName(runtimeName)
    }

    /// `OBJC_CLASS_$_XCTestCase` → `XCTestCase`; `OBJC_CLASS_$__TtC6XCTest10XCTestCase` → `XCTest.XCTestCase`.
    static func objcClassName(ofSymbol symbol: String) -> String? {
        guard let name = symbol.dropPrefix("OBJC_CLASS_$_") else { return nil }
        return objcDisplayName(String(name))
    }

    /// Swift classes register under their old-mangling runtime name (`_TtC14AppTestSupport13LoginTestCase`,
    /// nested `_TtCC3App5Outer5Inner`, `s` for the Swift module), which the runtime's demangler
    /// does not take: shown as `Module.Outer.Class`. Other names (Objective-C classes, private or
    /// generic Swift classes) are shown as they are.
    static func objcDisplayName(_ runtimeName: String) -> String {
        guard runtimeName.hasPrefix("_Tt") else { return runtimeName }
        var rest = Substring(runtimeName.dropFirst(3))
        let nesting = rest.prefix { $0 == "C" || $0 == "V" || $0 == "O" }.count
        guard nesting > 0 else { return runtimeName }
        rest = rest.dropFirst(nesting)
        var components: [Substring] = []
        if rest.first == "s" {
            components.append("Swift")
            rest = rest.dropFirst()
        }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard let length = Int(digits), length > 0, length <= rest.count - digits.count else { return runtimeName }
            rest = rest.dropFirst(digits.count)
            components.append(rest.prefix(length))
            rest = rest.dropFirst(length)
        }
        guard components.count == nesting + 1 else { return runtimeName }
        return components.joined(separator: ".")
    }

    // MARK: Names

    func name(of target: SlotTarget) -> String? {
        switch target {
        case .address(let address): contextName(at: address)
        case .symbol(let symbol): Self.describedEntity(ofDescriptorSymbol: symbol)
        }
    }

    /// `$s7SwiftUI15PreviewProviderMp` → `SwiftUI.PreviewProvider` (what the descriptor describes).
    static func describedEntity(ofDescriptorSymbol symbol: String) -> String? {
        guard let demangled = Demangler.demangleSwift(symbol) else { return nil }
        for prefix in ["protocol descriptor for ", "nominal type descriptor for ", "module descriptor "]
        where demangled.hasPrefix(prefix) {
            return String(demangled.dropFirst(prefix.count))
        }
        return demangled
    }

    /// The full dotted name of a context descriptor: its parents' names, then its own.
    func contextName(at descriptor: UInt64, depth: Int = 0) -> String? {
        guard depth < Self.maximumNesting, let flags = image.uint32(atAddress: descriptor) else { return nil }
        let kind = ContextKind(rawValue: flags & 0x1F)
        var parentName: String?
        if let parent = indirectable(at: descriptor &+ 4) {
            switch parent {
            case .address(let address): parentName = contextName(at: address, depth: depth + 1)
            case .symbol(let symbol): parentName = Self.describedEntity(ofDescriptorSymbol: symbol)
            }
        }
        switch kind {
        case .anonymous?, .extension?, .opaqueType?:
            // Not named in source: the name is the parent's (an extension's members belong to its module here).
            return parentName
        case nil:
            return nil
        default:
            guard let own = relativeTarget(at: descriptor &+ 8).flatMap(image.cString(atAddress:)) else { return nil }
            return parentName.map { "\($0).\(own)" } ?? own
        }
    }

    // MARK: Pointers

    func address(_ field: UInt64, plus offset: Int64) -> UInt64 {
        UInt64(bitPattern: Int64(bitPattern: field) &+ offset)
    }

    /// A relative direct pointer's target; nil when null.
    func relativeTarget(at field: UInt64) -> UInt64? {
        guard let value = image.int32(atAddress: field), value != 0 else { return nil }
        return address(field, plus: Int64(value))
    }

    /// A relative indirectable pointer: nil when null or unresolvable.
    func indirectable(at field: UInt64) -> SlotTarget? {
        guard let value = image.int32(atAddress: field), value != 0 else { return nil }
        let target = address(field, plus: Int64(value & ~1))
        return value & 1 == 0 ? .address(target) : pointer(at: target)
    }

    /// What the loader will store in a slot: from the image's fixups, or the stored word.
    func pointer(at slot: UInt64) -> SlotTarget? {
        if let target = slots[slot] { return target }
        guard let word = image.storedWord(atAddress: slot), word != 0 else { return nil }
        return .address(word)
    }
}

extension BinaryImage {
    /// A symbol's source-level name: the format's prefix (Mach-O's `_`) removed.
    func sourceName(ofSymbol name: String) -> String { SymbolNames.sourceName(name, prefix: symbolPrefix) }
}

enum SymbolNames {
    /// `_$s3App…` → `$s3App…` with prefix `_`; names without the prefix are kept as they are.
    static func sourceName(_ name: String, prefix: String) -> String {
        !prefix.isEmpty && name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
    }
}
