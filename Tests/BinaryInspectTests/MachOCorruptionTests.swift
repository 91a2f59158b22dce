import BinaryInspect
import Foundation
import ScanEngine
import ShipcheckTestSupport
import Testing

/// Committed Mach-O, universal and archive fixtures with one structure cut or patched in the
/// test: each read that leaves its structure is one error naming the structure and where it
/// lies in the file, never a crash or a silent skip.
@Suite struct MachOCorruptionTests {
    static func fixture(_ name: String) -> [UInt8] {
        Array(FileManager.default.contents(atPath: Repository.machOFixture(name))!)
    }

    /// Where each load command of the thin 64-bit image at `base` starts (file offsets), by
    /// command: read here from the header fields, independently of the reader under test.
    static func loadCommands(_ bytes: [UInt8], base: Int = 0) -> [(command: UInt32, offset: Int)] {
        var commands: [(UInt32, Int)] = []
        var offset = base + 32
        for _ in 0..<uint32(bytes, base + 16) {
            commands.append((uint32(bytes, offset), offset))
            offset += Int(uint32(bytes, offset + 4))
        }
        return commands
    }

    static func uint32(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool = false) -> UInt32 {
        let value = bytes[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return bigEndian ? value.byteSwapped : value
    }

    static func patch(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
    }

    static func message(opening bytes: [UInt8], _ name: String) -> String? {
        do {
            _ = try BinaryFile(bytes: bytes, path: name)
            return nil
        } catch { return "\(error.path): \(error.message)" }
    }

    /// `bytes` with the size of the first `command` of the image at `base` set to `size`: the
    /// command's index and its file offset in hex.
    static func resized(_ bytes: inout [UInt8], _ command: UInt32, base: Int = 0, to size: UInt32) throws -> (
        index: Int, offset: String
    ) {
        let commands = loadCommands(bytes, base: base)
        let index = try #require(commands.firstIndex { $0.command == command })
        patch(&bytes, commands[index].offset + 4, size)
        return (index, String(commands[index].offset, radix: 16))
    }

    @Test func loadCommandShorterThanItsLayoutIsNamedWithItsFileOffset() throws {
        var bytes = Self.fixture("App-ios")
        let (index, offset) = try Self.resized(&bytes, 0x1B, to: 16)  // LC_UUID
        #expect(
            Self.message(opening: bytes, "App-ios")
                == "App-ios: corrupt Mach-O file: LC_UUID (load command \(index) at file offset 0x\(offset)) is 16 bytes, shorter than its 24-byte layout"
        )
    }

    /// In a universal file, offsets are the file's, not the slice's: the damaged command is
    /// found where the message says.
    @Test func loadCommandOfAUniversalSliceIsNamedAtItsOffsetInTheFile() throws {
        var bytes = Self.fixture("App-universal")
        // fat_arch 1 (arm64): its slice's offset in the file.
        let slice = Int(Self.uint32(bytes, 8 + 20 + 8, bigEndian: true))
        let (index, offset) = try Self.resized(&bytes, 0x1B, base: slice, to: 16)
        let file = try BinaryFile(bytes: bytes, path: "App-universal")
        #expect(file.images.map(\.displayName) == ["App-universal[x86_64]"])
        #expect(
            file.errors.map { "\($0.path): \($0.message)" } == [
                "App-universal[arm64]: corrupt Mach-O file: LC_UUID (load command \(index) at file offset 0x\(offset)) is 16 bytes, shorter than its 24-byte layout"
            ])
    }

    @Test func loadCommandSizeOutsideTheCommandsIsNamedWithItsFileOffset() throws {
        var bytes = Self.fixture("App-ios")
        let (index, offset) = try Self.resized(&bytes, 0x2, to: 0x10000)  // LC_SYMTAB
        #expect(
            Self.message(opening: bytes, "App-ios")
                == "App-ios: corrupt Mach-O file: load command \(index) (0x2, at file offset 0x\(offset)) has size 65536, outside the load commands"
        )
    }

    @Test func symbolTableRunningPastTheImageIsNamedWithItsOffset() throws {
        var bytes = Self.fixture("App-ios")
        let symtab = try #require(Self.loadCommands(bytes).first { $0.command == 0x2 }).offset
        Self.patch(&bytes, symtab + 12, 0x0100_0000)  // nsyms
        let symbolOffset = Self.uint32(bytes, symtab + 8)
        #expect(
            Self.message(opening: bytes, "App-ios")
                == "App-ios: corrupt Mach-O file: the symbol table (offset \(symbolOffset), 16777216 × 16 bytes) runs past the end of the \(bytes.count)-byte image"
        )
    }

    @Test func symbolNameOutsideTheStringTableIsNamedBySymbol() throws {
        var bytes = Self.fixture("App-ios")
        let symtab = try #require(Self.loadCommands(bytes).first { $0.command == 0x2 }).offset
        let (symbols, count) = (Int(Self.uint32(bytes, symtab + 8)), Int(Self.uint32(bytes, symtab + 12)))
        let stringsSize = Self.uint32(bytes, symtab + 20)
        // The first entry that is not a debug (stab) entry: those are not listed.
        let index = try #require((0..<count).first { bytes[symbols + 16 * $0 + 4] & 0xE0 == 0 })
        Self.patch(&bytes, symbols + 16 * index, stringsSize + 100)
        let image = try #require(try BinaryFile(bytes: bytes, path: "App-ios").images.first)
        #expect(
            throws: InputError(
                path: "App-ios",
                message:
                    "corrupt Mach-O file: symbol \(index) has a name offset (\(stringsSize + 100)) outside the \(stringsSize)-byte string table"
            )
        ) { try image.symbols(.symtab) }
    }

    /// The export trie (`LC_DYLD_EXPORTS_TRIE`) of a stripped dylib, whose exports live only
    /// there: an edge looping back to the root, and a trie cut to its first byte.
    @Test func exportTrieLoopsAndCutsAreErrorsNamingTheNode() throws {
        let original = Self.fixture("libAppLib-stripped.dylib")
        let command = try #require(Self.loadCommands(original).first { $0.command == 0x8000_0033 }).offset
        let trie = Int(Self.uint32(original, command + 8))
        // Root: terminal size 0, one child, the edge "_", then the child's offset (one byte).
        #expect(Array(original[trie..<trie + 5]) == [0x00, 0x01, 0x5F, 0x00, 0x05])
        var looping = original
        looping[trie + 4] = 0x80  // continued into the next node's first byte (0): offset 0
        var cut = original
        Self.patch(&cut, command + 12, 1)
        for (bytes, message) in [
            (looping, "node at offset 0 is reached twice"), (cut, "node at offset 0 runs past the end of the trie")
        ] {
            let image = try #require(try BinaryFile(bytes: bytes, path: "lib.dylib").images.first)
            #expect(throws: InputError(path: "lib.dylib", message: "corrupt Mach-O file: export trie: \(message)")) {
                try image.symbols(.symtab)
            }
        }
    }

    @Test func fatHeaderCutShortNamesTheField() {
        #expect(
            Self.message(opening: [0xCA, 0xFE, 0xBA, 0xBE, 0, 0], "fat")
                == "fat: corrupt universal file: fat_header: 4 bytes at offset 4 run past the end of its 6 bytes")
    }

    @Test func fatArchTableCutShortIsAnErrorForTheWholeFile() {
        let bytes = Array(Self.fixture("App-universal").prefix(8 + 20 + 10))
        #expect(
            Self.message(opening: bytes, "App-universal")
                == "App-universal: corrupt universal file: the table of 2 slices runs past the end of the 38-byte file")
    }

    @Test func sliceOutsideTheFileIsNamedWithItsOffsetAndSize() {
        var bytes = Self.fixture("App-universal")
        let size = Self.uint32(bytes, 8 + 20 + 12, bigEndian: true)
        let offset = Self.uint32(bytes, 8 + 20 + 8, bigEndian: true)
        bytes.removeLast(100)
        #expect(
            Self.message(opening: bytes, "App-universal")
                == "App-universal: corrupt universal file: slice 1 (arm64, offset \(offset), \(size) bytes) lies outside the \(bytes.count)-byte file"
        )
    }

    @Test func archiveMemberHeaderWithoutItsTerminatorIsNamedByOffset() throws {
        var bytes = Self.fixture("libAppTestSupport.a")
        bytes[8 + 58] = UInt8(ascii: " ")
        let file = try BinaryFile(bytes: bytes, path: "lib.a")
        #expect(file.images.isEmpty)
        #expect(
            file.errors.map { "\($0.path): \($0.message)" } == [
                "lib.a: corrupt archive: member header at offset 8 is not terminated by `\\n"
            ])
    }

    /// A member cut short keeps the members before it; the cut one is named. (The fixture's last
    /// member is an ELF object: without the ELF reader the intact archive has an error too.)
    @Test(.needsELF) func archiveMemberCutShortIsNamedAndItsNeighboursRead() throws {
        let whole = Self.fixture("libAppTestSupport.a")
        let intact = try BinaryFile(bytes: whole, path: "lib.a")
        #expect(intact.errors.isEmpty && intact.images.count >= 2)
        let last = try #require(intact.images.last?.origin.member)
        let bytes = Array(whole.dropLast(16))
        let file = try BinaryFile(bytes: bytes, path: "lib.a")
        #expect(file.images.map(\.origin.member) == intact.images.dropLast().map(\.origin.member))
        #expect(file.errors.count == 1)
        #expect(file.errors.first?.path == "lib.a(\(last))")
        #expect(
            file.errors.first?.message.hasPrefix("corrupt archive: member claims ") == true
                && file.errors.first?.message.hasSuffix("bytes, past the end of the \(bytes.count)-byte archive")
                    == true,
            "\(file.errors)")
    }
}
