import BinaryReaderCore
import ScanEngine
import ShipcheckCore

/// Field reads and checks shared by the load-command cases of `MachOImage.init`. Every read is
/// checked; one that leaves its command says which command (`LC_SYMTAB (load command 3)`), the
/// offset inside it and the offset in the file.
struct LoadCommandReader {
    let image: ImageBytes
    let layout: MachOLayout
    let corrupt: (String) -> InputError
    /// The command being read (for messages).
    var index = 0

    init(image: ImageBytes, layout: MachOLayout, corrupt: @escaping (String) -> InputError) {
        self.image = image
        self.layout = layout
        self.corrupt = corrupt
    }

    /// How messages name a field's command: `LC_SYMTAB (load command 3)`; the header and the
    /// command table's entries (`load command 3`) are named as they are.
    private func structure(_ name: String) -> String {
        name.hasPrefix("the Mach-O header") || name.hasPrefix("load command") ? name : "\(name) (load command \(index))"
    }

    /// A little-endian 32-bit field of `bytes` (a command, the header).
    func uint32(_ bytes: ImageBytes, at offset: Int, _ name: String) throws(InputError) -> UInt32 {
        do { return try bytes.load(UInt32.self, at: offset, .little, structure(name)) } catch {
            throw corrupt(error.message)
        }
    }

    /// An address-sized field (8 or 4 bytes, as the layout says).
    func address(_ bytes: ImageBytes, at offset: Int, _ name: String) throws(InputError) -> UInt64 {
        do {
            return layout.is64Bit
                ? try bytes.load(UInt64.self, at: offset, .little, structure(name))
                : UInt64(try bytes.load(UInt32.self, at: offset, .little, structure(name)))
        } catch { throw corrupt(error.message) }
    }

    /// The bytes of `range` inside `bytes`.
    func slice(_ bytes: ImageBytes, _ range: Range<Int>, _ name: String) throws(InputError) -> ImageBytes {
        do { return try bytes.slice(range, structure(name)) } catch { throw corrupt(error.message) }
    }

    /// `LC_UUID (load command 5 at file offset 0x4a0)`: a command, where its messages start.
    func named(_ name: String, _ body: ImageBytes) -> String {
        "\(name) (load command \(index) at file offset 0x\(String(body.fileOffset, radix: 16)))"
    }

    func need(_ body: ImageBytes, _ size: Int, _ name: String) throws(InputError) {
        guard body.count >= size else {
            throw corrupt("\(named(name, body)) is \(body.count) bytes, shorter than its \(size)-byte layout")
        }
    }

    /// A table or blob at an image offset: `count` elements of `elementSize` bytes, inside the image.
    func blob(_ offset: Int, _ count: Int, elementSize: Int = 1, _ what: String) throws(InputError) -> MachOBlob {
        let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, offset <= image.count, size <= image.count - offset,
            let bytes = image.slice(offset..<offset + size)
        else {
            throw corrupt(
                "\(what) (offset \(offset), \(count) × \(elementSize) bytes) runs past the end of the \(image.count)-byte image"
            )
        }
        return MachOBlob(offset: offset, bytes: bytes)
    }

    /// A `linkedit_data_command`'s blob.
    func linkedit(_ body: ImageBytes, _ what: String) throws(InputError) -> MachOBlob {
        try need(body, 16, what)
        let name = "\(what)'s command"
        return try blob(Int(try uint32(body, at: 8, name)), Int(try uint32(body, at: 12, name)), what)
    }

    /// An `LC_SEGMENT_64` or `LC_SEGMENT` and its sections: the same fields, addresses and sizes
    /// 8 or 4 bytes wide.
    func segment(_ body: ImageBytes) throws(InputError) -> (MachOSegment, [MachOSection]) {
        let headerSize = layout.segmentHeaderSize, sectionSize = layout.sectionSize, word = layout.wordSize
        let command = layout.segmentCommandName
        try need(body, headerSize, command)
        let name = try fixedName(body, at: 8, command)
        let segment = MachOSegment(
            name: name, address: try address(body, at: 24, command),
            memorySize: try address(body, at: 24 + word, command),
            fileOffset: try address(body, at: 24 + 2 * word, command),
            fileSize: try address(body, at: 24 + 3 * word, command))
        let (end, overflow) = segment.fileOffset.addingReportingOverflow(segment.fileSize)
        guard !overflow, end <= UInt64(image.count) else {
            throw corrupt(
                "segment \(name) (offset \(segment.fileOffset), \(segment.fileSize) bytes) runs past the end of the \(image.count)-byte image"
            )
        }
        let count = Int(try uint32(body, at: 32 + 4 * word, command))
        guard count <= (body.count - headerSize) / sectionSize else {
            throw corrupt("segment \(name) lists \(count) sections in a \(body.count)-byte command")
        }
        var sections: [MachOSection] = []
        sections.reserveCapacity(count)
        for number in 0..<count {
            // addr, size, then eight 32-bit fields: offset, align, reloff, nreloc, flags, reserved1…
            let at = headerSize + sectionSize * number, fields = at + 32 + 2 * word
            let section = MachOSection(
                segment: try fixedName(body, at: at + 16, command), name: try fixedName(body, at: at, command),
                address: try address(body, at: at + 32, command), size: try address(body, at: at + 32 + word, command),
                offset: UInt64(try uint32(body, at: fields, command)),
                flags: try uint32(body, at: fields + 16, command), reserved1: try uint32(body, at: fields + 20, command)
            )
            if section.hasFileData {
                let (end, overflow) = section.offset.addingReportingOverflow(section.size)
                guard !overflow, end <= UInt64(image.count) else {
                    throw corrupt(
                        "section \(section.fullName) (offset \(section.offset), \(section.size) bytes) runs past the end of the \(image.count)-byte image"
                    )
                }
            }
            sections.append(section)
        }
        return (segment, sections)
    }

    /// A NUL-terminated string at `offset` inside a load command.
    func string(_ body: ImageBytes, at offset: Int, _ name: String) throws(InputError) -> String {
        guard offset >= 8, let text = body.cString(at: offset) else {
            throw corrupt("\(named(name, body)) has a name outside the command")
        }
        return text
    }

    /// `count` NUL-terminated strings one after the other, from `offset` inside a load command.
    func strings(_ body: ImageBytes, from offset: Int, count: Int, _ name: String) throws(InputError) -> [String] {
        guard count <= body.count - offset else {
            throw corrupt("\(named(name, body)) claims \(count) strings in \(body.count) bytes")
        }
        var strings: [String] = []
        var position = offset
        for _ in 0..<count {
            let text = try string(body, at: position, name)
            strings.append(text)
            position += text.utf8.count + 1
        }
        return strings
    }

    /// A 16-byte, NUL-padded name (segments and sections).
    private func fixedName(_ body: ImageBytes, at offset: Int, _ name: String) throws(InputError) -> String {
        do { return try body.paddedName(at: offset, width: 16, structure(name)) } catch {
            throw corrupt(error.message)
        }
    }
}
