import BinaryReaderCore

/// Reflection metadata: field descriptors (`swift5_fieldmd`) and the mangled type names they point
/// at (`swift5_typeref`, names in `swift5_reflstr`). Same pointers and fixups as the other records.
extension LinkedMetadataDecoder {
    /// Mangled names are short; a longer run without its NUL is a damaged or hostile section,
    /// and reading on would make every record of it cost the section's size.
    static let maximumMangledLength = 4096

    /// Field descriptors, back to back: the owner's mangled name and its superclass's (relative
    /// pointers), kind (u16), record size (u16), record count (u32); then the records, each flags
    /// (u32), the field type's mangled name and the field's name (relative pointers, 0 for none).
    /// A descriptor whose records do not fit the section ends the walk of that section (the next
    /// descriptor's place is unknown); one whose owner does not resolve is skipped.
    func fieldRecords() -> [SwiftFieldRecord] {
        var records: [SwiftFieldRecord] = []
        let order = ByteOrder(image.isLittleEndian)
        for section in image.sections(.swiftFields) {
            let bytes = image.bytes(of: section)
            var offset = 0
            while let kind = bytes.uint16(at: offset + 8, order), let recordSize = bytes.uint16(at: offset + 10, order),
                let count = bytes.uint32(at: offset + 12, order)
            {
                let first = offset + 16
                guard count == 0 || (recordSize >= 12 && Int(count) <= (bytes.count - first) / Int(recordSize)) else {
                    break
                }
                defer { offset = first + Int(count) * Int(recordSize) }
                let descriptor = section.address &+ UInt64(offset)
                guard count > 0, let owner = typeNames(mangledAtField: descriptor).first else { continue }
                for index in 0..<Int(count) {
                    let record = first + index * Int(recordSize)
                    let field = section.address &+ UInt64(record)
                    let types = typeNames(mangledAtField: field &+ 4)
                    // An enum case without payload, or a type that does not resolve.
                    guard !types.isEmpty else { continue }
                    let name = relativeTarget(at: field &+ 8).flatMap(image.cString(atAddress:)) ?? ""
                    records.append(
                        SwiftFieldRecord(
                            ownerName: owner, name: name, typeNames: types, isEnumCase: kind == 2 || kind == 3,
                            place: MetadataPlace(section: section.name, offset: section.fileOffset + UInt64(record))))
                }
            }
        }
        return records
    }

    /// The names a mangled type name (at the relative pointer in `field`) refers to: see
    /// `SwiftFieldRecord.typeNames`. Empty when the pointer is null or nothing resolves.
    private func typeNames(mangledAtField field: UInt64) -> [String] {
        guard let start = relativeTarget(at: field), let parts = mangledName(at: start) else { return [] }
        guard parts.references.isEmpty else { return parts.references }
        guard !parts.plain.isEmpty,
            let demangled = Demangler.demangleSwift("$s" + String(decoding: parts.plain, as: UTF8.self))
        else { return [] }
        return Self.typeNames(inDemangled: demangled)
    }

    /// `Swift.Dictionary<Swift.String, App.Store>` → `Swift.Dictionary`, `Swift.String`, `App.Store`.
    static func typeNames(inDemangled text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == ".") }
            .filter { $0.contains(".") }.map(String.init)
    }

    /// A mangled type name as stored for superclasses: plain mangling, or symbolic references
    /// (0x01 direct / 0x02 indirect context descriptor, followed by a 32-bit relative offset).
    func typeName(mangledAt start: UInt64) -> String? {
        guard let parts = mangledName(at: start) else { return nil }
        if parts.references.isEmpty, !parts.plain.isEmpty {
            return Demangler.demangleSwift("$s" + String(decoding: parts.plain, as: UTF8.self))
        }
        return parts.references.first
    }

    /// A mangled name split into its plain mangling (symbolic references cut out) and the full
    /// names of the context descriptors its symbolic references point at (0x01 direct, 0x02
    /// through a slot). Other references (conformances, accessor functions, generic
    /// environments; 0x18–0x1F absolute ones) are stepped over; references that do not resolve
    /// are left out. Nil when the name runs out of its section or past `maximumMangledLength`.
    private func mangledName(at start: UInt64) -> (plain: [UInt8], references: [String])? {
        guard let bytes = image.bytes(atAddress: start) else { return nil }
        // One borrow for the walk: its bytes are read one at a time.
        return bytes.withByteView { name -> (plain: [UInt8], references: [String])? in
            var plain: [UInt8] = []
            var references: [String] = []
            var index = 0
            while true {
                guard index < name.count, index < Self.maximumMangledLength else { return nil }
                let byte = name[index]
                switch byte {
                case 0:
                    return (plain, references)
                case 0x01...0x17:
                    guard let value = image.readInt32(bytes, at: index + 1) else { return nil }
                    let target = address(start + UInt64(index + 1), plus: Int64(value))
                    let referenced: String? =
                        switch byte {
                        case 0x01: contextName(at: target)
                        case 0x02: pointer(at: target).flatMap(self.name(of:))
                        default: nil
                        }
                    if let referenced { references.append(referenced) }
                    index += 5
                case 0x18...0x1F:
                    index += 1 + image.wordSize
                default:
                    plain.append(byte)
                    index += 1
                }
            }
        }
    }
}
