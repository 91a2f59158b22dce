import CLibELF
import ShipcheckCore

/// Decodes the Swift metadata sections of a linked image (executable or shared object)
/// without the symbol table, so stripped binaries are audited like unstripped ones.
///
/// Every record is a 32-bit relative pointer (target = field address + value). Pointers that
/// may refer to another image are "indirectable": bit 0 set means the target is a GOT slot
/// whose content the dynamic linker fills in — we resolve the slot through `.rela.dyn`
/// (a symbol from `.dynsym`, or an R_*_RELATIVE addend back into this image). Names come
/// from context descriptors, walked up through their parents (type → outer type → module).
/// Anything that does not resolve inside the image is skipped, never trusted.
struct LinkedMetadataDecoder {
    let image: ELFImage
    private let slotTargets: [UInt64: SlotTarget]

    /// What a GOT slot (or other relocated word) points at.
    enum SlotTarget {
        case symbol(String)
        case address(UInt64)
    }

    /// Context descriptor kinds (`ContextDescriptorKind`).
    private enum ContextKind: UInt32 {
        case module = 0, `extension` = 1, anonymous = 2, `protocol` = 3, opaqueType = 4
        case `class` = 16, `struct` = 17, `enum` = 18
    }

    private static let maximumNesting = 32

    init(image: ELFImage, dynamicSymbols: ELFSymbolTable) throws(InputError) {
        self.image = image
        var targets: [UInt64: SlotTarget] = [:]
        for section in image.sections where section.type == UInt32(SHT_RELA) || section.type == UInt32(SHT_REL) {
            // Only dynamic relocations matter here (their symbols are in .dynsym).
            guard section.flags & UInt64(SHF_ALLOC) != 0 else { continue }
            for relocation in try image.relocations(in: section) {
                if relocation.symbolIndex != 0 {
                    if let symbol = dynamicSymbols.symbol(atIndex: relocation.symbolIndex) {
                        targets[relocation.offset] = .symbol(symbol.name)
                    }
                } else {
                    targets[relocation.offset] = .address(UInt64(bitPattern: relocation.addend))
                }
            }
        }
        slotTargets = targets
    }

    func decode() -> SwiftMetadata {
        var metadata = SwiftMetadata()
        forEachRecord(in: "swift5_type_metadata") { field, place in
            guard let value = int32(at: field) else { return }
            let target = address(field, plus: Int64(value & ~3))
            // Low bits: 0 direct descriptor, 1 indirect (through a slot).
            guard value & 3 == 0, let record = typeRecord(at: target, place: place) else { return }
            metadata.types.append(record)
        }
        forEachRecord(in: "swift5_protocol_conformances") { field, place in
            guard let value = int32(at: field), let conformance = conformance(at: address(field, plus: Int64(value)), place: place) else { return }
            metadata.conformances.append(conformance)
        }
        forEachRecord(in: "swift5_protocols") { field, place in
            guard let descriptor = indirectable(at: field), case .address(let target) = descriptor,
                  let name = contextName(at: target) else { return }
            metadata.protocols.append(SwiftProtocolRecord(name: name, place: place))
        }
        metadata.tests = testRecords()
        return metadata
    }

    // MARK: Records

    private func forEachRecord(in sectionName: String, _ body: (UInt64, MetadataPlace) -> Void) {
        for section in image.sections(named: sectionName) where section.hasFileData {
            var field = section.address
            while field + 4 <= section.address + section.size {
                body(field, MetadataPlace(section: sectionName, offset: section.offset + (field - section.address)))
                field += 4
            }
        }
    }

    private func typeRecord(at descriptor: UInt64, place: MetadataPlace) -> SwiftTypeRecord? {
        guard let flags = uint32(at: descriptor), let name = contextName(at: descriptor) else { return nil }
        let kind: SwiftTypeKind
        var superclass: String?
        switch ContextKind(rawValue: flags & 0x1F) {
        case .class?:
            kind = .class
            if let value = int32(at: descriptor + 20), value != 0 {
                superclass = typeName(mangledAt: address(descriptor + 20, plus: Int64(value)))
            }
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
              let flags = uint32(at: descriptor + 12), let typeValue = int32(at: descriptor + 4) else { return nil }
        let typeField = address(descriptor + 4, plus: Int64(typeValue))
        let typeName: String?
        switch (flags >> 3) & 7 {
        case 0: typeName = contextName(at: typeField)
        case 1: typeName = slotTarget(typeField).flatMap(name(of:))
        default: typeName = nil  // Objective-C class references: not on ELF platforms
        }
        guard let typeName else { return nil }
        return SwiftConformanceRecord(typeName: typeName, protocolName: protocolName, place: place)
    }

    /// swift-testing records: kind (u32), reserved (u32), accessor, context, reserved (words).
    private func testRecords() -> [SwiftTestRecord] {
        var records: [SwiftTestRecord] = []
        let recordSize = 8 + 3 * image.wordSize
        for section in image.sections(named: "swift5_tests") where section.hasFileData {
            let bytes = image.bytes(of: section)
            var offset = 0
            while offset + recordSize <= bytes.count {
                if let kind = image.readUInt32(bytes, at: offset) {
                    records.append(SwiftTestRecord(
                        kind: Self.fourCharacterCode(kind),
                        place: MetadataPlace(section: section.name, offset: section.offset + UInt64(offset)),
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

    // MARK: Names

    private func name(of target: SlotTarget) -> String? {
        switch target {
        case .address(let address): contextName(at: address)
        case .symbol(let symbol): Self.describedEntity(ofDescriptorSymbol: symbol)
        }
    }

    /// `$s7SwiftUI15PreviewProviderMp` → `SwiftUI.PreviewProvider` (what the descriptor describes).
    static func describedEntity(ofDescriptorSymbol symbol: String) -> String? {
        guard let demangled = Demangler.demangleSwift(symbol) else { return nil }
        for prefix in ["protocol descriptor for ", "nominal type descriptor for ", "module descriptor "] where demangled.hasPrefix(prefix) {
            return String(demangled.dropFirst(prefix.count))
        }
        return demangled
    }

    /// The full dotted name of a context descriptor: its parents' names, then its own.
    func contextName(at descriptor: UInt64, depth: Int = 0) -> String? {
        guard depth < Self.maximumNesting, let flags = uint32(at: descriptor) else { return nil }
        let kind = ContextKind(rawValue: flags & 0x1F)
        var parentName: String?
        if let parent = indirectable(at: descriptor + 4) {
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
            guard let value = int32(at: descriptor + 8), value != 0,
                  let own = cString(at: address(descriptor + 8, plus: Int64(value))) else { return nil }
            return parentName.map { "\($0).\(own)" } ?? own
        }
    }

    /// A mangled type name as stored for superclasses: plain mangling, or symbolic references
    /// (0x01 direct / 0x02 indirect context descriptor, followed by a 32-bit relative offset).
    func typeName(mangledAt start: UInt64) -> String? {
        guard let bytes = image.bytes(atAddress: start)?.bytes else { return nil }
        var plain: [UInt8] = []
        var resolved: [String] = []
        var index = 0
        while index < bytes.count, bytes[index] != 0 {
            let byte = bytes[index]
            if byte >= 0x01 && byte <= 0x17 {
                guard let value = image.readInt32(bytes, at: index + 1) else { return nil }
                let target = address(start + UInt64(index + 1), plus: Int64(value))
                switch byte {
                case 0x01: resolved.append(contextName(at: target) ?? "?")
                case 0x02: resolved.append(slotTarget(target).flatMap(name(of:)) ?? "?")
                default: return nil
                }
                index += 5
            } else if byte >= 0x18 && byte <= 0x1F {
                return nil  // absolute symbolic references: not emitted on ELF
            } else {
                plain.append(byte)
                index += 1
            }
        }
        if plain.isEmpty, resolved.count == 1 { return resolved[0] }
        if resolved.isEmpty, !plain.isEmpty {
            return Demangler.demangleSwift("$s" + String(decoding: plain, as: UTF8.self))
        }
        return resolved.first
    }

    // MARK: Pointers

    private func address(_ field: UInt64, plus offset: Int64) -> UInt64 { UInt64(bitPattern: Int64(bitPattern: field) &+ offset) }

    /// A relative indirectable pointer: nil when null or unresolvable.
    private func indirectable(at field: UInt64) -> SlotTarget? {
        guard let value = int32(at: field), value != 0 else { return nil }
        let target = address(field, plus: Int64(value & ~1))
        return value & 1 == 0 ? .address(target) : slotTarget(target)
    }

    /// What the dynamic linker will store in a slot: from its relocation, or the stored word.
    private func slotTarget(_ slot: UInt64) -> SlotTarget? {
        if let target = slotTargets[slot] { return target }
        guard let bytes = image.bytes(atAddress: slot)?.bytes, let word = image.readWord(bytes, at: 0), word != 0 else { return nil }
        return .address(word)
    }

    private func uint32(at address: UInt64) -> UInt32? {
        guard let bytes = image.bytes(atAddress: address)?.bytes else { return nil }
        return image.readUInt32(bytes, at: 0)
    }

    private func int32(at address: UInt64) -> Int32? { uint32(at: address).map { Int32(bitPattern: $0) } }

    private func cString(at address: UInt64) -> String? {
        guard let bytes = image.bytes(atAddress: address)?.bytes else { return nil }
        return image.cString(bytes, at: 0)
    }
}
