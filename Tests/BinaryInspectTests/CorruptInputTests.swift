import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// Damaged files must give one clear error naming the file, never a crash or a silent
/// "no symbols". Inputs are derived in code from a real sample binary.
@Suite(.needsELF) struct CorruptInputTests {
    static let original: [UInt8] = Array(FileManager.default.contents(atPath: SampleBinaries.path("onone"))!)
    let directory = TemporaryDirectory("shipcheck-corrupt")

    private func write(_ bytes: [UInt8], _ name: String = "damaged") -> String { directory.write(name, bytes: bytes) }

    private func expectError(
        _ bytes: [UInt8], containing text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        let path = write(bytes)
        #expect(throws: InputError.self, sourceLocation: sourceLocation) {
            try ListedSymbol.of(path, options: SymbolListOptions())
        }
        do {
            _ = try ListedSymbol.of(path, options: SymbolListOptions())
        } catch {
            #expect(error.path == path, sourceLocation: sourceLocation)
            #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
        }
        let audit = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [path])
        #expect(audit.inputErrors.count == 1, sourceLocation: sourceLocation)
    }

    // Little-endian 64-bit header fields.
    private func patched(_ offset: Int, _ value: UInt64, width: Int) -> [UInt8] {
        var bytes = Self.original
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        return bytes
    }

    private func readField(_ offset: Int, width: Int) -> UInt64 {
        (0..<width).reduce(UInt64(0)) { $0 | UInt64(Self.original[offset + $1]) << (8 * UInt64($1)) }
    }

    @Test func truncatedAtManyOffsetsIsAlwaysAClearErrorOrAValidPrefix() throws {
        let size = Self.original.count
        var offsets = Array(stride(from: 0, to: size, by: max(1, size / 97)))
        offsets += [1, 4, 16, 63, 64, 65, size - 1]
        for cut in offsets {
            let path = write(Array(Self.original.prefix(cut)), "cut-\(cut)")
            // Section headers sit at the end of the file, so every proper prefix loses them.
            #expect(throws: InputError.self, "truncated at \(cut)") {
                try ListedSymbol.of(path, options: SymbolListOptions())
            }
            let audit = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [path])
            #expect(audit.inputErrors.count == 1, "truncated at \(cut)")
        }
    }

    @Test func sectionTableOffsetPastTheEnd() {
        expectError(patched(0x28, UInt64(Self.original.count) - 10, width: 8), containing: "section header table")
    }

    @Test func sectionNameTableIndexOutOfRange() {
        expectError(patched(0x3E, 0xFFF0, width: 2), containing: "section-name table")
    }

    @Test func zeroSymbolTableEntrySize() {
        let sectionTable = Int(readField(0x28, width: 8))
        let count = Int(readField(0x3C, width: 2))
        let symtab = (0..<count).first { index in readField(sectionTable + index * 64 + 4, width: 4) == 2 }!
        expectError(patched(sectionTable + symtab * 64 + 56, 0, width: 8), containing: "entry size is 0")
    }

    @Test func sectionRunningPastTheEnd() {
        let sectionTable = Int(readField(0x28, width: 8))
        // Section 1's size set huge.
        expectError(patched(sectionTable + 64 + 32, 1 << 40, width: 8), containing: "runs past the end")
    }

    /// A `DT_NEEDED` name offset past `Int.max` (found by the elf fuzz target: the audit trapped
    /// converting it): that library has no name, the others are still listed and the file audited.
    @Test func neededLibraryNameOffsetPastIntMax() throws {
        let sectionTable = Int(readField(0x28, width: 8))
        let count = Int(readField(0x3C, width: 2))
        let dynamic = try #require((0..<count).first { readField(sectionTable + $0 * 64 + 4, width: 4) == 6 })
        let start = Int(readField(sectionTable + dynamic * 64 + 24, width: 8))
        let entries = stride(
            from: start, to: start + Int(readField(sectionTable + dynamic * 64 + 32, width: 8)), by: 16)
        let needed = try #require(entries.first { readField($0, width: 8) == 1 })
        let bytes = patched(needed + 8, 0xFFFF_FFFF_FFFF_FF00, width: 8)

        let original = try BinaryFile(bytes: Self.original, path: "App").images[0].linkedLibraries().filter {
            $0.kind == .loaded
        }
        let libraries = try BinaryFile(bytes: bytes, path: "App").images[0].linkedLibraries().filter {
            $0.kind == .loaded
        }
        #expect(original.count >= 2)
        #expect(libraries.map(\.name) == original.dropFirst().map(\.name))
        let audit = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [write(bytes)]
        )
        #expect(audit.inputErrors.isEmpty, "\(audit.inputErrors)")
        #expect(audit.filesScanned == 1)
    }

    @Test func notELFAndEmptyFiles() {
        expectError(Array("just some text, not a binary\n".utf8), containing: "not an ELF file")
        expectError([], containing: "empty file")
        expectError(Array(Self.original.prefix(4)), containing: "ELF")
    }

    /// An archive member that is not an object (text, LLVM bitcode) is an error naming the
    /// member, never skipped in silence; the other members are still audited.
    @Test func archiveMemberThatIsNotAnObjectIsAnErrorOfItsOwn() throws {
        let object = Array(
            FileManager.default.contents(atPath: SampleBinaries.path("onone", "AppLib.objects/ContentView.o"))!)
        var archive = Array("!<arch>\n".utf8)
        for (name, body) in [
            ("ContentView.o/", object), ("notes.txt/", Array("release notes\n".utf8)),
            ("lto.o/", [0x42, 0x43, 0xC0, 0xDE, 1, 2, 3, 4])
        ] {
            let header =
                name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(repeating: " ", count: 32)
                + String(body.count).padding(toLength: 10, withPad: " ", startingAt: 0) + "`\n"
            archive += Array(header.utf8) + body + (body.count % 2 == 1 ? [0x0A] : [])
        }
        let path = write(archive, "libMixed.a")
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [path])
        #expect(result.inputErrors.map(\.path).sorted() == ["\(path)(lto.o)", "\(path)(notes.txt)"])
        #expect(result.inputErrors.allSatisfy { $0.message.hasSuffix("not audited") }, "\(result.inputErrors)")
        #expect(result.inputErrors.contains { $0.message.hasPrefix("LLVM bitcode") })
        #expect(result.findings.contains { $0.ruleID == "binary-preview-conformance" })
    }

    @Test func directoryArgumentSkipsNonELFFilesSilently() {
        directory.write("notes.txt", "hello")
        directory.write("App", bytes: Self.original)
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [
            directory.path
        ])
        #expect(result.inputErrors.isEmpty)
        #expect(result.filesScanned == 1)
    }

    /// A gate pointed at a folder without binaries (or at a folder named like one) must not pass.
    @Test func directoryArgumentWithoutAnyELFFileIsAnError() {
        directory.write("notes.txt", "hello")
        let result = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [
            directory.path
        ])
        #expect(
            result.inputErrors.map(\.description) == [
                "\(directory.path): error: directory holds no ELF files, Mach-O files, static archives, Apple bundles or Android artifacts"
            ])
        #expect(result.filesScanned == 0)
    }
}
