import Foundation
import ShipcheckTestSupport

/// Deterministic hostile inputs built from the sample binaries: truncations, bit flips,
/// archives with a damaged member. Generated in code, never committed.
enum HostileInputFixtures {
    /// The intact sample executable (`-Onone`: previews, mocks and fixture strings all survive).
    static var sampleExecutable: String { BinaryCommandTests.samples + "/onone/App" }
    static var sampleObject: String { BinaryCommandTests.samples + "/onone/AppLib.o" }
    static var sampleArchive: String { BinaryCommandTests.samples + "/onone/libAppLib.a" }

    static func bytes(_ path: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: path) ?? Data())
    }

    /// Every offset where a section starts or ends, and where the section-header table starts,
    /// strictly inside the file (ELF64 little-endian, as the samples are).
    static func sectionBoundaries(of elf: [UInt8]) -> [Int] {
        let tableOffset = Int(readLE(elf, at: 0x28, size: 8))
        let entrySize = Int(readLE(elf, at: 0x3A, size: 2))
        let count = Int(readLE(elf, at: 0x3C, size: 2))
        var boundaries: Set<Int> = [tableOffset]
        for index in 0..<count {
            let entry = tableOffset + index * entrySize
            let type = readLE(elf, at: entry + 0x04, size: 4)
            let offset = Int(readLE(elf, at: entry + 0x18, size: 8))
            let size = Int(readLE(elf, at: entry + 0x20, size: 8))
            boundaries.insert(offset)
            // SHT_NOBITS (8) occupies no bytes in the file.
            if type != 8 { boundaries.insert(offset + size) }
        }
        return boundaries.filter { $0 > 0 && $0 < elf.count }.sorted()
    }

    /// A section's contents in the file, by name (ELF64 little-endian).
    static func section(named name: String, of elf: [UInt8]) -> Range<Int>? {
        let tableOffset = Int(readLE(elf, at: 0x28, size: 8))
        let entrySize = Int(readLE(elf, at: 0x3A, size: 2))
        let names = Int(readLE(elf, at: tableOffset + Int(readLE(elf, at: 0x3E, size: 2)) * entrySize + 0x18, size: 8))
        for index in 0..<Int(readLE(elf, at: 0x3C, size: 2)) {
            let entry = tableOffset + index * entrySize
            let nameStart = names + Int(readLE(elf, at: entry, size: 4))
            guard String(decoding: elf[nameStart...].prefix { $0 != 0 }, as: UTF8.self) == name else { continue }
            let offset = Int(readLE(elf, at: entry + 0x18, size: 8))
            return offset..<offset + Int(readLE(elf, at: entry + 0x20, size: 8))
        }
        return nil
    }

    static func readLE(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }

    /// `ar` members: name (as stored, `/` terminated for GNU short names) and contents.
    static func archiveMembers(_ archive: [UInt8]) -> [(header: [UInt8], body: [UInt8])] {
        var members: [(header: [UInt8], body: [UInt8])] = []
        var position = 8
        while position + 60 <= archive.count {
            let header = Array(archive[position..<position + 60])
            let size = Int(String(decoding: header[48..<58], as: UTF8.self).trimmingCharacters(in: .whitespaces)) ?? 0
            members.append((header, Array(archive[position + 60..<min(archive.count, position + 60 + size)])))
            position += 60 + size + (size % 2)
        }
        return members
    }

    static func archive(_ members: [(header: [UInt8], body: [UInt8])]) -> [UInt8] {
        var output = Array("!<arch>\n".utf8)
        for member in members {
            let size = Array(String(member.body.count).padding(toLength: 10, withPad: " ", startingAt: 0).utf8)
            output += member.header[0..<48] + size + Array("`\n".utf8) + member.body
            if member.body.count % 2 == 1 { output.append(0x0A) }
        }
        return output
    }

    static func memberName(_ header: [UInt8]) -> String {
        String(decoding: header[0..<16], as: UTF8.self).trimmingCharacters(in: .whitespaces).trimmingCharacters(
            in: CharacterSet(charactersIn: "/"))
    }
}
