import BinaryInspect
import ShipcheckCore
import ShipcheckTestSupport

/// A binary rule example written as the x86_64 shared library a Linux build makes: the
/// example's symbols in `.symtab` (in `.text`, of their sizes), its strings in `.rodata`, its
/// Swift metadata in the `swift5_*` sections (`SwiftMetadataWriter`), `DT_NEEDED` in `.dynamic`,
/// autolink entries, the GNU build-id note, `.comment` and `.debug_*` sections; and the
/// example's places moved to where the file holds each line's record.
enum BinaryExampleELF {
    /// Keywords of facts ELF cannot state (Mach-O load commands and the Objective-C class list;
    /// `fact`, a build fact of no format): their examples are the Mach-O writer's.
    static let machOKeywords: Set<String> = ["dylib", "weak-dylib", "linker-option", "objc-class", "fact"]

    struct NotWritable: Error, CustomStringConvertible {
        var description: String
    }

    /// Whether any line of the example states a fact only Mach-O has (an example whose markers
    /// do not read is judged through ELF, where the verifier reports them).
    static func needsMachO(_ example: RuleExample) -> Bool {
        needsMachO((try? example.unmarked.text) ?? example.text)
    }

    /// Whether any line of the (unmarked) text states a fact only Mach-O has.
    static func needsMachO(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            line.split(separator: " ").first.map { machOKeywords.contains(String($0)) } ?? false
        }
    }

    /// The example (unmarked text) as ELF bytes, the contents its text states, and its places in
    /// the file.
    static func write(_ text: String) throws -> (bytes: [UInt8], contents: BinaryContents, places: ExamplePlaces) {
        let (contents, places) = try BinaryContents.example(text)
        guard !needsMachO(text) else { throw NotWritable(description: "a line only Mach-O states in:\n\(text)") }
        // Comments, debug sections and the build-id are kept by the model only as the build
        // facts they make: written from the lines that state them.
        var comments: [String] = [], debugSections: [(name: String, size: Int)] = [], buildID: [UInt8]?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            switch parts[0] {
            case "comment": comments.append(parts[1])
            case "section":
                let fields = parts[1].split(separator: " ")
                debugSections.append((String(fields[0]), fields.count > 1 ? Int(fields[1])! : 0))
            case "build-id": buildID = try bytes(hex: parts[1])
            default: break
            }
        }

        var elf = ELFFileBuilder(
            is64Bit: true, machine: ELFFileBuilder.x86_64, fileType: ELFFileBuilder.sharedObject,
            programHeaderCount: 2)
        var written: SwiftMetadataWriter.Places = [:]

        // Code: room for each symbol, of its size, each at its own address.
        var code: [UInt8] = []
        var symbolStarts: [Int] = []
        for symbol in contents.symbols {
            symbolStarts.append(code.count)
            code += [UInt8](repeating: 0xCC, count: (max(Int(symbol.size), 1) + 15) / 16 * 16)
        }
        let textIndex = elf.add(
            ".text", type: ELFFileBuilder.progbits, flags: ELFFileBuilder.allocated | ELFFileBuilder.executable,
            contents: code, alignment: 16)
        let text = elf.section(textIndex)
        for (symbol, start) in zip(contents.symbols, symbolStarts) {
            written[symbol.offset] = (text.name, UInt64(text.offset + start))
        }

        var strings: [UInt8] = [0]
        var stringStarts: [(line: UInt64, start: Int)] = []
        for string in contents.strings {
            stringStarts.append((string.offset, strings.count))
            strings += Array(string.text.utf8) + [0]
        }
        let rodataIndex = elf.add(
            ".rodata", type: ELFFileBuilder.progbits, flags: ELFFileBuilder.allocated, contents: strings)
        let rodata = elf.section(rodataIndex).offset
        for (line, start) in stringStarts { written[line] = (".rodata", UInt64(rodata + start)) }

        written.merge(SwiftMetadataWriter(contents.metadata).add(to: &elf)) { _, new in new }

        let autolink = contents.libraries.filter { $0.record == ".swift1_autolink_entries" }.map(\.name)
        if !autolink.isEmpty {
            elf.add(
                ".swift1_autolink_entries", type: ELFFileBuilder.progbits, flags: ELFFileBuilder.allocated,
                contents: autolink.flatMap { Array($0.utf8) + [0] })
        }
        if let buildID {
            var note = ByteWriter()
            note.u32(4)
            note.u32(UInt32(buildID.count))
            note.u32(3)  // NT_GNU_BUILD_ID
            note.append(Array("GNU".utf8) + [0] + buildID)
            note.pad(to: 4)
            elf.add(
                ".note.gnu.build-id", type: ELFFileBuilder.note, flags: ELFFileBuilder.allocated, contents: note.bytes,
                alignment: 4)
        }
        let dynamicIndex = elf.addDynamic(needed: contents.libraries.filter { $0.record == "DT_NEEDED" }.map(\.name))
        let dynamic = elf.section(dynamicIndex)
        // One segment maps every allocated section (each at the address equal to its offset);
        // flags: read, write, execute (7) and read, write (6).
        elf.programHeaders = [
            ELFFileBuilder.ProgramHeader(
                type: ELFFileBuilder.loadSegment, flags: 7, offset: 0, address: 0, size: UInt64(elf.end),
                alignment: 0x1000),
            ELFFileBuilder.ProgramHeader(
                type: ELFFileBuilder.dynamicSegment, flags: 6, offset: UInt64(dynamic.offset),
                address: dynamic.address, size: UInt64(dynamic.contents.count), alignment: 8)
        ]

        if !comments.isEmpty {
            elf.add(
                ".comment", type: ELFFileBuilder.progbits, contents: [0] + comments.flatMap { Array($0.utf8) + [0] })
        }
        for (name, size) in debugSections {
            elf.add(name, type: ELFFileBuilder.progbits, contents: [UInt8](repeating: 0, count: size))
        }
        if !contents.symbols.isEmpty {
            elf.addSymbolTable(
                zip(contents.symbols, symbolStarts).map { symbol, start in
                    ELFFileBuilder.Symbol(
                        name: symbol.mangled, value: text.address + UInt64(start), size: symbol.size, type: 2,
                        sectionIndex: textIndex)
                })
        }

        var filePlaces = places
        for index in filePlaces.places.indices {
            let place = filePlaces.places[index]
            guard let line = place.offset, let (section, offset) = written[line] else { continue }
            filePlaces.places[index].section = section
            filePlaces.places[index].offset = offset
        }
        return (elf.bytes(), contents, filePlaces)
    }

    private static func bytes(hex: String) throws -> [UInt8] {
        let digits = Array(hex)
        guard digits.count % 2 == 0 else { throw NotWritable(description: "build-id \(hex): an odd number of digits") }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0...$0 + 1]), radix: 16)! }
    }
}
