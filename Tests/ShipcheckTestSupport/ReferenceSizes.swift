import Foundation

/// Sizes as the reference tools print them, run live, for tests that hold shipcheck's figures to
/// them: `unzip -Z -l` for zip entries, `llvm-readelf` for ELF sections and segments, `llvm-size
/// -m` and `llvm-objdump --macho --private-headers` for Mach-O segments and sections. A tool that
/// is missing or fails throws (scripts/setup.sh installs them): a test must not pass without them.
package enum ReferenceSizes {
    package struct ToolFailed: Error, CustomStringConvertible {
        package var description: String
    }

    /// A zip entry's sizes as `unzip -Z -l` prints them.
    package struct ZipEntry: Hashable, Sendable {
        package var compressed: UInt64
        package var uncompressed: UInt64

        package init(compressed: UInt64, uncompressed: UInt64) {
            self.compressed = compressed
            self.uncompressed = uncompressed
        }
    }

    /// An ELF section as `llvm-readelf -S --wide` prints it.
    package struct ELFSection: Hashable, Sendable {
        package var name: String
        /// readelf's name of its type (`PROGBITS`, `NOBITS`, `ARM_EXIDX`).
        package var type: String
        package var size: UInt64
    }

    /// A Mach-O segment as `llvm-size -m` (vmsize, its sections' sizes) and `llvm-objdump
    /// --private-headers` (filesize) print it.
    package struct MachOSegment: Hashable, Sendable {
        package var name: String
        package var vmSize: UInt64
        package var fileSize: UInt64
        /// `(segment, section)` names and sizes, in load-command order.
        package var sections: [MachOSection]
    }

    package struct MachOSection: Hashable, Sendable {
        package var segment: String
        package var name: String
        package var size: UInt64
    }

    /// Every file entry of the zip (directories left out), by name.
    package static func zipEntries(_ path: String) throws -> [String: ZipEntry] {
        var entries: [String: ZipEntry] = [:]
        for line in try output("unzip", ["-Z", "-l", path]).split(separator: "\n") {
            // -rw-r--r--  2.0 unx     1528 b-      607 defN 26-Nov-27 12:00 AndroidManifest.xml
            let fields = line.split(separator: " ", maxSplits: 9, omittingEmptySubsequences: true)
            guard fields.count == 10, fields[0].count == 10, let uncompressed = UInt64(fields[3]),
                let compressed = UInt64(fields[5])
            else { continue }
            let name = String(fields[9])
            if fields[0].hasPrefix("d") || name.hasSuffix("/") { continue }
            entries[name] = ZipEntry(compressed: compressed, uncompressed: uncompressed)
        }
        return entries
    }

    /// Every regular file under `folder` (symlinks left out), by path inside it, its size on
    /// disk as Foundation reads it twice over: a file is its own compressed size.
    package static func fileSizes(under folder: String) throws -> [String: ZipEntry] {
        var sizes: [String: ZipEntry] = [:]
        let manager = FileManager.default
        for case let relative as String in manager.enumerator(atPath: folder)! {
            let attributes = try manager.attributesOfItem(atPath: folder + "/" + relative)
            guard attributes[.type] as? FileAttributeType == .typeRegular, let size = attributes[.size] as? NSNumber
            else { continue }
            sizes[relative] = ZipEntry(compressed: size.uint64Value, uncompressed: size.uint64Value)
        }
        return sizes
    }

    /// Entries as `path compressed uncompressed` lines in path order: a difference names the entry.
    package static func rows(_ entries: [String: ZipEntry]) -> [String] {
        entries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.compressed) \($0.value.uncompressed)" }
    }

    /// Every section after the null one, in header order (none when the file has no section
    /// headers).
    package static func elfSections(_ path: String) throws -> [ELFSection] {
        try output("llvm-readelf", ["-S", "--wide", path]).split(separator: "\n").compactMap { line in
            //   [ 9] .relro_padding    NOBITS          000012ac 0002ac 000d54 00  WA  0   0  1
            let row = line.drop(while: { $0 == " " })
            guard row.hasPrefix("["), let close = row.firstIndex(of: "]"),
                let index = Int(row[row.index(after: row.startIndex)..<close].trimmingCharacters(in: .whitespaces)),
                index > 0
            else { return nil }
            let fields = row[row.index(after: close)...].split(separator: " ")
            guard fields.count >= 5, let size = UInt64(fields[4], radix: 16) else { return nil }
            return ELFSection(name: String(fields[0]), type: String(fields[1]), size: size)
        }
    }

    /// Every `PT_LOAD`'s file and memory size, in program-header order.
    package static func elfLoadSegments(_ path: String) throws -> [(fileSize: UInt64, memorySize: UInt64)] {
        try output("llvm-readelf", ["-l", "--wide", path]).split(separator: "\n").compactMap { line in
            //   LOAD           0x000234 0x00001234 0x00001234 0x00078 0x00dcc RW  0x1000
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[0] == "LOAD", let file = hex(fields[4]), let memory = hex(fields[5]) else {
                return nil
            }
            return (file, memory)
        }
    }

    /// The segments of one architecture's slice (`llvm-size -m --arch`), with each one's file
    /// size from the load commands (`llvm-objdump --macho --private-headers --arch`).
    package static func machOSegments(_ path: String, architecture: String) throws -> [MachOSegment] {
        var segments: [MachOSegment] = []
        for line in try output(sizeTool.executable, sizeTool.arguments + ["-m", "--arch=\(architecture)", path])
            .split(separator: "\n")
        {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard let colon = text.lastIndex(of: ":"), let size = UInt64(text[text.index(after: colon)...].dropFirst())
            else { continue }
            let label = text[..<colon]
            if label.hasPrefix("Segment ") {
                segments.append(
                    MachOSegment(name: String(label.dropFirst(8)), vmSize: size, fileSize: 0, sections: []))
            } else if label.hasPrefix("Section "), !segments.isEmpty {
                // `Section __text` in a linked image, `Section (__TEXT, __text)` in an object.
                let name = label.dropFirst(8)
                let section: MachOSection
                if name.hasPrefix("("), name.hasSuffix(")") {
                    let parts = name.dropFirst().dropLast().components(separatedBy: ", ")
                    section = MachOSection(segment: parts[0], name: parts.last!, size: size)
                } else {
                    section = MachOSection(segment: segments[segments.count - 1].name, name: String(name), size: size)
                }
                segments[segments.count - 1].sections.append(section)
            }
        }
        let fileSizes = try output(
            Toolchain.tool("llvm-objdump", xcodeName: "objdump"),
            ["--macho", "--private-headers", "--arch=\(architecture)", path]
        ).split(separator: "\n").compactMap { line -> UInt64? in
            let fields = line.split(separator: " ")
            return fields.count == 2 && fields[0] == "filesize" ? UInt64(fields[1]) : nil
        }
        guard fileSizes.count == segments.count else {
            throw ToolFailed(
                description: "llvm-size lists \(segments.count) segments, llvm-objdump \(fileSizes.count): \(path)")
        }
        for index in segments.indices { segments[index].fileSize = fileSizes[index] }
        return segments
    }

    /// llvm-size: Debian's llvm package on Linux, Xcode's `size` (llvm-size) on macOS.
    private static var sizeTool: (executable: String, arguments: [String]) {
        #if canImport(Darwin)
        ("/usr/bin/xcrun", ["size"])
        #else
        ("llvm-size", [])
        #endif
    }

    private static func hex(_ field: Substring) -> UInt64? {
        field.hasPrefix("0x") ? UInt64(field.dropFirst(2), radix: 16) : nil
    }

    private static func output(_ tool: String, _ arguments: [String]) throws -> String {
        let result = CommandRunner.run(tool, arguments)
        guard result.status == 0, !result.stdout.isEmpty else {
            throw ToolFailed(
                description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)")
        }
        return result.stdout
    }
}
