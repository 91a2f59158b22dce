import BinaryInspect
import ShipcheckTestSupport

/// A little-endian ELF shared library that states exactly the `ELFLoadFacts` it is written
/// from: the class and machine in the header; one `PT_LOAD` per load segment with its alignment
/// and flags; a `PT_DYNAMIC` whose `DT_NEEDED` names sit in the string table `DT_STRTAB` points
/// at, inside the first `PT_LOAD` (the way the loader, not the section headers, finds them);
/// the text-relocation flag; section headers as sound or as broken as the facts say, naming the
/// `.debug_*` sections (of their sizes) and the NDK's `.note.android.ident`.
enum ELFLibraryWriter {
    private static let executableFlag: UInt32 = 1, writableFlag: UInt32 = 2, readableFlag: UInt32 = 4
    private static let textRelocationsTag: UInt64 = 22, flagsTag: UInt64 = 30, textRelocationsFlag: UInt64 = 0x4

    static func bytes(_ facts: ELFLoadFacts) -> [UInt8] {
        let is64Bit = facts.is64Bit
        var elf = ELFFileBuilder(
            is64Bit: is64Bit, machine: facts.machine,
            fileType: facts.isSharedObject ? ELFFileBuilder.sharedObject : ELFFileBuilder.executableFile,
            programHeaderCount: facts.loadSegments.count + 1)
        // The loaded part: headers, the dynamic string table, the dynamic section.
        var textRelocations: [(tag: UInt64, value: UInt64)] = []
        if facts.hasTextRelocations {
            // Both encodings the loader honours, one per class, so the examples exercise each.
            textRelocations.append(is64Bit ? (flagsTag, textRelocationsFlag) : (textRelocationsTag, 0))
        }
        let dynamicIndex = elf.addDynamic(needed: facts.needed, extra: textRelocations)
        let dynamic = elf.section(dynamicIndex)
        let loadedSize = UInt64(elf.end)
        for (index, segment) in facts.loadSegments.enumerated() {
            // The first maps the loaded part; the others are empty, each at its own address.
            let flags =
                readableFlag | (segment.isWritable ? writableFlag : 0) | (segment.isExecutable ? executableFlag : 0)
            elf.programHeaders[index] = ELFFileBuilder.ProgramHeader(
                type: ELFFileBuilder.loadSegment, flags: flags, offset: 0, address: UInt64(index) << 20,
                size: index == 0 ? loadedSize : 0, alignment: segment.alignment)
        }
        elf.programHeaders[facts.loadSegments.count] = ELFFileBuilder.ProgramHeader(
            type: ELFFileBuilder.dynamicSegment, flags: readableFlag | writableFlag, offset: UInt64(dynamic.offset),
            address: dynamic.address, size: UInt64(dynamic.contents.count), alignment: 8)
        if let level = facts.androidAPILevel {
            elf.add(
                ".note.android.ident", type: ELFFileBuilder.note, contents: identNote(apiLevel: level), alignment: 4)
        }
        for debug in facts.debugSections {
            elf.add(debug.name, type: ELFFileBuilder.progbits, contents: [UInt8](repeating: 0, count: Int(debug.size)))
        }
        return elf.bytes { table, fileSize in
            switch facts.sectionHeaderProblem {
            case nil: break
            case .missing?: (table.offset, table.count, table.namesIndex) = (0, 0, 0)
            case .entrySize(let found, _)?: table.entrySize = found
            case .namesIndex(let index)?: table.namesIndex = index
            case .outsideFile?: table.offset = UInt64(fileSize) + 0x1000
            }
        }
    }

    /// The note `crtbegin_so.o` carries: name `Android`, type 1, the API level, then the NDK's
    /// version and build number (64 bytes each).
    private static func identNote(apiLevel: Int) -> [UInt8] {
        var note = ByteWriter()
        note.u32(8)
        note.u32(4 + 64 + 64)
        note.u32(1)
        note.append(Array("Android".utf8) + [0])
        note.u32(UInt32(apiLevel))
        note.append(Array("r28".utf8) + [UInt8](repeating: 0, count: 61))
        note.append(Array("12479018".utf8) + [UInt8](repeating: 0, count: 56))
        return note.bytes
    }
}
