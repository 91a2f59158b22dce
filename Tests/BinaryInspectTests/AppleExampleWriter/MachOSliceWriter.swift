import BinaryInspect
import ShipcheckTestSupport

/// Why a model cannot be written as an artifact (a fact no real file can carry the way the
/// model says it): the example is then a failure, never skipped.
struct ExampleWriteError: Error, CustomStringConvertible {
    var description: String
}

/// Writes one `ImageSlice` as a thin little-endian Mach-O image: `mach_header(_64)`, a segment
/// command per segment (the declared ones with their sizes and sections, and `__DATA_CONST`
/// carrying the Objective-C and Swift metadata), `LC_SYMTAB` with the imports as undefined
/// externals, `LC_UUID`, `LC_BUILD_VERSION` or `LC_VERSION_MIN_*`, the dylib commands (an
/// object's `LC_LINKER_OPTION`s) in order and `LC_CODE_SIGNATURE` (a SuperBlob carrying the
/// entitlements) — the layout ld64 gives them, minus everything no reader here looks at.
struct MachOSliceWriter {
    let slice: ImageSlice
    /// The entitlements of the file's code signature (nil: none).
    let entitlements: [String: String]?
    /// `MH_DSYM` with only `LC_UUID`: a dSYM's DWARF file.
    var isDebugSymbols = false
    /// Runtime name of a class of the class list → runtime name of its superclass, written as a
    /// local `class_t` the class's superclass pointer points at (not itself in the class list).
    var superclasses: [String: String] = [:]

    /// `cputype`, `cpusubtype` by `lipo`'s names (`<mach/machine.h>`).
    static let cpus: [String: (type: UInt32, subtype: UInt32)] = [
        "arm64": (0x0100_000C, 0), "arm64e": (0x0100_000C, 2), "x86_64": (0x0100_0007, 3), "x86_64h": (0x0100_0007, 8),
        "arm64_32": (0x0200_000C, 1), "i386": (7, 3), "armv7": (12, 9), "armv7s": (12, 11), "armv7k": (12, 12)
    ]

    /// `PLATFORM_*` of `<mach-o/loader.h>`, by ld64's names.
    static let platforms: [String: UInt32] = [
        "macos": 1, "ios": 2, "tvos": 3, "watchos": 4, "bridgeos": 5, "mac-catalyst": 6, "ios-simulator": 7,
        "tvos-simulator": 8, "watchos-simulator": 9, "driverkit": 10, "xros": 11, "xros-simulator": 12
    ]

    static let versionMinimumCommands: [String: UInt32] = [
        "LC_VERSION_MIN_MACOSX": 0x24, "LC_VERSION_MIN_IPHONEOS": 0x25, "LC_VERSION_MIN_TVOS": 0x2F,
        "LC_VERSION_MIN_WATCHOS": 0x30
    ]

    static let dylibCommands: [String: UInt32] = [
        "LC_LOAD_DYLIB": 0xC, "LC_LOAD_WEAK_DYLIB": 0x8000_0018, "LC_REEXPORT_DYLIB": 0x8000_001F,
        "LC_LAZY_LOAD_DYLIB": 0x20, "LC_LOAD_UPWARD_DYLIB": 0x8000_0023
    ]

    static let fileTypes: [ImageKind: UInt32] = [.object: 1, .executable: 2, .sharedLibrary: 6, .bundle: 8]

    /// The CPU of an architecture name; an unknown one cannot be written.
    static func cpu(_ architecture: String) throws(ExampleWriteError) -> (type: UInt32, subtype: UInt32) {
        guard let cpu = cpus[architecture] else { throw ExampleWriteError(description: "no CPU named \(architecture)") }
        return cpu
    }

    func bytes() throws(ExampleWriteError) -> [UInt8] { try image().bytes }

    /// The image's bytes and where its segments and sections landed.
    func image() throws(ExampleWriteError) -> (bytes: [UInt8], segments: [PlacedSegment]) {
        guard slice.isRead else {
            throw ExampleWriteError(
                description:
                    "\(slice.displayName): an unread slice is one of a CPU the reader refuses (an input error); write the slice itself"
            )
        }
        let cpu = try Self.cpu(slice.architecture)
        let word = cpu.type & 0x0100_0000 != 0 ? 8 : 4
        let linked = slice.fileType.isLinked
        guard let fileType = isDebugSymbols ? 0xA : Self.fileTypes[slice.fileType] else {
            throw ExampleWriteError(description: "\(slice.displayName): no Mach-O file type for \(slice.fileType)")
        }
        if !linked, !slice.selectorReferences.isEmpty {
            throw ExampleWriteError(description: "\(slice.displayName): an object's selector references are not read")
        }
        if !linked, !superclasses.isEmpty {
            throw ExampleWriteError(description: "\(slice.displayName): an object's superclasses are relocations")
        }
        if entitlements != nil, !slice.hasCodeSignature {
            throw ExampleWriteError(description: "\(slice.displayName): entitlements need a code signature")
        }
        let metadata = MachOMetadataWriter(slice: slice, word: word, linked: linked, superclasses: superclasses)
        let segments = isDebugSymbols ? [] : try segmentPlan(carrier: metadata.carrierSections)
        // Commands whose contents do not depend on where anything lies, then the sizes of all:
        // they fix where the segments' contents start.
        let fixed =
            (try slice.uuid.map { uuid throws(ExampleWriteError) in [try Self.uuidCommand(uuid)] } ?? [])
            + (isDebugSymbols ? [] : try versionCommands() + libraryCommands())
        let hasSymbols = !isDebugSymbols && metadata.hasSymbols
        let signed = !isDebugSymbols && slice.hasCodeSignature
        let commandsSize =
            segments.reduce(0) { $0 + $1.commandSize(word: word) } + fixed.reduce(0) { $0 + $1.count }
            + (hasSymbols ? 24 : 0) + (signed ? 16 : 0)
        let commandCount = segments.count + fixed.count + (hasSymbols ? 1 : 0) + (signed ? 1 : 0)
        var image = ByteWriter()
        image.u32(word == 8 ? 0xFEED_FACF : 0xFEED_FACE)
        for value in [cpu.type, cpu.subtype, fileType, UInt32(commandCount), UInt32(commandsSize), 0] {
            image.u32(value)
        }
        if word == 8 { image.u32(0) }
        let contentsStart = ByteWriter.rounded(image.count + commandsSize, to: 16)
        var position = contentsStart
        let placed = SegmentLayout.place(segments, from: &position, base: word == 8 ? 0x1_0000_0000 : 0x4000)
        var contents = ByteWriter()
        for segment in placed {
            contents.zeros(Int(segment.fileOffset) - contentsStart - contents.count)
            for section in segment.sections {
                let fill = metadata.contents(of: section, in: placed)
                contents.bytes += fill + [UInt8](repeating: 0, count: Int(section.size) - fill.count)
            }
            contents.zeros(Int(segment.fileSize) - segment.sections.reduce(0) { $0 + Int($1.size) })
        }
        contents.zeros(position - contentsStart - contents.count)
        var linkedit = ByteWriter()
        var commands = placed.map { $0.command(word: word) }
        if hasSymbols {
            let table = metadata.symbolTable(placed: placed)
            var command = ByteWriter()
            for value in [2, 24, position, table.count, position + table.entries.count, table.strings.count] {
                command.u32(UInt32(value))
            }
            commands.append(command.bytes)
            linkedit.bytes += table.entries + table.strings
        }
        commands += fixed
        if signed {
            linkedit.pad(to: 16)
            let signature = CodeSignatureWriter.superBlob(entitlements: entitlements)
            var command = ByteWriter()
            for value in [0x1D, 16, position + linkedit.count, signature.count] { command.u32(UInt32(value)) }
            commands.append(command.bytes)
            linkedit.bytes += signature
        }
        for command in commands { image.bytes += command }
        image.pad(to: 16)
        image.bytes += contents.bytes + linkedit.bytes
        return (image.bytes, placed)
    }

    /// The declared segments (with their declared sizes) holding the declared sections, a
    /// segment for sections whose segment is not declared, and the metadata carrier.
    private func segmentPlan(carrier: [PlannedSection]) throws(ExampleWriteError) -> [PlannedSegment] {
        var segments = slice.segments.map { PlannedSegment(name: $0.name, declaredSize: $0.fileSize) }
        for section in slice.sections {
            let planned = PlannedSection(segment: section.segment, name: section.name, size: section.size)
            if let index = segments.firstIndex(where: { $0.name == section.segment }) {
                segments[index].sections.append(planned)
            } else {
                segments.append(PlannedSegment(name: section.segment, sections: [planned]))
            }
        }
        if !carrier.isEmpty {
            guard !segments.contains(where: { $0.name == MachOMetadataWriter.segment }) else {
                throw ExampleWriteError(
                    description: "\(MachOMetadataWriter.segment) carries the metadata: declare another")
            }
            segments.append(PlannedSegment(name: MachOMetadataWriter.segment, sections: carrier))
        }
        for segment in segments where segment.fileSize < segment.sections.reduce(0, { $0 + $1.size }) {
            throw ExampleWriteError(description: "segment \(segment.name) is smaller than its sections")
        }
        return segments
    }

    private static func uuidCommand(_ uuid: String) throws(ExampleWriteError) -> [UInt8] {
        let hex = Array(uuid.filter { $0 != "-" })
        guard hex.count == 32 else { throw ExampleWriteError(description: "uuid \(uuid) is not 16 bytes") }
        var command = ByteWriter()
        command.u32(0x1B)
        command.u32(24)
        for index in stride(from: 0, to: 32, by: 2) {
            guard let byte = UInt8(String(hex[index...index + 1]), radix: 16) else {
                throw ExampleWriteError(description: "uuid \(uuid) is not hex")
            }
            command.bytes.append(byte)
        }
        return command.bytes
    }

    /// `xxxx.yy.zz` in nibbles.
    private static func packed(_ version: OSVersion) -> UInt32 {
        let parts = version.components + [0, 0, 0]
        return UInt32(parts[0]) << 16 | UInt32(parts[1]) << 8 | UInt32(parts[2])
    }

    private func versionCommands() throws(ExampleWriteError) -> [[UInt8]] {
        guard let platform = slice.platform, let minimum = slice.minimumOS, let sdk = slice.sdk else { return [] }
        var command = ByteWriter()
        if slice.versionCommand == "LC_BUILD_VERSION" {
            guard let number = Self.platforms[platform.name] else {
                throw ExampleWriteError(description: "no platform number for \(platform.name)")
            }
            for value in [0x32, 24, number, Self.packed(minimum), Self.packed(sdk), 0] { command.u32(value) }
        } else {
            guard let name = slice.versionCommand, let number = Self.versionMinimumCommands[name] else {
                throw ExampleWriteError(description: "no load command \(slice.versionCommand ?? "(none)")")
            }
            for value in [number, 16, Self.packed(minimum), Self.packed(sdk)] { command.u32(value) }
        }
        return [command.bytes]
    }

    /// `dylib_command`: the name at offset 24, the command padded to 8 bytes; `LC_LINKER_OPTION`
    /// (objects only: the linker consumes them): the option's words as C strings after their count.
    private func libraryCommands() throws(ExampleWriteError) -> [[UInt8]] {
        try slice.libraries.map { library throws(ExampleWriteError) in
            if library.record == "LC_LINKER_OPTION" {
                guard !slice.fileType.isLinked else {
                    throw ExampleWriteError(description: "\(slice.displayName): a linked image keeps no linker option")
                }
                let words = library.name.split(separator: " ")
                let strings: [UInt8] = words.flatMap { Array($0.utf8) + [0] }
                var command = ByteWriter()
                for value in [0x2D, ByteWriter.rounded(12 + strings.count, to: 8), words.count] {
                    command.u32(UInt32(value))
                }
                command.bytes += strings
                command.pad(to: 8)
                return command.bytes
            }
            guard let number = Self.dylibCommands[library.record] else {
                throw ExampleWriteError(description: "no dylib command \(library.record)")
            }
            let name = Array(library.name.utf8) + [0]
            var command = ByteWriter()
            for value in [number, UInt32(ByteWriter.rounded(24 + name.count, to: 8)), 24, 2, 0x1_0000, 0x1_0000] {
                command.u32(value)
            }
            command.bytes += name
            command.pad(to: 8)
            return command.bytes
        }
    }
}
