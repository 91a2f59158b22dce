import ShipcheckCore
import ShipcheckTestSupport
import Testing

@testable import BinaryInspect

/// Pieces of the Mach-O reader that no fixture exercises whole: the chained-pointer formats
/// lld cannot write (the fixtures cover DYLD_CHAINED_PTR_64, _64_OFFSET and
/// ARM64E_USERLAND24), the names of libraries and runtime classes.
@Suite struct MachOReaderTests {
    typealias Format = MachOImage.ChainedPointerFormat
    static let base: UInt64 = 0x1_0000_0000

    @Test func pointer64RebaseHoldsTheAddressAndOffsetFormatTheOffset() {
        // target 0x1_0000_4470, high8 0, next 2 (strides of 4 bytes), rebase.
        let raw: UInt64 = 0x1_0000_4470 | (2 << 51)
        #expect(
            MachOImage.decodeChainedPointer(raw, format: .pointer64, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 2
            ))
        let offset: UInt64 = 0x4470 | (2 << 51)
        #expect(
            MachOImage.decodeChainedPointer(offset, format: .pointer64Offset, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 2
            ))
        let bind: UInt64 = 1 << 63 | 7 | (1 << 51)
        #expect(MachOImage.decodeChainedPointer(bind, format: .pointer64, base: Self.base) == (.bind(ordinal: 7), 1))
    }

    @Test func pointer32HoldsAddressesOrdinalsAndValuesAboveTheValidPointers() {
        // Rebase: 26-bit target (an address), next 3 (strides of 4 bytes).
        #expect(
            MachOImage.decodeChainedPointer(
                0x0001_0470 | 3 << 26, format: .pointer32, base: 0, maxValidPointer: 0x2_0000)
                == (.rebase(target: 0x1_0470), 3))
        // Bind: 20-bit ordinal, a 6-bit addend beside it.
        #expect(
            MachOImage.decodeChainedPointer(1 << 31 | 5 << 20 | 0x1_0007 | 1 << 26, format: .pointer32, base: 0)
                == (.bind(ordinal: 0x1_0007), 1))
        // A target above max_valid_pointer is a plain value dyld leaves alone.
        #expect(
            MachOImage.decodeChainedPointer(0x300_0000, format: .pointer32, base: 0, maxValidPointer: 0x2_0000)
                == (.nonPointer, 0))
    }

    /// The arm64_32 watch app with DYLD_CHAINED_PTR_32 fixups (two chains on one __DATA page:
    /// `Gaps.c`) resolves every slot as its classic-binds twin does: each bind to the same
    /// symbol, each rebase to the address the twin stores there.
    @Test func chainedPointer32SlotsAgreeWithTheClassicBindsTwin() throws {
        let chainedFile = try BinaryFile(path: Repository.machOFixture("WatchApp-arm64_32-chained"))
        let classicFile = try BinaryFile(path: Repository.machOFixture("WatchApp-universal"), architecture: "arm64_32")
        let chained = try #require(chainedFile.images.first as? MachOImage)
        let classic = try #require(classicFile.images.first as? MachOImage)
        let chainedSlots = try chained.pointerSlots(), classicSlots = try classic.pointerSlots()
        var binds = 0, rebases = 0
        for (address, target) in chainedSlots {
            switch target {
            case .symbol:
                binds += 1
                #expect(classicSlots[address] == target, "bind at 0x\(String(address, radix: 16))")
            case .address(let value):
                rebases += 1
                let stored = classic.bytes(atAddress: address).map { bytes in
                    (0..<4).reduce(UInt64(0)) { $0 | UInt64(bytes[$1]) << (8 * UInt64($1)) }
                }
                #expect(stored == value, "rebase at 0x\(String(address, radix: 16))")
            }
        }
        #expect(
            binds == classicSlots.count,
            "every classic bind is a chained one: \(classicSlots.filter { chainedSlots[$0.key] == nil || chainedSlots[$0.key] != $0.value })"
        )
        let spread = try #require(classic.symbols(.symtab).first { $0.name == "_spread" })
        #expect(chainedSlots[spread.value + 204] != nil, "the second chain of the page is walked")
        #expect(rebases > 2)
    }

    @Test func arm64eRebasesAndBindsPlainAndAuthenticated() {
        // Plain rebase: vmaddr (ARM64E) or offset (USERLAND, USERLAND24); next in 8-byte strides.
        let rebase: UInt64 = 0x4470 | (3 << 51)
        #expect(
            MachOImage.decodeChainedPointer(0x1_0000_4470 | (3 << 51), format: .arm64e, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 3
            ))
        #expect(
            MachOImage.decodeChainedPointer(rebase, format: .arm64eUserland, base: Self.base) == (
                .rebase(target: 0x1_0000_4470), 3
            ))
        // Authenticated rebase: a 32-bit offset from the base, whatever the arm64e variant.
        let authRebase: UInt64 = 1 << 63 | 0x5678 << 32 | 0x4470 | (1 << 51)
        for format in [Format.arm64e, .arm64eUserland, .arm64eUserland24] {
            #expect(
                MachOImage.decodeChainedPointer(authRebase, format: format, base: Self.base) == (
                    .rebase(target: 0x1_0000_4470), 1
                ))
        }
        // Binds: 16-bit ordinals, 24-bit in USERLAND24; authenticated or not.
        let bind: UInt64 = 1 << 62 | 0x01_0005
        #expect(MachOImage.decodeChainedPointer(bind, format: .arm64e, base: Self.base) == (.bind(ordinal: 5), 0))
        #expect(
            MachOImage.decodeChainedPointer(bind, format: .arm64eUserland24, base: Self.base) == (
                .bind(ordinal: 0x01_0005), 0
            ))
        let authBind: UInt64 = 1 << 63 | 1 << 62 | 2 << 49 | 0x1234 << 32 | 9 | (4 << 51)
        #expect(
            MachOImage.decodeChainedPointer(authBind, format: .arm64eUserland24, base: Self.base) == (
                .bind(ordinal: 9), 4
            ))
    }

    @Test func librariesAreNamedByModuleWhateverTheirShape() {
        let names = [
            "libXCTest.so": "XCTest", "libXCTest.so.1": "XCTest", "-lTesting": "Testing", "-framework XCTest": "XCTest",
            "@rpath/XCTest.framework/XCTest": "XCTest",
            "/Applications/Xcode.app/Contents/Developer/Library/Frameworks/XCTest.framework/Versions/A/XCTest":
                "XCTest",
            "@rpath/libXCTestSwiftSupport.dylib": "XCTestSwiftSupport",
            "/usr/lib/swift/libswiftCore.dylib": "swiftCore",
            "libTestingHelpers.so": "TestingHelpers"
        ]
        for (name, module) in names {
            #expect(LinkedLibrary(name: name, kind: .loaded, record: "", section: "").module == module, "\(name)")
        }
    }

    @Test func swiftClassRuntimeNamesReadAsSwiftNames() {
        #expect(
            LinkedMetadataDecoder.objcDisplayName("_TtC14AppTestSupport13LoginTestCase")
                == "AppTestSupport.LoginTestCase")
        #expect(LinkedMetadataDecoder.objcDisplayName("_TtCC3App5Outer5Inner") == "App.Outer.Inner")
        #expect(LinkedMetadataDecoder.objcDisplayName("_TtCs12_SwiftObject") == "Swift._SwiftObject")
        #expect(LinkedMetadataDecoder.objcDisplayName("XCTestCase") == "XCTestCase")
        #expect(
            LinkedMetadataDecoder.objcDisplayName("_TtC3App99Short") == "_TtC3App99Short",
            "a length past the end is kept as it is")
        #expect(LinkedMetadataDecoder.objcClassName(ofSymbol: "OBJC_CLASS_$_XCTestCase") == "XCTestCase")
    }

    /// GNU archives name long members through the `//` table; both dialects' symbol tables are skipped.
    @Test func gnuLongNamesAndBothSymbolTables() throws {
        func member(_ name: String, _ body: [UInt8]) -> [UInt8] {
            let header =
                name.padding(toLength: 16, withPad: " ", startingAt: 0) + String(repeating: " ", count: 32)
                + String(body.count).padding(toLength: 10, withPad: " ", startingAt: 0) + "`\n"
            return Array(header.utf8) + body + (body.count % 2 == 1 ? [0x0A] : [])
        }
        let object = HostileBytes.read(Repository.machOFixture("AppLib.o"))
        let archive =
            Array("!<arch>\n".utf8) + member("/", [0, 0, 0, 0]) + member("__.SYMDEF SORTED", [0, 0, 0, 0])
            + member("//", Array("AppLib-with-a-long-name.o/\n".utf8)) + member("/0", object)
        let file = try BinaryFile(bytes: archive, path: "libLong.a")
        #expect(file.errors.isEmpty, "\(file.errors)")
        #expect(file.images.map(\.origin.displayName) == ["libLong.a(AppLib-with-a-long-name.o)"])
    }
}
