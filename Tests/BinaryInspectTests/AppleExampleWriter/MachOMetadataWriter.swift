import BinaryInspect
import ShipcheckTestSupport

/// The Objective-C and Swift metadata of a slice, as a linker lays it out in `__DATA_CONST`:
/// `__objc_classlist` → `class_t` → `class_ro_t` → the class's name (a superclass: a local
/// `class_t` out of the list the class's superclass pointer points at); `__objc_selrefs` → method
/// names; `__swift5_types` → a struct descriptor whose parent is the module's context
/// descriptor; and the symbol table (imports as undefined externals; in objects, which keep
/// their metadata as symbols, `OBJC_CLASS_$_` and nominal type descriptor symbols). Pointers
/// hold unslid addresses (no fixups: what the reader takes a stored word for).
struct MachOMetadataWriter {
    static let segment = "__DATA_CONST"
    let slice: ImageSlice
    let word: Int
    let linked: Bool
    /// Class → superclass, by runtime names (`MachOSliceWriter.superclasses`).
    let superclasses: [String: String]

    /// The class list's classes, then the superclasses that are not among them.
    private var classes: [String] {
        var seen = Set(slice.definedObjCClasses)
        return slice.definedObjCClasses
            + slice.definedObjCClasses.compactMap { superclasses[$0] }.filter { seen.insert($0).inserted }
    }
    private var listedClasses: Int { slice.definedObjCClasses.count }
    private var selectors: [String] { Array(slice.selectorReferences) }
    private var modules: [String] {
        var seen: Set<String> = []
        return slice.definedModules.filter { seen.insert($0).inserted }
    }

    /// Each class: `class_t` (5 words) and `class_ro_t` (10 words); each module: its context
    /// descriptor (12 bytes) and one struct's descriptor (20 bytes); then the names.
    private var structuresSize: Int { classes.count * 15 * word + modules.count * 32 }

    private var namesSize: Int { names.reduce(0) { $0 + $1.utf8.count + 1 } }
    private var names: [String] { classes + modules + (modules.isEmpty ? [] : [Self.typeName]) + selectors }
    /// The struct each module's descriptor record describes.
    private static let typeName = "Marker"

    var carrierSections: [PlannedSection] {
        func section(_ name: String, _ size: Int) -> PlannedSection {
            PlannedSection(segment: Self.segment, name: name, size: UInt64(size))
        }
        if !linked {
            return classes.isEmpty && modules.isEmpty ? [] : [section("__const", word)]
        }
        var sections: [PlannedSection] = []
        if !classes.isEmpty { sections.append(section("__objc_classlist", listedClasses * word)) }
        if !selectors.isEmpty { sections.append(section("__objc_selrefs", selectors.count * word)) }
        // Word-aligned after the pointer lists: the class list's `data` pointer keeps flags in
        // its low bits, so a class_ro_t is always 8-byte aligned.
        if !sections.isEmpty || !modules.isEmpty {
            sections.append(section("__const", ByteWriter.rounded(structuresSize + namesSize, to: 8)))
        }
        if !modules.isEmpty { sections.append(section("__swift5_types", modules.count * 4)) }
        return sections
    }

    /// A carrier section's bytes (empty for other sections: zeros).
    func contents(of section: PlacedSection, in placed: [PlacedSegment]) -> [UInt8] {
        guard section.segment == Self.segment, linked,
            let constant = placed.flatMap(\.sections).first(where: {
                $0.segment == Self.segment && $0.name == "__const"
            })
        else { return [] }
        let base = constant.address
        var nameAddresses: [UInt64] = []
        var nameOffset = UInt64(structuresSize)
        for name in names {
            nameAddresses.append(base + nameOffset)
            nameOffset += UInt64(name.utf8.count + 1)
        }
        let classAddress = { (index: Int) in base + UInt64(index * 15 * self.word) }
        let moduleAddress = { (index: Int) in base + UInt64(self.classes.count * 15 * self.word + index * 32) }
        var bytes = ByteWriter()
        switch section.name {
        case "__objc_classlist":
            for index in 0..<listedClasses { bytes.word(classAddress(index), is64Bit: word == 8) }
        case "__objc_selrefs":
            for index in selectors.indices {
                bytes.word(nameAddresses[names.count - selectors.count + index], is64Bit: word == 8)
            }
        case "__swift5_types":
            for index in modules.indices {
                bytes.u32(Self.relative(from: section.address + UInt64(4 * index), to: moduleAddress(index) + 12))
            }
        default:
            for index in classes.indices {
                // class_t: isa, superclass, cache, vtable, data → class_ro_t right after it.
                let superclass = superclasses[classes[index]].flatMap { classes.firstIndex(of: $0) }
                bytes.word(0, is64Bit: word == 8)
                bytes.word(superclass.map(classAddress) ?? 0, is64Bit: word == 8)
                bytes.zeros(2 * word)
                bytes.word(classAddress(index) + UInt64(5 * word), is64Bit: word == 8)
                // class_ro_t: flags, instanceStart, instanceSize (, reserved), ivarLayout, name, …
                bytes.zeros(3 * word)
                bytes.word(nameAddresses[index], is64Bit: word == 8)
                bytes.zeros(6 * word)
            }
            for index in modules.indices {
                let module = moduleAddress(index)
                // Module context descriptor: flags (kind 0), parent (none), name.
                bytes.u32(0)
                bytes.u32(0)
                bytes.u32(Self.relative(from: module + 8, to: nameAddresses[classes.count + index]))
                // Struct descriptor: flags (kind 17, unique), parent (direct), name, accessor, fields.
                bytes.u32(0x51)
                bytes.u32(Self.relative(from: module + 16, to: module))
                bytes.u32(Self.relative(from: module + 20, to: nameAddresses[classes.count + modules.count]))
                bytes.zeros(8)
            }
            for name in names { bytes.bytes += Array(name.utf8) + [0] }
        }
        return bytes.bytes
    }

    private static func relative(from field: UInt64, to target: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(bitPattern: target &- field))
    }

    var hasSymbols: Bool { !slice.importedSymbols.isEmpty || (!linked && !(classes.isEmpty && modules.isEmpty)) }

    /// `nlist(_64)` entries and their string table: imports undefined (`N_UNDF | N_EXT`), an
    /// object's class and type descriptor symbols defined in its `__const` (`N_SECT | N_EXT`).
    func symbolTable(placed: [PlacedSegment]) -> (entries: [UInt8], strings: [UInt8], count: Int) {
        var strings: [UInt8] = [0x20, 0]
        var entries = ByteWriter()
        func add(_ name: String, type: UInt8, section: Int, value: UInt64) {
            entries.u32(UInt32(strings.count))
            entries.bytes += [type, UInt8(section)]
            entries.bytes += [0, 0]
            entries.word(value, is64Bit: word == 8)
            strings += Array(("_" + name).utf8) + [0]
        }
        for name in slice.importedSymbols { add(name, type: 0x01, section: 0, value: 0) }
        let allSections = placed.flatMap(\.sections)
        if !linked, let index = allSections.firstIndex(where: { $0.segment == Self.segment && $0.name == "__const" }) {
            for name in classes {
                add("OBJC_CLASS_$_" + name, type: 0x0F, section: index + 1, value: allSections[index].address)
            }
            for module in modules {
                let mangled = "$s\(module.utf8.count)\(module)\(Self.typeName.utf8.count)\(Self.typeName)VMn"
                add(mangled, type: 0x0F, section: index + 1, value: allSections[index].address)
            }
        }
        while strings.count % 8 != 0 { strings.append(0) }
        return (entries.bytes, strings, slice.importedSymbols.count + (linked ? 0 : classes.count + modules.count))
    }
}
