import BinaryInspect
import BinaryReaderCore
import Foundation
import ScanEngine
import ShipcheckCore
import ShipcheckFrontend
import ShipcheckTestSupport
import Testing

/// The ELF readers' bounds checks say what was out of range: the structure, the offset and how
/// much there was. Inputs are a real sample binary with one field patched in the test.
@Suite struct ELFCheckedReadTests {
    static let original: [UInt8] = Array(FileManager.default.contents(atPath: SampleBinaries.path("onone"))!)
    let directory = TemporaryDirectory("shipcheck-elf-checked")

    /// A little-endian field of the sample.
    private static func field(_ offset: Int, width: Int) -> Int {
        Int((0..<width).reduce(UInt64(0)) { $0 | UInt64(original[offset + $1]) << (8 * UInt64($1)) })
    }

    private static func patched(_ offset: Int, _ value: UInt64, width: Int) -> [UInt8] {
        var bytes = original
        for index in 0..<width { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        return bytes
    }

    /// The offset of the 64-bit section header of the first section of `type`.
    private static func sectionHeader(ofType type: Int) -> Int? {
        let table = field(0x28, width: 8)
        return (0..<field(0x3C, width: 2)).map { table + $0 * 64 }.first { field($0 + 4, width: 4) == type }
    }

    @Test func sliceOfHeaderFieldsIsCheckedWithoutOverflow() throws {
        let bytes = FileBytes(copying: Array(0..<32 as Range<UInt8>)).whole
        #expect(bytes.slice(at: 8, count: 24)?.array == Array(8..<32))
        #expect(bytes.slice(at: 32, count: 0)?.count == 0)
        #expect(bytes.slice(at: 8, count: 25) == nil)
        #expect(bytes.slice(at: 33, count: 0) == nil)
        #expect(bytes.slice(at: UInt64.max, count: 2) == nil)
        #expect(bytes.slice(at: 2, count: UInt64.max - 1) == nil)

        let inner = try #require(bytes.slice(at: 16, count: 8))
        #expect(throws: ImageBytesError.self) { try inner.slice(at: 4, count: 8, "the note") }
        do {
            _ = try inner.slice(at: 4, count: 8, "the note")
        } catch {
            #expect(
                error.message == "the note: 8 bytes at offset 4 run past the end of its 8 bytes (at file offset 0x14)")
        }
        do {
            _ = try inner.slice(at: UInt64.max, count: 8, "the note")
        } catch {
            #expect(error.message == "the note: offset \(Int.max) is outside its 8 bytes")
        }
    }

    @Test(.needsELF) func symbolNameOutsideItsStringTableNamesBoth() throws {
        let symtab = try #require(Self.sectionHeader(ofType: 2))
        let strtabSize = Self.field(Self.field(0x28, width: 8) + Self.field(symtab + 40, width: 4) * 64 + 32, width: 8)
        // Entry 1's st_name.
        let bytes = Self.patched(Self.field(symtab + 24, width: 8) + 24, 0xFFFF_FF00, width: 4)
        let path = directory.write("App", bytes: bytes)
        let expected =
            "corrupt ELF file: symbol table '.symtab': entry 1 names offset 4294967040, outside its \(strtabSize)-byte string table '.strtab'"
        #expect(throws: InputError(path: path, message: expected)) { try ListedSymbol.of(path) }
        let audit = BinaryInspector(configuration: Configuration(), rules: RuleRegistry.rules).run(paths: [path])
        #expect(audit.inputErrors == [InputError(path: path, message: expected)])
    }

    @Test(.needsELF) func dynamicSegmentPastTheEndSaysWhereAndHowMuch() throws {
        let table = Self.field(0x20, width: 8)
        let dynamic = try #require(
            (0..<Self.field(0x38, width: 2)).map { table + $0 * 56 }.first { Self.field($0, width: 4) == 2 })
        let size = Self.field(dynamic + 32, width: 8)
        let offset = Self.original.count - size / 2
        let bytes = Self.patched(dynamic + 8, UInt64(offset), width: 8)
        let expected =
            "corrupt ELF file: PT_DYNAMIC: \(size) bytes at offset \(offset) run past the end of its \(bytes.count) bytes"
        #expect(throws: InputError(path: "App", message: expected)) {
            try ELFSupport.loadFacts(of: FileBytes(copying: bytes), origin: ImageOrigin(path: "App"))
        }
        let intact = try ELFSupport.loadFacts(of: FileBytes(copying: Self.original), origin: ImageOrigin(path: "App"))
        #expect(intact.needed.contains("libswiftCore.so"), "\(intact.needed)")
    }
}
