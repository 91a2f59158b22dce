import BinaryReaderCore
import Dispatch
import ScanEngine
import ShipcheckCore
import Synchronization

/// One `nlist_64` or `nlist` entry (the value is 8 or 4 bytes wide).
struct MachONlist {
    var nameOffset: UInt32
    var type: UInt8
    var section: UInt8
    var description: UInt16
    var value: UInt64

    var kind: UInt8 { type & MachO.N_TYPE }
    var isExternal: Bool { type & MachO.N_EXT != 0 }
    var isDebug: Bool { type & MachO.N_STAB != 0 }
    /// Undefined: imported (external, value 0). External undefined entries with a value are commons.
    var isUndefined: Bool { kind == MachO.N_UNDF && value == 0 }
}

/// An entry of the export trie (`LC_DYLD_EXPORTS_TRIE` or `LC_DYLD_INFO`'s export data).
struct MachOExport {
    var name: String
    /// Offset from the image base (absolute symbols: the value itself).
    var offset: UInt64
    var flags: UInt64
}

extension MachOImage {
    /// The symbols `llvm-nm --add-dyldinfo` lists: `LC_SYMTAB` without debug (stab) entries, plus
    /// what a stripped image keeps only for dyld — exports from the trie and imports from the bind
    /// opcodes — that the symbol table lacks. `.dynsym`: what the dynamic linker sees, the exports
    /// and every import (undefined external symbols, bind opcodes, chained-fixup imports).
    package func symbols(_ table: SymbolTableKind) throws(InputError) -> [BinarySymbol] {
        let (entries, nameOffsets) = try nlistSymbols()
        let bound = try boundSymbols()
        var symbols: [BinarySymbol]
        switch table {
        case .symtab:
            let missing = try unlistedExports(in: entries, nameOffsets: nameOffsets).map(exportSymbol)
            symbols = consume entries  // appended to in place, not copied
            symbols += missing
            Self.addImports(bound, to: &symbols)
        case .dynsym:
            symbols =
                try exportedSymbols().map(exportSymbol) + entries.filter { !$0.isDefined && $0.binding != "LOCAL" }
            Self.addImports(bound + (try chainedImportSymbols()).map { ($0, false) }, to: &symbols)
        }
        Self.measureSizes(&symbols, sections: sections)
        return symbols
    }

    /// The exports no defined symbol-table entry names (a stripped image keeps them only in the
    /// trie). An export's entry sits at its address, so entries are looked up by address and
    /// the trie's name bytes compared with the entry's in the string table (no string per
    /// export: large apps export hundreds of thousands); by name only where an alias shares the
    /// address. `nameOffsets`: each entry's name in the string table.
    private func unlistedExports(in entries: [BinarySymbol], nameOffsets: [UInt32]) throws(InputError)
        -> [MachOExport]
    {
        guard holdsCode, exportTrie != nil else { return [] }
        // Defined entries by address, sorted once and binary-searched: cheaper than hashing
        // hundreds of thousands of addresses into a dictionary.
        var byAddress: [(address: UInt64, nameOffset: UInt32)] = []
        byAddress.reserveCapacity(entries.count)
        for index in entries.indices where entries[index].isDefined {
            byAddress.append((entries[index].value, nameOffsets[index]))
        }
        byAddress.sort { $0.address < $1.address }
        func isListed(_ name: [UInt8], at address: UInt64, strings: borrowing ByteView) -> Bool {
            var low = 0, high = byAddress.count
            while low < high {
                let middle = (low + high) / 2
                if byAddress[middle].address < address { low = middle + 1 } else { high = middle }
            }
            while low < byAddress.count, byAddress[low].address == address {
                // The entry's name is exactly `name`: its bytes, then the NUL that ends it.
                let at = Int(byAddress[low].nameOffset), end = at + name.count
                if at == 0 ? name.isEmpty : strings.matches(name, at: at) && end < strings.count && strings[end] == 0 {
                    return true
                }
                low += 1
            }
            return false
        }
        var definedNames: Set<String>?
        var missing: [MachOExport] = []
        // One borrow of the string table for the walk.
        try (symbolTable?.strings.bytes ?? .empty).withByteView { (strings) throws(InputError) in
            try forEachExport { name, offset, flags in
                if isListed(name, at: address(offset: offset, flags: flags), strings: strings) { return }
                // An alias at another address, or not in the table at all (stripped).
                let text = String(decoding: name, as: UTF8.self)
                if definedNames == nil { definedNames = Set(entries.lazy.filter(\.isDefined).map(\.name)) }
                if definedNames?.contains(text) != true {
                    missing.append(MachOExport(name: text, offset: offset, flags: flags))
                }
            }
        }
        return missing
    }

    /// Adds the imports no listed symbol names (a stripped image's), as nm lists undefined symbols.
    private static func addImports(_ imports: [(name: String, isWeak: Bool)], to symbols: inout [BinarySymbol]) {
        guard !imports.isEmpty else { return }
        // Only names as long as an import's can be one: most of a large table is never hashed.
        let importLengths = Set(imports.map(\.name.utf8.count))
        var listed = Set(symbols.lazy.map(\.name).filter { importLengths.contains($0.utf8.count) })
        for (name, isWeak) in imports where listed.insert(name).inserted {
            symbols.append(
                BinarySymbol(
                    name: name, value: 0, size: 0, isDefined: false, isFunction: false, letter: "U", type: "UNDF",
                    binding: isWeak ? "WEAK" : "GLOBAL", visibility: "DEFAULT", section: "UND", fileOffset: nil))
        }
    }

    /// Debug-map (stab) entries left by an unstripped link: object files and sources by name.
    func debugSymbolCount() -> Int {
        guard let table = symbolTable else { return 0 }
        let size = layout.nlistSize
        // The table's size is `count` entries (checked when the image was opened).
        return table.symbols.bytes.withByteView { entries in
            (0..<table.count).reduce(0) { $0 + (entries[$1 * size + 4] & MachO.N_STAB != 0 ? 1 : 0) }
        }
    }

    /// The name of the symbol-table entry `index` (indirect symbols, relocations), nil when out of range.
    func symbolName(atIndex index: Int) -> String? {
        guard let table = symbolTable, index >= 0, index < table.count,
            let entry = Self.nlist(table.symbols.bytes, index, layout)
        else { return nil }
        return entry.nameOffset == 0 ? "" : table.strings.bytes.cString(at: Int(entry.nameOffset))
    }

    /// Entry `index` of a symbol table; nil when it runs past the table's end.
    static func nlist(_ bytes: ImageBytes, _ index: Int, _ layout: MachOLayout) -> MachONlist? {
        let at = index * layout.nlistSize
        guard at >= 0, at <= bytes.count - layout.nlistSize, let nameOffset = bytes.uint32(at: at, .little),
            let description = bytes.uint16(at: at + 6, .little), let value = layout.address(bytes, at: at + 8)
        else { return nil }
        return MachONlist(
            nameOffset: nameOffset, type: bytes[at + 4], section: bytes[at + 5], description: description,
            value: value)
    }

    /// The name at `offset` in the string table (offset 0: no name); nil when it is not
    /// NUL-terminated inside the table.
    private static func name(_ strings: borrowing ByteView, at offset: Int) -> String? {
        guard offset != 0 else { return "" }
        guard offset < strings.count, let end = strings.firstIndex(of: 0, from: offset) else { return nil }
        return strings.string(offset..<end)
    }

    /// Every non-debug entry, decoded in parallel (hundreds of thousands of names in large
    /// apps), after one pass that picks the entries and checks their name offsets; with each
    /// entry's name offset in the string table.
    private func nlistSymbols() throws(InputError) -> (symbols: [BinarySymbol], nameOffsets: [UInt32]) {
        guard let table = symbolTable, table.count > 0 else { return ([], []) }
        let entries = table.symbols.bytes, strings = table.strings.bytes
        // A name starting at or before the table's last NUL ends inside the table.
        let lastNUL = strings.withByteView { strings in
            var last = strings.count - 1
            while last >= 0, strings[last] != 0 { last -= 1 }
            return last
        }
        var listed: [MachONlist] = []
        listed.reserveCapacity(table.count)
        for index in 0..<table.count {
            guard let entry = Self.nlist(entries, index, layout) else {
                throw origin.error(
                    "corrupt Mach-O file: symbol \(index) runs past the end of the \(entries.count)-byte symbol table")
            }
            guard !entry.isDebug else { continue }
            guard entry.nameOffset == 0 || Int(entry.nameOffset) <= lastNUL else {
                throw origin.error(
                    "corrupt Mach-O file: symbol \(index) has a name offset (\(entry.nameOffset)) outside the \(strings.count)-byte string table"
                )
            }
            listed.append(entry)
        }
        // The names (most of the work: a string each) in parallel, in chunks; the symbols then
        // built straight into the result, so no array of symbols is made twice.
        let chunkSize = 8192, chunkCount = (listed.count + chunkSize - 1) / chunkSize
        let chunks = Mutex([[String]](repeating: [], count: chunkCount))
        let entriesToName = listed
        DispatchQueue.concurrentPerform(iterations: chunkCount) { chunk in
            let positions = chunk * chunkSize..<min((chunk + 1) * chunkSize, entriesToName.count)
            // One borrow of the string table per chunk: names are read without a retain each.
            let names = strings.withByteView { strings in
                positions.map { Self.name(strings, at: Int(entriesToName[$0].nameOffset)) ?? "" }
            }
            chunks.withLock { $0[chunk] = names }
        }
        let names = chunks.withLock { $0 }
        var symbols: [BinarySymbol] = []
        symbols.reserveCapacity(listed.count)
        for (position, entry) in listed.enumerated() {
            symbols.append(
                Self.symbol(entry, name: names[position / chunkSize][position % chunkSize], sections: sections))
        }
        return (symbols, listed.map(\.nameOffset))
    }

    private static func symbol(_ entry: MachONlist, name: String, sections: [MachOSection]) -> BinarySymbol {
        let section =
            entry.kind == MachO.N_SECT && entry.section > 0 && Int(entry.section) <= sections.count
            ? sections[Int(entry.section) - 1] : nil
        let weak = entry.description & (MachO.N_WEAK_REF | MachO.N_WEAK_DEF) != 0
        let common = entry.isExternal && entry.kind == MachO.N_UNDF && entry.value != 0
        let sectionName: String
        let type: String
        switch entry.kind {
        case MachO.N_UNDF: (sectionName, type) = (common ? "COM" : "UND", "UNDF")
        case MachO.N_ABS: (sectionName, type) = ("ABS", "ABS")
        case MachO.N_INDR: (sectionName, type) = ("INDR", "INDR")
        case MachO.N_PBUD: (sectionName, type) = ("UND", "PBUD")
        case MachO.N_SECT: (sectionName, type) = (section?.fullName ?? "#\(entry.section)", "SECT")
        default: (sectionName, type) = ("?", "\(entry.kind)")
        }
        var fileOffset: UInt64?
        if let section, section.hasFileData, entry.value >= section.address,
            entry.value - section.address < section.size
        {
            fileOffset = section.offset + (entry.value - section.address)
        }
        return BinarySymbol(
            name: name, value: entry.value, size: 0,
            isDefined: !(entry.kind == MachO.N_UNDF && !common) && entry.kind != MachO.N_PBUD,
            isFunction: section?.isCode ?? false,
            letter: letter(entry, section: section, common: common), type: type,
            binding: entry.isExternal ? (weak ? "WEAK" : "GLOBAL") : "LOCAL",
            visibility: entry.type & MachO.N_PEXT != 0 ? "HIDDEN" : "DEFAULT", section: sectionName,
            fileOffset: fileOffset)
    }

    /// llvm-nm's letter for a Mach-O symbol: `U` undefined, `C` common, `A` absolute, `I`
    /// indirect, `T` `__TEXT,__text`, `D` `__DATA,__data`, `B` `__DATA,__bss`, `S` any other
    /// section; lower case unless external. (Weak Mach-O symbols get no letter of their own.)
    private static func letter(_ entry: MachONlist, section: MachOSection?, common: Bool) -> Character {
        let undefined = entry.isExternal && entry.kind == MachO.N_UNDF && entry.value == 0
        if undefined { return "U" }
        if common { return "C" }
        let (local, external): (Character, Character)
        switch entry.kind {
        case MachO.N_ABS: (local, external) = ("a", "A")
        case MachO.N_INDR: (local, external) = ("i", "I")
        case MachO.N_SECT:
            switch (section?.segment, section?.name) {
            case ("__TEXT", "__text"): (local, external) = ("t", "T")
            case ("__DATA", "__data"): (local, external) = ("d", "D")
            case ("__DATA", "__bss"): (local, external) = ("b", "B")
            default: (local, external) = ("s", "S")
            }
        default: (local, external) = ("?", "?")
        }
        return entry.isExternal ? external : local
    }

    /// Mach-O records no sizes: a defined symbol's is the distance to the next higher address
    /// in its section (or the section's end).
    private static func measureSizes(_ symbols: inout [BinarySymbol], sections: [MachOSection]) {
        let ends = Dictionary(
            sections.map { ($0.fullName, $0.address &+ $0.size) }, uniquingKeysWith: { first, _ in first })
        // Sections do not share addresses, so one sort by address lines each section's symbols
        // up; section names are compared only between equal addresses.
        let placed = symbols.indices.filter { symbols[$0].type == "SECT" }.sorted {
            symbols[$0].value != symbols[$1].value
                ? symbols[$0].value < symbols[$1].value : symbols[$0].section < symbols[$1].section
        }
        var index = 0
        while index < placed.count {
            let section = symbols[placed[index]].section
            var next = index
            while next < placed.count, symbols[placed[next]].section == section,
                symbols[placed[next]].value == symbols[placed[index]].value
            { next += 1 }
            let end =
                next < placed.count && symbols[placed[next]].section == section
                ? symbols[placed[next]].value : ends[section] ?? symbols[placed[index]].value
            let value = symbols[placed[index]].value
            for position in index..<next { symbols[placed[position]].size = end > value ? end - value : 0 }
            index = next
        }
    }

    /// The value nm gives an export: its address (re-exports: 0; absolute symbols: the value).
    private func address(offset: UInt64, flags: UInt64) -> UInt64 {
        if flags & MachO.EXPORT_SYMBOL_FLAGS_REEXPORT != 0 { return 0 }
        if flags & MachO.EXPORT_SYMBOL_FLAGS_KIND_MASK == MachO.EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE { return offset }
        return baseAddress &+ offset
    }

    /// An export-trie entry as nm shows it.
    private func exportSymbol(_ export: MachOExport) -> BinarySymbol {
        let kind = export.flags & MachO.EXPORT_SYMBOL_FLAGS_KIND_MASK
        let weak = export.flags & MachO.EXPORT_SYMBOL_FLAGS_WEAK_DEFINITION != 0
        if export.flags & MachO.EXPORT_SYMBOL_FLAGS_REEXPORT != 0 {
            return BinarySymbol(
                name: export.name, value: 0, size: 0, isDefined: true, isFunction: false, letter: "I", type: "INDR",
                binding: "GLOBAL", visibility: "DEFAULT", section: "INDR", fileOffset: nil)
        }
        if kind == MachO.EXPORT_SYMBOL_FLAGS_KIND_ABSOLUTE {
            return BinarySymbol(
                name: export.name, value: export.offset, size: 0, isDefined: true, isFunction: false, letter: "A",
                type: "ABS", binding: weak ? "WEAK" : "GLOBAL", visibility: "DEFAULT", section: "ABS", fileOffset: nil)
        }
        let address = baseAddress &+ export.offset
        let section =
            self.section(containing: address)
            ?? sections.first { $0.address <= address && address - $0.address < $0.size }
        var entry = MachONlist(
            nameOffset: 0, type: MachO.N_SECT | MachO.N_EXT, section: 0, description: weak ? MachO.N_WEAK_DEF : 0,
            value: address)
        if let section,
            let number = sections.firstIndex(where: { $0.address == section.address && $0.fullName == section.fullName }
            )
        {
            entry.section = UInt8(truncatingIfNeeded: number + 1)
        }
        return Self.symbol(entry, name: export.name, sections: sections)
    }

    /// The export trie's blob (`LC_DYLD_EXPORTS_TRIE`, else `LC_DYLD_INFO`'s export data).
    private var exportTrie: MachOBlob? {
        guard let trie = exportsTrie ?? dyldInfo?.export, trie.size > 0 else { return nil }
        return trie
    }

    /// The export trie's entries, named.
    func exportedSymbols() throws(InputError) -> [MachOExport] {
        var exports: [MachOExport] = []
        try forEachExport { name, offset, flags in
            exports.append(MachOExport(name: String(decoding: name, as: UTF8.self), offset: offset, flags: flags))
        }
        return exports
    }

    /// Walks the export trie — a prefix tree whose terminal nodes carry a symbol's flags and
    /// address — handing each export's name bytes, offset and flags to `body`. Every node offset
    /// is checked, revisiting a node is corruption (a trie is a tree), and the walk is bounded by
    /// the trie's size, so hostile tries end in an error, never a hang. Depth first, with one
    /// name buffer: a node's name is its parent's plus its edge label (read in place).
    private func forEachExport(_ body: (_ name: [UInt8], _ offset: UInt64, _ flags: UInt64) -> Void)
        throws(InputError)
    {
        guard holdsCode, let trie = exportTrie?.bytes else { return }
        func corrupt(_ message: String) -> InputError { origin.error("corrupt Mach-O file: export trie: \(message)") }
        // One bit per trie byte: a node seen twice is corruption (a bitmap, not a hashed set:
        // large apps' tries have hundreds of thousands of nodes).
        var visited = [UInt64](repeating: 0, count: trie.count / 64 + 1)
        var name: [UInt8] = []
        var pending: [(node: Int, parentLength: Int, label: Range<Int>)] = [(0, 0, 0..<0)]
        // One cursor for the walk, moved from node to node (not a copy of the view per node).
        var cursor = LEB128Cursor(bytes: trie, position: 0)
        while let (node, parentLength, label) = pending.popLast() {
            // The parent is the last node visited or one of its ancestors: its name is a prefix of `name`.
            name.removeSubrange(parentLength...)
            for index in label { name.append(trie[index]) }
            guard node < trie.count else {
                throw corrupt("node at offset \(node) is outside the \(trie.count)-byte trie")
            }
            guard visited[node / 64] & (1 << UInt64(node % 64)) == 0 else {
                throw corrupt("node at offset \(node) is reached twice")
            }
            visited[node / 64] |= 1 << UInt64(node % 64)
            cursor.position = node
            guard let terminalSize = cursor.uleb() else { throw corrupt("node at offset \(node) is truncated") }
            let children = cursor.position + Int(clamping: terminalSize)
            if terminalSize > 0 {
                guard let flags = cursor.uleb() else { throw corrupt("export at offset \(node) is truncated") }
                var offset: UInt64 = 0
                if flags & MachO.EXPORT_SYMBOL_FLAGS_REEXPORT != 0 {
                    guard cursor.uleb() != nil else { throw corrupt("re-export at offset \(node) is truncated") }
                } else {
                    guard let value = cursor.uleb() else { throw corrupt("export at offset \(node) is truncated") }
                    offset = value
                }
                body(name, offset, flags)
            }
            guard children < trie.count else { throw corrupt("node at offset \(node) runs past the end of the trie") }
            cursor.position = children
            let childCount = Int(trie[cursor.position])
            cursor.position += 1
            for _ in 0..<childCount {
                guard let edge = cursor.cStringRange(), let child = cursor.uleb(), child < UInt64(trie.count) else {
                    throw corrupt("an edge of the node at offset \(node) is truncated or points outside the trie")
                }
                pending.append((Int(child), name.count, edge))
            }
        }
    }
}

/// Unsigned / signed LEB128 and C strings from a byte stream (dyld opcodes, the export trie),
/// bounds-checked: nil when the stream ends or a number overflows 64 bits.
struct LEB128Cursor {
    let bytes: ImageBytes
    var position: Int

    mutating func uleb() -> UInt64? { bytes.uleb128(at: &position) }

    mutating func sleb() -> Int64? { bytes.sleb128(at: &position) }

    mutating func byte() -> UInt8? {
        guard position >= 0, position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    /// The NUL-terminated string from here (the NUL consumed, not returned).
    mutating func cString() -> String? {
        cStringRange().flatMap(bytes.string)
    }

    /// Where the NUL-terminated bytes from here lie (the NUL consumed, not included).
    mutating func cStringRange() -> Range<Int>? {
        guard position >= 0, position < bytes.count, let end = bytes.firstIndex(of: 0, from: position) else {
            return nil
        }
        defer { position = end + 1 }
        return position..<end
    }
}
