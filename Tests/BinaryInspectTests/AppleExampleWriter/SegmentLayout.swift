import ShipcheckTestSupport

/// A section to write: its name and size (its contents are zeros unless it carries metadata).
struct PlannedSection {
    var segment: String
    var name: String
    var size: UInt64
}

/// A segment to write: a declared one keeps its declared file size, another is as large as
/// its sections.
struct PlannedSegment {
    var name: String
    var declaredSize: UInt64?
    var sections: [PlannedSection] = []

    var fileSize: UInt64 { declaredSize ?? sections.reduce(0) { $0 + $1.size } }

    /// `LC_SEGMENT_64` (72 bytes, 80 per section) or `LC_SEGMENT` (56, 68 per section).
    func commandSize(word: Int) -> Int { (word == 8 ? 72 : 56) + sections.count * (word == 8 ? 80 : 68) }
}

/// A section where it landed: its address and file offset.
struct PlacedSection {
    var segment: String
    var name: String
    var size: UInt64
    var address: UInt64
    var offset: UInt64
}

struct PlacedSegment {
    var name: String
    var address: UInt64
    var fileOffset: UInt64
    var fileSize: UInt64
    var sections: [PlacedSection]

    /// The segment command with its section headers.
    func command(word: Int) -> [UInt8] {
        var command = ByteWriter()
        command.u32(word == 8 ? 0x19 : 0x1)
        command.u32(UInt32((word == 8 ? 72 : 56) + sections.count * (word == 8 ? 80 : 68)))
        command.fixedName(name)
        for value in [address, fileSize, fileOffset, fileSize] { command.word(value, is64Bit: word == 8) }
        for value: UInt32 in [7, 3, UInt32(sections.count), 0] { command.u32(value) }
        for section in sections {
            command.fixedName(section.name)
            command.fixedName(section.segment)
            command.word(section.address, is64Bit: word == 8)
            command.word(section.size, is64Bit: word == 8)
            // offset, align (2^3), reloff, nreloc, flags (S_REGULAR), reserved1, reserved2 (, reserved3)
            for value: UInt32 in [UInt32(section.offset), 3, 0, 0, 0, 0, 0] { command.u32(value) }
            if word == 8 { command.u32(0) }
        }
        return command.bytes
    }
}

enum SegmentLayout {
    /// Lays the segments out from `position` (16-byte aligned), each mapped at `base` plus its
    /// file offset, sections one after the other; `position` ends past the last one.
    static func place(_ segments: [PlannedSegment], from position: inout Int, base: UInt64) -> [PlacedSegment] {
        let placed = segments.map { segment in
            position = ByteWriter.rounded(position, to: 16)
            let start = UInt64(position)
            var offset = start
            let sections = segment.sections.map { section in
                defer { offset += section.size }
                return PlacedSection(
                    segment: section.segment, name: section.name, size: section.size, address: base + offset,
                    offset: offset)
            }
            position += Int(segment.fileSize)
            return PlacedSegment(
                name: segment.name, address: base + start, fileOffset: start, fileSize: segment.fileSize,
                sections: sections)
        }
        position = ByteWriter.rounded(position, to: 16)
        return placed
    }
}
