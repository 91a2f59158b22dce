import BinaryInspect
import ShipcheckTestSupport

/// Swift's metadata sections for an example's `SwiftMetadata`, as `LinkedMetadataDecoder` reads
/// them from a linked ELF image: records of 32-bit relative pointers to context descriptors,
/// each descriptor naming itself and its parent (`App.Outer.Inner`: module `App`, then `Outer`,
/// then `Inner`), mangled names made of symbolic references (`0x01` + offset to a descriptor:
/// no mangling needed), names as C strings. Every name a record mentions gets a descriptor;
/// only the example's `type` and `protocol` lines are listed in `swift5_type_metadata` and
/// `swift5_protocols`. Names and mangled names live in `swift5_reflstr` / `swift5_typeref` and
/// descriptors in `.data.rel.ro`, never in `.rodata*` (whose text is read as strings).
struct SwiftMetadataWriter {
    /// Context descriptor kinds (`ContextDescriptorKind`).
    private static let module: UInt32 = 0
    private static let kinds: [SwiftTypeKind: UInt32] = [.class: 16, .struct: 17, .enum: 18, .protocol: 3]
    /// Every context descriptor takes the class layout's room (flags, parent, name, three more
    /// fields, the superclass at +20), whatever its kind reads of it.
    private static let descriptorSize = 24, conformanceSize = 16, testRecordSize = 32

    private struct Context {
        var name: String
        var parent: Int?
        var kind: UInt32
        var superclass: String?
    }

    /// One field descriptor: the owner's stored properties, or its enum cases.
    private struct FieldGroup {
        var owner: String
        var isEnumCase: Bool
        var records: [SwiftFieldRecord]
    }

    let metadata: SwiftMetadata
    private var contexts: [Context] = []
    private var contextIndex: [String: Int] = [:]
    private var fieldGroups: [FieldGroup] = []

    init(_ metadata: SwiftMetadata) {
        self.metadata = metadata
        // Kinds the records state; any other name is a struct (an enum when it owns cases).
        var kinds: [String: UInt32] = [:]
        for field in metadata.fields where field.isEnumCase { kinds[field.ownerName] = Self.kinds[.enum] }
        for type in metadata.types {
            if let superclass = type.superclass { kinds[superclass] = Self.kinds[.class] }
        }
        for conformance in metadata.conformances { kinds[conformance.protocolName] = Self.kinds[.protocol] }
        for protocolRecord in metadata.protocols { kinds[protocolRecord.name] = Self.kinds[.protocol] }
        for type in metadata.types { kinds[type.name] = Self.kinds[type.kind] }
        var names = metadata.types.map(\.name) + metadata.types.compactMap(\.superclass)
        names += metadata.conformances.flatMap { [$0.typeName, $0.protocolName] } + metadata.protocols.map(\.name)
        names += metadata.fields.flatMap { [$0.ownerName] + $0.typeNames }
        for name in names { declare(name, kinds: kinds) }
        for type in metadata.types where type.superclass != nil {
            contexts[contextIndex[type.name]!].superclass = type.superclass
        }
        for field in metadata.fields {
            if let index = fieldGroups.firstIndex(where: {
                $0.owner == field.ownerName && $0.isEnumCase == field.isEnumCase
            }) {
                fieldGroups[index].records.append(field)
            } else {
                fieldGroups.append(FieldGroup(owner: field.ownerName, isEnumCase: field.isEnumCase, records: [field]))
            }
        }
    }

    /// The descriptor of `name` and of each of its parents.
    private mutating func declare(_ name: String, kinds: [String: UInt32]) {
        var parent: Int?
        var path = ""
        for component in name.split(separator: ".", omittingEmptySubsequences: false) {
            path += (path.isEmpty ? "" : ".") + component
            if let known = contextIndex[path] {
                parent = known
                continue
            }
            let kind = parent == nil ? Self.module : kinds[path] ?? Self.kinds[.struct]!
            contexts.append(Context(name: String(component), parent: parent, kind: kind))
            contextIndex[path] = contexts.count - 1
            parent = contexts.count - 1
        }
    }

    /// Where the writer put each record, by the example line (the record's synthetic offset).
    typealias Places = [UInt64: (section: String, offset: UInt64)]

    /// Adds the sections to `elf` (at their final sizes, then filled in once every address is
    /// known) and returns each record's place.
    func add(to elf: inout ELFFileBuilder) -> Places {
        let names = Self.stringBlob(contexts.map(\.name) + metadata.fields.map(\.name))
        // Mangled names: each class's superclass, each field descriptor's owner, each field's types.
        let mangled: [[String]] =
            contexts.compactMap { $0.superclass.map { [$0] } } + fieldGroups.map { [$0.owner] }
            + fieldGroups.flatMap { $0.records.map(\.typeNames) }
        let mangledSizes = mangled.map { $0.count * 5 + 1 }
        let fieldsSize = fieldGroups.reduce(0) { $0 + 16 + 12 * $1.records.count }

        func placeholder(_ name: String, _ size: Int, alignment: Int = 4) -> Int {
            elf.add(
                name, type: ELFFileBuilder.progbits, flags: ELFFileBuilder.allocated,
                contents: [UInt8](repeating: 0, count: size), alignment: alignment)
        }
        let namesIndex = placeholder("swift5_reflstr", names.bytes.count, alignment: 1)
        let mangledIndex = placeholder("swift5_typeref", mangledSizes.reduce(0, +), alignment: 2)
        let descriptorsIndex = placeholder(
            ".data.rel.ro", contexts.count * Self.descriptorSize + metadata.conformances.count * Self.conformanceSize,
            alignment: 8)
        let typesIndex = placeholder("swift5_type_metadata", metadata.types.count * 4)
        let conformancesIndex = placeholder("swift5_protocol_conformances", metadata.conformances.count * 4)
        let protocolsIndex = placeholder("swift5_protocols", metadata.protocols.count * 4)
        let fieldsIndex = placeholder("swift5_fieldmd", fieldsSize)
        let testsIndex = placeholder("swift5_tests", metadata.tests.count * Self.testRecordSize, alignment: 8)

        let namesAddress = elf.section(namesIndex).address
        let descriptors = elf.section(descriptorsIndex).address
        func descriptor(_ name: String) -> UInt64 {
            descriptors + UInt64(contextIndex[name]! * Self.descriptorSize)
        }
        func nameAddress(_ name: String) -> UInt64 { namesAddress + UInt64(names.offsets[name]!) }

        // Mangled names, in the order listed above.
        var mangledBytes = ByteWriter()
        var mangledAddresses: [UInt64] = []
        let mangledBase = elf.section(mangledIndex).address
        for references in mangled {
            mangledAddresses.append(mangledBase + UInt64(mangledBytes.count))
            for name in references {
                mangledBytes.u8(0x01)
                mangledBytes.u32(Self.relative(from: mangledBase + UInt64(mangledBytes.count), to: descriptor(name)))
            }
            mangledBytes.u8(0)
        }
        let superclasses = contexts.filter { $0.superclass != nil }.count
        var superclassNames = mangledAddresses[..<superclasses].makeIterator()
        var ownerNames = mangledAddresses[superclasses..<superclasses + fieldGroups.count].makeIterator()
        var typeNames = mangledAddresses[(superclasses + fieldGroups.count)...].makeIterator()

        // Context descriptors, then conformance descriptors.
        var table = ByteWriter()
        for context in contexts {
            let base = descriptors + UInt64(table.count)
            table.u32(context.kind)
            let parent = context.parent.map { descriptors + UInt64($0 * Self.descriptorSize) }
            table.u32(parent.map { Self.relative(from: base + 4, to: $0) } ?? 0)
            table.u32(Self.relative(from: base + 8, to: namesAddress + UInt64(names.offsets[context.name]!)))
            table.append([UInt8](repeating: 0, count: 8))
            table.u32(context.superclass == nil ? 0 : Self.relative(from: base + 20, to: superclassNames.next()!))
        }
        for conformance in metadata.conformances {
            let base = descriptors + UInt64(table.count)
            table.u32(Self.relative(from: base, to: descriptor(conformance.protocolName)))
            table.u32(Self.relative(from: base + 4, to: descriptor(conformance.typeName)))
            table.u32(0)  // no witness table
            table.u32(0)  // flags: the type reference is a direct type descriptor
        }

        var places: Places = [:]
        func records(_ index: Int, _ targets: [(line: UInt64, target: UInt64)]) -> [UInt8] {
            let section = elf.section(index)
            var bytes = ByteWriter()
            for (line, target) in targets {
                places[line] = (section.name, UInt64(section.offset + bytes.count))
                bytes.u32(Self.relative(from: section.address + UInt64(bytes.count), to: target))
            }
            return bytes.bytes
        }
        let conformanceBase = descriptors + UInt64(contexts.count * Self.descriptorSize)
        let typeRecords = records(typesIndex, metadata.types.map { ($0.place.offset, descriptor($0.name)) })
        let conformanceRecords = records(
            conformancesIndex,
            metadata.conformances.enumerated().map {
                ($1.place.offset, conformanceBase + UInt64($0 * Self.conformanceSize))
            })
        let protocolRecords = records(protocolsIndex, metadata.protocols.map { ($0.place.offset, descriptor($0.name)) })

        // Field descriptors: owner, superclass (none), kind, record size, count, then the records.
        let fields = elf.section(fieldsIndex)
        var fieldBytes = ByteWriter()
        for group in fieldGroups {
            let base = fields.address + UInt64(fieldBytes.count)
            fieldBytes.u32(Self.relative(from: base, to: ownerNames.next()!))
            fieldBytes.u32(0)
            fieldBytes.u16(group.isEnumCase ? 2 : 0)
            fieldBytes.u16(12)
            fieldBytes.u32(UInt32(group.records.count))
            for record in group.records {
                let recordAddress = fields.address + UInt64(fieldBytes.count)
                places[record.place.offset] = (fields.name, UInt64(fields.offset + fieldBytes.count))
                fieldBytes.u32(0)
                fieldBytes.u32(Self.relative(from: recordAddress + 4, to: typeNames.next()!))
                fieldBytes.u32(Self.relative(from: recordAddress + 8, to: nameAddress(record.name)))
            }
        }

        // swift-testing records: kind, reserved, then accessor, context and reserved words (null).
        let tests = elf.section(testsIndex)
        var testBytes = ByteWriter()
        for test in metadata.tests {
            places[test.place.offset] = (tests.name, UInt64(tests.offset + testBytes.count))
            testBytes.u32(test.kind.utf8.reduce(0) { $0 << 8 | UInt32($1) })
            testBytes.append([UInt8](repeating: 0, count: Self.testRecordSize - 4))
        }

        elf.replaceContents(ofSection: namesIndex, with: names.bytes)
        elf.replaceContents(ofSection: mangledIndex, with: mangledBytes.bytes)
        elf.replaceContents(ofSection: descriptorsIndex, with: table.bytes)
        elf.replaceContents(ofSection: typesIndex, with: typeRecords)
        elf.replaceContents(ofSection: conformancesIndex, with: conformanceRecords)
        elf.replaceContents(ofSection: protocolsIndex, with: protocolRecords)
        elf.replaceContents(ofSection: fieldsIndex, with: fieldBytes.bytes)
        elf.replaceContents(ofSection: testsIndex, with: testBytes.bytes)
        return places
    }

    /// Each distinct string once, NUL-terminated, and where it starts.
    private static func stringBlob(_ strings: [String]) -> (bytes: [UInt8], offsets: [String: Int]) {
        var bytes: [UInt8] = []
        var offsets: [String: Int] = [:]
        for string in strings where offsets[string] == nil {
            offsets[string] = bytes.count
            bytes += Array(string.utf8) + [0]
        }
        return (bytes, offsets)
    }

    /// A 32-bit relative pointer stored at `field`.
    private static func relative(from field: UInt64, to target: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(bitPattern: target &- field))
    }
}
