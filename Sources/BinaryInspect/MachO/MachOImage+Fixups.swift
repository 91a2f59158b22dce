import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Pointer-slot resolution on Mach-O: what dyld writes into each slot, from the three places a
/// linked image can say it — the indirect symbol table (`__got` / `__la_symbol_ptr` slots, kept
/// by `strip`), classic bind opcodes (`LC_DYLD_INFO(_ONLY)`) and chained fixups
/// (`LC_DYLD_CHAINED_FIXUPS`, whose slots hold encoded fixups rather than addresses, in the
/// `DYLD_CHAINED_PTR_64`, `_64_OFFSET`, arm64e and 32-bit `DYLD_CHAINED_PTR_32` formats).
/// Imported names lose the `_` prefix. Slots are pointer-sized: 8 bytes, 4 in 32-bit images.
extension MachOImage {
    package func pointerSlots() throws(InputError) -> [UInt64: SlotTarget] {
        guard holdsCode, kind.isLinked else { return [:] }
        var slots: [UInt64: SlotTarget] = [:]
        indirectSymbolSlots(into: &slots)
        if let info = dyldInfo {
            try bindSlots(info.bind.bytes, lazy: false, into: &slots)
            try bindSlots(info.weakBind.bytes, lazy: false, into: &slots)
            try bindSlots(info.lazyBind.bytes, lazy: true, into: &slots)
        }
        if let chainedFixups { try chainedFixupSlots(chainedFixups.bytes, into: &slots) }
        return slots
    }

    private func corrupt(_ what: String, _ message: String) -> InputError {
        origin.error("corrupt Mach-O file: \(what): \(message)")
    }

    // MARK: Indirect symbols

    private func indirectSymbolSlots(into slots: inout [UInt64: SlotTarget]) {
        guard let indirect = indirectSymbols?.bytes else { return }
        let count = indirect.count / 4
        for section in sections
        where section.type == MachO.S_NON_LAZY_SYMBOL_POINTERS || section.type == MachO.S_LAZY_SYMBOL_POINTERS {
            for slot in 0..<Int(min(section.size / UInt64(wordSize), UInt64(count))) {
                let index = Int(section.reserved1) + slot
                guard index < count, let symbol = indirect.uint32(at: 4 * index, .little),
                    symbol & (MachO.INDIRECT_SYMBOL_LOCAL | MachO.INDIRECT_SYMBOL_ABS) == 0,
                    let name = symbolName(atIndex: Int(symbol)), !name.isEmpty
                else { continue }
                slots[section.address &+ UInt64(wordSize * slot)] = .symbol(sourceName(ofSymbol: name))
            }
        }
    }

    // MARK: Bind opcodes

    private func bindSlots(_ stream: ImageBytes, lazy: Bool, into slots: inout [UInt64: SlotTarget])
        throws(InputError)
    {
        try forEachBind(stream, lazy: lazy) { address, symbol, _ in
            slots[address] = .symbol(sourceName(ofSymbol: symbol))
        }
    }

    /// The symbols the bind opcodes (`LC_DYLD_INFO(_ONLY)`: binds, lazy binds, weak binds) import,
    /// as stored (`_` prefix kept), in stream order, each once; weak-bind entries that only
    /// announce a strong definition (`BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION`) are not imports.
    func boundSymbols() throws(InputError) -> [(name: String, isWeak: Bool)] {
        guard holdsCode, kind.isLinked, let info = dyldInfo else { return [] }
        var seen = Set<String>()
        var imports: [(name: String, isWeak: Bool)] = []
        for (stream, lazy, weak) in [
            (info.bind, false, false), (info.lazyBind, true, false), (info.weakBind, false, true)
        ] {
            try forEachBind(stream.bytes, lazy: lazy) { _, symbol, flags in
                guard !(weak && flags & MachO.BIND_SYMBOL_FLAGS_NON_WEAK_DEFINITION != 0), seen.insert(symbol).inserted
                else { return }
                imports.append((symbol, weak))
            }
        }
        return imports
    }

    /// Runs a bind opcode stream, handing each bound slot's address, symbol and symbol flags to
    /// `body`. Every bound address must lie inside its segment, and repeat counts are bounded by
    /// the segment's size, so a hostile stream ends in an error.
    private func forEachBind(
        _ stream: ImageBytes, lazy: Bool,
        _ body: (_ address: UInt64, _ symbol: String, _ flags: UInt8) -> Void
    ) throws(InputError) {
        var cursor = LEB128Cursor(bytes: stream, position: 0)
        var symbol = "", flags: UInt8 = 0, segmentIndex = -1, offset: UInt64 = 0
        let pointer = UInt64(wordSize)
        func fail(_ message: String) -> InputError { corrupt(lazy ? "lazy bind opcodes" : "bind opcodes", message) }
        func bind() throws(InputError) {
            guard segmentIndex >= 0, segmentIndex < segments.count else {
                throw fail("bind in segment \(segmentIndex), of \(segments.count)")
            }
            let segment = segments[segmentIndex]
            guard segment.memorySize >= pointer, offset <= segment.memorySize - pointer else {
                throw fail("bind at offset \(offset) is outside segment \(segment.name) (\(segment.memorySize) bytes)")
            }
            body(segment.address &+ offset, symbol, flags)
        }
        while let byte = cursor.byte() {
            let immediate = UInt64(byte & 0x0F)
            switch byte & 0xF0 {
            case 0x00:  // BIND_OPCODE_DONE: ends the stream (lazy binds: ends one entry)
                if !lazy { return }
            case 0x10: continue  // BIND_OPCODE_SET_DYLIB_ORDINAL_IMM
            case 0x20: guard cursor.uleb() != nil else { throw fail("truncated library ordinal") }
            case 0x30, 0x50: continue  // SET_DYLIB_SPECIAL_IMM, SET_TYPE_IMM
            case 0x40:  // SET_SYMBOL_TRAILING_FLAGS_IMM
                guard let name = cursor.cString() else { throw fail("unterminated symbol name") }
                symbol = name
                flags = UInt8(immediate)
            case 0x60: guard cursor.sleb() != nil else { throw fail("truncated addend") }
            case 0x70:  // SET_SEGMENT_AND_OFFSET_ULEB
                segmentIndex = Int(immediate)
                guard let value = cursor.uleb() else { throw fail("truncated segment offset") }
                offset = value
            case 0x80:  // ADD_ADDR_ULEB
                guard let value = cursor.uleb() else { throw fail("truncated address delta") }
                offset &+= value
            case 0x90:  // DO_BIND
                try bind()
                offset &+= pointer
            case 0xA0:  // DO_BIND_ADD_ADDR_ULEB
                try bind()
                guard let value = cursor.uleb() else { throw fail("truncated address delta") }
                offset &+= pointer &+ value
            case 0xB0:  // DO_BIND_ADD_ADDR_IMM_SCALED
                try bind()
                offset &+= pointer &+ immediate &* pointer
            case 0xC0:  // DO_BIND_ULEB_TIMES_SKIPPING_ULEB
                guard let count = cursor.uleb(), let skip = cursor.uleb() else { throw fail("truncated repeat count") }
                let limit =
                    segmentIndex >= 0 && segmentIndex < segments.count ? segments[segmentIndex].memorySize / pointer : 0
                guard count <= limit else {
                    throw fail("\(count) repeated binds do not fit in segment \(segmentIndex)")
                }
                for _ in 0..<count {
                    try bind()
                    offset &+= pointer &+ skip
                }
            case 0xD0:
                return  // BIND_OPCODE_THREADED (pre-iOS 13 arm64e): slots keep their stored words
            default:
                throw fail("unknown opcode 0x\(String(byte, radix: 16)) at offset \(cursor.position - 1)")
            }
        }
    }

    // MARK: Chained fixups

    /// The pointer formats of `<mach-o/fixup-chains.h>` that user-space images use.
    enum ChainedPointerFormat: UInt16 {
        case arm64e = 1, pointer64 = 2, pointer32 = 3, pointer64Offset = 6, arm64eUserland = 9, arm64eUserland24 = 12

        /// Bytes between chain links per unit of `next`.
        var stride: UInt64 { [.pointer64, .pointer64Offset, .pointer32].contains(self) ? 4 : 8 }

        /// Bytes of one chained pointer.
        var width: UInt64 { self == .pointer32 ? 4 : 8 }
    }

    /// One decoded fixup: an import (by ordinal), a target in this image, or (32-bit chains
    /// only) a plain value dyld leaves as it is.
    enum ChainedFixup: Equatable {
        case bind(ordinal: Int)
        case rebase(target: UInt64)
        case nonPointer
    }

    /// Decodes one chained pointer: the fixup and the distance (in strides) to the next link.
    /// Rebase targets are returned as addresses (`base` added where the format stores offsets).
    /// `maxValidPointer`: the segment's `max_valid_pointer`, above which a 32-bit rebase target
    /// is a value squeezed into the chain, not a pointer.
    static func decodeChainedPointer(
        _ raw: UInt64, format: ChainedPointerFormat, base: UInt64, maxValidPointer: UInt64 = 0
    ) -> (fixup: ChainedFixup, next: UInt64) {
        switch format {
        case .pointer32:
            let next = (raw >> 26) & 0x1F
            if (raw >> 31) & 1 == 1 { return (.bind(ordinal: Int(raw & 0xF_FFFF)), next) }
            let target = raw & 0x3FF_FFFF
            return (target > maxValidPointer ? .nonPointer : .rebase(target: target), next)
        case .pointer64, .pointer64Offset:
            let next = (raw >> 51) & 0xFFF
            if raw >> 63 == 1 { return (.bind(ordinal: Int(raw & 0xFF_FFFF)), next) }
            let target = raw & 0xF_FFFF_FFFF
            return (.rebase(target: format == .pointer64Offset ? base &+ target : target), next)
        case .arm64e, .arm64eUserland, .arm64eUserland24:
            let next = (raw >> 51) & 0x7FF
            let isAuth = raw >> 63 == 1, isBind = (raw >> 62) & 1 == 1
            if isBind {
                let ordinal = format == .arm64eUserland24 ? raw & 0xFF_FFFF : raw & 0xFFFF
                return (.bind(ordinal: Int(ordinal)), next)
            }
            if isAuth { return (.rebase(target: base &+ (raw & 0xFFFF_FFFF)), next) }
            let target = raw & 0x7FF_FFFF_FFFF
            return (.rebase(target: format == .arm64e ? target : base &+ target), next)
        }
    }

    /// Walks every chain of every page. A chain that leaves its page (or runs into the page's
    /// next chain), a page start outside the segment, an unknown format or import ordinal are
    /// errors; each link moves forward and stays inside its page, so a chain cannot loop and the
    /// walk is bounded by the segment's size.
    private func chainedFixupSlots(_ data: ImageBytes, into slots: inout [UInt64: SlotTarget])
        throws(InputError)
    {
        func fail(_ message: String) -> InputError { corrupt("chained fixups", message) }
        let imports = try chainedImports(data)
        guard let startsOffset = data.uint32(at: 4, .little) else { throw fail("header is truncated") }
        let starts = Int(startsOffset)
        guard let segmentCount = data.uint32(at: starts, .little), Int(segmentCount) <= segments.count,
            Int(segmentCount) <= (data.count - starts - 4) / 4
        else { throw fail("segment table is truncated or names more segments than the image has") }
        let base = baseAddress
        for index in 0..<Int(segmentCount) {
            guard let infoOffset = data.uint32(at: starts + 4 + 4 * index, .little).map(Int.init) else {
                throw fail("segment \(index)'s starts offset is truncated")
            }
            guard infoOffset != 0 else { continue }
            let info = starts + infoOffset
            guard let pageSize = data.uint16(at: info + 4, .little), let rawFormat = data.uint16(at: info + 6, .little),
                let maxValidPointer = data.uint32(at: info + 16, .little),
                let pageCount = data.uint16(at: info + 20, .little)
            else { throw fail("segment \(index)'s starts are truncated") }
            guard let format = ChainedPointerFormat(rawValue: rawFormat),
                (format == .pointer32) == !layout.is64Bit
            else {
                throw fail(
                    "segment \(index) uses pointer format \(rawFormat), not a \(layout.is64Bit ? 64 : 32)-bit user-space format"
                )
            }
            let segment = segments[index]
            guard pageSize >= 8, pageSize.nonzeroBitCount == 1,
                // The last page may run past the segment's end (by less than a page); said
                // without adding to the segment's size, which the file sets up to 2^64 - 1.
                UInt64(max(Int(pageCount), 1) - 1) * UInt64(pageSize) <= segment.memorySize
            else {
                throw fail(
                    "segment \(segment.name): \(pageCount) pages of \(pageSize) bytes do not fit its \(segment.memorySize) bytes"
                )
            }
            for page in 0..<Int(pageCount) {
                let pageStart = UInt64(page) * UInt64(pageSize)
                let starts = try chainStarts(data, info: info, page: page, pageCount: Int(pageCount), fail)
                for (number, start) in starts.enumerated() {
                    // A chain ends before the next one starts: no slot is visited twice.
                    let end = pageStart + UInt64(number + 1 < starts.count ? starts[number + 1] : pageSize)
                    var location = pageStart + UInt64(start)
                    while true {
                        guard location + format.width <= end,
                            location + format.width <= segment.fileSize,
                            let raw = format == .pointer32
                                ? image.uint32(at: Int(segment.fileOffset + location), .little).map(UInt64.init)
                                : image.uint64(at: Int(segment.fileOffset + location), .little)
                        else {
                            throw fail(
                                "a chain on page \(page) of segment \(segment.name) runs past its page (offset \(location))"
                            )
                        }
                        let (fixup, next) = Self.decodeChainedPointer(
                            raw, format: format, base: base, maxValidPointer: UInt64(maxValidPointer))
                        switch fixup {
                        case .bind(let ordinal):
                            guard ordinal < imports.count else {
                                throw fail("bind to import \(ordinal), of \(imports.count)")
                            }
                            slots[segment.address &+ location] = .symbol(sourceName(ofSymbol: imports[ordinal]))
                        case .rebase(let target):
                            slots[segment.address &+ location] = .address(target)
                        case .nonPointer: break
                        }
                        if next == 0 { break }
                        location += next * format.stride
                    }
                }
            }
        }
    }

    /// Where a page's chains start (offsets in the page): one `page_start`, none
    /// (`DYLD_CHAINED_PTR_START_NONE`), or — 32-bit formats, whose links reach less far — a run of
    /// `chain_starts` after the page table (`DYLD_CHAINED_PTR_START_MULTI`), the last one flagged
    /// `DYLD_CHAINED_PTR_START_LAST`. Starts must rise, so a run cannot loop.
    private func chainStarts(
        _ data: ImageBytes, info: Int, page: Int, pageCount: Int, _ fail: (String) -> InputError
    ) throws(InputError) -> [UInt16] {
        guard let start = data.uint16(at: info + 22 + 2 * page, .little) else {
            throw fail("page \(page)'s chain start is truncated")
        }
        if start == 0xFFFF { return [] }
        guard start & 0x8000 != 0 else { return [start] }
        guard !layout.is64Bit else { throw fail("page \(page) has several chain starts (32-bit formats only)") }
        var starts: [UInt16] = []
        var index = Int(start & 0x7FFF)
        guard index >= pageCount else { throw fail("page \(page)'s chain starts overlap the page table") }
        while true {
            guard let entry = data.uint16(at: info + 22 + 2 * index, .little) else {
                throw fail("page \(page)'s chain starts run past the fixups")
            }
            let offset = entry & 0x7FFF
            guard starts.last.map({ offset > $0 }) ?? true else {
                throw fail("page \(page)'s chain starts do not rise")
            }
            starts.append(offset)
            if entry & 0x8000 != 0 { return starts }
            index += 1
        }
    }

    /// The symbols the chained fixups import, as stored (`_` prefix kept), each once.
    func chainedImportSymbols() throws(InputError) -> [String] {
        guard holdsCode, kind.isLinked, let chainedFixups else { return [] }
        var seen = Set<String>()
        return try chainedImports(chainedFixups.bytes).filter { seen.insert($0).inserted }
    }

    /// The imported symbols' names, in ordinal order (`DYLD_CHAINED_IMPORT`, `_ADDEND`, `_ADDEND64`).
    private func chainedImports(_ data: ImageBytes) throws(InputError) -> [String] {
        var imports: [String] = []
        try forEachChainedImport(data) { imports.append($0.string()) }
        return imports
    }

    /// Hands each import's name (as stored, `_` prefix kept), in ordinal order, to `body`.
    func forEachChainedImport(_ data: ImageBytes, _ body: (borrowing ByteView) -> Void) throws(InputError) {
        func fail(_ message: String) -> InputError { corrupt("chained fixups", message) }
        guard data.count >= 28, let offset = data.uint32(at: 8, .little).map(Int.init),
            let symbols = data.uint32(at: 12, .little).map(Int.init),
            let count = data.uint32(at: 16, .little).map(Int.init), let format = data.uint32(at: 20, .little)
        else { throw fail("header is truncated") }
        let entrySize: Int
        switch format {
        case 1: entrySize = 4
        case 2: entrySize = 8
        case 3: entrySize = 16
        default: throw fail("unknown imports format \(format)")
        }
        guard count <= (data.count - min(offset, data.count)) / entrySize, let names = data.slice(from: symbols) else {
            throw fail("\(count) imports do not fit in the \(data.count)-byte fixups")
        }
        try names.withByteView { (names) throws(InputError) in
            for index in 0..<count {
                let at = offset + index * entrySize
                let nameOffset =
                    format == 3
                    ? data.uint64(at: at, .little).map { Int($0 >> 32) }
                    : data.uint32(at: at, .little).map { Int($0 >> 9) }
                guard let nameOffset, nameOffset < names.count, let end = names.firstIndex(of: 0, from: nameOffset)
                else {
                    throw fail("import \(index)'s name is outside the symbol strings")
                }
                names.withSlice(nameOffset..<end, body)
            }
        }
    }
}
